"""A marine's lascannon may fire its first area alone and choose where the other shots go
after seeing the roll (seed 002, "Il Cannone Laser"; game engine decision 31): the board
lists the first areas fired alone, then, while shots are left, only the ways to fire
those, all as one attack; a move ends them."""

from __future__ import annotations

import pytest

from rules.engine.dice import ScriptedDice
from rules.engine.movement import move
from rules.engine.turns import TurnError, record_move, record_volley
from rules.engine.units import load_rules_data
from table.actions import GameError, attack_choices, resolve_marine_attack
from tests.engine.combat_scenes import marine, scene

#: L, p1's lascannon marine, sees p2's marines A and B (1 life point each: a red 3 beats
#: armour 2 and kills), too far apart for one area.
HALL = """
+--+--+--+--+--+--+--+--+--+--+--+
|.  .  .  .  .  .  .  .  .  .  .A|
+  +  +  +  +  +  +  +  +  +  +  +
|.  .  .  .  .  .  .  .  .  .  . |
+  +  +  +  +  +  +  +  +  +  +  +
|.L .  .  .  .  .  .  .  .  .  . |
+  +  +  +  +  +  +  +  +  +  +  +
|.  .  .  .  .  .  .  .  .  .  .B|
+--+--+--+--+--+--+--+--+--+--+--+
"""
LEGEND = {
    "L": marine("extra_heavy_weapon_marine", weapons=["lascannon"]),
    "A": marine(player="p2", life_points=1),
    "B": marine(player="p2", life_points=1),
}
RULES = load_rules_data()


def hall():
    return scene(HALL, LEGEND).replace(active_player="p1")


def fire(state, choice_of, dice):
    """Resolve the first of L's choices ``choice_of`` picks, with ``dice``."""
    choices = attack_choices(state, "L")
    index = next(i for i, option in enumerate(choices) if choice_of(option))
    return resolve_marine_attack(state, "L", index, ScriptedDice(values=dice), 0)


def at(figure_id: str, shots: int):
    """An option firing ``shots`` at the area holding ``figure_id`` alone."""
    return lambda option: (
        len(option.areas) == 1
        and option.areas[0][1] == shots
        and (option.target_keys == (figure_id,))
    )


def test_one_area_first_then_the_shots_left_where_the_roll_says():
    state = hall()
    first = [o for o in attack_choices(state, "L") if o.code == "area_shot_first"]
    assert {(o.target_keys, o.areas[0][1], o.params["left"]) for o in first} == {
        (("A",), 1, 2),
        (("A",), 2, 1),
        (("B",), 1, 2),
        (("B",), 2, 1),
    }
    after = fire(state, at("A", 1), [3]).state  # A dies to the first shot
    assert not after.has_figure("A")
    assert after.turn.of("L").volley == 1
    # Only the two shots left, both now free to go at B together.
    choices = attack_choices(after, "L")
    assert {sum(n for _, n in o.areas) for o in choices} <= {1, 2}
    assert all(o.target_keys == ("B",) for o in choices)
    done = fire(after, at("B", 2), [0, 3]).state
    assert not done.has_figure("B")
    assert done.turn.of("L").volley == 0 and done.turn.of("L").attacks == 1


def test_a_move_ends_the_shots_left():
    after = fire(hall(), at("A", 1), [0]).state
    moved = record_move(after, "L", 1, RULES)
    moved, _events = move(moved, "L", [(1, 2)])
    assert moved.turn.of("L").volley == 0
    with pytest.raises(GameError, match="already attacked"):
        fire(moved, lambda option: True, [3, 3, 3])


def test_the_shots_left_cannot_be_more_than_the_lascannon_has():
    after = fire(hall(), at("A", 2), [0, 0]).state
    assert {sum(n for _, n in o.areas) for o in attack_choices(after, "L")} == {1}
    done = fire(after, at("B", 1), [0]).state
    assert done.turn.of("L").volley == 0
    with pytest.raises(GameError, match="already attacked"):
        fire(done, at("B", 3), [0, 0, 0])


def test_more_shots_than_are_left_are_refused_naming_the_rule():
    after = fire(hall(), at("A", 1), [0]).state
    with pytest.raises(TurnError) as refused:
        record_volley(after, "L", "lascannon", 3, RULES)
    assert refused.value.code == "turn_volley_left"
    assert refused.value.params == {"figure": "L", "weapon": "lascannon", "shots": 2}
