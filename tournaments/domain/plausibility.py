"""Whether a session's result could have happened at the table (RULES §5–§7).

Scoring (:mod:`tournaments.domain.scoring`) adds up what the seats recorded and reports
records that disagree; it never asks whether the game allowed them. This module does, and
a result that breaks one of its rules is refused wherever it is entered: the judge's form
(each message next to its field), the result actions (the JSON breakdowns of the admin,
the demo and the tests) and ``import_tournament`` (each with its JSON path).

The rules, for a squad of ``figures`` figures (a commander and four marines; seven in
Extended TPK, RULES §6):

* one seat kills at most ``figures`` figures of another squad, and at most its one
  commander;
* a squad loses at most ``figures`` figures in all (to every seat, to aliens and to its own
  fire), its commander at most once;
* a squad whose figures all died has no marine still in play at the end;
* when the squad's loadout is known (:class:`Fielded`, RULES §5): of each kind of marine,
  no more die than the squad fielded -- heavy-weapon and light-weapon marines at most as
  many as its loadout armed, extra-heavy-weapon marines at most as many as it armed plus
  the extra-heavy weapons the session's special-equipment blips hide (any marine picking
  one up becomes one), and its marines of every kind (Tarantula gunners and unarmed
  marines too: any marine can be one) at most as many as it fielded;
* aliens: no marine lost to them and no alien token when the session is played without
  aliens (decision 30); of each alien type, at
  most as many in all as the session's map has markers of that type (when the map is one
  the app knows) or as the session's games on the judge's board revealed tokens of that
  type, if more; each worth a value the tournament's rules data gives that type (the
  Dreadnought: its token value or a Dreadnought class value, RULES §7); the markers less
  those whose blip hides special equipment, plus the stipulation's reinforcement tokens;
* no count is negative;
* where both sides of a kill are typed (``both_sides``), a seat's kills of another seat's
  marines of each class equal that seat's losses to it (what one gains the other loses).

What the stipulation scores besides (stall breaker, flags, vehicles) and who may be alive
at the end are checked by :mod:`tournaments.domain.stipulation_limits`.

Each :class:`Implausibility` names the seat whose record breaks the rule and the entry
(the :class:`~tournaments.domain.scoring.SeatBreakdown` field, the index in it and the
part), so every entry point can put the message where the value was typed. Every rule is
checked on the whole result and all that are broken are listed together: a rule that
another broken rule fully explains (a squad's total of deaths over its figures when one
seat alone killed more than a squad has, or when its marines of some kind are over what it
fielded) is left out only as long as fixing that other rule fixes it too.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from rules.engine.board import Board
from rules.engine.play.blips import ABANDONED_DREADNOUGHT, FOUND_EQUIPMENT
from rules.engine.tarantula import TARANTULA
from rules.engine.units import RulesData, RulesDataError, load_rules_data
from tournaments.domain.implausibility import Implausibility
from tournaments.domain.ranking import StipulationKind
from tournaments.domain.scoring import (
    TOKEN_ALIEN_LABELS,
    TOKENLESS_ALIENS,
    LossCause,
    MarineClass,
    SeatBreakdown,
    alien_label,
    marine_class_label,
)
from tournaments.domain.stipulation_limits import (
    ResultParts,
    StipulationScoring,
    check_stipulation,
    result_parts,
    stipulation_scoring,
)

#: Figures of a squad: the commander and four marines (RULES §5).
SQUAD_FIGURES = 5
#: Extended TPK adds two marines with extra-heavy weapons (RULES §6).
EXTENDED_TPK_FIGURES = 7
#: Stipulations with a parameter saying whether aliens are in play (Alien Hunt always has).
_ALIENS_OPTIONAL = frozenset(
    {StipulationKind.CATCH_THE_FLAG, StipulationKind.TPK, StipulationKind.EXTENDED_TPK}
)

#: The alien type whose token may instead be worth a Dreadnought class value (RULES §7).
DREADNOUGHT = "dreadnought"


@dataclass(frozen=True)
class AlienPool:
    """What alien tokens a session's seats can have taken.

    ``in_play`` is False when the session is played without aliens. ``markers`` counts the
    alien markers of each type on the session's map (None: the map is not one the app
    knows, so counts are not checked), ``map_name`` names that map in messages.
    ``revealed`` counts the tokens of each type the session's games on the judge's board
    revealed (None: no game was played there), which may be more than the map's markers:
    under the Solitaire policy a game draws its blips from the mission's own pile, and
    reinforcement tokens come on top of the blips under any policy (decision 30). ``values``
    are the points a token of each type may be worth (None: not checked).
    ``reinforcements`` are the reinforcement tokens of each type the stipulation adds to
    the markers, ``equipment`` the markers of each type whose blip hides special equipment
    instead of an alien (RULES §10).
    """

    in_play: bool = True
    markers: Mapping[str, int] | None = None
    map_name: str = ""
    values: Mapping[str, frozenset[int]] | None = None
    revealed: Mapping[str, int] | None = None
    reinforcements: Mapping[str, int] = field(default_factory=dict)
    equipment: Mapping[str, int] = field(default_factory=dict)

    def available(self, alien_type: str) -> int:
        """The tokens of ``alien_type`` a session played with physical pieces can give: the
        map's markers of that type (0 when the map is not known), less those hiding special
        equipment, plus the stipulation's reinforcement tokens of that type."""
        markers = (self.markers or {}).get(alien_type, 0)
        hidden = self.equipment.get(alien_type, 0)
        return max(0, markers - hidden) + self.reinforcements.get(alien_type, 0)

    def default_value(self, alien_type: str) -> int | None:
        """The value of a token of ``alien_type`` when the rules data gives only one."""
        allowed = (self.values or {}).get(alien_type)
        return next(iter(allowed)) if allowed is not None and len(allowed) == 1 else None


