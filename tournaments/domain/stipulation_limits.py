"""What a session's stipulation lets a result score beside kills and alien tokens
(RULES §6, §7), and who may be marked alive at its end.

:mod:`tournaments.domain.plausibility` checks the figures and the tokens; this module checks
the rest of a result against the stipulation the session was played with:

* **stall breaker** (TPK and Extended TPK, when the stipulation sets one): a squad scores
  +B or -B in each round from R to R+K, B growing by ``growth`` each round, once per round;
  no stipulation without it gives stall-breaker points;
* **objectives**: in Catch the Flag an objective is a flag brought home, worth the
  stipulation's ``flag_value`` (a row may hold several flags: a multiple of it); the flags
  brought home in all are at most the flags it places (one per squad, two for three
  squads, or one; no more than the map's flag spots). Alien Hunt, TPK and Extended TPK
  set no objective (RULES §6, seed 002), so they give no objective points at all;
* **vehicles**: a Tarantula or a Dreadnought a marine pilots is found through special
  equipment (RULES §10), so the session's ``equipment_blips`` bound how many can be
  destroyed, and a Tarantula gunner dies only where there is a Tarantula; a piloted
  Dreadnought destroyed is worth the session's Dreadnought class value (RULES §7: the
  stipulation's ``dreadnought_value``, else its class's value in the tournament's rules
  data, as the board plays it);
* **forfeits**: a squad that forfeited left play, so it has no marine in play at the end; a
  player declared a no-show, or withdrawn before the session started, never played in it,
  so nothing is recorded for or against them;
* **last squad standing**: a TPK without the stall breaker goes on until at most one squad
  has a marine in play (the engine's ``_tpk_end``), so no two squads survive it.

:func:`result_parts` says from the same facts which parts of a result a session can hold at
all, so the judge's form and the printed score sheet offer only those (decision 79).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from rules.engine.flags import FLAG_COUNTS
from rules.engine.play.blips import ABANDONED_DREADNOUGHT
from rules.engine.tarantula import TARANTULA
from rules.engine.units import RulesData
from tournaments.domain.implausibility import Implausibility
from tournaments.domain.ranking import LAST_SQUAD_STANDING, StipulationKind
from tournaments.domain.scoring import MarineClass, SeatBreakdown

#: The ``Forfeit`` value of a player who did not show up (``tournaments.models.Forfeit``).
NO_SHOW = "no_show"
#: The ``Forfeit`` value of a player withdrawn before the session started (decision 65).
WITHDRAWN_UNPLAYED = "not_played"


@dataclass(frozen=True)
class StallBreaker:
    """The TPK stall breaker of a stipulation (RULES §6): from round ``from_round`` (R) each
    squad gains or loses ``points`` (B), B growing by ``growth`` each round, until round
    R + ``max_extra_rounds`` (K)."""

    from_round: int
    points: int
    growth: int = 0
    max_extra_rounds: int = 0

    @property
    def last_round(self) -> int:
        return self.from_round + self.max_extra_rounds

    def worth(self, round_number: int) -> int:
        """B in ``round_number``: what a squad gains, or loses, in that round."""
        return self.points + self.growth * (round_number - self.from_round)


@dataclass(frozen=True)
class StipulationScoring:
    """What a session's stipulation scores beside kills and tokens, from its type
    (``kind``) and parameters: the stall breaker (None: it has none), the rule placing its
    flags (``flags``, a key of the engine's ``FLAG_COUNTS``; empty: no flag, so no
    objective) and what one brought home is worth (``flag_value``; 0: not known), and the
    vehicles its special-equipment blips hide (``tarantulas``; ``dreadnoughts``: abandoned
    ones a marine may pilot) and the class value of such a Dreadnought
    (``dreadnought_value``; 0: not known), or the class named for it that the tournament
    does not have (``unknown_dreadnought_class``)."""

    kind: str
    stall_breaker: StallBreaker | None = None
    flags: str = ""
    flag_value: int = 0
    tarantulas: int = 0
    dreadnoughts: int = 0
    dreadnought_value: int = 0
    unknown_dreadnought_class: str = ""

    @property
    def scores_objectives(self) -> bool:
        """Whether an objective can score: only Catch the Flag places flags (decision 71)."""
        return bool(self.flags)

    @property
    def has_tarantulas(self) -> bool:
        """Whether a Tarantula (and so its gunner) can be in play: its special equipment
        hides one."""
        return self.tarantulas > 0

    @property
    def has_dreadnoughts(self) -> bool:
        """Whether a marine can pilot a Dreadnought: its special equipment hides one."""
        return self.dreadnoughts > 0


@dataclass(frozen=True)
class ResultParts:
    """Which parts of a result a session can hold beside kills of marines and losses to own
    fire (decision 79): alien tokens and losses to aliens (``aliens``), objectives,
    Tarantulas destroyed and gunners killed (``tarantulas``), piloted Dreadnoughts
    destroyed and stall-breaker rounds. The checks refuse anything recorded in a part that
    is False, so the judge's form and the printed score sheet leave it out, but for a
    version that already holds some (saved before the check)."""

    aliens: bool = True
    objectives: bool = True
    tarantulas: bool = True
    dreadnoughts: bool = True
    stall_breaker: bool = True

    def allows(self, entry: str) -> bool:
        """Whether a :class:`~tournaments.domain.scoring.SeatBreakdown` field (``entry``,
        e.g. ``"objectives"``) can hold anything in this session; kills and losses always
        can."""
        part = _PART_OF_ENTRY.get(entry)
        return part is None or bool(getattr(self, part))


#: The :class:`ResultParts` attribute deciding each breakdown field it rules on.
_PART_OF_ENTRY = {
    "alien_tokens": "aliens",
    "objectives": "objectives",
    "tarantulas": "tarantulas",
    "dreadnoughts": "dreadnoughts",
    "stall_breaker": "stall_breaker",
}


def result_parts(scoring: StipulationScoring | None, aliens: bool) -> ResultParts:
    """The parts of a result a session can hold, from what its stipulation scores
    (``scoring``; None: a stipulation the app does not know, nothing of it is ruled out)
    and whether it is played with aliens (``aliens``, decision 30): what the checks of
    this module and of :mod:`tournaments.domain.plausibility` let through."""
    if scoring is None:
        return ResultParts(aliens=aliens)
    return ResultParts(
        aliens=aliens,
        objectives=scoring.scores_objectives,
        tarantulas=scoring.has_tarantulas,
        dreadnoughts=scoring.has_dreadnoughts,
        stall_breaker=scoring.stall_breaker is not None,
    )


def _whole(value: Any, default: int = 0) -> int:
    """A stipulation parameter read as a whole number (``default`` when it is none)."""
    return value if isinstance(value, int) and not isinstance(value, bool) else default


def stall_breaker(params: Mapping[str, Any] | None) -> StallBreaker | None:
    """The stall breaker of a TPK stipulation's ``params`` (None: it has none)."""
    stall = (params or {}).get("stall_breaker")
    if not isinstance(stall, Mapping) or not stall:
        return None
    return StallBreaker(
        from_round=_whole(stall.get("from_round"), 1),
        points=_whole(stall.get("points")),
        growth=_whole(stall.get("growth")),
        max_extra_rounds=_whole(stall.get("max_extra_rounds")),
    )


