"""Line of sight (RULES §10), scenario by scenario, plus symmetry as a property."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.engine.board import DoorState
from rules.engine.geometry import block_2x2
from rules.engine.los import (
    SightError,
    figure_sight,
    line_of_sight,
    seen_by_any,
    visible_squares,
)
from rules.engine.state import Figure, build_state
from tests.engine.test_board_strategies import states


def marine(fid, sq, player="p1"):
    return Figure(fid, "marine", player, "marine", (sq,), 2)


def alien(fid, sq, unit="ork"):
    return Figure(fid, "alien", None, unit, (sq,), 1)


def sight(state, a, b, firing=True):
    result = line_of_sight(state, a, b, for_firing=firing)
    back = line_of_sight(state, b, a, for_firing=firing)
    assert (back.visible, back.doubtful) == (result.visible, result.doubtful)
    return result


OPEN = """
+--+--+--+--+--+
|.  .  .  .  . |
+  +  +  +  +  +
|.  .  .  .  . |
+  +  +  +  +  +
|.  .  .  .  . |
+--+--+--+--+--+
"""


def test_clear_line_across_an_open_corridor():
    state = build_state(OPEN)
    result = sight(state, (0, 0), (4, 2))
    assert result.visible and not result.doubtful
    assert result.verdict == "visible" and result.reason == "clear line"


def test_diagonally_adjacent_squares_never_see_each_other():
    state = build_state(OPEN, [marine("m", (1, 1)), alien("o", (2, 2))])
    result = sight(state, (1, 1), (2, 2))
    assert not result.visible and "diagonally adjacent" in result.reason
    assert not figure_sight(state, "m", "o").visible
    assert sight(state, (1, 1), (2, 1)).visible  # orthogonal neighbours do


WALLS = """
+--+--+--+--+--+
|.  . |.  .  . |
+  +  +  +  +  +
|.  . D.  . B. |
+  +  +  +  +  +
|.  .  .  ## . |
+--+--+--+--+--+
"""


def test_walls_doors_and_solid_squares_block():
    state = build_state(WALLS)
    wall = sight(state, (0, 0), (3, 0))
    assert not wall.visible and "wall between 1,0 and 2,0" in wall.reason
    door = sight(state, (0, 1), (2, 1))
    assert not door.visible and "closed door between 1,1 and 2,1" in door.reason
    solid = sight(state, (2, 2), (4, 2))
    assert not solid.visible and "solid square 3,2" in solid.reason
    bulkhead = sight(state, (2, 1), (4, 1))
    assert not bulkhead.visible and "reinforced bulkhead door" in bulkhead.reason


def test_open_and_destroyed_doors_do_not_block():
    state = build_state(WALLS)
    state = state.with_door((1, 1), (2, 1), DoorState.OPEN)
    state = state.with_door((3, 1), (4, 1), DoorState.DESTROYED)
    assert sight(state, (0, 1), (4, 1)).visible


def test_solid_end_square():
    state = build_state(WALLS)
    result = sight(state, (0, 2), (3, 2))
    assert not result.visible and result.reason == "square 3,2 is solid"


def test_figures_block_firing_but_not_revealing():
    state = build_state(OPEN, [marine("m", (0, 1)), alien("o", (2, 1)), alien("g", (4, 1))])
    assert not sight(state, (0, 1), (4, 1), firing=True).visible
    assert "figure o on 2,1" in sight(state, (0, 1), (4, 1)).reason
    assert sight(state, (0, 1), (4, 1), firing=False).visible
    assert figure_sight(state, "m", "o").visible  # the target does not hide itself
    assert not figure_sight(state, "m", "g").visible
    assert figure_sight(state, "m", "g", for_firing=False).visible


# From 0,0 to 3,1 the sight line passes exactly through the grid corner shared by
# squares 1,0 / 2,0 / 1,1 / 2,1 (the point x=2, y=1).
GRAZE = """
+--+--+--+--+
|.  .  ## . |
+  +  +  +  +
|.  .  .  . |
+  +  +  +  +
|.  .  .  . |
+--+--+--+--+
"""


def test_grazing_a_single_corner_is_doubtful():
    state = build_state(GRAZE)
    result = sight(state, (0, 0), (3, 1))
    assert result.visible and result.doubtful
    assert result.verdict == "doubtful"
    assert "grazes the solid square 2,0" in result.reason


TWO_SOLIDS = """
+--+--+--+--+
|.  .  ## . |
+  +  +  +  +
|.  ## .  . |
+  +  +  +  +
|.  .  .  . |
+--+--+--+--+
"""


def test_passing_between_two_blockers_touching_at_a_corner_is_blocked():
    result = sight(build_state(TWO_SOLIDS), (0, 0), (3, 1))
    assert not result.visible
    assert "passes exactly through the corner" in result.reason
    assert "solid square 2,0" in result.reason and "solid square 1,1" in result.reason


def test_two_figures_touching_at_a_corner_block_firing_only():
    state = build_state(OPEN, [alien("a", (2, 0)), alien("b", (1, 1))])
    assert not sight(state, (0, 0), (3, 1)).visible
    assert sight(state, (0, 0), (3, 1), firing=False).visible
    one = build_state(OPEN, [alien("a", (2, 0))])
    graze = sight(one, (0, 0), (3, 1))
    assert graze.doubtful and "figure a on 2,0" in graze.reason


def test_a_solid_square_and_a_figure_touching_at_a_corner_block():
    state = build_state(GRAZE, [alien("b", (1, 1))])
    assert not sight(state, (0, 0), (3, 1)).visible
    assert sight(state, (0, 0), (3, 1), firing=False).doubtful


WALL_END = """
+--+--+--+--+
|.  .  .  . |
+  +--+  +  +
|.  .  .  . |
+--+--+--+--+
"""


def test_grazing_the_end_of_a_wall_is_doubtful():
    state = build_state(WALL_END)
    result = sight(state, (0, 0), (3, 1))
    assert result.visible and result.doubtful
    assert "wall between 1,0 and 1,1" in result.reason


def test_a_wall_running_straight_through_the_corner_blocks():
    state = build_state(WALL_END.replace("+  +--+  +  +", "+  +--+--+  +"))
    result = sight(state, (0, 0), (3, 1))
    assert not result.visible and "passes exactly through" in result.reason


def test_leaving_through_the_corner_of_a_walled_square_is_blocked():
    walled = """