#: What a special-equipment blip may hide that a marine picks up: an extra-heavy weapon
#: (the vehicles are crewed, not carried).
FOUND_WEAPONS = frozenset(FOUND_EQUIPMENT) - {TARANTULA, ABANDONED_DREADNOUGHT}
#: The kinds of marine a loadout arms (RULES §5), each counted apart by :class:`Fielded`.
ARMED_CLASSES = (MarineClass.HEAVY, MarineClass.LIGHT, MarineClass.EXTRA_HEAVY)


@dataclass(frozen=True)
class Fielded:
    """The marines of each kind a squad fielded in the session, by its loadout (RULES §5):
    heavy-weapon, light-weapon (laser rifle) and extra-heavy-weapon marines; and its one
    commander besides them."""

    heavy: int = 0
    light: int = 0
    extra_heavy: int = 0

    @property
    def marines(self) -> int:
        return self.heavy + self.light + self.extra_heavy

    def of(self, marine_class: MarineClass) -> int:
        return int(getattr(self, MarineClass(marine_class).value))


def fielded_squad(weapon_classes: Sequence[str | None], figures: int) -> Fielded | None:
    """What a squad fielded, from the class of each marine's weapon in its loadout (the
    marines' and the extra marines'; None for a weapon the catalogue does not know). None
    (not known) when the loadout does not arm every marine of a squad of ``figures``
    figures with a light, heavy or extra-heavy weapon: such a loadout says nothing sure."""
    if len(weapon_classes) != figures - 1:
        return None
    counts = Counter(weapon_classes)
    kinds = {marine_class.value for marine_class in ARMED_CLASSES}
    if set(counts) - kinds:
        return None
    return Fielded(**{kind: counts[kind] for kind in kinds})


def fielded_by_seat(
    loadouts: Mapping[str, Sequence[Any]], weapon_classes: Mapping[str, str], figures: int
) -> dict[str, Fielded]:
    """What each squad fielded, by seat: ``loadouts`` gives each seat's marines' weapons
    (the marines' and the extra marines', as slugs), ``weapon_classes`` the class of each
    weapon slug in the tournament's catalogue. A seat whose loadout says nothing sure
    (:func:`fielded_squad`) is left out."""
    fielded: dict[str, Fielded] = {}
    for seat, weapons in loadouts.items():
        squad = fielded_squad([weapon_classes.get(str(slug)) for slug in weapons], figures)
        if squad is not None:
            fielded[seat] = squad
    return fielded


def found_weapons(params: Mapping[str, Any] | None) -> int:
    """How many extra-heavy weapons the stipulation's special-equipment blips hide
    (``equipment_blips``: the marker squares and what each hides)."""
    hidden = (params or {}).get("equipment_blips") or {}
    return sum(1 for item in hidden.values() if item in FOUND_WEAPONS)


@dataclass(frozen=True)
class SessionLimits:
    """What the rules allow in one session: figures per squad, the alien pool, what each
    squad fielded (``fielded``, by seat; a seat left out: its loadout is not known), the
    extra-heavy weapons special equipment hides (``found_weapons``), what the stipulation
    scores (``scoring``; None: not checked), the flag spots of its map (``flag_spots``;
    None: no map the app knows) and the seats that forfeited (``forfeits``: seat -> the
    ``Forfeit`` value, ``withdrawn`` or ``no_show``)."""

    figures: int = SQUAD_FIGURES
    aliens: AlienPool = field(default_factory=AlienPool)
    fielded: Mapping[str, Fielded] = field(default_factory=dict)
    found_weapons: int = 0
    scoring: StipulationScoring | None = None
    flag_spots: int | None = None
    forfeits: Mapping[str, str] = field(default_factory=dict)

    @property
    def parts(self) -> ResultParts:
        """The parts of a result this session can hold: the checks refuse the others."""
        return result_parts(self.scoring, self.aliens.in_play)


