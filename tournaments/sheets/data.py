"""What the judge's printed sheets say, as plain objects (no queries left to the renderers).

:func:`score_sheet` and :func:`loadout_sheet` read a session once; the HTML print pages and
the PDF (:mod:`tournaments.sheets.pdf`) render the same objects, so both carry the same text.

The score sheet has one row per scoring item of RULES §7 with its value, and boxes to fill
in by hand. When a result is already entered, its latest version fills the boxes: each row's
points are what the scoring service gives for that row's entries alone, so the rows add up
to the seat's total and an entry the service refuses is left out of both. As on the judge's
form (decision 79), an item the session's stipulation cannot produce has no row, unless the
version holds some of it (saved before the checks): its row then says it is to be removed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime

from django.utils.translation import gettext as _

from rules.engine.units import LEAST_CLASS_VALUE
from tournaments.domain.plausibility import token_values_text
from tournaments.domain.scoring import (
    MarineClass,
    ScoringError,
    ScoringValues,
    SeatBreakdown,
    score_session,
)
from tournaments.domain.stipulation_limits import ResultParts
from tournaments.models import Result, ResultVersion, Seat, Session
from tournaments.queries.result_versions import scoring_values
from tournaments.queries.session_stipulation import result_limits
from tournaments.sheets.seats import loadout_checks, session_seats

#: Marines on a blank loadout sheet (the commander has its own line).
BLANK_MARINE_LINES = 4


@dataclass(frozen=True)
class SheetHeader:
    """Where and when the session is played, and who judges it."""

    tournament: str
    tournament_slug: str
    stage: str
    session_number: int
    table: str
    judge: str
    scheduled_at: datetime | None


@dataclass(frozen=True)
class SeatLine:
    """One seat: the player, the drawn squad (empty before the draw) and the initiative."""

    order: int
    player: str
    squad: str
    colour: str
    colour_code: str
    initiative: int | None


@dataclass(frozen=True)
class ScoreRow:
    """One scoring item: its label, its value, and the count and points already entered."""

    label: str
    value: str
    count: int | None = None
    points: int | None = None


@dataclass(frozen=True)
class SeatScore:
    seat: SeatLine
    rows: tuple[ScoreRow, ...]
    total: int | None


@dataclass(frozen=True)
class ScoreSheet:
    header: SheetHeader
    seats: tuple[SeatScore, ...]
    result_version: int | None
    """Number of the result version filling the boxes; ``None`` when they are blank."""
    token_values: str = ""
    """What each alien's tokens are worth in the session, printed once above the seats
    ("" when the tournament's rules data cannot be read: the tokens' row then says
    "printed value")."""

    @property
    def token_line(self) -> str:
        """The line naming each alien token's value, above the seats ("" when not known)."""
        if not self.token_values:
            return ""
        return _("Alien token values in this session: %(values)s.") % {"values": self.token_values}


@dataclass(frozen=True)
class SeatLoadout:
    """A seat's loadout and its check; ``submitted`` is false when the player sent none."""

    seat: SeatLine
    submitted: bool
    commander: str
    weapons: tuple[str, ...]
    orders: tuple[str, ...]
    equipment: tuple[str, ...]
    problems: tuple[str, ...]

    @property
    def allowed(self) -> bool:
        return self.submitted and not self.problems


@dataclass(frozen=True)
class LoadoutSheet:
    header: SheetHeader
    seats: tuple[SeatLoadout, ...]

    @property
    def blank_marine_numbers(self) -> range:
        """The numbered marine lines of a seat with no loadout (the commander has its own)."""
        return range(1, BLANK_MARINE_LINES + 1)


def sheet_header(session: Session) -> SheetHeader:
    judge = session.judge
    return SheetHeader(
        tournament=session.stage.tournament.name,
        tournament_slug=session.stage.tournament.slug,
        stage=session.stage.get_kind_display(),
        session_number=session.number,
        table=session.table_name,
        judge=(judge.get_full_name() or judge.get_username()) if judge else "",
        scheduled_at=session.scheduled_at,
    )


def seat_line(seat: Seat) -> SeatLine:
    squad = seat.squad
    return SeatLine(
        order=seat.seat_order,
        player=seat.player.display_name,
        squad=squad.name if squad else "",
        colour=squad.get_colour_display() if squad else "",
        colour_code=squad.colour if squad else "",
        initiative=seat.initiative_position,
    )


# -- score sheet ---------------------------------------------------------------------------

Pick = Callable[[SeatBreakdown], SeatBreakdown]


def _only(field: str, classes: Iterable[MarineClass] | None = None) -> Pick:
    """A picker keeping one field of a breakdown (and of kills, only some marine classes)."""
    wanted = frozenset(classes) if classes is not None else None

    def pick(breakdown: SeatBreakdown) -> SeatBreakdown:
        entries = tuple(
            entry
            for entry in getattr(breakdown, field)
            if wanted is None or MarineClass(entry.marine_class) in wanted
        )
        return SeatBreakdown(seat=breakdown.seat, **{field: entries})

    return pick


def _signed(*points: int) -> str:
    return " / ".join(dict.fromkeys(f"+{value}" for value in points))