+--+--+--+--+
|.  . |.  . |
+  +--+  +  +
|.  .  .  . |
+--+--+--+--+
"""
    result = sight(build_state(walled), (0, 0), (3, 1))
    assert not result.visible and "passes exactly through" in result.reason


DREAD = """
+--+--+--+--+--+
|.  . |.  .  . |
+  +  +  +  +  +
|.  . |.  .  . |
+  +  +  +  +  +
|.  .  .  .  . |
+--+--+--+--+--+
"""


def test_dreadnought_sees_from_any_of_its_four_squares():
    dread = Figure("d", "alien", None, "dreadnought", block_2x2((0, 1)), 3)
    state = build_state(DREAD, [dread, marine("m", (4, 0))])
    result = figure_sight(state, "d", "m")
    assert result.visible and result.frm == (1, 2)
    assert figure_sight(state, "m", "d").visible  # and it can be seen at any square
    lone = build_state(DREAD, [marine("x", (1, 1)), marine("m", (4, 0))])
    assert not figure_sight(lone, "x", "m").visible


def test_dreadnought_does_not_hide_behind_itself():
    dread = Figure("d", "alien", None, "dreadnought", block_2x2((0, 1)), 3)
    state = build_state(OPEN, [dread, marine("m", (4, 1))])
    assert line_of_sight(state, (0, 1), (4, 1), for_firing=True).visible
    other = build_state(OPEN, [alien("o", (1, 1)), marine("m", (4, 1))])
    assert not line_of_sight(other, (0, 1), (4, 1), for_firing=True).visible


def test_visible_squares_and_errors():
    state = build_state(WALLS)
    seen = visible_squares(state, (0, 0), for_firing=True)
    assert (1, 0) in seen and (3, 0) not in seen and (1, 1) not in seen
    viewers = [marine("m", (0, 0))]
    assert seen_by_any(state, [(3, 0), (1, 0)], viewers, for_firing=True)
    assert not seen_by_any(state, [(3, 0), (4, 1)], viewers, for_firing=True)
    with pytest.raises(SightError, match="outside"):
        line_of_sight(state, (0, 0), (9, 9), for_firing=True)
    with pytest.raises(SightError, match="no figure"):
        figure_sight(state, "ghost", (0, 0))


@settings(max_examples=150, deadline=None)
@given(states(), st.data(), st.booleans())
def test_line_of_sight_is_symmetric(state, data, firing):
    squares = list(state.board.squares())
    a = data.draw(st.sampled_from(squares))
    b = data.draw(st.sampled_from(squares))
    there = line_of_sight(state, a, b, for_firing=firing)
    back = line_of_sight(state, b, a, for_firing=firing)
    assert (there.visible, there.doubtful) == (back.visible, back.doubtful)


@settings(max_examples=100, deadline=None)
@given(states(), st.data())
def test_revealing_sight_is_firing_sight_without_figures(state, data):
    squares = list(state.board.squares())
    a = data.draw(st.sampled_from(squares))
    b = data.draw(st.sampled_from(squares))
    empty = state.replace(figures=())
    seen = line_of_sight(state, a, b, for_firing=False)
    assert seen == line_of_sight(empty, a, b, for_firing=True)
