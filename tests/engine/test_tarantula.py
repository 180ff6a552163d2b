"""The Tarantula's moves: forward only, free quarter and half turns about its centre, the
gunner following behind (rules/engine/tarantula.py; decisions in docs/decisions.md)."""

from __future__ import annotations

import pytest

from rules.engine.board import DoorState
from rules.engine.geometry import Facing
from rules.engine.movement import MoveError
from rules.engine.state import semantic_problems
from rules.engine.tarantula import (
    FORWARD,
    TURN_ABOUT,
    TURN_RIGHT,
    move_tarantula,
    tarantula_manoeuvre,
)
from tests.engine.combat_scenes import alien, marine, put, scene

CREW = {"T": marine("tarantula", facing="E"), "G": marine(piloting="T")}

CORRIDOR = """
+--+--+--+--+--+--+--+--+--+
|.G .T .T .  .  .  .  .  . |
+--+--+--+--+--+--+--+--+--+
"""

HALL = """
+--+--+--+--+--+--+--+--+--+
|.  .  .  .  .  .  .  .  . |
+  +  +  +  +  +  +  +  +  +
|.G .T .T .  .  .  .  .  . |
+  +  +  +  +  +  +  +  +  +
|.  .  .  .  .  .  .  .  . |
+  +  +  +  +  +  +  +  +  +
|.  .  .  .  .  .  .  .  . |
+  +  +  +  +  +  +  +  +  +
|.  .  .  .  .  .  .  .  . |
+--+--+--+--+--+--+--+--+--+
"""

TWO_WIDE = """
+--+--+--+--+--+--+
|.G .T .T .  .  . |
+  +  +  +  +  +  +
|.  .  .  .  .  . |
+--+--+--+--+--+--+
"""


def squares(state, figure_id):
    return set(state.figure(figure_id).squares)


def kinds(steps):
    return [step.kind for step in steps]


def test_it_moves_forward_counting_from_the_front_and_the_gunner_follows():
    state = scene(CORRIDOR, CREW)
    new, events = move_tarantula(state, "T", (8, 0), Facing.EAST)
    assert squares(new, "T") == {(8, 0), (7, 0)}
    assert new.figure("G").squares == ((6, 0),)
    assert new.figure("T").facing is Facing.EAST
    assert [e.kind for e in events] == ["moved"]
    assert events[0].detail["steps"] == 6
    assert not semantic_problems(new)


def test_it_moves_at_most_its_allowance():
    state = scene(CORRIDOR, CREW)
    with pytest.raises(MoveError, match="within 5 squares"):
        move_tarantula(state, "T", (8, 0), Facing.EAST, allowance=5)


def test_it_never_moves_backwards_or_turns_where_there_is_no_room():
    state = scene(CORRIDOR, CREW)
    with pytest.raises(MoveError, match="cannot end with its front on 1,0 facing west"):
        move_tarantula(state, "T", (1, 0), Facing.WEST)


def test_a_quarter_turn_about_the_centre_costs_nothing():
    state = scene(HALL, CREW)
    steps = tarantula_manoeuvre(state, "T", (1, 2), Facing.SOUTH, 6)
    assert kinds(steps) == [TURN_RIGHT]
    new, events = move_tarantula(state, "T", (1, 2), Facing.SOUTH)
    assert squares(new, "T") == {(1, 1), (1, 2)}
    assert new.figure("G").squares == ((1, 0),)
    assert [e.kind for e in events] == ["turned"]
    assert events[0].detail == {"facing": "S"}


def test_the_seeds_example_four_forward_a_turn_two_more():
    state = scene(HALL, CREW)
    steps = tarantula_manoeuvre(state, "T", (5, 4), Facing.SOUTH, 6)
    assert kinds(steps) == [FORWARD] * 4 + [TURN_RIGHT] + [FORWARD] * 2
    new, _ = move_tarantula(state, "T", (5, 4), Facing.SOUTH)
    assert squares(new, "T") == {(5, 4), (5, 3)}
    assert new.figure("G").squares == ((5, 2),)


def test_it_passes_through_marines_but_never_ends_on_one():
    state = scene(put(CORRIDOR, (4, 0), "M"), {**CREW, "M": marine(player="p2")})
    new, _ = move_tarantula(state, "T", (7, 0), Facing.EAST)
    assert squares(new, "T") == {(7, 0), (6, 0)}
    with pytest.raises(MoveError, match="figures on its three final squares"):
        move_tarantula(state, "T", (4, 0), Facing.EAST)


def test_an_alien_or_a_blip_stops_it():
    state = scene(put(CORRIDOR, (5, 0), "X"), {**CREW, "X": alien("ork")})
    with pytest.raises(MoveError, match="cannot end with its front on 7,0"):
        move_tarantula(state, "T", (7, 0), Facing.EAST)
    new, _ = move_tarantula(state, "T", (3, 0), Facing.EAST)
    assert squares(new, "T") == {(3, 0), (2, 0)}