def squad_figures(stipulation_kind: str) -> int:
    """How many figures a squad fields in a session of this stipulation."""
    return (
        EXTENDED_TPK_FIGURES if stipulation_kind == StipulationKind.EXTENDED_TPK else SQUAD_FIGURES
    )


def aliens_in_play(stipulation_kind: str, params: Mapping[str, Any] | None) -> bool:
    """Whether the stipulation plays with aliens: Alien Hunt always, the others when their
    ``aliens`` parameter says so (off by default, as the stipulation's form has it)."""
    if stipulation_kind in _ALIENS_OPTIONAL:
        return bool((params or {}).get("aliens", False))
    return True


def map_markers(board: Board | None) -> Mapping[str, int] | None:
    """Alien markers per type on the session's map (None: no map the app knows)."""
    if board is None:
        return None
    return dict(Counter(board.markers.values()))


def alien_counts(params: Mapping[str, Any] | None, name: str) -> dict[str, int]:
    """A stipulation parameter counting tokens by alien type (``reinforcements``)."""
    counts = (params or {}).get(name)
    if not isinstance(counts, Mapping):
        return {}
    return {
        str(alien): count
        for alien, count in counts.items()
        if isinstance(count, int) and not isinstance(count, bool) and count > 0
    }


def equipment_markers(params: Mapping[str, Any] | None, board: Board | None) -> dict[str, int]:
    """The alien markers of each type on ``board`` whose blip hides special equipment
    (the stipulation's ``equipment_blips``, keyed by square ``"x,y"``) instead of an alien."""
    hidden = (params or {}).get("equipment_blips")
    if board is None or not isinstance(hidden, Mapping):
        return {}
    found: Counter[str] = Counter()
    for square in hidden:
        try:
            x, y = (int(part) for part in str(square).split(","))
        except ValueError:
            continue
        marker = board.markers.get((x, y))
        if marker is not None:
            found[marker] += 1
    return dict(found)


def token_values(rules: RulesData) -> dict[str, frozenset[int]]:
    """The points a token of each alien type may be worth: the rules data's token value;
    for the Dreadnought also each Dreadnought class value (the session notes name the
    class, RULES §7). Aliens without tokens are left out."""
    values = {
        alien: frozenset({value})
        for alien, value in rules.alien_tokens.items()
        if alien not in TOKENLESS_ALIENS
    }
    if DREADNOUGHT in values:
        classes = {spec.class_value for spec in rules.dreadnought_classes.values()}
        values[DREADNOUGHT] = values[DREADNOUGHT] | classes
    return values


def session_limits(
    stipulation_kind: str,
    params: Mapping[str, Any] | None,
    map_name: str,
    data_overrides: Mapping[str, Any] | None,
    board: Board | None = None,
    fielded: Mapping[str, Fielded] | None = None,
    revealed: Mapping[str, int] | None = None,
    forfeits: Mapping[str, str] | None = None,
) -> SessionLimits:
    """The limits of a session from its stipulation, its map (its name, and its ``board``
    when the app knows the map: the tournament's own or a shipped one), the tournament's
    rules data overrides, what the squads fielded (``fielded``, by seat, for the seats
    whose loadout is known), the tokens the session's games on the judge's board
    revealed (``revealed``, by alien type) and the seats' forfeits (``forfeits``). Token
    values are not checked when the overrides are invalid (the organiser is told where
    they are edited, not the judge at the table)."""
    in_play = aliens_in_play(stipulation_kind, params)
    try:
        rules: RulesData | None = load_rules_data(dict(data_overrides) if data_overrides else None)
    except RulesDataError:
        rules = None
    values = token_values(rules) if rules is not None else None
    return SessionLimits(
        figures=squad_figures(stipulation_kind),
        aliens=AlienPool(
            in_play=in_play,
            markers=map_markers(board) if in_play else None,
            map_name=map_name,
            values=values,
            revealed=revealed if in_play else None,
            reinforcements=alien_counts(params, "reinforcements") if in_play else {},
            equipment=equipment_markers(params, board) if in_play else {},
        ),
        fielded=dict(fielded or {}),
        found_weapons=found_weapons(params),
        scoring=stipulation_scoring(stipulation_kind, params, rules),
        flag_spots=len(board.flag_spots) if board is not None else None,
        forfeits=dict(forfeits or {}),
    )


@dataclass(frozen=True)
class _Death:
    """Figures of a squad recorded dead by one record: where, how many, of which class,
    how many commanders, the killing seat and, for a loss, its cause."""

    seat: str
    entry: str
    index: int
    count: int
    commanders: int
    killer: str | None
    marine_class: MarineClass
    cause: LossCause | None = None


def _sum(records: Iterable[_Death]) -> int:
    return sum(record.count for record in records)


