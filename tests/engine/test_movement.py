"""Movement (RULES §10): steps, doors, passing figures, claws, the Dreadnought, distances."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.engine.board import DoorState
from rules.engine.geometry import block_2x2, corner_edges, is_orthogonally_adjacent
from rules.engine.movement import (
    UNREACHABLE,
    MoveError,
    can_stop_at,
    distance_field,
    distance_to_adjacent,
    field_to_adjacent,
    field_to_squares,
    move,
    open_door,
    reachable,
    shortest_path,
)
from rules.engine.state import Figure, build_state, semantic_problems
from tests.engine.test_board_strategies import states


def marine(fid, sq, player="p1"):
    return Figure(fid, "marine", player, "marine", (sq,), 2)


def alien(fid, sq, unit="ork"):
    return Figure(fid, "alien", None, unit, (sq,), 1)


def dreadnought(fid, anchor, side="alien", player=None):
    return Figure(fid, side, player, "dreadnought", block_2x2(anchor), 3)


OPEN = """
+--+--+--+--+--+
|.  .  .  .  . |
+  +  +  +  +  +
|.  .  .  .  . |
+  +  +  +  +  +
|.  .  .  .  . |
+  +  +  +  +  +
|.  .  .  .  . |
+--+--+--+--+--+
"""


def test_eight_directions_on_an_open_floor():
    state = build_state(OPEN, [marine("m", (2, 1))])
    field = distance_field(state, "m")
    assert field.distance((4, 3)) == 2  # two diagonal steps
    assert field.distance((0, 0)) == 2
    assert shortest_path(state, "m", (4, 3)) == [(3, 2), (4, 3)]
    within_one = reachable(state, "m", 1)
    assert len(within_one) == 9 and within_one[(2, 1)] == 0


CORNERS = """
+--+--+--+--+--+
|.  . |.  .  . |
+  +  +  +  +  +
|.  .  .  ## . |
+  +--+  +  +  +
|.  . D.  .  . |
+--+--+--+--+--+
"""


def test_diagonal_steps_need_a_clear_corner():
    state = build_state(CORNERS, [marine("m", (1, 1))])
    field = distance_field(state, "m")
    assert field.distance((2, 0)) == 2  # wall at the corner: go round
    assert field.distance((0, 2)) == 2  # wall under 1,1 touches that corner
    assert field.distance((2, 2)) == 2  # a door touches the corner: doors are passed square on
    assert field.distance((0, 0)) == 1  # a clear corner
    rock = build_state(CORNERS, [marine("m", (2, 0))])
    # 3,0 -> 4,1 would cut the corner of the solid square 3,1: go by 4,0.
    assert distance_field(rock, "m").distance((4, 1)) == 3
    assert shortest_path(rock, "m", (4, 1)) == [(3, 0), (4, 0), (4, 1)]


DOORS = """
+--+--+--+--+--+
|.  . |:  : |. |
+  +  +  +  +  +
|.  . D:  : B. |
+  +  +  +  +  +
|.  . |:  : |. |
+--+--+--+--+--+
"""


def test_closed_doors_open_on_the_way():
    state = build_state(DOORS, [marine("m", (0, 1))])
    path = shortest_path(state, "m", (3, 1))
    assert path == [(1, 1), (2, 1), (3, 1)]
    new, events = move(state, "m", path)
    assert new.door_state((1, 1), (2, 1)) is DoorState.OPEN
    assert state.door_state((1, 1), (2, 1)) is DoorState.CLOSED
    assert [e.kind for e in events] == ["door_opened", "moved"]
    assert events[0].square == (1, 1)  # opened from the square in front of it
    assert new.figure("m").squares == ((3, 1),)


def test_doors_can_be_left_shut():
    state = build_state(DOORS, [marine("m", (0, 1))])
    assert shortest_path(state, "m", (3, 1), open_doors=False) is None
    assert distance_field(state, "m", open_doors=False).distance((2, 1)) == UNREACHABLE


def test_bulkheads_never_open_but_destroyed_ones_are_gaps():
    state = build_state(DOORS, [marine("m", (2, 1))])
    assert shortest_path(state, "m", (4, 1)) is None
    broken = state.with_door((3, 1), (4, 1), DoorState.DESTROYED)
    assert shortest_path(broken, "m", (4, 1)) == [(3, 1), (4, 1)]


def test_walls_are_walked_around():
    state = build_state(DOORS, [marine("m", (1, 0))])
    assert distance_field(state, "m").distance((2, 0)) == 3  # through the door at 1,1|2,1
    with pytest.raises(MoveError, match="cannot step from 1,0 to 2,0"):
        move(state, "m", [(2, 0)])


def test_opening_a_door_without_going_through():
    state = build_state(DOORS, [marine("m", (1, 1)), marine("n", (0, 0))])
    new, [event] = open_door(state, "m", (2, 1), (1, 1))
    assert new.door_state((1, 1), (2, 1)) is DoorState.OPEN
    assert event.kind == "door_opened" and event.square == (1, 1)
    with pytest.raises(MoveError, match="must stand in front"):
        open_door(state, "n", (1, 1), (2, 1))
    with pytest.raises(MoveError, match="bulkhead, not closed"):
        open_door(state, "m", (3, 1), (4, 1))
    with pytest.raises(MoveError, match="no door"):
        open_door(state, "m", (1, 1), (1, 2))


LINE = """
+--+--+--+--+--+
|.  .  .  .  . |
+--+--+--+--+--+
"""


def test_passing_own_figures_but_not_stopping_on_them():
    state = build_state(LINE, [marine("a", (0, 0)), marine("b", (1, 0)), marine("c", (3, 0))])
    assert shortest_path(state, "a", (2, 0)) == [(1, 0), (2, 0)]
    assert shortest_path(state, "a", (4, 0)) == [(1, 0), (2, 0), (3, 0), (4, 0)]
    assert shortest_path(state, "a", (1, 0)) is None
    assert not can_stop_at(state, "a", (1, 0))


def test_other_players_figures_need_permission():
    state = build_state(LINE, [marine("a", (0, 0)), marine("x", (1, 0), player="p2")])
    assert shortest_path(state, "a", (2, 0)) is None
    assert shortest_path(state, "a", (2, 0), permitted={"p2"}) == [(1, 0), (2, 0)]
    with pytest.raises(MoveError, match="cannot pass 1,0"):
        move(state, "a", [(1, 0), (2, 0)])


def test_aliens_pass_aliens_but_not_marines():
    state = build_state(LINE, [alien("o", (0, 0)), alien("g", (1, 0)), marine("m", (3, 0))])
    assert shortest_path(state, "o", (2, 0)) == [(1, 0), (2, 0)]
    assert shortest_path(state, "o", (4, 0)) is None
    marine_state = build_state(LINE, [marine("m", (0, 0)), alien("o", (1, 0))])
    assert shortest_path(marine_state, "m", (2, 0)) is None


def test_hidden_blips_block_marines_and_are_never_stopped_on():
    from rules.engine.state import Blip

    state = build_state(
        LINE, [marine("m", (0, 0)), alien("o", (4, 0))], blips=(Blip("b1", (2, 0), "ork"),)
    )
    assert shortest_path(state, "m", (3, 0)) is None
    assert shortest_path(state, "o", (1, 0)) == [(3, 0), (2, 0), (1, 0)]
    assert shortest_path(state, "o", (2, 0)) is None


CLAW = """
+--+--+--+--+
|.1 .  .  . |
+  +  +  +  +
|.1 .  .  . |
+--+--+--+--+
"""


def test_aliens_never_enter_docking_claws():
    state = build_state(CLAW, [alien("o", (2, 0)), marine("m", (3, 1))])
    assert distance_field(state, "o").distance((0, 0)) == UNREACHABLE
    assert distance_field(state, "m").distance((0, 0)) == 3
    new, events = move(state, "m", [(2, 1), (1, 1), (0, 1)])
    assert events[-1].kind == "reached_claw" and events[-1].detail["claw"] == "1"
    with pytest.raises(MoveError):
        move(state, "o", [(1, 0), (0, 0)])


DREAD = """
+--+--+--+--+--+--+
|.  .  .  .  .  . |
+  +  +  +  +  +  +
|.  .  .  .  .  . |
+--+--+DD+--+--+--+
|:  :  :  :  :  : |
+  +  +  +  +  +  +
|:  :  :  :  :  : |
+--+--+--+--+--+--+
"""


def test_dreadnought_moves_orthogonally_counting_its_front():
    state = build_state(OPEN, [dreadnought("d", (0, 0))])
    field = distance_field(state, "d")
    assert field.distance((3, 2)) == 5  # no diagonal shortcut: 3 + 2
    assert field.distance((3, 0)) == 3
    path = shortest_path(state, "d", (1, 1))
    assert len(path) == 2 and all(
        is_orthogonally_adjacent(a, b) for a, b in zip([(0, 0), *path], path, strict=False)
    )
    new, _ = move(state, "d", path)
    assert set(new.figure("d").squares) == set(block_2x2((1, 1)))


def test_dreadnought_crouches_through_a_door_but_never_stops_under_it():
    state = build_state(DREAD, [dreadnought("d", (1, 0))])
    field = distance_field(state, "d")
    assert field.distance((1, 1)) == 1 and not field.can_stop((1, 1))  # door under its base
    assert field.distance((1, 2)) == 2 and field.can_stop((1, 2))
    assert reachable(state, "d", 1) == {(1, 0): 0, (0, 0): 1, (2, 0): 1}
    new, events = move(state, "d", [(1, 1), (1, 2)])
    assert new.door_state((2, 1), (2, 2)) is DoorState.OPEN
    assert events[0].kind == "door_opened"
    with pytest.raises(MoveError, match="door would be under its base"):
        move(state, "d", [(1, 1)])


def test_dreadnought_passes_aliens_but_does_not_end_on_them():
    state = build_state(OPEN, [dreadnought("d", (0, 0)), alien("o", (2, 0)), alien("g", (3, 1))])
    field = distance_field(state, "d")
    assert field.distance((3, 0)) == 3 and field.can_stop((3, 0)) is False
    assert field.can_stop((2, 2))
    blocked = build_state(
        OPEN, [dreadnought("d", (0, 0)), marine("m", (2, 0)), marine("n", (2, 1))]
    )
    assert distance_field(blocked, "d").distance((3, 0)) > 3


def test_distance_to_adjacent_follows_walls_not_straight_lines():
    state = build_state(DOORS, [alien("o", (0, 0)), marine("m", (3, 0)), marine("x", (4, 2), "p2")])
    # 3,0 is behind a wall; the way in is the door at 1,1|2,1, then on to 2,0 or 3,1.
    assert distance_to_adjacent(state, "o", "p1") == 3
    assert distance_to_adjacent(state, "o", "p2") == UNREACHABLE  # behind the bulkhead
    assert distance_to_adjacent(state, "o", "p1", open_doors=False) == UNREACHABLE


def test_field_to_adjacent_matches_forward_distances():
    state = build_state(OPEN, [alien("o", (0, 0)), marine("m", (4, 3)), marine("n", (1, 3))])
    back = field_to_adjacent(state, "o", "p1")
    assert back[0] == distance_to_adjacent(state, "o", "p1") == 2
    width = state.board.width
    assert back[4 + 2 * width] == 0  # already adjacent to m
    assert back[4 + 3 * width] == UNREACHABLE  # m's own square: never a stopping place


def test_field_to_squares_measures_the_way_to_the_nearest_goal():
    state = build_state(DOORS, [marine("m", (0, 0))])
    width = state.board.width
    to_goal = field_to_squares(state, "m", [(3, 0)])
    # 3,0 is behind a wall: the way goes through the door at 1,1|2,1.
    assert to_goal[0] == len(shortest_path(state, "m", (3, 0))) == 3
    assert to_goal[3] == 0
    assert field_to_squares(state, "m", [(3, 0), (1, 0)])[0] == 1  # the nearest goal counts
    assert to_goal[2 + 1 * width] == 1  # past the door, one diagonal step away


def test_marine_entering_a_new_section_stops_there():
    two = """
