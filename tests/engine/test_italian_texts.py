"""The engine's Italian texts read as Italian: an attack's odds name no gender the target
may not have (a door is feminine, a marine masculine), an event card whose name ends with
its own "!" gets no full stop after it, and every refusal the board shows on its own starts
with a capital letter.
"""

from __future__ import annotations

import re

import pytest

from rules.engine.narration import render
from rules.engine.narration_errors import ERRORS, SINGULAR
from rules.engine.odds import TargetInfo, shot_odds
from rules.engine.units import DiceSpec

#: The refusals that start with a code's name, written as the code is (``follow_path``).
STARTS_WITH_A_CODE = {"aliens_only"}


@pytest.mark.parametrize(
    "label", ["porta stagna rinforzata tra (1,0) e (2,0)", "Tarantola p1-t1", "Marine p1-m2"]
)
def test_the_odds_of_destroying_a_target_are_worded_for_any_gender(label):
    door = TargetInfo("target", life_points=1, value=0, owner=None, label=label)
    lines = shot_odds(DiceSpec(red=1), door, armour=4).describe("it")

    assert lines[0].startswith(f"{label}: punti vita persi attesi ")
    assert "probabilità di distruzione 0 (~0,0000)" in lines[0]
    assert not re.search(r"\bdistrutt[oa]\b", lines[0])


def test_an_event_card_ending_with_its_own_mark_is_not_followed_by_a_full_stop():
    drawn = render("event_drawn", {"card": "wrath"}, "it")

    assert "Ira!" in drawn
    assert "!." not in drawn


def first_word(template: str) -> str:
    """The template's first character that is not in a param (empty when it starts with
    one: the param's own text, a name or a label, decides)."""
    return "" if template.startswith("{") else template[:1]


@pytest.mark.parametrize("code", sorted(set(ERRORS) - STARTS_WITH_A_CODE))
def test_every_italian_refusal_starts_with_a_capital_letter(code):
    templates = [ERRORS[code]["it"]]
    if code in SINGULAR:
        templates.append(SINGULAR[code][1]["it"])
    for template in templates:
        assert not first_word(template).islower(), template
