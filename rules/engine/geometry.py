"""Squares, directions and edges of the square grid.

Coordinates are ``(x, y)``: x grows to the right (columns), y grows downwards (rows),
``(0, 0)`` is the top-left square. An *edge* is the side shared by two orthogonally
adjacent squares; walls and doors live on edges. Edges are stored normalised (the smaller
square first) so the same edge always compares equal.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from enum import StrEnum

Square = tuple[int, int]
Edge = tuple[Square, Square]


class Facing(StrEnum):
    """The way a figure faces; turning is free in BoB but the direction is recorded."""

    NORTH = "N"
    EAST = "E"
    SOUTH = "S"
    WEST = "W"

    @property
    def delta(self) -> Square:
        return FACING_DELTAS[self]


FACING_DELTAS: dict[Facing, Square] = {
    Facing.NORTH: (0, -1),
    Facing.EAST: (1, 0),
    Facing.SOUTH: (0, 1),
    Facing.WEST: (-1, 0),
}

#: The four orthogonal directions: north, east, south, west.
ORTHOGONAL: tuple[Square, ...] = ((0, -1), (1, 0), (0, 1), (-1, 0))
#: The four diagonal directions: north-east, south-east, south-west, north-west.
DIAGONAL: tuple[Square, ...] = ((1, -1), (1, 1), (-1, 1), (-1, -1))
#: All eight directions a 1x1 figure may step in (orthogonal first).
DIRECTIONS8: tuple[Square, ...] = ORTHOGONAL + DIAGONAL


def add(sq: Square, delta: Square) -> Square:
    return (sq[0] + delta[0], sq[1] + delta[1])


def orthogonal_neighbours(sq: Square) -> tuple[Square, ...]:
    """The four squares sharing a side with ``sq`` (may lie off the board)."""
    x, y = sq
    return tuple((x + dx, y + dy) for dx, dy in ORTHOGONAL)


def diagonal_neighbours(sq: Square) -> tuple[Square, ...]:
    x, y = sq
    return tuple((x + dx, y + dy) for dx, dy in DIAGONAL)


def neighbours8(sq: Square) -> tuple[Square, ...]:
    """The eight squares around ``sq`` (may lie off the board), orthogonal first."""
    x, y = sq
    return tuple((x + dx, y + dy) for dx, dy in DIRECTIONS8)


def is_orthogonally_adjacent(a: Square, b: Square) -> bool:
    return abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1


def is_diagonally_adjacent(a: Square, b: Square) -> bool:
    return abs(a[0] - b[0]) == 1 and abs(a[1] - b[1]) == 1


def chebyshev(a: Square, b: Square) -> int:
    """Steps between two squares on an empty board when diagonal steps are allowed."""
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


def manhattan(a: Square, b: Square) -> int:
    return abs(a[0] - b[0]) + abs(a[1] - b[1])


def edge(a: Square, b: Square) -> Edge:
    """The normalised edge between two orthogonally adjacent squares."""
    if not is_orthogonally_adjacent(a, b):
        raise ValueError(f"squares {format_square(a)} and {format_square(b)} share no side")
    return (a, b) if a < b else (b, a)


def corner_edges(a: Square, c: Square) -> tuple[Edge, Edge, Edge, Edge]:
    """The four edges meeting at the corner shared by diagonally adjacent ``a`` and ``c``."""
    if not is_diagonally_adjacent(a, c):
        raise ValueError(f"squares {format_square(a)} and {format_square(c)} are not diagonal")
    b1 = (c[0], a[1])
    b2 = (a[0], c[1])
    return (edge(a, b1), edge(b1, c), edge(a, b2), edge(b2, c))


def block_2x2(top_left: Square) -> tuple[Square, Square, Square, Square]:
    """The four squares of a 2x2 block (a Dreadnought's base), row by row."""
    x, y = top_left
    return ((x, y), (x + 1, y), (x, y + 1), (x + 1, y + 1))


def is_2x2_block(squares: Iterable[Square]) -> bool:
    squares = sorted(set(squares))
    return len(squares) == 4 and tuple(squares) == tuple(sorted(block_2x2(min(squares))))


def top_left(squares: Iterable[Square]) -> Square:
    squares = list(squares)
    return (min(x for x, _ in squares), min(y for _, y in squares))


_SQUARE_TEXT = re.compile(r"^\s*(-?\d+)\s*,\s*(-?\d+)\s*$")


def parse_square(text: str) -> Square:
    """Read a square written ``x,y`` (e.g. ``3,4``)."""
    match = _SQUARE_TEXT.match(text)
    if not match:
        raise ValueError(f"{text!r} is not a square: write it as x,y (for example 3,4)")
    return (int(match.group(1)), int(match.group(2)))


def format_square(sq: Square) -> str:
    return f"{sq[0]},{sq[1]}"


def segment_squares(a: Square, b: Square) -> Iterator[Square]:
    """Squares of a straight orthogonal or diagonal line from ``a`` (excluded) to ``b``."""
    dx = (b[0] > a[0]) - (b[0] < a[0])
    dy = (b[1] > a[1]) - (b[1] < a[1])
    if a == b or not (a[0] == b[0] or a[1] == b[1] or abs(b[0] - a[0]) == abs(b[1] - a[1])):
        raise ValueError(f"{format_square(a)} to {format_square(b)} is not a straight line")
    sq = a
    while sq != b:
        sq = (sq[0] + dx, sq[1] + dy)
        yield sq