def dreadnought_value(params: Mapping[str, Any], rules: RulesData | None) -> int:
    """The class value of the session's Dreadnought, which a marine may pilot (RULES §7,
    §10): the stipulation's ``dreadnought_value``, else the value its
    ``dreadnought_class`` has in ``rules`` (the tournament's rules data), the first class
    of the data when it names none, as the engine places an abandoned one
    (``table/session_material.py``, ``spawn_alien``); 0 when ``rules`` is None (the
    tournament's rules data do not load), has no class, or lacks the class named
    (:func:`unknown_dreadnought_class`: never another class's value)."""
    value = params.get("dreadnought_value")
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if rules is None or not rules.dreadnought_classes:
        return 0
    named = str(params.get("dreadnought_class") or "")
    if not named:
        return next(iter(rules.dreadnought_classes.values())).class_value
    spec = rules.dreadnought_classes.get(named)
    return spec.class_value if spec is not None else 0


def unknown_dreadnought_class(params: Mapping[str, Any], rules: RulesData | None) -> str:
    """The Dreadnought class the stipulation's ``params`` name for its value that ``rules``
    (the tournament's rules data) do not have, its house rules having removed it (decision
    78); empty when it names none, gives the value itself, or the class is known."""
    value = params.get("dreadnought_value")
    if rules is None or (isinstance(value, int) and not isinstance(value, bool)):
        return ""
    named = str(params.get("dreadnought_class") or "")
    return named if named and named not in rules.dreadnought_classes else ""