+--+--+--+--+
|.  . A.  . |
+--+--+--+--+

section A board 0,0 1,0
section B board 2,0 3,0
"""
    state = build_state(two, [marine("m", (0, 0))])
    new, events = move(state, "m", [(1, 0), (2, 0), (3, 0)])
    assert new.figure("m").squares == ((2, 0),)
    assert events[-1].kind == "section_entered"
    assert events[-1].detail == {"section": "B", "steps_taken": 2}
    # Listing B is the survey's job (it places B's blips); standing in B is enough for
    # the marine to go on.
    assert new.surveyed_sections == ()
    again, _ = move(new, "m", [(3, 0)])
    assert again.figure("m").squares == ((3, 0),)
    alien_state = build_state(two, [alien("o", (0, 0))])
    assert move(alien_state, "o", [(1, 0), (2, 0), (3, 0)])[0].figure("o").squares == ((3, 0),)


def test_illegal_moves_are_explained():
    state = build_state(DOORS, [marine("m", (0, 0)), marine("n", (0, 2))])
    with pytest.raises(MoveError, match="step 1: m cannot step from 0,0 to 2,2"):
        move(state, "m", [(2, 2)])
    with pytest.raises(MoveError, match="may move 1 square, the path has 2"):
        move(state, "m", [(0, 1), (1, 1)], allowance=1)
    with pytest.raises(MoveError, match="cannot end its move at 0,2"):
        move(state, "m", [(0, 1), (0, 2)])
    with pytest.raises(MoveError, match="outside"):
        move(state, "m", [(9, 9)])
    with pytest.raises(MoveError, match="no figure"):
        distance_field(state, "ghost")
    tarantula = Figure("t", "marine", "p1", "tarantula", ((0, 0), (0, 1)), 1)
    with pytest.raises(MoveError, match="Tarantula"):
        distance_field(build_state(OPEN, [tarantula]), "t")


# -- properties --------------------------------------------------------------------------


def _legal_step(board, state, a, b):
    if is_orthogonally_adjacent(a, b):
        if board.has_wall(a, b):
            return False
        door = state.doors.get(tuple(sorted((a, b))))
        return door is None or door is not DoorState.BULKHEAD
    for e in corner_edges(a, b):
        if board.has_wall(*e) or e in board.doors:
            return False
    return not board.is_solid((a[0], b[1])) and not board.is_solid((b[0], a[1]))


@settings(max_examples=120, deadline=None)
@given(states(), st.data())
def test_paths_never_cross_walls_bulkheads_or_solid_squares(state, data):
    if not state.figures:
        return
    fig = data.draw(st.sampled_from(state.figures))
    field = distance_field(state, fig.id)
    for sq, steps in reachable(state, fig.id, 6).items():
        path = field.path_to(sq)
        assert len(path) == steps
        here = fig.squares[0]
        for step in path:
            assert not state.board.is_solid(step)
            assert _legal_step(state.board, state, here, step)
            here = step
        new, _ = move(state, fig.id, path, stop_on_survey=False)
        assert semantic_problems(new) == []  # no two figures on one square


@settings(max_examples=80, deadline=None)
@given(states(dreadnought=True, max_size=8), st.data())
def test_dreadnought_paths_keep_its_base_legal(state, data):
    if not state.has_figure("dread"):
        return
    field = distance_field(state, "dread")
    board = state.board
    for anchor in reachable(state, "dread", 5):
        path = field.path_to(anchor)
        here = state.figure("dread").square
        for step in path:
            assert is_orthogonally_adjacent(here, step)  # never diagonal
            assert board.dread_doors[board.index(step)] is not None
            here = step
        new, _ = move(state, "dread", path, stop_on_survey=False)
        assert semantic_problems(new) == []
        assert board.dread_doors[board.index(anchor)] == ()  # never ends under a door


@settings(max_examples=80, deadline=None)
@given(states(), st.data())
def test_reverse_field_agrees_with_forward_distance(state, data):
    movers = [f for f in state.figures if f.on_board]
    players = sorted({f.player for f in state.figures if f.player})
    if not movers or not players:
        return
    fig = data.draw(st.sampled_from(movers))
    player = data.draw(st.sampled_from(players))
    back = field_to_adjacent(state, fig.id, player)
    assert back[state.board.index(fig.squares[0])] == distance_to_adjacent(state, fig.id, player)
