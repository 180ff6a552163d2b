"""Board: squares, walls and doors on edges, sections, claws, markers (RULES §10)."""

import pytest

from rules.engine.board import (
    BULKHEAD_ARMOUR,
    Board,
    BoardError,
    Door,
    DoorState,
    SquareKind,
)
from rules.engine.geometry import (
    Facing,
    block_2x2,
    chebyshev,
    corner_edges,
    edge,
    is_2x2_block,
    is_diagonally_adjacent,
    neighbours8,
    orthogonal_neighbours,
    parse_square,
    segment_squares,
)
from rules.engine.maps import parse_map

# Two sections split by a dividing wall with its two always-open doors (AA) on the
# two-wide corridor; a room with a closed door (DD), a bulkhead (B) and a solid square.
BOARD = """
name: sample
+--+--+--+--+--+--+
|.1 .  . |:o :  : |
+  +  +  +  +  +  +
|.1 .  . B:  ## : |
+  +  +  +  +  +  +
|.  .  . |:  :  : |
+--+AA+AA+DD+--+--+
|.  .  .R .  .F . |
+  +  +  +  +  +  +
|.  .  .  .  .  . |
+--+--+--+--+--+--+

section N board 0,0 5,2 North board
section S tile 0,3 5,4 South tile
marker o ork
claw 1 Blue claw
"""


@pytest.fixture
def board() -> Board:
    return parse_map(BOARD)


def test_geometry_basics():
    assert orthogonal_neighbours((2, 2)) == ((2, 1), (3, 2), (2, 3), (1, 2))
    assert len(neighbours8((0, 0))) == 8
    assert edge((3, 2), (2, 2)) == ((2, 2), (3, 2))
    with pytest.raises(ValueError, match="share no side"):
        edge((0, 0), (1, 1))
    assert is_diagonally_adjacent((1, 1), (2, 2))
    assert chebyshev((0, 0), (3, 1)) == 3
    assert block_2x2((1, 1)) == ((1, 1), (2, 1), (1, 2), (2, 2))
    assert is_2x2_block([(2, 2), (1, 1), (2, 1), (1, 2)])
    assert not is_2x2_block([(0, 0), (1, 0), (2, 0), (3, 0)])
    assert set(corner_edges((0, 0), (1, 1))) == {
        ((0, 0), (1, 0)),
        ((1, 0), (1, 1)),
        ((0, 0), (0, 1)),
        ((0, 1), (1, 1)),
    }
    assert parse_square(" 3, 4") == (3, 4)
    with pytest.raises(ValueError, match="x,y"):
        parse_square("3;4")
    assert list(segment_squares((0, 0), (3, 3))) == [(1, 1), (2, 2), (3, 3)]
    assert Facing.EAST.delta == (1, 0)


def test_square_kinds(board):
    assert board.width == 6 and board.height == 5
    assert board.kind((0, 0)) is SquareKind.CORRIDOR
    assert board.kind((3, 0)) is SquareKind.ROOM
    assert board.kind((4, 1)) is SquareKind.SOLID
    assert board.is_solid((4, 1))
    assert board.is_solid((-1, 0)) and board.is_solid((6, 0))
    with pytest.raises(BoardError, match="outside"):
        board.kind((9, 9))


def test_walls_and_doors_on_edges(board):
    assert board.has_wall((2, 0), (3, 0))
    assert not board.has_wall((0, 0), (1, 0))
    assert board.has_wall((5, 0), (6, 0))  # the outer edge
    closed = board.door_at((3, 2), (3, 3))
    assert closed.state is DoorState.CLOSED and not closed.always_open
    bulkhead = board.door_at((2, 1), (3, 1))
    assert bulkhead.state is DoorState.BULKHEAD
    assert BULKHEAD_ARMOUR == 4


def test_edge_open_follows_door_states(board):
    assert board.edge_open((0, 0), (1, 0))
    assert not board.edge_open((2, 0), (3, 0))  # wall
    assert not board.edge_open((3, 2), (3, 3))  # closed door
    assert not board.edge_open((2, 1), (3, 1))  # bulkhead
    assert not board.edge_open((0, 0), (1, 1))  # not orthogonal neighbours
    opened = {edge((3, 2), (3, 3)): DoorState.OPEN, edge((2, 1), (3, 1)): DoorState.DESTROYED}
    assert board.edge_open((3, 2), (3, 3), opened)
    assert board.edge_open((2, 1), (3, 1), opened)


def test_dividing_wall_has_two_always_open_doors(board):
    always = [d for d in board.doors.values() if d.always_open]
    assert [d.edge for d in always] == [((1, 2), (1, 3)), ((2, 2), (2, 3))]
    assert all(d.state is DoorState.OPEN for d in always)
    assert board.has_wall((0, 2), (0, 3))  # the rest of the dividing wall


def test_sections_claws_markers_flags(board):
    assert [s.id for s in board.sections] == ["N", "S"]
    assert board.section("S").kind.value == "tile"
    assert board.section_of((0, 0)) == "N"
    assert board.section_of((5, 4)) == "S"
    assert board.claw_of((0, 1)) == "1" and board.claw("1").name == "Blue claw"
    assert board.claw_of((2, 2)) is None
    assert board.marker((3, 0)) == "ork"
    assert board.markers == {(3, 0): "ork"}
    assert board.reinforcement_squares == frozenset({(2, 3)})
    assert board.flag_spots == ((4, 3),)


def test_board_is_immutable(board):
    with pytest.raises(AttributeError):
        board.width = 3


def test_inconsistent_boards_are_rejected():
    kinds = [SquareKind.CORRIDOR] * 4
    with pytest.raises(BoardError, match="both a wall and a door"):
        Board(
            width=2,
            height=2,
            kinds=kinds,
            walls=[((0, 0), (1, 0))],
            doors=[Door(((0, 0), (1, 0)), DoorState.CLOSED)],
        )
    with pytest.raises(BoardError, match="not between adjacent"):
        Board(width=2, height=2, kinds=kinds, walls=[((0, 0), (1, 1))])
    with pytest.raises(BoardError, match="outside"):
        Board(width=2, height=2, kinds=kinds, reinforcement_squares=[(5, 5)])
    with pytest.raises(BoardError, match="must start open"):
        Board(
            width=2, height=2, kinds=kinds, doors=[Door(((0, 0), (1, 0)), DoorState.CLOSED, True)]
        )
    with pytest.raises(BoardError, match="needs 6"):
        Board(width=3, height=2, kinds=kinds)


def test_diagonal_step_table_respects_corners(board):
    steps = {board.square(j) for j, _ in board.steps[board.index((1, 3))]}
    # (1,3) -> (2,2): the corner touches the dividing wall and a door: no diagonal.
    assert (2, 2) not in steps and (1, 2) in steps
    # open corridor corner: allowed
    assert (2, 4) in steps and (0, 4) in steps


def test_dreadnought_positions(board):
    # On the open corridor, no door under the base.
    assert board.dread_doors[board.index((0, 3))] == ()
    # Straddling the dividing wall through its two always-open doors: a doorway.
    assert board.dread_doors[board.index((1, 2))] != ()
    # Crouched under the bulkhead (it must be destroyed before the Dreadnought passes).
    slot = board.door_slot[((2, 1), (3, 1))]
    assert board.dread_doors[board.index((2, 0))] == (slot,)
    # Straddling a plain wall: impossible.
    assert board.dread_doors[board.index((4, 2))] is None
    # Over a solid square: impossible.
    assert board.dread_doors[board.index((3, 1))] is None
