"""Psychic Attack (RULES §12, research §5): Orks and Gretchin can neither move nor shoot
this Alien turn, under every policy (seed 000's Solitaire appendix only says they may not
move, and is silent on shooting). A fight from where they stand is still allowed: the
card's effect names moving and shooting only."""

from __future__ import annotations

import pytest

from rules.engine.ai.policies import policy_named
from rules.engine.ai.turn import resolve_alien_turn
from rules.engine.dice import SeededDice
from rules.engine.event_cards import default_cards
from rules.engine.play.events import modifiers_for
from rules.engine.state import GameState, Stipulation
from tests.engine.ai_support import steps_of
from tests.engine.combat_scenes import alien, marine, scene


def with_card(state: GameState, card: str) -> GameState:
    """``state`` in an Alien Hunt whose event deck holds ``card`` only (no die draws it)."""
    switches = {"event_deck": True, "event_cards": [card]}
    return state.replace(stipulation=Stipulation("alien_hunt", switches))


#: Ork O and Gretchin G see marine A down the row; neither stands next to it.
IN_SIGHT = """
+--+--+--+--+--+--+--+--+
|.O .  .  .A .  .  .G . |
+  +  +  +  +  +  +  +  +
|.  .  .  .  .  .  .  . |
+--+--+--+--+--+--+--+--+
"""
LEGEND = {"O": alien("ork"), "G": alien("gretchin"), "A": marine()}


def test_the_card_stops_moving_and_shooting():
    card = next(card for card in default_cards() if card.id == "psychic_attack")
    mods = modifiers_for(card)
    assert mods.cannot_move == mods.cannot_shoot == {"ork", "gretchin"}


@pytest.mark.parametrize("policy", ["bob", "priority", "solitaire"])
def test_orks_and_gretchin_neither_move_nor_shoot(policy):
    state = with_card(scene(IN_SIGHT, LEGEND), "psychic_attack")
    after, steps = resolve_alien_turn(state, policy_named(policy), SeededDice(seed=2))
    assert steps_of(steps, "event_cannot_move_or_shoot") == [{"units": ["gretchin", "ork"]}]
    assert not steps_of(steps, "move") and not steps_of(steps, "attack_chosen")
    assert after.figure("A").life_points == state.figure("A").life_points
    assert after.figure("O").squares == ((0, 0),) and after.figure("G").squares == ((6, 0),)


ADJACENT = """
+--+--+--+--+--+
|.O .A .  .  . |
+--+--+--+--+--+
"""


@pytest.mark.parametrize("policy", ["bob", "priority"])
def test_an_ork_next_to_a_marine_still_fights(policy):
    state = with_card(scene(ADJACENT, {"O": alien("ork"), "A": marine()}), "psychic_attack")
    _after, steps = resolve_alien_turn(state, policy_named(policy), SeededDice(seed=2))
    [chosen] = steps_of(steps, "attack_chosen")
    assert chosen["figure"] == "O" and chosen["weapon"] == "hand_to_hand"
