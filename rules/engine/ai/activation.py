"""Which alien acts next (RULES §11, BoB policy).

Types act in a fixed order; inside a type the next alien is chosen again before every
activation, from the current state: aliens that can attack their focus first, then focus
earlier in initiative, then the shorter path, then (a tie the attacked player may settle)
the lowest figure id; aliens that can only move come last, nearest first. An alien with
no plan (every attack it could make would hurt nobody, game engine decision 24, or an area
weapon has no aim it may take) only moves, so it is ranked as one that can only move:
:func:`choose_next` asks the plans' own test.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from rules.engine.ai.focus import UNREACHABLE, PlayerReach

#: Activation order by type (RULES §11). Chaos Marines are split by weapon class.
TYPE_ORDER: tuple[str, ...] = (
    "dreadnought",
    "chaos_commander",
    "chaos_marine_heavy",
    "android",
    "genestealer",
    "chaos_marine",
    "ork",
    "gretchin",
)


def type_rank(activation_type: str) -> int:
    """Position of a type in :data:`TYPE_ORDER`; unknown (house-rule) types act last."""
    try:
        return TYPE_ORDER.index(activation_type)
    except ValueError:
        return len(TYPE_ORDER)


@dataclass(frozen=True)
class Readiness:
    """An alien's situation just before the choice of the next activation."""

    figure_id: str
    activation_type: str
    focus: PlayerReach | None
    #: Its focus can be attacked but it has no plan (decision 24): it will only move.
    planless: bool = False

    @property
    def can_attack(self) -> bool:
        return not self.planless and self.focus is not None and self.focus.attackable

    @property
    def distance(self) -> int:
        return self.focus.distance if self.focus is not None else UNREACHABLE

    def key(self) -> tuple:
        if self.can_attack:
            assert self.focus is not None
            return (0, self.focus.initiative, self.distance, self.figure_id)
        initiative = self.focus.initiative if self.focus is not None else UNREACHABLE
        return (1, self.distance, initiative, self.figure_id)


def choose_next(
    candidates: Sequence[Readiness],
    has_plan: Callable[[Readiness], bool] | None = None,
) -> tuple[Readiness, str]:
    """The next alien of one type and the criterion that put it first.

    ``has_plan`` says whether an alien that can attack its focus has a plan, an attack
    that can hurt someone (the plans' own test, game engine decision 24); one that has
    none is ranked as an alien that can only move, as it will act. Without it every such
    alien counts as able to attack."""
    if not candidates:
        raise ValueError("no alien left to activate")
    ordered = sorted(candidates, key=Readiness.key)
    if has_plan is not None:
        ordered = _judged(ordered, has_plan)
    best = ordered[0]
    if len(ordered) == 1:
        return best, "only_one"
    runner = ordered[1]
    if not best.can_attack:
        return best, "move_only"
    if not runner.can_attack:
        return best, "attackable_focus"
    assert best.focus is not None and runner.focus is not None
    if best.focus.initiative != runner.focus.initiative:
        return best, "initiative"
    if best.distance != runner.distance:
        return best, "distance"
    return best, "lowest_id"


def _judged(ordered: list[Readiness], has_plan: Callable[[Readiness], bool]) -> list[Readiness]:
    """``ordered`` (by :meth:`Readiness.key`) once the aliens that can attack their focus
    but have no plan are ranked among those that can only move. ``has_plan`` is asked in
    order only until two aliens with a plan are found: the first two of the result, all
    :func:`choose_next` reads, are then those of the full judgement."""
    attackers: list[Readiness] = []
    planless: list[Readiness] = []
    rest: list[Readiness] = []
    for i, ready in enumerate(ordered):
        if not ready.can_attack or len(attackers) == 2:
            rest = ordered[i:]
            break
        if has_plan(ready):
            attackers.append(ready)
        else:
            planless.append(replace(ready, planless=True))
    if not planless:
        return ordered
    return attackers + sorted(planless + rest, key=Readiness.key)
