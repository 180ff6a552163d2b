"""Reading stored result versions: their points, places and the session's latest version.

Result versions store what each seat recorded (``SeatBreakdown.to_dict()``), not totals, so
a correction of the scoring values or a scoring fix changes every page consistently. Every
page, sheet and action that needs a version's points reads them here.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.utils.translation import gettext as _

from tournaments.domain.ranking import RankingError, SeatResult, first_tie, rank_session
from tournaments.domain.scoring import (
    ScoreCard,
    ScoringError,
    ScoringValues,
    SeatBreakdown,
    score_session,
    session_totals,
    totals_key,
)
from tournaments.models import Result, ResultVersion, Session, Tournament
from tournaments.queries.session_stipulation import stipulation_kind


def scoring_values(tournament: Tournament) -> ScoringValues:
    """The tournament's point values: defaults with ``data_overrides["scoring"]`` applied.

    Raises :class:`~tournaments.domain.scoring.ScoringError` when the overrides name keys
    the scoring does not know."""
    overrides = (tournament.data_overrides or {}).get("scoring") or {}
    try:
        return ScoringValues(**overrides)
    except TypeError:
        allowed = ", ".join(ScoringValues.__dataclass_fields__)
        raise ScoringError(
            _("The tournament's scoring overrides use unknown keys; allowed: %(allowed)s.")
            % {"allowed": allowed}
        ) from None


def scored_totals(tournament: Tournament, breakdown: Sequence[Any]) -> dict[str, Any]:
    """The ``totals`` and ``totals_key`` fields of a version of ``tournament`` storing
    ``breakdown`` (``SeatBreakdown`` dicts): each seat's total scored now, with the key of
    the values and code that scored it (an empty key, never used, when the tournament's
    scoring values cannot be read)."""
    try:
        values = scoring_values(tournament)
    except ScoringError:
        return {"totals": {}, "totals_key": ""}
    return {"totals": session_totals(breakdown, values), "totals_key": totals_key(values)}


def seat_names(session: Session) -> dict[str, str]:
    """Each seated player's display name by player id as text (the scoring's seat key)."""
    return {str(seat.player_id): seat.player.display_name for seat in session.seats.all()}


def breakdowns(version: ResultVersion) -> list[SeatBreakdown]:
    return [SeatBreakdown.from_dict(entry) for entry in version.breakdown or []]


def score_version(
    version: ResultVersion,
    values: ScoringValues | None = None,
    names: dict[str, str] | None = None,
) -> dict[str, ScoreCard]:
    """Score cards of a stored version, keyed by player id as text. ``values`` default to
    the tournament's, ``names`` to the seated players' (pass both when a page already has
    them, to save the queries). Raises ScoringError when the stored breakdown cannot be read.
    """
    if values is None:
        values = scoring_values(version.result.session.stage.tournament)
    if names is None:
        names = seat_names(version.result.session)
    return score_session(breakdowns(version), values, names)


def version_totals(version: ResultVersion, values: ScoringValues | None = None) -> dict[int, int]:
    """Total points per player id (with ``values``, by default the tournament's); empty when
    the stored breakdown cannot be read."""
    try:
        cards = score_version(version, values, {})
    except ScoringError:
        return {}
    totals: dict[int, int] = {}
    for seat, card in cards.items():
        try:
            totals[int(seat)] = card.total
        except ValueError:
            continue
    return totals


def latest_version(session: Session) -> ResultVersion | None:
    """The session's newest result version, confirmed or not."""
    result = Result.objects.filter(session=session).first()
    return result.latest_version() if result else None


def version_number(session: Session, number: int | None) -> ResultVersion | None:
    """The session's result version ``number`` (None when there is none)."""
    if not number:
        return None
    return (
        ResultVersion.objects.filter(result__session=session, number=number)
        .select_related("created_by")
        .first()
    )


def confirmed_session_ids(sessions: Iterable[Session | int]) -> set[int]:
    """The ids of the sessions among ``sessions`` that have a confirmed result version, in
    one query reading no version (what a check of missing results needs: reading the
    versions themselves cost a stage of 729 sessions 0.1 s each time)."""
    ids = [session if isinstance(session, int) else session.pk for session in sessions]
    return set(
        ResultVersion.objects.filter(result__session_id__in=ids, confirmed=True)
        .values_list("result__session_id", flat=True)
        .distinct()
    )


def latest_confirmed_versions(sessions: Iterable[Session | int]) -> dict[int, ResultVersion]:
    """The latest confirmed version per session id, in one query."""
    ids = [session if isinstance(session, int) else session.pk for session in sessions]
    versions = (
        ResultVersion.objects.filter(result__session_id__in=ids, confirmed=True)
        .select_related("result")
        .order_by("result__session_id", "-number")
    )
    latest: dict[int, ResultVersion] = {}
    for version in versions:
        latest.setdefault(version.result.session_id, version)
    return latest


def preview_result(
    session: Session, breakdowns: Sequence[SeatBreakdown], survivors: Iterable[int | str]
) -> dict[str, Any]:
    """Scores and provisional ranking of a result being typed in (nothing is stored): the
    rows in ranking order, a note when a tie is left for the roll-off, the scoring problems.
    Without a stipulation there is no ranking: the points alone, in seat order
    (``unranked``)."""
    names = seat_names(session)
    cards = score_session(list(breakdowns), scoring_values(session.stage.tournament), names)
    problems = sorted({p.message for card in cards.values() for p in card.problems})
    kind = stipulation_kind(session)
    tie = ""
    order: list[tuple[int | None, str]] = [(None, seat) for seat in cards]
    if kind:
        surviving = {str(pk) for pk in survivors}
        results = [
            SeatResult(seat=seat, points=card.total, survived=seat in surviving)
            for seat, card in cards.items()
        ]
        try:
            ranking = rank_session(kind, results, dice=None)
            order = [(ranked.position, ranked.seat) for ranked in ranking.order]
        except RankingError:
            tied = first_tie(kind, results)
            tie = _(
                "Some seats are tied: a roll-off will settle it when you submit. With physical "
                "dice, %(names)s roll first, one die each, in this order; a tie rolls again "
                "among the tied only."
            ) % {"names": ", ".join(names[seat] for seat in tied)}
            order = [(None, r.seat) for r in sorted(results, key=lambda r: -r.points)]
    rows = [
        {"position": position, "name": names[seat], "card": cards[seat]} for position, seat in order
    ]
    return {"rows": rows, "tie": tie, "problems": problems, "unranked": not kind}


def has_confirmed_result(session: Session) -> bool:
    """Whether ``session`` has a confirmed result version: a new one is then a correction,
    which says why (decision 50)."""
    return ResultVersion.objects.filter(result__session=session, confirmed=True).exists()


@dataclass(frozen=True)
class Correction:
    """A confirmed result changed after it was first confirmed (decision 50): the version
    now in force, when it was saved and why."""

    number: int
    at: datetime
    reason: str


def latest_corrections(sessions: Iterable[Session | int]) -> dict[int, Correction]:
    """The latest correction of each session's confirmed result, by session id, in one
    query; a session whose result was never corrected is left out. A correction is a
    confirmed version after an earlier confirmed one; its reason is the one typed with the
    first version after that earlier one (a correction saved as a draft, then confirmed,
    keeps its reason, not the confirmation's)."""
    ids = [session if isinstance(session, int) else session.pk for session in sessions]
    rows = (
        ResultVersion.objects.filter(result__session_id__in=ids)
        .order_by("result__session_id", "number")
        .values_list("result__session_id", "number", "confirmed", "reason", "created_at")
    )
    found: dict[int, Correction] = {}
    confirmed_before: set[int] = set()
    first_reason: dict[int, str] = {}  # since the session's last confirmed version
    for session_id, number, confirmed, reason, created_at in rows:
        first_reason.setdefault(session_id, reason)
        if not confirmed:
            continue
        if session_id in confirmed_before:
            found[session_id] = Correction(number, created_at, first_reason[session_id] or reason)
        confirmed_before.add(session_id)
        del first_reason[session_id]
    return found


def scored_rows(
    version: ResultVersion, names: dict[str, str], tournament: Tournament | None = None
) -> dict[str, Any]:
    """A stored version's points as the score lines show them (``rows``: place, name and
    score card, first place first, and the ``seat`` scored, its player id as text; the
    shape of :func:`preview_result`), or its ``error`` when the stored breakdown, or the
    tournament's values, cannot be scored. ``names``: :func:`seat_names`; ``tournament``:
    the version's, when the caller has it (else read from the version)."""
    try:
        values = scoring_values(tournament) if tournament is not None else None
        cards = score_version(version, values, names)
    except ScoringError as error:
        return {"rows": [], "error": str(error)}
    order = [str(player) for player in version.ranking if str(player) in cards]
    order += [seat for seat in cards if seat not in order]
    places = {str(player): place for player, place in version.positions().items()}
    return {
        "rows": [
            {
                "seat": seat,
                "position": places.get(seat),
                "name": names.get(seat, seat),
                "card": cards[seat],
            }
            for seat in order
        ]
    }
