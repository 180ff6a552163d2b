"""Uniform random choices made with the dice service (RULES §14).

The dice only have 3, 6 or 12 faces, so choosing one of ``n`` items rolls d6 "digits"
(base 6) and re-rolls a number that would favour some items. Every die goes through the
dice source with its purpose, so a scripted run can reproduce any choice.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from rules.engine.dice import Dice, DieKind

T = TypeVar("T")


def random_index(dice: Dice, n: int, purpose: str) -> int:
    """A uniform index in ``range(n)``; no die is rolled when ``n`` is 1."""
    if n < 1:
        raise ValueError("cannot choose from an empty set")
    if n == 1:
        return 0
    digits = 1
    while 6**digits < n:
        digits += 1
    span = 6**digits
    limit = span - span % n
    while True:
        values = dice.roll(DieKind.D6, digits, purpose=purpose)
        number = 0
        for value in values:
            number = number * 6 + (value - 1)
        if number < limit:
            return number % n


def random_choice(dice: Dice, items: Sequence[T], purpose: str) -> T:
    return items[random_index(dice, len(items), purpose)]


def shuffled(dice: Dice, items: Sequence[T], purpose: str) -> list[T]:
    """A Fisher-Yates shuffle driven by the dice."""
    pool = list(items)
    out: list[T] = []
    while pool:
        out.append(pool.pop(random_index(dice, len(pool), purpose)))
    return out
