"""A Dreadnought plan's expected points count a marine once (game engine decision 32):
he dies at most once, when its weapons together take all his life points, so two
weapons that can both hit him are worth the odds of his losses added up, not each
weapon's kill odds added."""

from __future__ import annotations

from fractions import Fraction

from rules.engine.ai.area import plan_value, single_shot
from rules.engine.ai.policies import policy_named
from rules.engine.ai.turn import resolve_alien_turn
from rules.engine.dice import SeededDice
from rules.engine.play.turn_context import TurnContext
from rules.engine.units import load_rules_data
from tests.engine.ai_support import steps_of
from tests.engine.combat_scenes import alien, marine, scene

#: Dreadnought X with two bolters (2 red dice each) between two pairs of closed doors.
#: Through the west doors (4 squares) it sees A alone: a marine with 1 life point, worth
#: 5; through the east doors B alone: a heavy-weapon marine with 2 life points, worth 10.
#: Either way one marine is hit by both bolters.
#: - At A: each bolter kills with 7/18 (a 3 beats armour 2); counted twice that was 35/9
#:   (3.89), but A dies once: 5 * (1 - (11/18)**2) = 1015/324 (3.13).
#: - At B: each bolter alone kills with 1/6 (a 4 or more): 2 * 10/6 = 10/3 (3.33) counted
#:   so, but a 3 from each (one life point each) kills him too: 10 * 115/324 (3.55).
#: Counted twice, A looked better; counted once, B is.
CORRIDOR = """
+--+--+--+--+--+--+--+--+--+--+--+--+--+--+--+--+--+--+
|.A .  .  .  .  . D.  .  .X .X .  . D.  .  .  .  .  .B|
+  +  +  +  +  +  +  +  +  +  +  +  +  +  +  +  +  +  +
|.  .  .  .  .  . D.  .  .X .X .  . D.  .  .  .  .  . |
+--+--+--+--+--+--+--+--+--+--+--+--+--+--+--+--+--+--+
"""
LEGEND = {
    "X": alien("dreadnought", weapons=["bolter", "bolter"]),
    "A": marine(life_points=1),
    "B": marine("heavy_weapon_marine"),
}


def test_the_dreadnought_goes_for_the_marine_its_weapons_kill_more_often_together():
    state = scene(CORRIDOR, LEGEND, players=("p1",))
    _after, steps = resolve_alien_turn(state, policy_named("bob"), SeededDice(seed=1))
    [chosen] = steps_of(steps, "attack_chosen")
    assert (chosen["target"], chosen["square"]) == ("B", [12, 0])
    assert chosen["points"] == round(float(Fraction(1150, 324)), 3)
    targets = {p["purpose_params"]["target"] for p in steps_of(steps, "dice")}
    assert targets == {"B"}


def test_the_plan_value_adds_the_losses_of_a_marine_two_weapons_hit():
    state = scene(CORRIDOR, LEGEND, players=("p1",))
    ctx = TurnContext(state=state, dice=SeededDice(seed=1), rules=load_rules_data())
    firer = state.figure("X")
    shot = single_shot(ctx, "bolter", state.figure("A"), firer.squares)
    assert shot.points == Fraction(35, 18)
    assert plan_value(ctx, firer, (8, 0), [shot, shot]) == (
        Fraction(5 * (324 - 121), 324),
        Fraction(324 - 121, 324),
    )
    assert plan_value(ctx, firer, (8, 0), [shot]) == (shot.points, shot.life_points)
