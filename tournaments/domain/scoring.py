"""Session scoring (RULES §7): from what each seat recorded to a total with line items.

The judge records, per seat, a :class:`SeatBreakdown`: the enemy marines this seat killed,
every marine this seat lost (and who or what killed it), Tarantulas and marine-piloted
Dreadnoughts this seat destroyed, alien tokens collected, objective points and TPK
stall-breaker points. :func:`score_session` turns the breakdowns of one session into a
:class:`ScoreCard` per seat, with a line per scoring item so the breakdown can be shown,
and with the problems found when the seats' records disagree (a kill of seat B's marine
recorded by A must match a loss recorded by B). Problems never change the total silently:
an entry that cannot be scored (a "kill" of one's own marine, an unknown seat, a count
below 1) is left out of the total and reported.

Values (5/10/15, Tarantula 10) are data: pass a
:class:`ScoringValues` to use a tournament's house values. The shipped ones are the rules
data's (``marine_values`` and ``tarantula_destroyed`` of the engine's ``tokens.json``), and
a tournament's own (its ``data_overrides["scoring"]``) reach the board's kill scores through
:func:`engine_point_values`: the board and the scoring count one value.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from enum import Enum, StrEnum
from pathlib import Path
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from rules.engine.units import LEAST_CLASS_VALUE, load_rules_data
from tournaments.domain.stored_labels import shown_objective_label


class ScoringError(ValueError):
    """A breakdown is malformed (wrong type, unknown key, duplicate seat)."""


class MarineClass(StrEnum):
    """What a marine was worth when it died (RULES §7)."""

    LIGHT = "light"  # laser rifle, laser pistol, bolter
    UNARMED = "unarmed"
    HEAVY = "heavy"  # assault cannon, missile launcher, plasma gun
    COMMANDER = "commander"
    EXTRA_HEAVY = "extra_heavy"  # lascannon, melta, conversion beamer
    GUNNER = "gunner"  # Tarantula gunner, whatever weapon he had


class LossCause(StrEnum):
    """Who or what killed a seat's marine."""

    PLAYER = "player"  # another seat; ``killer`` names it
    ALIEN = "alien"
    OWN_FIRE = "own_fire"  # the seat's own blast or weapon
    # Still on the board when the game ended (the last event card, Alien Hunt's escape
    # rounds): lost, nobody killed it (game engine decision 33).
    LEFT_ON_BOARD = "left_on_board"


#: Alien types that carry no blip or reinforcement token and so never score.
TOKENLESS_ALIENS = frozenset({"genestealer"})


#: The engine's name of each marine point value, by :class:`ScoringValues` field.
ENGINE_MARINE_VALUES = {
    "light": "light",
    "unarmed": "unarmed",
    "heavy": "heavy",
    "commander": "commander",
    "extra_heavy": "extra_heavy",
    "gunner": "tarantula_gunner",
}
#: The engine's name of the points for a Tarantula destroyed.
ENGINE_TARANTULA = "tarantula_destroyed"
_SHIPPED = load_rules_data()
_SHIPPED_MARINES = {
    field: _SHIPPED.marine_values[key] for field, key in ENGINE_MARINE_VALUES.items()
}


@dataclass(frozen=True)
class ScoringValues:
    """Point values of §7; defaults are the rules data's (the rulebook's), organisers may
    change them. The least Dreadnought class value is not one of them: it is RULES §7's
    ``LEAST_CLASS_VALUE``, which the catalogue holds every class value to (decision 67)."""

    light: int = _SHIPPED_MARINES["light"]
    unarmed: int = _SHIPPED_MARINES["unarmed"]
    heavy: int = _SHIPPED_MARINES["heavy"]
    commander: int = _SHIPPED_MARINES["commander"]
    extra_heavy: int = _SHIPPED_MARINES["extra_heavy"]
    gunner: int = _SHIPPED_MARINES["gunner"]
    tarantula: int = _SHIPPED.tarantula_destroyed

    def marine(self, marine_class: MarineClass) -> int:
        return getattr(self, MarineClass(marine_class).value)