def _fielded_phrase(marine_class: MarineClass | None, count: int) -> str:
    """``count`` marines of ``marine_class`` (None: of every kind) as a squad fields them."""
    if marine_class is MarineClass.HEAVY:
        text = ngettext("%(count)d heavy-weapon marine", "%(count)d heavy-weapon marines", count)
    elif marine_class is MarineClass.LIGHT:
        text = ngettext("%(count)d light-weapon marine", "%(count)d light-weapon marines", count)
    elif marine_class is MarineClass.EXTRA_HEAVY:
        text = ngettext(
            "%(count)d extra-heavy-weapon marine", "%(count)d extra-heavy-weapon marines", count
        )
    else:
        text = ngettext(
            "%(count)d marine besides the commander",
            "%(count)d marines besides the commander",
            count,
        )
    return text % {"count": count}


class _Checker:
    def __init__(
        self,
        breakdowns: Sequence[SeatBreakdown],
        limits: SessionLimits,
        names: Mapping[str, str],
    ) -> None:
        self.breakdowns = breakdowns
        self.limits = limits
        self.names = names
        self.seats = {breakdown.seat for breakdown in breakdowns}
        self.found: list[Implausibility] = []

    def name(self, seat: str) -> str:
        return self.names.get(seat, seat)

    def add(self, code: str, message: str, places: Iterable[tuple[str, str, int | None]]) -> None:
        for seat, entry, index in places:
            part = "count" if index is not None else None
            self.found.append(Implausibility(code, message, seat, entry, index, part))

    def add_deaths(self, code: str, message: str, records: Iterable[_Death]) -> None:
        self.add(code, message, [(r.seat, r.entry, r.index) for r in records])

    def check_counts(self) -> None:
        """No count is negative: nothing happens fewer than no times. (A count of 0 is
        nothing: scoring leaves it out.)"""
        for breakdown in self.breakdowns:
            for entry_name in ("kills", "losses", "tarantulas", "alien_tokens"):
                for index, entry in enumerate(getattr(breakdown, entry_name)):
                    if entry.count >= 0:
                        continue
                    self.found.append(
                        Implausibility(
                            "negative_count",
                            _(
                                "A count cannot be negative (%(count)d here): nothing happens "
                                "fewer than no times; type how many, 0 for none."
                            )
                            % {"count": entry.count},
                            breakdown.seat,
                            entry_name,
                            index,
                            "count",
                        )
                    )

    # -- marines ---------------------------------------------------------------------------

    def kills_by(self) -> dict[tuple[str, str], list[_Death]]:
        """(killer, victim) -> the killer's records of the victim's figures it killed."""
        kills: dict[tuple[str, str], list[_Death]] = defaultdict(list)
        for breakdown in self.breakdowns:
            for index, kill in enumerate(breakdown.kills):
                if kill.count >= 1 and kill.victim != breakdown.seat:
                    marine_class = MarineClass(kill.marine_class)
                    commander = marine_class is MarineClass.COMMANDER
                    kills[(breakdown.seat, kill.victim)].append(
                        _Death(
                            breakdown.seat,
                            "kills",
                            index,
                            kill.count,
                            kill.count if commander else 0,
                            breakdown.seat,
                            marine_class,
                        )
                    )
            for index, dreadnought in enumerate(breakdown.dreadnoughts):
                if dreadnought.owner != breakdown.seat:
                    kills[(breakdown.seat, dreadnought.owner)].append(
                        _Death(
                            breakdown.seat,
                            "dreadnoughts",
                            index,
                            1,
                            0,
                            breakdown.seat,
                            MarineClass(dreadnought.pilot_class),
                        )
                    )
        return kills

    def losses_of(self, breakdown: SeatBreakdown) -> list[_Death]:
        deaths = []
        for index, loss in enumerate(breakdown.losses):
            if loss.count < 1:
                continue
            marine_class = MarineClass(loss.marine_class)
            commander = marine_class is MarineClass.COMMANDER
            cause = LossCause(loss.cause)
            killer = loss.killer if cause is LossCause.PLAYER else None
            deaths.append(
                _Death(
                    breakdown.seat,
                    "losses",
                    index,
                    loss.count,
                    loss.count if commander else 0,
                    killer,
                    marine_class,
                    cause,
                )
            )
        return deaths

    def check_marines(self, survivors: set[str]) -> None:
        figures = self.limits.figures
        kills = self.kills_by()
        for (killer, victim), records in sorted(kills.items()):
            if victim not in self.seats:
                continue  # scoring reports a kill of a seat that is not in the session
            count = _sum(records)
            if count > figures:
                self.add_deaths(
                    "kills_over_figures",
                    _(
                        "%(killer)s is recorded killing %(count)d figures of %(victim)s, but a "
                        "squad has only %(figures)d (its commander included); correct the "
                        "counts of %(victim)s's marines killed by %(killer)s."
                    )
                    % {
                        "killer": self.name(killer),
                        "victim": self.name(victim),
                        "count": count,
                        "figures": figures,
                    },
                    records,
                )
            if sum(record.commanders for record in records) > 1:
                self.add_deaths(
                    "commander_twice",
                    _(
                        "%(killer)s is recorded killing the commander of %(victim)s more than "
                        "once, but a squad has one commander; make that count 1."
                    )
                    % {"killer": self.name(killer), "victim": self.name(victim)},
                    [r for r in records if r.commanders],
                )
        for breakdown in self.breakdowns:
            self.check_squad(breakdown, kills, survivors)

    def check_kills_match(self) -> None:
        """What one seat gains from a kill the other loses (RULES §7): the kills a seat
        records of another seat's marines of each class (a piloted Dreadnought counting as
        its pilot, decision 12) are the losses that seat records to it."""
        claimed: dict[tuple[str, str, MarineClass], list[_Death]] = defaultdict(list)
        for (killer, victim), records in self.kills_by().items():
            for record in records:
                claimed[(killer, victim, record.marine_class)].append(record)
        recorded: dict[tuple[str, str, MarineClass], list[_Death]] = defaultdict(list)
        for breakdown in self.breakdowns:
            for loss in self.losses_of(breakdown):
                if loss.killer in self.seats and loss.killer != breakdown.seat:
                    recorded[(str(loss.killer), breakdown.seat, loss.marine_class)].append(loss)
        for key in sorted(set(claimed) | set(recorded)):
            killer, victim, marine_class = key
            if victim not in self.seats:
                continue  # scoring reports a kill of a seat that is not in the session
            kills, losses = _sum(claimed[key]), _sum(recorded[key])
            if kills == losses:
                continue
            message = ngettext(
                "%(killer)s is recorded killing %(kills)d of %(victim)s's figures worth "
                "“%(what)s”, but %(victim)s records losing %(losses)d of them to %(killer)s; "
                "what one seat gains from a kill the other loses, so correct one of the two "
                "records.",
                "%(killer)s is recorded killing %(kills)d of %(victim)s's figures worth "
                "“%(what)s”, but %(victim)s records losing %(losses)d of them to %(killer)s; "
                "what one seat gains from a kill the other loses, so correct one of the two "
                "records.",
                kills,
            ) % {
                "killer": self.name(killer),
                "victim": self.name(victim),
                "what": marine_class_label(marine_class),
                "kills": kills,
                "losses": losses,
            }
            self.add_deaths("kills_losses_differ", message, [*claimed[key], *recorded[key]])

    def deaths_of(
        self, breakdown: SeatBreakdown, kills: Mapping[tuple[str, str], list[_Death]]
    ) -> list[tuple[str | None, list[_Death], list[_Death]]]:
        """The deaths of ``breakdown``'s squad, grouped by the seat that killed them (None:
        aliens, own fire or a killer that is no other seat of the session): the killer, the
        records it claimed (its kills) and those the squad recorded (its losses to it)."""
        victim = breakdown.seat
        recorded: dict[str | None, list[_Death]] = defaultdict(list)
        for loss in self.losses_of(breakdown):
            known = loss.killer in self.seats and loss.killer != victim
            recorded[loss.killer if known else None].append(loss)
        groups: list[tuple[str | None, list[_Death], list[_Death]]] = [
            (killer, kills.get((killer, victim), []), recorded.get(killer, []))
            for killer in sorted(self.seats - {victim})
        ]
        groups.append((None, [], recorded.get(None, [])))
        return groups

    def check_squad(
        self,
        breakdown: SeatBreakdown,
        kills: Mapping[tuple[str, str], list[_Death]],
        survivors: set[str],
    ) -> None:
        """All the deaths of one squad: each killing seat counts once (its kills or the
        squad's losses to it, whichever is higher, as the two records may disagree)."""
        victim = breakdown.seat
        figures = self.limits.figures
        groups = self.deaths_of(breakdown, kills)
        counted: list[_Death] = []
        parts: list[str] = []
        # The totals the squad's own checks compare: a seat already reported for claiming
        # more figures than a squad has (or its commander twice) counts with what the squad
        # recorded losing to it, at most a whole squad (one commander), as once corrected.
        # The judge's form derives that record from the claim: there the seat counts a
        # whole squad (one commander). So a total still over is listed with that seat's
        # problem at once, and a total over only because of that seat is left to it.
        capped_total = capped_commanders = 0
        for killer, claimed, recorded in groups:
            if killer is None:
                counted.extend(recorded)
                capped_total += _sum(recorded)
                capped_commanders += sum(r.commanders for r in recorded)
                if recorded:
                    parts.append(_("aliens or own fire %(count)d") % {"count": _sum(recorded)})
                continue
            larger = max(claimed, recorded, key=_sum)
            if not larger:
                continue
            counted.extend(larger)
            parts.append(f"{self.name(killer)} {_sum(larger)}")
            over = _sum(claimed) > figures
            capped_total += min(_sum(recorded), figures) if over else _sum(larger)
            commanders = sum(r.commanders for r in larger)
            twice = sum(r.commanders for r in claimed) > 1
            own_record = sum(r.commanders for r in recorded)
            capped_commanders += min(own_record, 1) if twice else commanders
        total = _sum(counted)
        commanders = sum(record.commanders for record in counted)
        fielded = self.limits.fielded.get(victim)
        kinds_over = self.check_kinds(victim, fielded, groups) if fielded is not None else False
        # With the squad's loadout known, its deaths are checked kind by kind and its
        # commander once: together they bound its total.
        finer = fielded is not None and fielded.marines + 1 == figures
        if capped_total > figures and not (finer and kinds_over):
            self.add_deaths(
                "deaths_over_figures",
                _(
                    "%(total)d figures of %(victim)s are recorded dead in all (%(detail)s), but "
                    "a squad has only %(figures)d; correct the kills or losses that are too many."
                )
                % {
                    "victim": self.name(victim),
                    "total": total,
                    "detail": ", ".join(parts),
                    "figures": figures,
                },
                counted,
            )
        if capped_commanders > 1:
            self.add_deaths(
                "commander_dead_twice",
                _(
                    "The commander of %(victim)s is recorded dead %(count)d times, but a squad "
                    "has one commander; keep the commander in one count only."
                )
                % {"victim": self.name(victim), "count": commanders},
                [r for r in counted if r.commanders],
            )
        if victim in survivors and total >= figures:
            self.found.append(
                Implausibility(
                    "survivor_all_dead",
                    _(
                        "%(victim)s is marked as still having a marine in play at the end, but "
                        "all %(figures)d figures of the squad are recorded dead; untick it, or "
                        "correct the kills and losses."
                    )
                    % {"victim": self.name(victim), "figures": figures},
                    victim,
                    "survived",
                )
            )

    def check_kinds(
        self,
        victim: str,
        fielded: Fielded,
        groups: Sequence[tuple[str | None, list[_Death], list[_Death]]],
    ) -> bool:
        """The victim's deaths of each kind of marine against what it fielded; True when its
        marines of some kind are over (reported)."""
        # kind -> the records counted: of each killing seat the larger of its kills of that
        # kind and the victim's losses of that kind to it; every loss to no seat.
        by_kind: dict[MarineClass, list[_Death]] = defaultdict(list)
        for killer, claimed, recorded in groups:
            for marine_class in MarineClass:
                if marine_class is MarineClass.COMMANDER:
                    continue
                mine = [r for r in recorded if r.marine_class is marine_class]
                if killer is not None:
                    theirs = [r for r in claimed if r.marine_class is marine_class]
                    mine = max(theirs, mine, key=_sum)
                by_kind[marine_class].extend(mine)
        excess = 0
        for marine_class in ARMED_CLASSES:
            records = by_kind[marine_class]
            allowed = fielded.of(marine_class)
            found = self.limits.found_weapons if marine_class is MarineClass.EXTRA_HEAVY else 0
            if _sum(records) <= allowed + found:
                continue
            excess += _sum(records) - allowed - found
            self.kind_over(victim, marine_class, allowed, found, records)
        marines = [record for records in by_kind.values() for record in records]
        # Over in all only when bringing each kind within its own limit would not do.
        if _sum(marines) - excess > fielded.marines:
            self.kind_over(victim, None, fielded.marines, 0, marines)
            return True
        return excess > 0

    def kind_over(
        self,
        victim: str,
        marine_class: MarineClass | None,
        allowed: int,
        found: int,
        records: Sequence[_Death],
    ) -> None:
        """Report that more marines of ``marine_class`` (None: of every kind) of ``victim``
        are recorded dead than it fielded (``allowed``, and ``found`` weapons to pick up)."""
        count = _sum(records)
        values = {
            "victim": self.name(victim),
            "fielded": _fielded_phrase(marine_class, allowed),
            "count": count,
            "detail": self.detail(records),
        }
        if found:
            values["found"] = ngettext(
                "%(count)d extra-heavy weapon", "%(count)d extra-heavy weapons", found
            ) % {"count": found}
            message = ngettext(
                "%(victim)s fielded %(fielded)s and the session's special equipment hides "
                "%(found)s, but %(count)d is recorded killed (%(detail)s); correct the kills "
                "or losses that are too many.",
                "%(victim)s fielded %(fielded)s and the session's special equipment hides "
                "%(found)s, but %(count)d are recorded killed (%(detail)s); correct the kills "
                "or losses that are too many.",
                count,
            )
        else:
            message = ngettext(
                "%(victim)s fielded %(fielded)s, but %(count)d is recorded killed "
                "(%(detail)s); correct the kills or losses that are too many.",
                "%(victim)s fielded %(fielded)s, but %(count)d are recorded killed "
                "(%(detail)s); correct the kills or losses that are too many.",
                count,
            )
        code = f"{marine_class.value}_over_fielded" if marine_class else "marines_over_fielded"
        self.add_deaths(code, message % values, records)

    def detail(self, records: Iterable[_Death]) -> str:
        """Who killed the figures of ``records``: "Sergente 3, Tempesta 1, aliens 1", the
        killing seats in seat order, then the aliens and own fire."""
        by_killer: Counter[str | None] = Counter()
        by_cause: Counter[LossCause] = Counter()
        for record in records:
            if record.cause in (None, LossCause.PLAYER):
                by_killer[record.killer] += record.count
            else:
                by_cause[record.cause] += record.count
        order = {breakdown.seat: place for place, breakdown in enumerate(self.breakdowns)}
        killers = sorted(
            (killer for killer in by_killer if killer is not None),
            key=lambda killer: (order.get(killer, len(order)), killer),
        )
        parts = [f"{self.name(killer)} {by_killer[killer]}" for killer in killers]
        if by_killer[None]:
            parts.append(_("a player not named %(count)d") % {"count": by_killer[None]})
        if by_cause[LossCause.ALIEN]:
            parts.append(_("aliens %(count)d") % {"count": by_cause[LossCause.ALIEN]})
        if by_cause[LossCause.OWN_FIRE]:
            parts.append(_("own fire %(count)d") % {"count": by_cause[LossCause.OWN_FIRE]})
        if by_cause[LossCause.LEFT_ON_BOARD]:
            parts.append(
                _("left on the board %(count)d") % {"count": by_cause[LossCause.LEFT_ON_BOARD]}
            )
        return ", ".join(parts)

    # -- aliens ----------------------------------------------------------------------------

    def check_alien_losses(self) -> None:
        """In a session played without aliens no marine can be lost to them."""
        if self.limits.aliens.in_play:
            return
        for breakdown in self.breakdowns:
            for index, loss in enumerate(breakdown.losses):
                if loss.count < 1 or LossCause(loss.cause) is not LossCause.ALIEN:
                    continue
                self.found.append(
                    Implausibility(
                        "losses_without_aliens",
                        _(
                            "This session is played without aliens (its stipulation says so), "
                            "so no marine can be lost to aliens: count this loss as own fire "
                            "or as a kill by another seat, or have the organiser set the "
                            "stipulation right."
                        ),
                        breakdown.seat,
                        "losses",
                        index,
                        "count",
                    )
                )

    def check_tokens(self) -> None:
        pool = self.limits.aliens
        taken: dict[str, list[tuple[str, int, int]]] = defaultdict(list)
        for breakdown in self.breakdowns:
            for index, tokens in enumerate(breakdown.alien_tokens):
                alien = tokens.alien_type
                if alien.lower() in TOKENLESS_ALIENS or tokens.count < 1:
                    continue  # scoring reports these and leaves them out
                if not pool.in_play:
                    self.found.append(
                        Implausibility(
                            "tokens_without_aliens",
                            _(
                                "This session is played without aliens (its stipulation says "
                                "so), so nobody can take alien tokens; remove the %(alien)s "
                                "tokens, or have the organiser set the stipulation right."
                            )
                            % {"alien": alien_label(alien)},
                            breakdown.seat,
                            "alien_tokens",
                            index,
                            "count",
                        )
                    )
                    continue
                self.check_value(breakdown.seat, index, alien, tokens.value)
                taken[alien].append((breakdown.seat, index, tokens.count))
        if pool.markers is None and pool.revealed is None:
            return
        for alien, records in sorted(taken.items()):
            total = sum(count for _seat, _index, count in records)
            markers = pool.available(alien) if pool.markers is not None else 0
            revealed = (pool.revealed or {}).get(alien, 0)
            if total <= max(markers, revealed):
                continue
            by_seat: Counter[str] = Counter()
            for seat, _index, count in records:
                by_seat[seat] += count
            values = {
                "total": total,
                "alien": alien_label(alien),
                "detail": ", ".join(f"{self.name(s)} {count}" for s, count in by_seat.items()),
            }
            if pool.revealed is not None and (pool.markers is None or revealed >= markers):
                message = ngettext(
                    "%(total)d %(alien)s tokens are recorded in all (%(detail)s), but the "
                    "game on the judge's board revealed only %(available)d %(alien)s token; "
                    "correct the counts.",
                    "%(total)d %(alien)s tokens are recorded in all (%(detail)s), but the "
                    "game on the judge's board revealed only %(available)d %(alien)s tokens; "
                    "correct the counts.",
                    revealed,
                ) % {**values, "available": revealed}
            elif pool.equipment.get(alien) or pool.reinforcements.get(alien):
                message = ngettext(
                    "%(total)d %(alien)s tokens are recorded in all (%(detail)s), but this "
                    "session has only %(available)d %(alien)s token to take (%(sources)s); "
                    "correct the counts.",
                    "%(total)d %(alien)s tokens are recorded in all (%(detail)s), but this "
                    "session has only %(available)d %(alien)s tokens to take (%(sources)s); "
                    "correct the counts.",
                    markers,
                ) % {**values, "available": markers, "sources": self.token_sources(alien)}
            else:
                message = ngettext(
                    "%(total)d %(alien)s tokens are recorded in all (%(detail)s), but the map "
                    "%(map)s has only %(available)d %(alien)s marker; correct the counts.",
                    "%(total)d %(alien)s tokens are recorded in all (%(detail)s), but the map "
                    "%(map)s has only %(available)d %(alien)s markers; correct the counts.",
                    markers,
                ) % {**values, "map": pool.map_name, "available": markers}
            for seat, index, _count in records:
                self.found.append(
                    Implausibility(
                        "tokens_over_markers", message, seat, "alien_tokens", index, "count"
                    )
                )

    def token_sources(self, alien: str) -> str:
        """Where a session's tokens of ``alien`` come from: "3 markers on the map Relay, 1
        of them hiding special equipment, 2 reinforcement tokens"."""
        pool = self.limits.aliens
        markers = (pool.markers or {}).get(alien, 0)
        parts = [
            ngettext(
                "%(count)d marker on the map %(map)s",
                "%(count)d markers on the map %(map)s",
                markers,
            )
            % {"count": markers, "map": pool.map_name}
        ]
        if hidden := pool.equipment.get(alien, 0):
            parts.append(
                ngettext(
                    "%(count)d of them hiding special equipment",
                    "%(count)d of them hiding special equipment",
                    hidden,
                )
                % {"count": hidden}
            )
        if reinforcements := pool.reinforcements.get(alien, 0):
            parts.append(
                ngettext(
                    "%(count)d reinforcement token",
                    "%(count)d reinforcement tokens",
                    reinforcements,
                )
                % {"count": reinforcements}
            )
        return ", ".join(parts)

    def check_value(self, seat: str, index: int, alien: str, value: int) -> None:
        values = self.limits.aliens.values
        if values is None:
            return
        allowed = values.get(alien)
        if allowed is None:
            self.found.append(
                Implausibility(
                    "unknown_alien",
                    _(
                        "“%(alien)s” is no alien type of the tournament's rules data; use one "
                        "of %(known)s."
                    )
                    % {"alien": alien, "known": ", ".join(sorted(values))},
                    seat,
                    "alien_tokens",
                    index,
                    "alien_type",
                )
            )
        elif value not in allowed:
            self.found.append(
                Implausibility(
                    "token_value",
                    ngettext(
                        "%(alien)s tokens are worth %(allowed)s point each in this tournament, "
                        "not %(value)d; type that value (the organiser changes token values in "
                        "the tournament's rules data).",
                        "%(alien)s tokens are worth %(allowed)s points each in this tournament, "
                        "not %(value)d; type that value (the organiser changes token values in "
                        "the tournament's rules data).",
                        max(allowed),
                    )
                    % {
                        "alien": alien_label(alien),
                        "allowed": either(sorted(allowed)),
                        "value": value,
                    },
                    seat,
                    "alien_tokens",
                    index,
                    "value",
                )
            )