def stipulation_scoring(
    stipulation_kind: str, params: Mapping[str, Any] | None, rules: RulesData | None = None
) -> StipulationScoring | None:
    """What a stipulation of ``stipulation_kind`` with ``params`` scores beside kills and
    tokens (None: no stipulation the app knows, so nothing is checked), with the
    tournament's ``rules`` data (None: not known, the Dreadnought's class value is not
    checked)."""
    if stipulation_kind not in {kind.value for kind in StipulationKind}:
        return None
    params = params or {}
    hidden = params.get("equipment_blips")
    items = [str(item) for item in hidden.values()] if isinstance(hidden, Mapping) else []
    flags = ""
    if stipulation_kind == StipulationKind.CATCH_THE_FLAG:
        flags = str(params.get("flags") or "one_per_squad")
        flags = flags if flags in FLAG_COUNTS else "one_per_squad"
    last_squad = stipulation_kind in LAST_SQUAD_STANDING
    return StipulationScoring(
        kind=stipulation_kind,
        stall_breaker=stall_breaker(params) if last_squad else None,
        flags=flags,
        flag_value=_whole(params.get("flag_value")),
        tarantulas=items.count(TARANTULA),
        dreadnoughts=items.count(ABANDONED_DREADNOUGHT),
        dreadnought_value=dreadnought_value(params, rules),
        unknown_dreadnought_class=unknown_dreadnought_class(params, rules),
    )