def engine_point_values(scoring: Mapping[str, Any]) -> dict[str, Any]:
    """A tournament's point values (``data_overrides["scoring"]``, checked) as the rules
    data overrides the board scores its kills with: the marines' in ``marine_values``, a
    Tarantula's as ``tarantula_destroyed``; nothing for values not given."""
    marines = {
        ENGINE_MARINE_VALUES[name]: value
        for name, value in scoring.items()
        if name in ENGINE_MARINE_VALUES
    }
    overrides: dict[str, Any] = {"marine_values": marines} if marines else {}
    if "tarantula" in scoring:
        overrides[ENGINE_TARANTULA] = scoring["tarantula"]
    return overrides


@dataclass(frozen=True)
class MarineKill:
    """``count`` marines of seat ``victim``, worth ``marine_class``, killed by this seat."""

    victim: str
    marine_class: MarineClass
    count: int = 1


@dataclass(frozen=True)
class MarineLoss:
    """``count`` of this seat's marines of ``marine_class`` that died.

    ``cause`` says who killed them; ``killer`` is the killing seat when ``cause`` is
    ``player`` and empty otherwise. A Dreadnought pilot killed with the machine is a loss
    like any other (class of the pilot's weapon, killer the destroying seat).
    """

    marine_class: MarineClass
    cause: LossCause
    killer: str | None = None
    count: int = 1


@dataclass(frozen=True)
class TarantulaKill:
    """``count`` crewed Tarantulas of seat ``owner`` destroyed by this seat."""

    owner: str
    count: int = 1


@dataclass(frozen=True)
class DreadnoughtKill:
    """One marine-piloted Dreadnought of seat ``owner`` destroyed by this seat.

    ``class_value`` comes from the session notes (at least 25); ``pilot_class`` is what
    the pilot was worth (light/unarmed/heavy/extra-heavy; commanders never pilot).
    """

    owner: str
    class_value: int
    pilot_class: MarineClass


@dataclass(frozen=True)
class AlienTokens:
    """``count`` blip or reinforcement tokens of ``alien_type`` taken, each worth ``value``."""

    alien_type: str
    value: int
    count: int = 1


@dataclass(frozen=True)
class ObjectivePoints:
    """Points the stipulation gives for an objective, e.g. the flag returned to the claw."""

    label: str
    points: int


@dataclass(frozen=True)
class StallBreakerRound:
    """TPK stall-breaker points of one round: +B when the seat closed in, -B otherwise."""

    round: int
    points: int