def either(values: Sequence[int]) -> str:
    """``2``, or ``25, 30 or 40``: the values a judge may type, in the active language."""
    texts = [str(value) for value in values]
    if len(texts) == 1:
        return texts[0]
    return _("%(some)s or %(last)s") % {"some": ", ".join(texts[:-1]), "last": texts[-1]}


def token_values_text(values: Mapping[str, frozenset[int]] | None) -> str:
    """What each alien's tokens are worth in a session, e.g. "Ork 2, Android 5", as the
    result form and the printed score sheet give it (empty when not known)."""
    if not values:
        return ""
    return ", ".join(
        f"{label} {either(sorted(values[alien]))}"
        for alien, label in TOKEN_ALIEN_LABELS.items()
        if alien in values
    )


def check_result(
    breakdowns: Sequence[SeatBreakdown],
    survivors: Iterable[str],
    limits: SessionLimits,
    names: Mapping[str, str] | None = None,
    *,
    both_sides: bool = False,
) -> list[Implausibility]:
    """Every way the seats' ``breakdowns`` and ``survivors`` (seat ids) break the rules of
    ``limits``; empty when the result is plausible. ``names`` are the seats' names for the
    messages (their ids otherwise). ``both_sides``: each kill is typed twice, by the killer
    and as the victim's loss (the JSON breakdowns, imports), so the two must agree; the
    judge's form types it once and derives the loss."""
    names = names or {}
    alive = {str(seat) for seat in survivors}
    checker = _Checker(breakdowns, limits, names)
    checker.check_counts()
    checker.check_marines(alive)
    if both_sides:
        checker.check_kills_match()
    checker.check_alien_losses()
    checker.check_tokens()
    return checker.found + check_stipulation(
        breakdowns, alive, limits.scoring, limits.flag_spots, limits.forfeits, names
    )