class _StipulationChecker:
    def __init__(
        self,
        breakdowns: Sequence[SeatBreakdown],
        scoring: StipulationScoring,
        names: Mapping[str, str],
    ) -> None:
        self.breakdowns = breakdowns
        self.scoring = scoring
        self.names = names
        self.found: list[Implausibility] = []

    def name(self, seat: str) -> str:
        return self.names.get(seat, seat)

    def add(
        self,
        code: str,
        message: str,
        places: Iterable[tuple[str, str, int | None]],
        part: str | None = None,
    ) -> None:
        for seat, entry, index in places:
            self.found.append(Implausibility(code, message, seat, entry, index, part))

    # -- the stall breaker -----------------------------------------------------------------

    def check_stall(self) -> None:
        rule = self.scoring.stall_breaker
        for breakdown in self.breakdowns:
            rounds: set[int] = set()
            for index, stall in enumerate(breakdown.stall_breaker):
                place = [(breakdown.seat, "stall_breaker", index)]
                if rule is None:
                    if stall.points:
                        self.add(
                            "stall_without_rule",
                            _(
                                "%(points)d stall-breaker points are recorded for round "
                                "%(round)d, but this session's stipulation has no stall "
                                "breaker (only a TPK may have one, when the organiser sets "
                                "it); remove the row."
                            )
                            % {"points": stall.points, "round": stall.round},
                            place,
                            "points",
                        )
                    continue
                if not rule.from_round <= stall.round <= rule.last_round:
                    self.add(
                        "stall_round",
                        _(
                            "The stall breaker of this session scores from round %(first)d "
                            "to round %(last)d, so round %(round)d has no stall-breaker "
                            "points; correct the round."
                        )
                        % {"first": rule.from_round, "last": rule.last_round, "round": stall.round},
                        place,
                        "round",
                    )
                elif stall.round in rounds:
                    self.add(
                        "stall_round_twice",
                        _(
                            "Round %(round)d of the stall breaker is recorded twice for "
                            "%(seat)s, but a squad scores it once a round; keep one row."
                        )
                        % {"round": stall.round, "seat": self.name(breakdown.seat)},
                        place,
                        "round",
                    )
                elif abs(stall.points) != abs(rule.worth(stall.round)):
                    worth = abs(rule.worth(stall.round))
                    self.add(
                        "stall_points",
                        _(
                            "In round %(round)d the stall breaker gives a squad +%(worth)d "
                            "or -%(worth)d, not %(points)d; type one of them."
                        )
                        % {"round": stall.round, "worth": worth, "points": stall.points},
                        place,
                        "points",
                    )
                rounds.add(stall.round)

    # -- objectives ------------------------------------------------------------------------

    def check_objectives(self, flag_spots: int | None) -> None:
        scoring = self.scoring
        if not scoring.scores_objectives:
            self.check_no_objectives()
            return
        flags: list[tuple[str, int, int]] = []
        for breakdown in self.breakdowns:
            for index, objective in enumerate(breakdown.objectives):
                place = [(breakdown.seat, "objectives", index)]
                if not objective.points:
                    continue
                value = scoring.flag_value
                if value < 1:
                    continue
                if objective.points < 0 or objective.points % value:
                    self.add(
                        "flag_value",
                        ngettext(
                            "A flag brought home is worth %(value)d point in this session, so "
                            "%(points)d objective points are no number of flags; type "
                            "%(value)d for each flag.",
                            "A flag brought home is worth %(value)d points in this session, "
                            "so %(points)d objective points are no number of flags; type "
                            "%(value)d for each flag.",
                            value,
                        )
                        % {"value": value, "points": objective.points},
                        place,
                        "points",
                    )
                    continue
                flags.append((breakdown.seat, index, objective.points // value))
        placed = FLAG_COUNTS[scoring.flags](len(self.breakdowns))
        if flag_spots is not None:
            placed = min(placed, flag_spots)
        total = sum(count for _seat, _index, count in flags)
        if total <= placed:
            return
        by_seat: Counter[str] = Counter()
        for seat, _index, count in flags:
            by_seat[seat] += count
        message = ngettext(
            "%(total)d flags are recorded brought home in all (%(detail)s), but this session "
            "places only %(placed)d flag and each is brought home once; correct the "
            "objectives.",
            "%(total)d flags are recorded brought home in all (%(detail)s), but this session "
            "places only %(placed)d flags and each is brought home once; correct the "
            "objectives.",
            placed,
        ) % {
            "total": total,
            "placed": placed,
            "detail": ", ".join(f"{self.name(seat)} {count}" for seat, count in by_seat.items()),
        }
        self.add(
            "flags_over",
            message,
            [(seat, "objectives", index) for seat, index, _count in flags],
            "points",
        )

    def stipulation_name(self) -> str:
        """The name of the session's stipulation type, as the organiser's menus give it."""
        if self.scoring.kind == StipulationKind.EXTENDED_TPK:
            return _("Extended TPK")
        return _("TPK") if self.scoring.kind == StipulationKind.TPK else _("Alien Hunt")

    def check_no_objectives(self) -> None:
        """Alien Hunt, TPK and Extended TPK set no objective (decisions 71-72): a row of
        objective points other than 0 scores what the game never gave."""
        last_squad = self.scoring.kind in LAST_SQUAD_STANDING
        for breakdown in self.breakdowns:
            for index, objective in enumerate(breakdown.objectives):
                if not objective.points:
                    continue
                if last_squad:
                    message = ngettext(
                        "%(points)d objective point is recorded for %(seat)s, but "
                        "%(stipulation)s sets no objective: a squad scores only by kills, by "
                        "alien tokens when aliens are in play and by the stall breaker when the "
                        "organiser sets one (its own rows); remove the row.",
                        "%(points)d objective points are recorded for %(seat)s, but "
                        "%(stipulation)s sets no objective: a squad scores only by kills, by "
                        "alien tokens when aliens are in play and by the stall breaker when the "
                        "organiser sets one (its own rows); remove the row.",
                        abs(objective.points),
                    )
                else:
                    message = ngettext(
                        "%(points)d objective point is recorded for %(seat)s, but "
                        "%(stipulation)s sets no objective: a squad scores only by killing "
                        "marines and aliens (their tokens), and reaching the docking claws at "
                        "the end scores nothing; remove the row.",
                        "%(points)d objective points are recorded for %(seat)s, but "
                        "%(stipulation)s sets no objective: a squad scores only by killing "
                        "marines and aliens (their tokens), and reaching the docking claws at "
                        "the end scores nothing; remove the row.",
                        abs(objective.points),
                    )
                values = {
                    "points": objective.points,
                    "seat": self.name(breakdown.seat),
                    "stipulation": self.stipulation_name(),
                }
                self.add(
                    "objective_without_rule",
                    message % values,
                    [(breakdown.seat, "objectives", index)],
                    "points",
                )

    # -- vehicles --------------------------------------------------------------------------

    def check_vehicles(self) -> None:
        tarantulas = [
            (breakdown.seat, "tarantulas", index, entry.count)
            for breakdown in self.breakdowns
            for index, entry in enumerate(breakdown.tarantulas)
            if entry.count >= 1
        ]
        dreadnoughts = [
            (breakdown.seat, "dreadnoughts", index, 1)
            for breakdown in self.breakdowns
            for index, _entry in enumerate(breakdown.dreadnoughts)
        ]
        hidden = self.scoring.tarantulas
        total = sum(count for *_place, count in tarantulas)
        if total > hidden:
            values = {"total": total, "hidden": hidden, "detail": self.detail(tarantulas)}
            if hidden:
                message = ngettext(
                    "%(total)d Tarantulas are recorded destroyed in all (%(detail)s), but "
                    "this session's special equipment hides only %(hidden)d Tarantula; "
                    "correct the counts.",
                    "%(total)d Tarantulas are recorded destroyed in all (%(detail)s), but "
                    "this session's special equipment hides only %(hidden)d Tarantulas; "
                    "correct the counts.",
                    hidden,
                )
            else:
                message = ngettext(
                    "%(total)d Tarantula is recorded destroyed (%(detail)s), but no "
                    "Tarantula is among this session's special equipment, so none was in "
                    "play; remove it, or have the organiser set the special equipment.",
                    "%(total)d Tarantulas are recorded destroyed (%(detail)s), but no "
                    "Tarantula is among this session's special equipment, so none was in "
                    "play; remove them, or have the organiser set the special equipment.",
                    total,
                )
            self.add("tarantulas_over", message % values, self.places(tarantulas), "count")
        hidden = self.scoring.dreadnoughts
        if len(dreadnoughts) > hidden:
            values = {
                "total": len(dreadnoughts),
                "hidden": hidden,
                "detail": self.detail(dreadnoughts),
            }
            if hidden:
                message = ngettext(
                    "%(total)d piloted Dreadnoughts are recorded destroyed in all "
                    "(%(detail)s), but this session's special equipment hides only "
                    "%(hidden)d abandoned Dreadnought; correct the rows.",
                    "%(total)d piloted Dreadnoughts are recorded destroyed in all "
                    "(%(detail)s), but this session's special equipment hides only "
                    "%(hidden)d abandoned Dreadnoughts; correct the rows.",
                    hidden,
                )
            else:
                message = ngettext(
                    "%(total)d piloted Dreadnought is recorded destroyed (%(detail)s), but "
                    "no abandoned Dreadnought is among this session's special equipment, so "
                    "no marine piloted one; remove the row, or have the organiser set the "
                    "special equipment.",
                    "%(total)d piloted Dreadnoughts are recorded destroyed (%(detail)s), but "
                    "no abandoned Dreadnought is among this session's special equipment, so "
                    "no marine piloted one; remove the rows, or have the organiser set the "
                    "special equipment.",
                    len(dreadnoughts),
                )
            self.add("dreadnoughts_over", message % values, self.places(dreadnoughts), "owner")
        if not self.scoring.has_tarantulas:
            self.check_gunners()
        self.check_dreadnought_value()

    def check_dreadnought_value(self) -> None:
        """A piloted Dreadnought destroyed scores the session's Dreadnought class value."""
        unknown = self.scoring.unknown_dreadnought_class
        if unknown:
            self.add(
                "dreadnought_class_unknown",
                _(
                    "This session's stipulation names the Dreadnought class “%(key)s”, which "
                    "the tournament's rules data no longer have (its house rules removed it), "
                    "so what a piloted one is worth is not known: the organiser chooses one of "
                    "the tournament's classes in the session's stipulation; then save again."
                )
                % {"key": unknown},
                [
                    (breakdown.seat, "dreadnoughts", index)
                    for breakdown in self.breakdowns
                    for index in range(len(breakdown.dreadnoughts))
                ],
                "value",
            )
            return
        value = self.scoring.dreadnought_value
        if value < 1:
            return
        for breakdown in self.breakdowns:
            for index, entry in enumerate(breakdown.dreadnoughts):
                if entry.class_value == value:
                    continue
                self.add(
                    "dreadnought_class_value",
                    _(
                        "The Dreadnought a marine pilots in this session has class value "
                        "%(value)d, not %(typed)d: destroying it scores that value and the "
                        "pilot's; type %(value)d (the organiser sets the Dreadnought in the "
                        "session's stipulation)."
                    )
                    % {"value": value, "typed": entry.class_value},
                    [(breakdown.seat, "dreadnoughts", index)],
                    "value",
                )

    def check_gunners(self) -> None:
        """With no Tarantula in the session no marine died as its gunner."""
        message = _(
            "No Tarantula is among this session's special equipment, so no marine died as "
            "its gunner; count him by the weapon he carried."
        )
        for breakdown in self.breakdowns:
            for entry_name in ("kills", "losses"):
                for index, entry in enumerate(getattr(breakdown, entry_name)):
                    if entry.count >= 1 and MarineClass(entry.marine_class) is MarineClass.GUNNER:
                        self.add(
                            "gunner_without_tarantula",
                            message,
                            [(breakdown.seat, entry_name, index)],
                            "count",
                        )

    def detail(self, records: Sequence[tuple[str, str, int, int]]) -> str:
        by_seat: Counter[str] = Counter()
        for seat, _entry, _index, count in records:
            by_seat[seat] += count
        return ", ".join(f"{self.name(seat)} {count}" for seat, count in by_seat.items())

    @staticmethod
    def places(records: Sequence[tuple[str, str, int, int]]) -> list[tuple[str, str, int | None]]:
        return [(seat, entry, index) for seat, entry, index, _count in records]

    # -- who was in play at the end --------------------------------------------------------

    def check_survivors(self, survivors: set[str], forfeits: Mapping[str, str]) -> None:
        for seat in sorted(survivors & set(forfeits)):
            self.found.append(
                Implausibility(
                    "forfeit_survivor",
                    _(
                        "%(seat)s forfeited this session, so their figures left play and "
                        "none was in play at the end; untick it."
                    )
                    % {"seat": self.name(seat)},
                    seat,
                    "survived",
                )
            )
        standing = [
            breakdown.seat
            for breakdown in self.breakdowns
            if breakdown.seat in survivors and breakdown.seat not in forfeits
        ]
        if (
            self.scoring.kind in LAST_SQUAD_STANDING
            and self.scoring.stall_breaker is None
            and len(standing) > 1
        ):
            message = _(
                "%(seats)s are all marked as still having a marine in play at the end, but a "
                "TPK without the stall breaker goes on until one squad at most is left; "
                "untick the squads that were eliminated."
            ) % {"seats": ", ".join(self.name(seat) for seat in standing)}
            for seat in standing:
                self.found.append(Implausibility("tpk_survivors", message, seat, "survived"))

    def check_no_shows(self, forfeits: Mapping[str, str]) -> None:
        """A player who did not show up, or withdrew before the session started, played no
        part: nothing of theirs, nothing of another seat against them."""
        absent = {
            seat: forfeit
            for seat, forfeit in forfeits.items()
            if forfeit in (NO_SHOW, WITHDRAWN_UNPLAYED)
        }
        for breakdown in self.breakdowns:
            for entry_name, part in (
                ("kills", "count"),
                ("losses", "count"),
                ("tarantulas", "count"),
                ("dreadnoughts", "owner"),
                ("alien_tokens", "count"),
                ("objectives", "points"),
                ("stall_breaker", "points"),
            ):
                for index, entry in enumerate(getattr(breakdown, entry_name)):
                    against = getattr(entry, "victim", None) or getattr(entry, "owner", None)
                    if breakdown.seat in absent and _counts(entry):
                        seat = breakdown.seat
                    elif against in absent and _counts(entry):
                        seat = str(against)
                    else:
                        continue
                    if absent[seat] == NO_SHOW:
                        code = "no_show_recorded"
                        message = _(
                            "%(seat)s did not show up for this session (a no-show), so "
                            "nothing happened to or by their squad; remove this entry."
                        )
                    else:
                        code = "unplayed_recorded"
                        message = _(
                            "%(seat)s withdrew before this session started, so their squad "
                            "never played in it and nothing happened to or by it; remove "
                            "this entry."
                        )
                    self.add(
                        code,
                        message % {"seat": self.name(seat)},
                        [(breakdown.seat, entry_name, index)],
                        part,
                    )


def _counts(entry: Any) -> bool:
    """Whether a breakdown entry records anything (a count of 1 or more, points, a
    Dreadnought)."""
    if hasattr(entry, "count"):
        return bool(entry.count >= 1)
    if hasattr(entry, "points"):
        return bool(entry.points)
    return True


def check_stipulation(
    breakdowns: Sequence[SeatBreakdown],
    survivors: set[str],
    scoring: StipulationScoring | None,
    flag_spots: int | None,
    forfeits: Mapping[str, str],
    names: Mapping[str, str],
) -> list[Implausibility]:
    """Every way the seats' ``breakdowns`` and ``survivors`` break the stipulation's rules
    (``scoring``; None: only the forfeits are checked), the map's ``flag_spots`` (None: not
    known) and the seats' ``forfeits``."""
    checker = _StipulationChecker(breakdowns, scoring or StipulationScoring(kind=""), names)
    if scoring is not None:
        checker.check_stall()
        checker.check_objectives(flag_spots)
        checker.check_vehicles()
    checker.check_survivors(survivors, forfeits)
    checker.check_no_shows(forfeits)
    return checker.found