@dataclass(frozen=True)
class SeatBreakdown:
    """Everything one seat scored or lost in a session; stored as JSON via :meth:`to_dict`.

    Fields (each a tuple of entries, empty when nothing happened):

    * ``seat`` -- the seat's id (the player id within the session).
    * ``kills`` -- :class:`MarineKill`: marines of *other* seats this seat killed.
    * ``losses`` -- :class:`MarineLoss`: this seat's marines that died, by any cause.
    * ``tarantulas`` -- :class:`TarantulaKill`: other seats' crewed Tarantulas destroyed.
    * ``dreadnoughts`` -- :class:`DreadnoughtKill`: other seats' piloted Dreadnoughts destroyed.
    * ``alien_tokens`` -- :class:`AlienTokens`: tokens collected for aliens killed.
    * ``objectives`` -- :class:`ObjectivePoints`: stipulation objectives.
    * ``stall_breaker`` -- :class:`StallBreakerRound`: TPK stall-breaker points per round.
    """

    seat: str
    kills: tuple[MarineKill, ...] = ()
    losses: tuple[MarineLoss, ...] = ()
    tarantulas: tuple[TarantulaKill, ...] = ()
    dreadnoughts: tuple[DreadnoughtKill, ...] = ()
    alien_tokens: tuple[AlienTokens, ...] = ()
    objectives: tuple[ObjectivePoints, ...] = ()
    stall_breaker: tuple[StallBreakerRound, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"seat": self.seat}
        for name, _entry_type in _ENTRY_FIELDS.items():
            data[name] = [_entry_to_dict(entry) for entry in getattr(self, name)]
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> SeatBreakdown:
        """Build a breakdown from :meth:`to_dict` output; raises :class:`ScoringError`."""
        if not isinstance(data, Mapping):
            raise ScoringError("a seat breakdown must be a JSON object")
        unknown = data.keys() - _BREAKDOWN_KEYS
        if unknown:
            raise ScoringError(
                ngettext(
                    "unknown breakdown field: %(unknown)s; allowed: %(allowed)s",
                    "unknown breakdown fields: %(unknown)s; allowed: %(allowed)s",
                    len(unknown),
                )
                % {
                    "unknown": ", ".join(sorted(unknown)),
                    "allowed": ", ".join(("seat", *_ENTRY_FIELDS)),
                }
            )
        seat = data.get("seat")
        if not isinstance(seat, str) or not seat:
            raise ScoringError("a seat breakdown needs 'seat', the seat's id as text")
        values: dict[str, Any] = {"seat": seat}
        for name, entry_type in _ENTRY_FIELDS.items():
            items = data.get(name, [])
            if not isinstance(items, list):
                raise ScoringError(f"seat '{seat}': '{name}' must be a list")
            if items:  # (an empty list is the field's default: read a whole standings faster)
                values[name] = tuple(
                    _entry_from_dict(entry_type, item, f"seat '{seat}', {name}[{index}]")
                    for index, item in enumerate(items)
                )
        return cls(**values)


_ENTRY_FIELDS: dict[str, type] = {
    "kills": MarineKill,
    "losses": MarineLoss,
    "tarantulas": TarantulaKill,
    "dreadnoughts": DreadnoughtKill,
    "alien_tokens": AlienTokens,
    "objectives": ObjectivePoints,
    "stall_breaker": StallBreakerRound,
}

_BREAKDOWN_KEYS = frozenset({"seat", *_ENTRY_FIELDS})

_FIELD_TYPES: dict[type, dict[str, Any]] = {
    MarineKill: {"victim": str, "marine_class": MarineClass, "count": int},
    MarineLoss: {"marine_class": MarineClass, "cause": LossCause, "killer": str, "count": int},
    TarantulaKill: {"owner": str, "count": int},
    DreadnoughtKill: {"owner": str, "class_value": int, "pilot_class": MarineClass},
    AlienTokens: {"alien_type": str, "value": int, "count": int},
    ObjectivePoints: {"label": str, "points": int},
    StallBreakerRound: {"round": int, "points": int},
}


def _entry_to_dict(entry: Any) -> dict[str, Any]:
    data = {}
    for name in _FIELD_TYPES[type(entry)]:
        value = getattr(entry, name)
        data[name] = value.value if isinstance(value, Enum) else value
    return data


def _entry_from_dict(entry_type: type, item: Any, where: str) -> Any:
    if not isinstance(item, Mapping):
        raise ScoringError(f"{where} must be a JSON object")
    types = _FIELD_TYPES[entry_type]
    unknown = set(item) - set(types)
    if unknown:
        raise ScoringError(
            ngettext(
                "%(where)s: unknown key %(unknown)s; allowed: %(allowed)s",
                "%(where)s: unknown keys %(unknown)s; allowed: %(allowed)s",
                len(unknown),
            )
            % {"where": where, "unknown": ", ".join(sorted(unknown)), "allowed": ", ".join(types)}
        )
    values = {}
    for name, kind in types.items():
        if name not in item:
            continue
        value = item[name]
        if value is None and name == "killer":
            continue
        if isinstance(kind, type) and issubclass(kind, Enum):
            try:
                value = kind(value)
            except ValueError:
                allowed = ", ".join(member.value for member in kind)
                raise ScoringError(
                    f"{where}: '{name}' is {value!r}; use one of {allowed}"
                ) from None
        elif kind is int:
            if isinstance(value, bool) or not isinstance(value, int):
                raise ScoringError(f"{where}: '{name}' must be a whole number, not {value!r}")
        elif not isinstance(value, kind):
            raise ScoringError(f"{where}: '{name}' must be text, not {value!r}")
        values[name] = value
    try:
        return entry_type(**values)
    except TypeError:
        missing = [name for name in types if name not in values and name not in ("count", "killer")]
        raise ScoringError(f"{where}: missing {', '.join(missing)}") from None