def test_an_alien_on_a_swept_corner_forbids_the_quarter_turn():
    # Turning from east to south, the front sweeps (2,2) and the gunner (0,0).
    state = scene(put(HALL, (2, 2), "X"), {**CREW, "X": alien("ork")})
    steps = tarantula_manoeuvre(state, "T", (1, 2), Facing.SOUTH, 6)
    # The long way round, on the free side (two turns, no square moved).
    assert len(steps) == 2 and TURN_RIGHT not in kinds(steps) and FORWARD not in kinds(steps)


@pytest.mark.parametrize(("player", "turns_right"), [("p2", False), ("p1", True)])
def test_another_players_marine_on_a_swept_corner_forbids_the_quarter_turn(player, turns_right):
    """Like the narrow reversal, a quarter turn never sweeps over another squad's marine
    (seed contradiction, docs/decisions.md); its own squad's marine it passes."""
    state = scene(put(HALL, (2, 2), "M"), {**CREW, "M": marine(player=player)})
    steps = tarantula_manoeuvre(state, "T", (1, 2), Facing.SOUTH, 6)
    assert (kinds(steps) == [TURN_RIGHT]) is turns_right


def test_the_narrow_reversal_uses_the_three_squares_along_one_side():
    state = scene(TWO_WIDE, CREW)
    steps = tarantula_manoeuvre(state, "T", (0, 0), Facing.WEST, 6)
    assert kinds(steps) == [TURN_ABOUT]
    new, _ = move_tarantula(state, "T", (0, 0), Facing.WEST)
    assert squares(new, "T") == {(0, 0), (1, 0)}
    assert new.figure("G").squares == ((2, 0),)
    assert new.figure("T").facing is Facing.WEST


@pytest.mark.parametrize(
    ("row", "legend", "allowed"),
    [
        ("AB", {"A": marine(), "B": marine()}, True),  # two of its own squad, one free
        ("ABC", {"A": marine(), "B": marine(), "C": marine()}, False),  # none free
        ("A", {"A": marine(player="p2")}, False),  # another player's marine
        (" X", {"X": alien("gretchin")}, False),  # an alien
    ],
)
def test_the_narrow_reversal_needs_one_free_square_and_no_enemy(row, legend, allowed):
    drawing = TWO_WIDE
    for x, letter in enumerate(row):
        drawing = put(drawing, (x, 1), letter)
    state = scene(drawing, {**CREW, **legend})
    steps = tarantula_manoeuvre(state, "T", (0, 0), Facing.WEST, 0)  # turning in place
    assert (steps is not None) is allowed


def test_closed_doors_open_on_the_way_and_walls_stop_it():
    drawing = """
+--+--+--+--+--+--+--+
|.G .T .TD.  . |.  . |
+--+--+--+--+--+--+--+
"""
    state = scene(drawing, CREW)
    new, events = move_tarantula(state, "T", (4, 0), Facing.EAST)
    assert [e.kind for e in events] == ["door_opened", "moved"]
    assert new.doors[((2, 0), (3, 0))] is DoorState.OPEN
    with pytest.raises(MoveError):
        move_tarantula(state, "T", (5, 0), Facing.EAST)


def test_only_a_crewed_tarantula_with_its_gunner_behind_moves():
    uncrewed = scene(CORRIDOR, {"T": marine("tarantula", facing="E"), "G": marine()})
    with pytest.raises(MoveError, match="has no gunner"):
        move_tarantula(uncrewed, "T", (5, 0), Facing.EAST)
    aside = scene(put(put(HALL, (0, 1), " "), (1, 0), "G"), CREW)
    with pytest.raises(MoveError, match="not on the square behind"):
        move_tarantula(aside, "T", (5, 1), Facing.EAST)
    state = scene(CORRIDOR, CREW)
    with pytest.raises(MoveError, match="not a Tarantula"):
        move_tarantula(state, "G", (5, 0), Facing.EAST)
    with pytest.raises(MoveError, match="already stands there"):
        move_tarantula(state, "T", (2, 0), Facing.EAST)


def test_it_stops_on_entering_a_section_not_yet_surveyed():
    drawing = """
+--+--+--+--+--+--+--+--+
|.G .T .T .  .  .  .  . |
+--+--+--+--+--+--+--+--+

section A board 0,0 3,0
section B board 4,0 7,0
"""
    state = scene(drawing, CREW)
    new, events = move_tarantula(state, "T", (7, 0), Facing.EAST)
    assert squares(new, "T") == {(4, 0), (3, 0)}
    assert events[-1].kind == "section_entered"
    assert events[-1].detail == {"section": "B", "steps_taken": 2}
