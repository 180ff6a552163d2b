"""Priority policy: slowest first, the target ranking, focus fire."""

from rules.engine.ai.priority_policy import PriorityPolicy
from rules.engine.ai.turn import resolve_alien_turn
from rules.engine.dice import SeededDice
from tests.engine.ai_support import alien, make_board, make_state, marine, steps_of


def run(state, seed=1):
    return resolve_alien_turn(state, PriorityPolicy(), SeededDice(seed=seed))


def test_slowest_alien_acts_first():
    board = make_board(20, 1)
    state = make_state(
        board,
        [
            alien("g1", "gretchin", (0, 0)),
            alien("n1", "android", (2, 0)),
            marine("a1", "p1", (19, 0)),
        ],
        players=("p1",),
    )
    _, steps = run(state)
    assert [p["figure"] for p in steps_of(steps, "activation")] == ["n1", "g1"]


def test_fewest_life_points_first():
    board = make_board(9, 3)
    state = make_state(
        board,
        [
            alien("c1", "chaos_marine", (0, 1)),
            marine("a1", "p1", (8, 0), life_points=2),
            marine("a2", "p1", (8, 2), life_points=1),
        ],
        players=("p1",),
    )
    _, steps = run(state)
    choice = steps_of(steps, "target_choice")[0]
    assert (choice["target"], choice["criterion"]) == ("a2", "fewest_life_points")


def test_highest_firepower_on_equal_life_points():
    board = make_board(9, 3)
    state = make_state(
        board,
        [
            alien("c1", "chaos_marine", (0, 1)),
            marine("a1", "p1", (8, 0)),
            marine("a2", "p1", (8, 2), unit="heavy_weapon_marine", weapons=("plasma_gun",)),
        ],
        players=("p1",),
    )
    _, steps = run(state)
    choice = steps_of(steps, "target_choice")[0]
    assert (choice["target"], choice["criterion"]) == ("a2", "firepower")


def test_nearest_on_equal_everything():
    board = make_board(12, 1)
    state = make_state(
        board,
        [
            alien("g1", "genestealer", (5, 0)),
            marine("a1", "p1", (0, 0)),
            marine("a2", "p1", (8, 0)),
        ],
        players=("p1",),
    )
    _, steps = run(state)
    choice = steps_of(steps, "target_choice")[0]
    assert (choice["target"], choice["criterion"]) == ("a2", "nearest")


def test_can_damage_before_anything_else():
    # A house rule gives the commander armour 7: a missile (two red dice) never hurts him,
    # though a blast at him hurts the marine beside him. A marine the alien cannot hurt at
    # all is no target (game engine decision 24), so "can be damaged" asks whether a plan
    # can hurt the target itself: the commander, with fewer life points, is ranked after.
    board = make_board(12, 3)
    state = make_state(
        board,
        [
            alien("h1", "chaos_marine_heavy", (0, 1)),
            marine("c1", "p1", (11, 0), unit="commander", weapons=("bolter",), life_points=1),
            marine("a1", "p1", (11, 1), life_points=2),
        ],
        players=("p1",),
        data_overrides={"units": {"commander": {"armour": 7}}},
    )
    _, steps = run(state)
    choice = steps_of(steps, "target_choice")[0]
    assert (choice["target"], choice["criterion"]) == ("a1", "can_damage")


def test_focus_fire_on_the_shared_target():
    board = make_board(12, 3)
    state = make_state(
        board,
        [
            alien("c1", "chaos_marine", (0, 0)),
            alien("c2", "chaos_marine", (0, 2)),
            marine("a1", "p1", (11, 0), unit="commander", weapons=("bolter",)),
            marine("a2", "p2", (11, 2), unit="commander", weapons=("bolter",)),
        ],
        players=("p1", "p2"),
    )
    # A bolter removes at most 4 of a commander's 6 life points: the target survives.
    _, steps = run(state)
    choices = steps_of(steps, "target_choice")
    assert choices[1] == {"figure": "c2", "target": choices[0]["target"], "criterion": "focus_fire"}