@dataclass(frozen=True)
class LineItem:
    """One line of a score card: a machine code, a human label and signed points."""

    code: str
    label: str
    points: int

    def as_dict(self) -> dict:
        return {"code": self.code, "label": self.label, "points": self.points}


@dataclass(frozen=True)
class ScoringProblem:
    """Something in the records that needs the judge's attention."""

    code: str
    message: str
    seats: tuple[str, ...]

    def as_dict(self) -> dict:
        return {"code": self.code, "message": self.message, "seats": list(self.seats)}


@dataclass(frozen=True)
class ScoreCard:
    """A seat's total, the lines it is made of, and the problems touching this seat."""

    seat: str
    total: int
    lines: tuple[LineItem, ...]
    problems: tuple[ScoringProblem, ...] = field(default=())

    def as_dict(self) -> dict:
        return {
            "seat": self.seat,
            "total": self.total,
            "lines": [line.as_dict() for line in self.lines],
            "problems": [problem.as_dict() for problem in self.problems],
        }


def marine_class_label(marine_class: MarineClass) -> str:
    labels = {
        MarineClass.LIGHT: _("light-weapon marine"),
        MarineClass.UNARMED: _("unarmed marine"),
        MarineClass.HEAVY: _("heavy-weapon marine"),
        MarineClass.COMMANDER: _("commander"),
        MarineClass.EXTRA_HEAVY: _("extra-heavy-weapon marine"),
        MarineClass.GUNNER: _("Tarantula gunner"),
    }
    return labels[MarineClass(marine_class)]


#: The aliens whose blip or reinforcement tokens score, by their code in a breakdown.
TOKEN_ALIEN_LABELS = {
    "gretchin": gettext_lazy("Gretchin"),
    "ork": gettext_lazy("Ork"),
    "android": gettext_lazy("Android"),
    "chaos_marine": gettext_lazy("Chaos Marine"),
    "chaos_marine_heavy": gettext_lazy("Chaos Marine with heavy weapon"),
    "chaos_commander": gettext_lazy("Chaos Commander"),
    "dreadnought": gettext_lazy("Dreadnought"),
}
_ALIEN_LABELS = {**TOKEN_ALIEN_LABELS, "genestealer": gettext_lazy("Genestealers")}


def alien_label(alien_type: str) -> str:
    """The alien's translated name; free text that is no known code comes back as it is."""
    return str(_ALIEN_LABELS.get(alien_type.lower(), alien_type))


def _cause_label(cause: LossCause, count: int) -> str:
    """What killed the ``count`` figures of one loss line, agreeing with their number where
    the language needs it (Italian "ucciso"/"uccisi")."""
    cause = LossCause(cause)
    if cause == LossCause.PLAYER:
        return ngettext("killed by %(seat)s", "killed by %(seat)s", count)
    if cause == LossCause.ALIEN:
        return ngettext("killed by aliens", "killed by aliens", count)
    if cause == LossCause.LEFT_ON_BOARD:
        return ngettext(
            "left on the board at the game's end", "left on the board at the game's end", count
        )
    return ngettext("killed by own fire", "killed by own fire", count)


_PILOT_CLASSES = frozenset(
    {MarineClass.LIGHT, MarineClass.UNARMED, MarineClass.HEAVY, MarineClass.EXTRA_HEAVY}
)


