"""Genestealer (RULES §12, three copies; research §5; game engine decision 27): a
Genestealer appears on a free square next to a marine or the commander of the player the
die picks, and moves and attacks normally this turn, under every Alien policy."""

from __future__ import annotations

import pytest

from rules.engine.ai.policies import policy_named
from rules.engine.ai.turn import resolve_alien_turn
from rules.engine.dice import SeededDice
from rules.engine.event_cards import EventDataError, load_cards
from rules.engine.narration import render
from rules.engine.state import GameState, Stipulation
from tests.engine.ai_support import steps_of
from tests.engine.combat_scenes import marine, scene

CARD = "genestealer"
NEW = "genestealer-event-1"


def with_card(state: GameState) -> GameState:
    """``state`` in an Alien Hunt whose event deck holds the Genestealer card only."""
    switches = {"event_deck": True, "event_cards": [CARD]}
    return state.replace(stipulation=Stipulation("alien_hunt", switches))


def rolls_for(dice: SeededDice, purpose: str) -> list:
    return [roll for roll in dice.log if roll.purpose == purpose]


#: Marine A has a wall above and on its right and marine B on its left: its one free
#: square is (1,2), below it. B has walls above and below it and A on its right: none.
WALLED = """
+--+--+--+--+
|.  .  .  . |
+--+--+  +  +
|.B .A|.  . |
+--+  +  +  +
|.  .  .  . |
+--+--+--+--+
"""
WALLED_LEGEND = {"A": marine(), "B": marine()}


@pytest.mark.parametrize("policy", ["bob", "priority", "solitaire"])
def test_the_genestealer_appears_on_the_free_square_and_fights_this_turn(policy):
    state = with_card(scene(WALLED, WALLED_LEGEND, players=("p1",)))
    dice = SeededDice(seed=3)
    after, steps = resolve_alien_turn(state, policy_named(policy), dice)
    assert steps_of(steps, "event_alien_appears") == [
        {"unit": "genestealer", "figure": NEW, "square": [1, 2], "target": "A"}
    ]
    # B has no free square, so A is the only figure and no die chooses it.
    assert not rolls_for(dice, "event_figure")
    codes = [step.code for step in steps]
    assert codes.index("event_instruction") < codes.index("event_alien_appears")
    assert codes.index("event_alien_appears") < codes.index("activation")
    assert [s["figure"] for s in steps_of(steps, "activation")] == [NEW]
    [attack] = steps_of(steps, "attack_chosen")
    assert attack["figure"] == NEW and attack["weapon"] == "hand_to_hand"
    assert attack["target"] == "A"
    appeared = next(f for f in after.figures if f.id == NEW)
    assert appeared.unit == "genestealer" and appeared.side == "alien"
    assert GameState.from_json(after.to_json()).figure(NEW).squares == appeared.squares


#: Marine A stands between a docking claw square (left), a closed door (right) and a
#: solid square (below): no square next to it can take a figure.
SHUT_IN = """
+--+--+--+--+
|.1 .AD.  . |
+  +  +  +  +
|.  ## .  . |
+--+--+--+--+
"""


@pytest.mark.parametrize("policy", ["bob", "priority", "solitaire"])
def test_no_genestealer_appears_when_no_marine_has_a_free_square(policy):
    state = with_card(scene(SHUT_IN, {"A": marine()}, players=("p1",)))
    dice = SeededDice(seed=3)
    after, steps = resolve_alien_turn(state, policy_named(policy), dice)
    assert steps_of(steps, "event_alien_no_room") == [{"unit": "genestealer"}]
    assert not steps_of(steps, "event_alien_appears")
    assert not steps_of(steps, "event_target_player") and not rolls_for(dice, "event_target")
    assert not [f for f in after.figures if f.side == "alien"]
    assert after.progress.events_drawn == ("genestealer",)


#: p1's marine A is shut in as above; p2's marine B stands in the open.
ONE_PLAYER_HAS_ROOM = """
+--+--+--+--+--+--+
|.1 .AD.  .  .B . |
+  +  +  +  +  +  +
|.  ## .  .  .  . |
+--+--+--+--+--+--+
"""


@pytest.mark.parametrize("seed", range(1, 7))
def test_the_die_picks_among_the_players_a_genestealer_can_appear_next_to(seed):
    legend = {"A": marine(), "B": marine(player="p2")}
    state = with_card(scene(ONE_PLAYER_HAS_ROOM, legend))
    _after, steps = resolve_alien_turn(state, policy_named("bob"), SeededDice(seed=seed))
    [target] = steps_of(steps, "event_target_player")
    assert target["player"] == "p2"
    [appeared] = steps_of(steps, "event_alien_appears")
    assert appeared["target"] == "B" and appeared["square"] == [3, 0]


#: Marine A and commander C of p1, both in the open.
TWO_FIGURES = """
+--+--+--+--+--+--+--+
|.  .  .  .  .  .  . |
+  +  +  +  +  +  +  +
|.  .A .  .  .  .C . |
+  +  +  +  +  +  +  +
|.  .  .  .  .  .  . |
+--+--+--+--+--+--+--+
"""


def test_the_dice_choose_the_figure_and_the_top_left_free_square_next_to_it():
    legend = {"A": marine(), "C": marine("commander")}
    state = with_card(scene(TWO_FIGURES, legend, players=("p1",)))
    chosen = set()
    for seed in range(1, 13):
        dice = SeededDice(seed=seed)
        _after, steps = resolve_alien_turn(state, policy_named("bob"), dice)
        [roll] = rolls_for(dice, "event_figure")
        assert roll.kind.value == "d6"
        [appeared] = steps_of(steps, "event_alien_appears")
        where = {"A": [1, 0], "C": [5, 0]}
        assert appeared["square"] == where[appeared["target"]]
        chosen.add(appeared["target"])
    assert chosen == {"A", "C"}


def test_the_log_says_what_happened_in_both_languages():
    params = {"unit": "genestealer", "figure": NEW, "square": [1, 2], "target": "A"}
    assert render("event_alien_appears", params, "it") == (
        "Effetto: genestealer-event-1 (Ladro Genetico) compare in (1,2), accanto a A, e "
        "agisce in questo turno."
    )
    assert render("event_alien_appears", params, "en") == (
        "Effect: genestealer-event-1 (Genestealer) appears on (1,2), next to A, and acts this turn."
    )
    assert "nessun Ladro Genetico compare" in render(
        "event_alien_no_room", {"unit": "genestealer"}, "it"
    )
    assert "no Genestealer appears" in render("event_alien_no_room", {"unit": "genestealer"}, "en")


@pytest.mark.parametrize("unit", ["dreadnought", "marine", "space_wolf", None])
def test_the_card_brings_an_alien_on_one_square(unit):
    with pytest.raises(EventDataError, match="alien on one square"):
        load_cards({CARD: {"effect": {"code": "alien_appears", "unit": unit}}})
    [card] = [
        c
        for c in load_cards({CARD: {"effect": {"code": "alien_appears", "unit": "ork"}}})
        if c.id == CARD
    ]
    assert card.effect == {"code": "alien_appears", "unit": "ork"}
