"""A lascannon's areas are chosen one after the other (seed 002, "Il Cannone Laser": the
player fires the first shot, sees it kill three Gretchin, then puts the two shots left
together on another area; game engine decision 31). The Alien AI fires its planned areas
one at a time, the one with the fewest shots first, and chooses where the shots left go
on the board as the roll left it."""

from __future__ import annotations

from fractions import Fraction

from rules.engine.ai.actions import fire_areas
from rules.engine.ai.plans import Shot
from rules.engine.ai.policies import policy_named
from rules.engine.ai.turn import resolve_alien_turn
from rules.engine.dice import ScriptedDice
from rules.engine.narration import render
from rules.engine.play.turn_context import TurnContext
from rules.engine.units import load_rules_data
from tests.engine.ai_support import steps_of
from tests.engine.combat_scenes import alien, marine, scene
from tests.engine.test_ai_later_weapons import TWO_MARINES

#: On the board of test_ai_later_weapons (D in the bottom-left corner, A top right, B
#: bottom right), Dreadnought D with a lascannon alone (1 red die a shot, 3 shots) sees
#: marines A and B, each with 1 life point left (a roll of 3 beats armour 2 and kills),
#: too far apart for one area. Its plan: one shot at B's area and two at A's.
LEGEND = {
    "D": alien("dreadnought", weapons=["lascannon"]),
    "A": marine(life_points=1),
    "B": marine(life_points=1),
}
A_AREA, B_AREA = [8, -1], [8, 4]


def areas_fired(dice: ScriptedDice) -> list[tuple[list[int], int]]:
    """Each lascannon roll's area (top-left square) and shots."""
    return [(roll.params["square"], roll.params["shots"]) for roll in dice.log]


def test_after_a_kill_the_shots_left_go_together_at_the_other_marine():
    state = scene(TWO_MARINES, LEGEND, players=("p1",))
    dice = ScriptedDice(values=[3, 0, 0])  # the single shot at B kills him
    after, steps = resolve_alien_turn(state, policy_named("bob"), dice)
    assert areas_fired(dice) == [(B_AREA, 1), (A_AREA, 2)]
    assert steps_of(steps, "areas_chosen_again") == [
        {"figure": "D", "weapon": "lascannon", "shots": 2}
    ]
    assert not after.has_figure("B") and after.has_figure("A")


def test_after_a_miss_the_shots_left_are_shared_again():
    state = scene(TWO_MARINES, LEGEND, players=("p1",))
    dice = ScriptedDice(values=[0, 0, 0])  # B is missed: both marines still to hit
    _after, steps = resolve_alien_turn(state, policy_named("bob"), dice)
    assert areas_fired(dice) == [(B_AREA, 1), (A_AREA, 1), (A_AREA, 1)]
    assert [s["shots"] for s in steps_of(steps, "areas_chosen_again")] == [2, 1]


def test_shots_left_that_can_hurt_nobody_are_not_fired():
    # A planned area whose marine an earlier area's roll killed: the shots left are held.
    state = scene(TWO_MARINES.replace(".A|", ". |"), LEGEND, players=("p1",))
    dice = ScriptedDice(values=[3])  # the single shot at B kills him: nobody left in sight
    ctx = TurnContext(state=state, dice=dice, rules=load_rules_data())
    planned = Shot(
        "lascannon",
        "lascannon",
        None,
        None,
        Fraction(0),
        Fraction(0),
        areas=(
            ((8, 4), 1),
            ((8, -1), 2),
        ),
    )
    assert fire_areas(ctx, "D", planned)
    assert areas_fired(dice) == [(B_AREA, 1)]
    assert [(s.code, s.params) for s in ctx.steps if s.code == "areas_held"] == [
        ("areas_held", {"figure": "D", "weapon": "lascannon", "shots": 2})
    ]


def test_the_log_tells_the_judge_in_both_languages():
    params = {"figure": "D", "weapon": "lascannon", "shots": 2}
    assert render("areas_chosen_again", params, "en") == (
        "D has seen the roll: it now chooses where its lascannon shots left (2) go, where "
        "they hit the most marines."
    )
    assert render("areas_held", params, "it") == (
        "D ha visto il tiro: con i colpi rimasti di cannone laser (2) non può ferire "
        "nessuno, e non li spara."
    )
