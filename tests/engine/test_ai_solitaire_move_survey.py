"""A marine-side move in a Solitaire game surveys with the Solitaire survey (RULES §11)."""

import pytest

from rules.engine.ai import solitaire_policy
from rules.engine.board import Section, SectionKind
from rules.engine.dice import DiceError, ScriptedDice
from rules.engine.play import blips
from rules.engine.state import Blip
from tests.engine.ai_support import make_board, make_state, marine, steps_of


def three_sections_state():
    """A marine just in from section A through the gap on row 1 of section B. B is open but
    for two walled-off corners, (9,0) and (9,2); C is closed off. A holds a blip and a
    Genestealer marker the marine sees; B holds BoB markers."""
    sections = [
        Section("A", SectionKind.BOARD, "a", ((0, 0, 4, 2),)),
        Section("B", SectionKind.BOARD, "b", ((5, 0, 9, 2),)),
        Section("C", SectionKind.BOARD, "c", ((10, 0, 12, 2),)),
    ]
    walls = [((4, 0), (5, 0)), ((4, 2), (5, 2))]
    walls += [((8, 0), (9, 0)), ((9, 0), (9, 1)), ((8, 2), (9, 2)), ((9, 1), (9, 2))]
    walls += [((9, y), (10, y)) for y in range(3)]
    board = make_board(
        13,
        3,
        walls=walls,
        markers={(4, 1): "genestealer", (7, 0): "ork", (8, 2): "android"},
        sections=sections,
    )
    state = make_state(
        board,
        [marine("a1", "p1", (5, 1))],
        players=("p1",),
        switches={"blip_pile": ["ork", "gretchin"]},
    )
    return state.replace(surveyed_sections=("A",), blips=(Blip("b1", (1, 1), "android"),))


# d3 = 2 (blips: min(2 left, 2 + 5)); d6 = 2 draws the second token (gretchin); d12 1,1 is
# (5,0), in the marine's sight: re-rolled; d12 5,1 is (9,0); the last token (ork) needs no
# draw die; d12 5,3 is (9,2).
SURVEY_DICE = [2, 2, 1, 1, 5, 1, 5, 3]


def test_a_solitaire_move_places_blips_by_the_dice_and_reveals_what_it_sees():
    dice = ScriptedDice(values=list(SURVEY_DICE))
    state, steps = solitaire_policy.reveal_after_move(three_sections_state(), "a1", dice)
    assert dice.remaining == 0
    assert [d.purpose for d in dice.log] == [
        "survey_blip_count",
        "blip_draw",
        "blip_placement",
        "blip_placement",
        "blip_placement",
    ]
    assert "B" in state.surveyed_sections
    assert steps_of(steps, "survey") == [{"section": "B", "count": 2}]
    assert steps_of(steps, "blip_placement_reroll") == [
        {"x": 1, "y": 1, "square": [5, 0], "reason": "in_sight"}
    ]
    assert steps_of(steps, "blip_placed") == [{"square": [9, 0]}, {"square": [9, 2]}]
    assert sorted((b.square, b.type) for b in state.blips) == [
        ((9, 0), "gretchin"),
        ((9, 2), "ork"),
    ]
    assert state.progress.blip_pile == ()
    # The blip the marine now sees in section A is revealed; the map's markers are BoB's.
    assert steps_of(steps, "blip_revealed")[0]["square"] == [1, 1]
    assert [f.unit for f in state.figures if f.side == "alien"] == ["android"]
    assert not steps_of(steps, "genestealer_appears")


def test_the_bob_survey_of_the_same_move_uses_the_markers():
    state, steps = blips.reveal_after_move(three_sections_state(), "a1")
    assert steps_of(steps, "survey") == [{"section": "B", "count": 2}]
    assert steps_of(steps, "genestealer_appears")


def test_a_solitaire_move_into_a_surveyed_section_rolls_nothing():
    state = three_sections_state().replace(surveyed_sections=("A", "B"))
    dice = ScriptedDice(values=[])
    state, steps = solitaire_policy.reveal_after_move(state, "a1", dice)
    assert not dice.log
    assert [s.code for s in steps] == ["blip_revealed"]


def test_too_few_dice_for_the_survey_are_refused():
    with pytest.raises(DiceError, match="blip placement"):
        solitaire_policy.reveal_after_move(
            three_sections_state(), "a1", ScriptedDice(values=SURVEY_DICE[:-1])
        )


def test_an_empty_pile_rolls_no_die():
    state = make_state(
        three_sections_state().board, [marine("a1", "p1", (5, 1))], players=("p1",)
    ).replace(surveyed_sections=("A",))
    dice = ScriptedDice(values=[])
    state, steps = solitaire_policy.reveal_after_move(state, "a1", dice)
    assert steps_of(steps, "survey") == [{"section": "B", "count": 0}]
    assert not dice.log and not state.blips
