"""Which physical dice a rule needs next, told before the judge rolls them (RULES §14).

A judge rolling real dice for an Alien turn types the faces in rolling order
(:class:`~rules.engine.dice.ScriptedDice`). How many dice the turn needs, and which, depends
on the dice themselves: a re-roll in a draw, an attack that kills or not. :func:`dice_ahead`
runs the rule with the faces typed so far followed by made-up ones, several times with
different made-up faces (lowest, highest, then seeded), and keeps the dice all those runs
ask for, in the same order, for the same purpose: the dice the rule needs whatever they
show, up to the first one that depends on what an earlier die showed. The judge rolls
those together, types them, and is told the next ones.

The made-up faces never reach a game: every run works on a throw-away dice source.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .dice import FACES, Dice, DieKind, ScriptedDice, SeededDice

#: How many made-up dice a run may use before it is stopped: far more than a turn rolls.
PROBE_LIMIT = 2000

#: Lowest (or highest) faces are made up for this many dice, then seeded ones: a rule that
#: re-rolls a face (a draw rejecting a 6) would otherwise roll it for ever.
EXTREME_DICE = 24


class ProbeLimitReached(RuntimeError):
    """A run asked for more than :data:`PROBE_LIMIT` made-up dice."""


@dataclass(frozen=True)
class DieAhead:
    """One die the rule rolls: its place in the typed list (1 = the first die typed), its
    kind and what it is rolled for (a purpose code with params, and who rolls it)."""

    position: int
    kind: DieKind
    purpose: str
    params: Mapping[str, Any] = field(default_factory=dict, hash=False)
    subject: str | None = None

    def same_roll(self, other: DieAhead) -> bool:
        """Whether ``other`` is this die in another run: same place, kind and purpose."""
        return self._key() == other._key()

    def _key(self) -> tuple[object, ...]:
        params = json.dumps(dict(self.params), sort_keys=True, default=str)
        return (self.position, self.kind, self.purpose, params, self.subject)


@dataclass(frozen=True)
class DiceAhead:
    """How far the typed dice take a rule, and what it needs next.

    ``used`` of the ``typed`` values were rolled. ``complete``: the typed values settle it
    (``extra`` of them were not needed). Otherwise ``next`` lists the dice needed whatever
    they show, in rolling order, and ``more_after`` says whether further dice may follow,
    depending on what those show."""

    typed: int
    used: int
    complete: bool
    next: tuple[DieAhead, ...] = ()
    more_after: bool = False

    @property
    def extra(self) -> int:
        return self.typed - self.used if self.complete else 0


class _Enough(Exception):
    """A run has told all it can: its dice left the list of the runs before it."""


@dataclass
class _ProbeDice(Dice):
    """The typed faces (checked by ``typed``, whose errors say what is wrong), then made-up
    ones: the lowest or highest face (``extreme``) for the first dice, then seeded.

    ``ahead`` collects the dice rolled after the typed ones. Given ``expected`` (the dice
    every earlier run rolled), the run stops as soon as its dice differ from those or go
    beyond them: the rest cannot shorten the list any more."""

    typed: ScriptedDice = field(default_factory=ScriptedDice)
    extreme: str | None = None
    seed: int = 0
    expected: Sequence[DieAhead] | None = None
    made_up: int = field(default=0, init=False)
    ahead: list[DieAhead] = field(default_factory=list, init=False)
    #: How many of ``expected`` this run rolled alike, and whether it rolled more dice.
    matched: int = field(default=0, init=False)
    longer: bool = field(default=False, init=False)
    _seeded: SeededDice | None = field(default=None, init=False, repr=False)

    source = "probe"

    def roll(
        self,
        kind: DieKind | str,
        count: int = 1,
        purpose: str = "",
        subject: str | None = None,
        params: Mapping[str, Any] | None = None,
    ) -> tuple[int, ...]:
        typed_before = self.typed.remaining
        values = super().roll(kind, count, purpose, subject, params)
        last = self.log[-1]
        given = len(self.typed.values)
        for _ in range(min(typed_before, count), count):
            position = given + len(self.ahead) + 1
            die = DieAhead(position, last.kind, purpose, dict(last.params), subject)
            self.ahead.append(die)
            self._compare(die)
        return values

    def _compare(self, die: DieAhead) -> None:
        if self.expected is None:
            return
        index = len(self.ahead) - 1
        if index >= len(self.expected):
            self.longer = True
            raise _Enough
        if not die.same_roll(self.expected[index]):
            self.longer = True
            raise _Enough
        self.matched = index + 1

    def _face(self, kind: DieKind, purpose: str, params: Mapping[str, Any]) -> int:
        if self.typed.remaining:
            return self.typed._face(kind, purpose, params)
        self.made_up += 1
        if self.made_up > PROBE_LIMIT:
            raise ProbeLimitReached(f"more than {PROBE_LIMIT} dice were needed")
        if self.extreme is not None and self.made_up <= EXTREME_DICE:
            faces = sorted(FACES[kind])
            return faces[0] if self.extreme == "low" else faces[-1]
        if self._seeded is None:
            self._seeded = SeededDice(seed=self.seed)
        return self._seeded.roll(kind)[0]


def dice_ahead(
    run: Callable[[Dice], object],
    typed: Callable[[], ScriptedDice],
    *,
    runs: int = 6,
) -> DiceAhead:
    """What the rule ``run`` (rolling with the dice source it is given) needs, given the
    faces typed so far (``typed()`` makes a fresh source of them; its errors, such as a
    face the die cannot show, are raised as they are). ``runs`` (at least 2) made-up
    continuations are compared: the first is played whole, the others only as long as
    they roll the same dice; raises what ``run`` raises."""
    if runs < 2:
        raise ValueError("dice_ahead compares at least 2 runs")
    first = _ProbeDice(typed=typed(), extreme="low")
    run(first)
    given = len(first.typed.values)
    used = given - first.typed.remaining
    if first.made_up == 0:
        # The typed faces settle the rule: every run would be this one.
        return DiceAhead(typed=given, used=used, complete=True)
    common = list(first.ahead)
    more_after = False
    for number in range(1, runs):
        probe = _ProbeDice(
            typed=typed(), extreme="high" if number == 1 else None, seed=number, expected=common
        )
        try:
            run(probe)
        except _Enough:
            pass
        common = common[: probe.matched]
        more_after = more_after or probe.longer
    more_after = more_after or len(first.ahead) > len(common)
    return DiceAhead(
        typed=given, used=used, complete=False, next=tuple(common), more_after=more_after
    )
