"""Alien Elite (RULES §12, research §5): one alien acts twice this turn. Seed 000's
Solitaire appendix only says which alien it is (the highest listed type nearest a marine,
the dice on a tie) and that it activates first; it is silent on the second action, so
every policy plays the printed card: the elite alien's two activations open the turn."""

from __future__ import annotations

import pytest

from rules.engine.ai.policies import policy_named
from rules.engine.ai.turn import resolve_alien_turn
from rules.engine.dice import SeededDice
from rules.engine.event_cards import EventDataError, load_cards
from rules.engine.play.events import modifiers_for
from tests.engine.ai_support import alien, make_board, make_state, marine, steps_of


@pytest.mark.parametrize("policy", ["bob", "priority", "solitaire"])
def test_the_elite_alien_acts_twice_first(policy):
    # The Genestealer (movement 6) needs two activations to reach the marine 11 squares
    # away; the Ork acts once, after it.
    state = make_state(
        make_board(30, 1),
        [
            alien("g1", "genestealer", (0, 0)),
            alien("o1", "ork", (25, 0)),
            marine("a1", "p1", (12, 0)),
        ],
        switches={"event_deck": True, "event_cards": ["elite_aliens"]},
    )
    _after, steps = resolve_alien_turn(state, policy_named(policy), SeededDice(seed=2))
    activations = [(s["figure"], s["criterion"]) for s in steps_of(steps, "activation")]
    assert activations[:2] == [("g1", "event_first"), ("g1", "event_again")]
    assert [figure for figure, _criterion in activations].count("o1") == 1
    moved = sum(s["steps"] for s in steps_of(steps, "move") if s["figure"] == "g1")
    assert moved == 11


def test_acts_twice_is_checked_and_may_be_switched_off():
    effect = {"code": "activate_first", "units": ["ork"], "acts_twice": False}
    [card] = [c for c in load_cards({"elite_aliens": {"effect": effect}}) if c.id == "elite_aliens"]
    assert not modifiers_for(card).elite_acts_twice
    with pytest.raises(EventDataError, match="acts_twice"):
        load_cards({"elite_aliens": {"effect": {**effect, "acts_twice": "yes"}}})