def _row_kinds(values: ScoringValues, tokens: str = "") -> list[tuple[str, str, Pick, str]]:
    """(label, value, picker, entry) of each row, in the order of the printed sheet;
    ``entry``: the breakdown field whose part of a result (``ResultParts.allows``) says
    whether the session can produce the row; ``tokens``: what each alien's tokens are worth
    in the session, printed above the seats (the token row says "printed value" when not
    known)."""
    lost = " / ".join(
        f"−{value}" for value in dict.fromkeys((values.light, values.heavy, values.extra_heavy))
    )
    return [
        (
            _("Enemy light-weapon or unarmed marines killed"),
            _signed(values.light, values.unarmed),
            _only("kills", (MarineClass.LIGHT, MarineClass.UNARMED)),
            "kills",
        ),
        (
            _("Enemy heavy-weapon marines or commanders killed"),
            _signed(values.heavy, values.commander),
            _only("kills", (MarineClass.HEAVY, MarineClass.COMMANDER)),
            "kills",
        ),
        (
            _("Enemy extra-heavy-weapon marines killed"),
            _signed(values.extra_heavy),
            _only("kills", (MarineClass.EXTRA_HEAVY,)),
            "kills",
        ),
        (
            _("Tarantula gunners killed"),
            _signed(values.gunner),
            _only("kills", (MarineClass.GUNNER,)),
            # A gunner dies only where a Tarantula is in play.
            "tarantulas",
        ),
        (
            _("Tarantulas destroyed"),
            _signed(values.tarantula),
            _only("tarantulas"),
            "tarantulas",
        ),
        (
            _("Piloted Dreadnoughts destroyed (class value + pilot)"),
            f"{LEAST_CLASS_VALUE}+",
            _only("dreadnoughts"),
            "dreadnoughts",
        ),
        (
            _("Alien tokens collected"),
            _("as listed above") if tokens else _("printed value"),
            _only("alien_tokens"),
            "alien_tokens",
        ),
        (_("Objectives"), _("stipulation"), _only("objectives"), "objectives"),
        (_("Own marines lost (any cause)"), lost, _only("losses"), "losses"),
        (_("Stall breaker"), "± B", _only("stall_breaker"), "stall_breaker"),
    ]


def _refused_label(label: str) -> str:
    """The label of a row the session cannot produce, filled from a version that holds some."""
    return _("%(item)s (this session cannot score it: to be removed)") % {"item": label}


_ENTRY_FIELDS = tuple(name for name in SeatBreakdown.__dataclass_fields__ if name != "seat")


def _entry_count(breakdown: SeatBreakdown) -> int:
    """How many things a breakdown records (a Dreadnought, objective or round counts one)."""
    return sum(
        getattr(entry, "count", 1) for field in _ENTRY_FIELDS for entry in getattr(breakdown, field)
    )


def _version_rows(
    seats: list[Seat],
    version: ResultVersion,
    values: ScoringValues,
    tokens: str,
    parts: ResultParts,
) -> dict[int, tuple[tuple[ScoreRow, ...], int]]:
    """Rows with count and points, and the total, per player id, from a stored version;
    empty when the stored breakdown cannot be read (the boxes then stay blank). A row the
    session cannot produce (``parts``) is left out, unless the version counts something in
    it for some seat: then every seat has it, labelled as to be removed."""
    names = {str(seat.player_id): seat.player.display_name for seat in seats}
    try:
        breakdowns = [SeatBreakdown.from_dict(item) for item in version.breakdown or []]
        totals = score_session(breakdowns, values, names)
        rows: dict[str, list[ScoreRow]] = {breakdown.seat: [] for breakdown in breakdowns}
        for label, value, pick, entry in _row_kinds(values, tokens):
            picked = [pick(breakdown) for breakdown in breakdowns]
            if not parts.allows(entry):
                if not any(_entry_count(item) for item in picked):
                    continue
                label = _refused_label(label)
            cards = score_session(picked, values, names)
            for item in picked:
                rows[item.seat].append(
                    ScoreRow(label, value, count=_entry_count(item), points=cards[item.seat].total)
                )
    except ScoringError:
        return {}
    return {
        seat.player_id: (tuple(rows[key]), totals[key].total)
        for seat in seats
        if (key := str(seat.player_id)) in rows
    }


def score_sheet(session: Session) -> ScoreSheet:
    """The score sheet of ``session``, filled in from the latest result version if any."""
    seats = session_seats(session)
    try:
        values = scoring_values(session.stage.tournament)
    except ScoringError:
        values = ScoringValues()
    limits = result_limits(session)
    tokens = token_values_text(limits.aliens.values)
    parts = limits.parts
    blank = tuple(
        ScoreRow(label, value)
        for label, value, _pick, entry in _row_kinds(values, tokens)
        if parts.allows(entry)
    )
    result = Result.objects.filter(session=session).first()
    version = result.latest_version() if result else None
    filled = _version_rows(seats, version, values, tokens, parts) if version else {}
    lines = []
    for seat in seats:
        rows, total = filled.get(seat.player_id, (blank, None))
        lines.append(SeatScore(seat=seat_line(seat), rows=rows, total=total))
    return ScoreSheet(
        header=sheet_header(session),
        seats=tuple(lines),
        result_version=version.number if version and filled else None,
        token_values=tokens,
    )


# -- loadout sheet -------------------------------------------------------------------------


def loadout_sheet(session: Session) -> LoadoutSheet:
    """Each seat's loadout and cards with the rules check, or blanks to fill in by hand."""
    seats = session_seats(session)
    return LoadoutSheet(
        header=sheet_header(session),
        seats=tuple(
            SeatLoadout(
                seat=seat_line(check["seat"]),
                submitted=bool(check["loadout"]),
                commander=check["commander"],
                weapons=tuple(check["weapons"]),
                orders=tuple(check["orders"]),
                equipment=tuple(check["equipment"]),
                problems=tuple(problem.message for problem in check["problems"]),
            )
            for check in loadout_checks(session, seats)
        ),
    )
