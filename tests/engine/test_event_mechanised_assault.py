"""Mechanical Assault (RULES §12, research §5): the printed card lets androids and
Dreadnoughts move up to double distance and still attack (BoB and Priority); seed 000's
Solitaire appendix holds them still, and only the Solitaire policy plays it that way. The
card's data says so with a per-policy effect beside the default one."""

from __future__ import annotations

import pytest

from rules.engine.ai.policies import policy_named
from rules.engine.ai.turn import resolve_alien_turn
from rules.engine.dice import SeededDice
from rules.engine.event_cards import EventDataError, default_cards, load_cards
from rules.engine.play.events import modifiers_for
from rules.engine.state import GameState, Stipulation
from tests.engine.ai_support import steps_of
from tests.engine.combat_scenes import alien, marine, scene


def with_card(state: GameState, card: str) -> GameState:
    """``state`` in an Alien Hunt whose event deck holds ``card`` only (no die draws it)."""
    switches = {"event_deck": True, "event_cards": [card]}
    return state.replace(stipulation=Stipulation("alien_hunt", switches))


#: Android N (movement 4) sees marine A only from the lower corridor, 7 squares away
#: through the gap at the right end: it needs more than its own movement to shoot.
CORRIDORS = """
+--+--+--+--+--+--+--+--+
|.N .  .  .  .  .  .  . |
+--+--+--+--+--+--+--+  +
|.  .A .  .  .  .  .  . |
+--+--+--+--+--+--+--+--+
"""
LEGEND = {"N": alien("android"), "A": marine()}


def _card():
    return next(card for card in default_cards() if card.id == "mechanised_assault")


def test_the_card_doubles_movement_except_under_solitaire():
    bob = modifiers_for(_card(), "bob")
    assert bob.double_movement == {"android", "dreadnought"} and not bob.cannot_move
    assert modifiers_for(_card(), "priority").double_movement == {"android", "dreadnought"}
    solitaire = modifiers_for(_card(), "solitaire")
    assert solitaire.cannot_move == {"android", "dreadnought"}
    assert not solitaire.double_movement


@pytest.mark.parametrize("policy", ["bob", "priority"])
def test_the_android_moves_double_and_still_shoots(policy):
    state = with_card(scene(CORRIDORS, LEGEND), "mechanised_assault")
    after, steps = resolve_alien_turn(state, policy_named(policy), SeededDice(seed=3))
    assert steps_of(steps, "event_double_movement") == [{"units": ["android", "dreadnought"]}]
    [move] = [s for s in steps_of(steps, "move") if s["figure"] == "N"]
    assert len(move["path"]) - 1 > 4  # more than its movement of 4
    assert [s["figure"] for s in steps_of(steps, "attack_chosen")] == ["N"]


def test_under_solitaire_the_android_stays_where_it_is():
    state = with_card(scene(CORRIDORS, LEGEND), "mechanised_assault")
    after, steps = resolve_alien_turn(state, policy_named("solitaire"), SeededDice(seed=3))
    assert steps_of(steps, "event_cannot_move") == [{"units": ["android", "dreadnought"]}]
    assert after.figure("N").squares == ((0, 0),)
    assert not steps_of(steps, "attack_chosen")


#: Dreadnought D (movement 4, 2x2) must go round the wall to see marine A.
BIG = """
+--+--+--+--+--+--+--+--+--+
|.D .D .  .  .  .  .  .  . |
+  +  +  +  +  +  +  +  +  +
|.D .D .  .  .  .  .  .  . |
+--+--+--+--+--+--+--+  +  +
|.  .A .  .  .  .  .  .  . |
+--+--+--+--+--+--+--+--+--+
"""


def test_the_dreadnought_moves_double_as_a_2x2_figure():
    state = with_card(scene(BIG, {"D": alien("dreadnought"), "A": marine()}), "mechanised_assault")
    after, steps = resolve_alien_turn(state, policy_named("bob"), SeededDice(seed=3))
    [move] = [s for s in steps_of(steps, "move") if s["figure"] == "D"]
    assert len(move["path"]) - 1 > 4
    assert len(after.figure("D").squares) == 4
    assert [s["figure"] for s in steps_of(steps, "attack_chosen")] == ["D"]


def test_a_policy_effect_is_validated_and_may_be_overridden():
    cards = load_cards(
        {
            "mechanised_assault": {
                "policy_effects": {"bob": {"code": "cannot_act", "units": ["android"]}}
            }
        }
    )
    card = next(card for card in cards if card.id == "mechanised_assault")
    assert modifiers_for(card, "bob").cannot_act == {"android"}
    assert modifiers_for(card, "priority").double_movement == {"android", "dreadnought"}
    with pytest.raises(EventDataError, match="policy_effects"):
        load_cards({"mechanised_assault": {"policy_effects": {"chess": None}}})
    with pytest.raises(EventDataError, match="policy_effects.bob"):
        load_cards({"mechanised_assault": {"policy_effects": {"bob": {"code": "fly"}}}})
