"""A Dreadnought's weapons are planned together, each aimed where it adds the most
marines to those its earlier weapons hit (RULES §11: distinct marines), and fire one
after the other (game engine decision 29): a later weapon whose marks an earlier one
killed is aimed again where it now hits the most marines, or does not fire when it can
hurt nobody; it is never fired at an empty square or dropped without a word."""

from __future__ import annotations

import pytest

from rules.engine.ai.policies import policy_named
from rules.engine.ai.turn import resolve_alien_turn
from rules.engine.dice import ScriptedDice
from rules.engine.narration import render
from tests.engine.ai_support import steps_of
from tests.engine.combat_scenes import alien, marine, scene

#: Dreadnought D (assault cannon, missile launcher, laser rifle) sees marines A and B,
#: too far apart for one blast. The cannon's split gives every share to A (the first of
#: two equal marines), so the missile is aimed at B; the rifle, with both covered, at A.
TWO_MARINES = """
+--+--+--+--+--+--+--+--+--+--+
|.  .  .  .  .  .  .  .  .  .A|
+  +  +  +  +  +  +  +  +  +  +
|.  .  .  .  .  .  .  .  .  . |
+  +  +  +  +  +  +  +  +  +  +
|.  .  .  .  .  .  .  .  .  . |
+  +  +  +  +  +  +  +  +  +  +
|.  .  .  .  .  .  .  .  .  . |
+  +  +  +  +  +  +  +  +  +  +
|.D .D .  .  .  .  .  .  .  . |
+  +  +  +  +  +  +  +  +  +  +
|.D .D .  .  .  .  .  .  .  .B|
+--+--+--+--+--+--+--+--+--+--+
"""
LEGEND = {"D": alien("dreadnought"), "A": marine(), "B": marine()}


def fired(dice: ScriptedDice) -> list[tuple[str, list | None]]:
    """Each roll of the attack: the weapon's purpose and the square a missile aims at."""
    return [(roll.purpose, roll.params.get("square")) for roll in dice.log]


@pytest.mark.parametrize("policy", ["bob", "solitaire"])
def test_the_weapons_are_aimed_at_different_marines_and_the_rifle_holds_fire(policy):
    state = scene(TWO_MARINES, LEGEND, players=("p1",))
    # The cannon's 4 kills A (armour 2, 2 life points); the missile's 6 kills B.
    dice = ScriptedDice(values=[3, 1, 3, 3])
    after, steps = resolve_alien_turn(state, policy_named(policy), dice)
    [chosen] = steps_of(steps, "attack_chosen")
    assert chosen["weapon"] == "assault_cannon" and chosen["target"] == "A"
    # RULES §11: the most distinct marines; the missile goes for B, whom the cannon's
    # split never reaches (all its shares go to A), not for A again.
    assert steps_of(steps, "area_choice") == [{"figure": "D", "marines": 2}]
    assert fired(dice) == [("shot_split", None), ("shot_square", [9, 5])]
    assert not steps_of(steps, "shot_aimed_again")
    assert steps_of(steps, "shot_dropped") == [{"figure": "D", "weapon": "laser_rifle"}]
    assert {s["target"] for s in steps_of(steps, "killed")} == {"A", "B"}
    assert not any(f.side == "marine" and f.on_board for f in after.figures)


def test_the_rifle_is_aimed_again_at_the_marine_the_missile_missed():
    state = scene(TWO_MARINES, LEGEND, players=("p1",))
    # The cannon kills A; the missile rolls 0 at B; the rifle's 2 white dice show 2 and 2.
    dice = ScriptedDice(values=[3, 1, 0, 0, 2, 2])
    after, steps = resolve_alien_turn(state, policy_named("bob"), dice)
    assert [roll[0] for roll in fired(dice)] == ["shot_split", "shot_square", "shot"]
    assert [roll.params.get("target") for roll in dice.log][2] == "B"
    assert steps_of(steps, "shot_aimed_again") == [{"figure": "D", "weapon": "laser_rifle"}]
    assert not steps_of(steps, "shot_dropped")
    assert [s["target"] for s in steps_of(steps, "killed")] == ["A", "B"]
    assert not after.has_figure("B")


def test_the_planned_aims_stand_while_their_marks_live():
    state = scene(TWO_MARINES, LEGEND, players=("p1",))
    # Nothing hits: the missile fires at B and the rifle at A, as planned.
    dice = ScriptedDice(values=[0, 0, 0, 0, 0, 0])
    _after, steps = resolve_alien_turn(state, policy_named("bob"), dice)
    assert [roll[0] for roll in fired(dice)] == ["shot_split", "shot_square", "shot"]
    assert fired(dice)[1][1] == [9, 5]
    assert [roll.params.get("target") for roll in dice.log][2] == "A"
    assert not steps_of(steps, "shot_aimed_again") and not steps_of(steps, "shot_dropped")


def test_the_log_tells_the_judge_in_both_languages():
    params = {"figure": "D", "weapon": "missile_launcher"}
    assert render("shot_aimed_again", params, "it").startswith(
        "D ha già ucciso chi era nel mirino di quest'arma (lanciarazzi): la punta di nuovo"
    )
    assert render("shot_dropped", {**params, "weapon": "laser_rifle"}, "en") == (
        "D already killed what its laser rifle was aimed at, and with it can hurt nobody "
        "else: it does not fire."
    )
