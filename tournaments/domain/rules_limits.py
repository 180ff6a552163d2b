"""The limits of the unit, weapon and Dreadnought class numbers a tournament may change
(RULES §10b, decision 47): the catalogue's form for one item and the house rules page
(``domain.house_rules``) hold every value within them, so no way of editing the rules data
gives the board a figure that cannot move or a weapon that never fires."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.utils.translation import gettext_lazy

from rules.engine.units import LEAST_CLASS_VALUE

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise


@dataclass(frozen=True)
class Limit:
    """The whole numbers a value may take (dice: per colour), and why, for the message."""

    low: int
    high: int
    why: StrOrPromise = ""


#: Each value's limits: what the rules and the engine need (a figure moves, a weapon fires,
#: a class value is 25 or more as RULES §7 says), and maxima no game of StarQuest reaches.
LIMITS: dict[tuple[str, str], Limit] = {
    ("units", "movement"): Limit(1, 12, gettext_lazy("every figure moves at least 1 square")),
    ("units", "armour"): Limit(0, 12),
    ("units", "life_points"): Limit(
        1, 12, gettext_lazy("a figure without life points would be dead before it plays")
    ),
    ("units", "hand_to_hand"): Limit(0, 6),
    ("weapons", "dice"): Limit(0, 6),
    ("weapons", "shots"): Limit(1, 6, gettext_lazy("a weapon fires at least once")),
    ("weapons", "hand_to_hand"): Limit(0, 6),
    ("dreadnought_classes", "movement"): Limit(
        1, 12, gettext_lazy("a Dreadnought moves at least 1 square")
    ),
    ("dreadnought_classes", "class_value"): Limit(
        LEAST_CLASS_VALUE,
        999,
        gettext_lazy("RULES §7 gives a Dreadnought a class value of 25 or more"),
    ),
}

#: The points of one alien token (RULES §7): none, up to more than any game gives.
TOKEN_LIMIT = Limit(0, 999)
