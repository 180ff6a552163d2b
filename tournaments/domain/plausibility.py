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
* alien tokens: none when the session is played without aliens; of each alien type, at
  most as many in all as the session's map has markers of that type (when the map is one
  the app knows); each worth a value the tournament's rules data gives that type (the
  Dreadnought: its token value or a Dreadnought class value, RULES §7).

Each :class:`Implausibility` names the seat whose record breaks the rule and the entry
(the :class:`~tournaments.domain.scoring.SeatBreakdown` field, the index in it and the
part), so every entry point can put the message where the value was typed.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from rules.engine.board import Board
from rules.engine.units import RulesData, RulesDataError, load_rules_data
from tournaments.domain.ranking import StipulationKind
from tournaments.domain.scoring import (
    TOKENLESS_ALIENS,
    LossCause,
    MarineClass,
    SeatBreakdown,
    alien_label,
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
    knows, so counts are not checked), ``map_name`` names that map in messages. ``values``
    are the points a token of each type may be worth (None: not checked).
    """

    in_play: bool = True
    markers: Mapping[str, int] | None = None
    map_name: str = ""
    values: Mapping[str, frozenset[int]] | None = None

    def default_value(self, alien_type: str) -> int | None:
        """The value of a token of ``alien_type`` when the rules data gives only one."""
        allowed = (self.values or {}).get(alien_type)
        return next(iter(allowed)) if allowed is not None and len(allowed) == 1 else None


@dataclass(frozen=True)
class SessionLimits:
    """What the rules allow in one session: figures per squad and the alien pool."""

    figures: int = SQUAD_FIGURES
    aliens: AlienPool = field(default_factory=AlienPool)


@dataclass(frozen=True)
class Implausibility:
    """A recorded value the game cannot have produced.

    ``seat`` is the seat whose record holds it, ``entry`` the breakdown field (``kills``,
    ``losses``, ``dreadnoughts``, ``alien_tokens``) or ``survived`` (the seat's place in the
    survivors), ``index`` the position in that field's list and ``part`` the value in the
    entry (``count``, ``value``, ``alien_type``), when the rule is about one of them.
    """

    code: str
    message: str
    seat: str
    entry: str
    index: int | None = None
    part: str | None = None


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
) -> SessionLimits:
    """The limits of a session from its stipulation, its map (its name, and its ``board``
    when the app knows the map: the tournament's own or a shipped one) and the
    tournament's rules data overrides. Token values are not checked when the overrides are
    invalid (the organiser is told where they are edited, not the judge at the table)."""
    in_play = aliens_in_play(stipulation_kind, params)
    try:
        values: Mapping[str, frozenset[int]] | None = token_values(
            load_rules_data(dict(data_overrides) if data_overrides else None)
        )
    except RulesDataError:
        values = None
    return SessionLimits(
        figures=squad_figures(stipulation_kind),
        aliens=AlienPool(
            in_play=in_play,
            markers=map_markers(board) if in_play else None,
            map_name=map_name,
            values=values,
        ),
    )


@dataclass(frozen=True)
class _Death:
    """Figures of a squad recorded dead by one record: where, how many, how many commanders."""

    seat: str
    entry: str
    index: int
    count: int
    commanders: int
    killer: str | None


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

    # -- marines ---------------------------------------------------------------------------

    def kills_by(self) -> dict[tuple[str, str], list[_Death]]:
        """(killer, victim) -> the killer's records of the victim's figures it killed."""
        kills: dict[tuple[str, str], list[_Death]] = defaultdict(list)
        for breakdown in self.breakdowns:
            for index, kill in enumerate(breakdown.kills):
                if kill.count >= 1 and kill.victim != breakdown.seat:
                    commander = MarineClass(kill.marine_class) is MarineClass.COMMANDER
                    kills[(breakdown.seat, kill.victim)].append(
                        _Death(
                            breakdown.seat,
                            "kills",
                            index,
                            kill.count,
                            kill.count if commander else 0,
                            breakdown.seat,
                        )
                    )
            for index, dreadnought in enumerate(breakdown.dreadnoughts):
                if dreadnought.owner != breakdown.seat:
                    kills[(breakdown.seat, dreadnought.owner)].append(
                        _Death(breakdown.seat, "dreadnoughts", index, 1, 0, breakdown.seat)
                    )
        return kills

    def losses_of(self, breakdown: SeatBreakdown) -> list[_Death]:
        deaths = []
        for index, loss in enumerate(breakdown.losses):
            if loss.count < 1:
                continue
            commander = MarineClass(loss.marine_class) is MarineClass.COMMANDER
            killer = loss.killer if LossCause(loss.cause) is LossCause.PLAYER else None
            deaths.append(
                _Death(
                    breakdown.seat,
                    "losses",
                    index,
                    loss.count,
                    loss.count if commander else 0,
                    killer,
                )
            )
        return deaths

    def check_marines(self, survivors: set[str]) -> None:
        figures = self.limits.figures
        kills = self.kills_by()
        for (killer, victim), records in sorted(kills.items()):
            if victim not in self.seats:
                continue  # scoring reports a kill of a seat that is not in the session
            count = sum(record.count for record in records)
            places = [(r.seat, r.entry, r.index) for r in records]
            if count > figures:
                self.add(
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
                    places,
                )
            if sum(record.commanders for record in records) > 1:
                self.add(
                    "commander_twice",
                    _(
                        "%(killer)s is recorded killing the commander of %(victim)s more than "
                        "once, but a squad has one commander; make that count 1."
                    )
                    % {"killer": self.name(killer), "victim": self.name(victim)},
                    [(r.seat, r.entry, r.index) for r in records if r.commanders],
                )
        for breakdown in self.breakdowns:
            self.check_squad(breakdown, kills, survivors)

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
        by_killer: dict[str | None, list[_Death]] = defaultdict(list)
        for loss in self.losses_of(breakdown):
            known = loss.killer in self.seats and loss.killer != victim
            by_killer[loss.killer if known else None].append(loss)
        counted: list[_Death] = []
        parts: list[str] = []
        for killer in sorted(self.seats - {victim}):
            claimed = kills.get((killer, victim), [])
            recorded = by_killer.get(killer, [])
            larger = max(claimed, recorded, key=lambda side: sum(r.count for r in side))
            if larger:
                counted.extend(larger)
                parts.append(f"{self.name(killer)} {sum(r.count for r in larger)}")
        unattributed = by_killer.get(None, [])
        if unattributed:
            counted.extend(unattributed)
            parts.append(
                _("aliens or own fire %(count)d") % {"count": sum(r.count for r in unattributed)}
            )
        total = sum(record.count for record in counted)
        commanders = sum(record.commanders for record in counted)
        places = [(r.seat, r.entry, r.index) for r in counted]
        over_one_killer = any(
            sum(r.count for r in kills.get((killer, victim), [])) > figures for killer in self.seats
        )
        if total > figures and not over_one_killer:
            self.add(
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
                places,
            )
        if commanders > 1 and not any(
            sum(r.commanders for r in kills.get((killer, victim), [])) > 1 for killer in self.seats
        ):
            self.add(
                "commander_dead_twice",
                _(
                    "The commander of %(victim)s is recorded dead %(count)d times, but a squad "
                    "has one commander; keep the commander in one count only."
                )
                % {"victim": self.name(victim), "count": commanders},
                [(r.seat, r.entry, r.index) for r in counted if r.commanders],
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

    # -- alien tokens ----------------------------------------------------------------------

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
        if pool.markers is None:
            return
        for alien, records in sorted(taken.items()):
            total = sum(count for _seat, _index, count in records)
            available = pool.markers.get(alien, 0)
            if total <= available:
                continue
            by_seat: Counter[str] = Counter()
            for seat, _index, count in records:
                by_seat[seat] += count
            detail = ", ".join(f"{self.name(seat)} {count}" for seat, count in by_seat.items())
            message = ngettext(
                "%(total)d %(alien)s tokens are recorded in all (%(detail)s), but the map "
                "%(map)s has only %(available)d %(alien)s marker; correct the counts.",
                "%(total)d %(alien)s tokens are recorded in all (%(detail)s), but the map "
                "%(map)s has only %(available)d %(alien)s markers; correct the counts.",
                available,
            )
            for seat, index, _count in records:
                self.found.append(
                    Implausibility(
                        "tokens_over_markers",
                        message
                        % {
                            "total": total,
                            "alien": alien_label(alien),
                            "detail": detail,
                            "map": pool.map_name,
                            "available": available,
                        },
                        seat,
                        "alien_tokens",
                        index,
                        "count",
                    )
                )

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


def check_result(
    breakdowns: Sequence[SeatBreakdown],
    survivors: Iterable[str],
    limits: SessionLimits,
    names: Mapping[str, str] | None = None,
) -> list[Implausibility]:
    """Every way the seats' ``breakdowns`` and ``survivors`` (seat ids) break the rules of
    ``limits``; empty when the result is plausible. ``names`` are the seats' names for the
    messages (their ids otherwise)."""
    checker = _Checker(breakdowns, limits, names or {})
    checker.check_marines({str(seat) for seat in survivors})
    checker.check_tokens()
    return checker.found