def score_session(
    seats: Sequence[SeatBreakdown],
    values: ScoringValues | None = None,
    names: Mapping[str, str] | None = None,
) -> dict[str, ScoreCard]:
    """Score one session: a :class:`ScoreCard` per seat, keyed by seat id, in seat order.

    ``names`` maps seat ids to display names for the line labels (ids are used otherwise).
    Raises :class:`ScoringError` only when two breakdowns share a seat id.
    """
    values = values or ScoringValues()
    counts = Counter(seat.seat for seat in seats)
    repeated = sorted(seat for seat, count in counts.items() if count > 1)
    if repeated:
        raise ScoringError(
            ngettext(
                "seat %(seats)s appears twice; give one breakdown each",
                "seats %(seats)s appear twice; give one breakdown each",
                len(repeated),
            )
            % {"seats": ", ".join(repeated)}
        )
    scorer = _Scorer([seat.seat for seat in seats], values, names or {})
    for seat in seats:
        scorer.score(seat)
    scorer.cross_check()
    return scorer.cards()


class _Scorer:
    def __init__(self, seat_ids: list[str], values: ScoringValues, names: Mapping[str, str]):
        self.seat_ids = seat_ids
        self.values = values
        self.names = names
        self.lines: dict[str, list[LineItem]] = {seat: [] for seat in seat_ids}
        self.problems: dict[str, list[ScoringProblem]] = {seat: [] for seat in seat_ids}
        # (killer, victim, class) -> number of pilots/marines each side recorded
        self.claimed_kills: Counter = Counter()
        self.recorded_losses: Counter = Counter()

    def name(self, seat: str) -> str:
        return self.names.get(seat, seat)

    def add(self, seat: str, code: str, label: str, points: int) -> None:
        self.lines[seat].append(LineItem(code, label, points))

    def problem(self, code: str, message: str, *seats: str) -> None:
        item = ScoringProblem(code, message, tuple(seats))
        for seat in dict.fromkeys(seats):
            if seat in self.problems:
                self.problems[seat].append(item)

    def _other_seat(self, seat: str, other: str, what: str) -> bool:
        """True when ``other`` is a valid opposing seat; reports a problem otherwise."""
        if other == seat:
            self.problem(
                "own_seat",
                _(
                    "%(seat)s recorded %(what)s against their own squad; own losses go in "
                    "the losses list (cause: own fire). Not counted."
                )
                % {"seat": self.name(seat), "what": what},
                seat,
            )
            return False
        if other not in self.lines:
            self.problem(
                "unknown_seat",
                _(
                    "%(seat)s recorded %(what)s against '%(other)s', who is not in this session; "
                    "choose one of the session's seats. Not counted."
                )
                % {"seat": self.name(seat), "what": what, "other": other},
                seat,
            )
            return False
        return True

    def _count_ok(self, seat: str, count: int, what: str) -> bool:
        if count >= 1:
            return True
        self.problem(
            "bad_count",
            _("%(seat)s recorded %(count)s × %(what)s; a count must be 1 or more. Not counted.")
            % {"seat": self.name(seat), "count": count, "what": what},
            seat,
        )
        return False

    def score(self, breakdown: SeatBreakdown) -> None:
        seat = breakdown.seat
        for kill in breakdown.kills:
            what = marine_class_label(kill.marine_class)
            if not self._count_ok(seat, kill.count, what):
                continue
            if not self._other_seat(seat, kill.victim, what):
                continue
            self.claimed_kills[(seat, kill.victim, MarineClass(kill.marine_class))] += kill.count
            self.add(
                seat,
                "marine_killed",
                _("Killed %(count)s × %(what)s of %(victim)s")
                % {"count": kill.count, "what": what, "victim": self.name(kill.victim)},
                kill.count * self.values.marine(kill.marine_class),
            )
        for loss in breakdown.losses:
            self._score_loss(seat, loss)
        for tarantula in breakdown.tarantulas:
            what = _("Tarantula")
            if not self._count_ok(seat, tarantula.count, what):
                continue
            if not self._other_seat(seat, tarantula.owner, what):
                continue
            self.add(
                seat,
                "tarantula_destroyed",
                _("Destroyed %(count)s × Tarantula of %(owner)s")
                % {"count": tarantula.count, "owner": self.name(tarantula.owner)},
                tarantula.count * self.values.tarantula,
            )
        for dreadnought in breakdown.dreadnoughts:
            self._score_dreadnought(seat, dreadnought)
        for tokens in breakdown.alien_tokens:
            self._score_tokens(seat, tokens)
        for objective in breakdown.objectives:
            self.add(seat, "objective", shown_objective_label(objective.label), objective.points)
        for stall in breakdown.stall_breaker:
            self.add(
                seat,
                "stall_breaker",
                _("Stall breaker, round %(round)s") % {"round": stall.round},
                stall.points,
            )

    def _score_loss(self, seat: str, loss: MarineLoss) -> None:
        what = marine_class_label(loss.marine_class)
        if not self._count_ok(seat, loss.count, what):
            return
        cause = LossCause(loss.cause)
        if cause is LossCause.PLAYER:
            if not loss.killer:
                self.problem(
                    "loss_without_killer",
                    _(
                        "%(seat)s lost %(what)s to a player but did not say which; name the "
                        "killing seat. Counted as a loss."
                    )
                    % {"seat": self.name(seat), "what": what},
                    seat,
                )
            elif loss.killer == seat:
                self.problem(
                    "own_seat",
                    _(
                        "%(seat)s recorded a loss killed by their own seat; use cause 'own "
                        "fire' instead. Counted as a loss."
                    )
                    % {"seat": self.name(seat)},
                    seat,
                )
            elif loss.killer not in self.lines:
                self.problem(
                    "unknown_seat",
                    _(
                        "%(seat)s lost %(what)s to '%(other)s', who is not in this session; "
                        "choose one of the session's seats. Counted as a loss."
                    )
                    % {"seat": self.name(seat), "what": what, "other": loss.killer},
                    seat,
                )
            else:
                key = (loss.killer, seat, MarineClass(loss.marine_class))
                self.recorded_losses[key] += loss.count
        elif loss.killer:
            self.problem(
                "killer_without_player_cause",
                _(
                    "%(seat)s named a killer for a loss whose cause is not a player; set the "
                    "cause to 'player' or remove the killer. Counted as a loss."
                )
                % {"seat": self.name(seat)},
                seat,
            )
        cause_text = _cause_label(cause, loss.count) % {"seat": self.name(loss.killer or "?")}
        self.add(
            seat,
            "marine_lost",
            ngettext(
                "Lost %(count)s × %(what)s (%(cause)s)",
                "Lost %(count)s × %(what)s (%(cause)s)",
                loss.count,
            )
            % {"count": loss.count, "what": what, "cause": cause_text},
            -loss.count * self.values.marine(loss.marine_class),
        )

    def _score_dreadnought(self, seat: str, dreadnought: DreadnoughtKill) -> None:
        if not self._other_seat(seat, dreadnought.owner, _("a Dreadnought")):
            return
        pilot = MarineClass(dreadnought.pilot_class)
        if pilot not in _PILOT_CLASSES:
            self.problem(
                "bad_pilot",
                _(
                    "%(seat)s recorded a Dreadnought piloted by a %(what)s; only marines "
                    "(not the commander or a Tarantula gunner) pilot Dreadnoughts. Not counted."
                )
                % {"seat": self.name(seat), "what": marine_class_label(pilot)},
                seat,
            )
            return
        minimum = LEAST_CLASS_VALUE
        if dreadnought.class_value < minimum:
            self.problem(
                "dreadnought_value_too_low",
                _(
                    "%(seat)s recorded a Dreadnought class value of %(value)s; the session notes "
                    "must give %(minimum)s or more. Counted as recorded."
                )
                % {"seat": self.name(seat), "value": dreadnought.class_value, "minimum": minimum},
                seat,
            )
        self.claimed_kills[(seat, dreadnought.owner, pilot)] += 1
        pilot_value = self.values.marine(pilot)
        self.add(
            seat,
            "dreadnought_destroyed",
            _(
                "Destroyed the Dreadnought of %(owner)s (class %(value)s + pilot, %(what)s, "
                "%(pilot)s)"
            )
            % {
                "owner": self.name(dreadnought.owner),
                "value": dreadnought.class_value,
                "what": marine_class_label(pilot),
                "pilot": pilot_value,
            },
            dreadnought.class_value + pilot_value,
        )

    def _score_tokens(self, seat: str, tokens: AlienTokens) -> None:
        if tokens.alien_type.lower() in TOKENLESS_ALIENS:
            self.problem(
                "tokenless_alien",
                _(
                    "%(seat)s recorded tokens for %(alien)s, which have no tokens and score no "
                    "points; remove the entry. Not counted."
                )
                % {"seat": self.name(seat), "alien": alien_label(tokens.alien_type)},
                seat,
            )
            return
        alien = alien_label(tokens.alien_type)
        if not self._count_ok(seat, tokens.count, alien):
            return
        self.add(
            seat,
            "alien_tokens",
            _("%(count)s × %(alien)s token (%(value)s each)")
            % {"count": tokens.count, "alien": alien, "value": tokens.value},
            tokens.count * tokens.value,
        )

    def cross_check(self) -> None:
        """A kill recorded by A of B's marines must match B's losses to A (same class)."""
        for key in sorted(set(self.claimed_kills) | set(self.recorded_losses)):
            killer, victim, marine_class = key
            claimed = self.claimed_kills[key]
            recorded = self.recorded_losses[key]
            if claimed == recorded:
                continue
            self.problem(
                "kill_loss_mismatch",
                _(
                    "%(killer)s recorded %(claimed)s of %(victim)s's %(what)s, but "
                    "%(victim)s recorded %(recorded)s to %(killer)s; correct one of the two "
                    "records."
                )
                % {
                    "killer": self.name(killer),
                    "victim": self.name(victim),
                    "what": marine_class_label(marine_class),
                    "claimed": ngettext("%(count)s kill", "%(count)s kills", claimed)
                    % {"count": claimed},
                    "recorded": ngettext("%(count)s such loss", "%(count)s such losses", recorded)
                    % {"count": recorded},
                },
                killer,
                victim,
            )

    def cards(self) -> dict[str, ScoreCard]:
        return {
            seat: ScoreCard(
                seat=seat,
                total=sum(line.points for line in self.lines[seat]),
                lines=tuple(self.lines[seat]),
                problems=tuple(self.problems[seat]),
            )
            for seat in self.seat_ids
        }


#: The digest of this module's source: a totals key changes whenever the scoring code does.
_SOURCE_DIGEST = hashlib.sha256(Path(__file__).read_bytes()).hexdigest()


def totals_key(values: ScoringValues) -> str:
    """What a session's totals are a function of, besides its breakdowns: the point values
    and this scoring code. Totals stored under another key were scored otherwise and are
    not used (see :func:`session_totals`)."""
    text = json.dumps([_SOURCE_DIGEST, asdict(values)], sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()


def session_totals(breakdown: Sequence[Mapping[str, Any]], values: ScoringValues) -> dict[str, int]:
    """Each seat's total points by seat id, from a stored breakdown (``SeatBreakdown``
    dicts); empty when the breakdown cannot be read or scored, so no seat has points."""
    try:
        cards = score_session([SeatBreakdown.from_dict(item) for item in breakdown], values)
    except ScoringError:
        return {}
    return {seat: card.total for seat, card in cards.items()}
