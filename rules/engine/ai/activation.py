"""Which alien acts next (RULES §11, BoB policy).

Types act in a fixed order; inside a type the next alien is chosen again before every
activation, from the current state: aliens that can attack their focus first, then focus
earlier in initiative, then the shorter path, then (a tie the attacked player may settle)
the lowest figure id; aliens that can only move come last, nearest first.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

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

    @property
    def can_attack(self) -> bool:
        return self.focus is not None and self.focus.attackable

    @property
    def distance(self) -> int:
        return self.focus.distance if self.focus is not None else UNREACHABLE

    def key(self) -> tuple:
        if self.can_attack:
            assert self.focus is not None
            return (0, self.focus.initiative, self.distance, self.figure_id)
        initiative = self.focus.initiative if self.focus is not None else UNREACHABLE
        return (1, self.distance, initiative, self.figure_id)


def choose_next(candidates: Sequence[Readiness]) -> tuple[Readiness, str]:
    """The next alien of one type and the criterion that put it first."""
    if not candidates:
        raise ValueError("no alien left to activate")
    ordered = sorted(candidates, key=Readiness.key)
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
