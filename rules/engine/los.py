"""Line of sight, exactly as RULES §10 says, with integer arithmetic only.

The sight line runs from the centre of one square to the centre of the other. Walking it
square by square (a supercover traversal), every event is one of three kinds:

* it crosses the inside of an edge: a wall, closed door or standing bulkhead there blocks;
* it enters a square: a solid square blocks, and so does a square holding a figure when
  the sight is for firing (figures never block sight for revealing blips);
* it passes exactly through a grid corner, touching the two side squares and four edges
  only at that point. Blockers touching the corner on *both* sides of the line (two
  blockers touching at the corner, or a wall running straight through it) block; blockers
  on one side only are grazed: the square stays visible but the sight is **doubtful**.

Crossings are ordered by comparing ``(1 + 2i) * |dy|`` with ``(1 + 2j) * |dx|`` (the
parameters of the i-th vertical and j-th horizontal grid line crossed), so there is no
floating point anywhere and the result is symmetric: the same line walked backwards
meets the same events.

Two squares that touch only at a corner never see each other (diagonally adjacent figures
have no line of sight). A Dreadnought sees from any of its four squares.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass

from .board import EDGE_DOOR, EDGE_WALL, DoorState
from .geometry import Square, format_square, is_diagonally_adjacent
from .state import Figure, GameState


class SightError(ValueError):
    """A line of sight was asked for a square off the board or an unknown figure."""


@dataclass(frozen=True)
class Sight:
    """The answer to "can A see B?": visible or not, doubtful or not, and why."""

    visible: bool
    doubtful: bool
    reason: str
    frm: Square | None = None  # the squares used (useful for a Dreadnought)
    to: Square | None = None

    @property
    def verdict(self) -> str:
        if not self.visible:
            return "blocked"
        return "doubtful" if self.doubtful else "visible"


def _edge_blockers(state: GameState) -> bytes:
    """1 for every edge id that blocks sight in this state (walls, closed doors, bulkheads)."""
    memo = state.memo
    table = memo.get("los_edges")
    if table is None:
        board = state.board
        out = bytearray(len(board.edge_feature))
        doors = state.door_open_slots
        for eid, feature in enumerate(board.edge_feature):
            if feature == EDGE_WALL:
                out[eid] = 1
            elif feature == EDGE_DOOR and not doors[board.edge_slot[eid]].passable:
                out[eid] = 1
        table = memo["los_edges"] = bytes(out)
    return table


def _edge_name(state: GameState, eid: int) -> str:
    board = state.board
    n = board.width * board.height
    i = eid % n
    a = board.square(i)
    b = (a[0] + 1, a[1]) if eid < n else (a[0], a[1] + 1)
    where = f"between {format_square(a)} and {format_square(b)}"
    if board.edge_feature[eid] == EDGE_WALL:
        return f"wall {where}"
    door_state = state.door_open_slots[board.edge_slot[eid]]
    if door_state is DoorState.BULKHEAD:
        return f"reinforced bulkhead door {where}"
    return f"closed door {where}"


def _square_name(state: GameState, sq: Square) -> str:
    if state.board.is_solid(sq):
        return f"solid square {format_square(sq)}"
    return f"figure {state.figure_at(sq).id} on {format_square(sq)}"


def line_of_sight(
    state: GameState,
    a: Square,
    b: Square,
    *,
    for_firing: bool,
    ignore: Collection[str] | None = None,
) -> Sight:
    """Sight from the centre of square ``a`` to the centre of square ``b``.

    ``for_firing``: figures on the squares in between block the line (shooting); when
    False they do not (revealing blips). ``ignore``: ids of figures that never block;
    by default the figures standing on ``a`` and ``b`` (a firer and its target).
    """
    board = state.board
    for sq in (a, b):
        if not board.in_bounds(sq):
            raise SightError(
                f"square {format_square(sq)} is outside the {board.width}x{board.height} board"
            )
    if a == b:
        return Sight(True, False, "same square", a, b)
    for sq in (a, b):
        if board.is_solid(sq):
            return Sight(False, False, f"square {format_square(sq)} is solid", a, b)
    if is_diagonally_adjacent(a, b):
        return Sight(
            False, False, "diagonally adjacent squares have no line of sight (RULES §10)", a, b
        )
    occupant = state.occupant
    if ignore is None:
        ignore = {fid for fid in (occupant[board.index(a)], occupant[board.index(b)]) if fid}
    edges = _edge_blockers(state)
    solid = board.solid
    w = board.width
    n = w * board.height

    def blocks(x: int, y: int) -> bool:
        i = x + y * w
        if solid[i]:
            return True
        if for_firing:
            fid = occupant[i]
            return fid is not None and fid not in ignore
        return False

    ax, ay = a
    bx, by = b
    sx = 1 if bx > ax else -1
    sy = 1 if by > ay else -1
    adx, ady = abs(bx - ax), abs(by - ay)
    cx, cy = ax, ay
    i = j = 0
    grazes: list[str] = []
    while i < adx or j < ady:
        tv = (1 + 2 * i) * ady if i < adx else None
        th = (1 + 2 * j) * adx if j < ady else None
        if th is None or (tv is not None and tv < th):
            eid = (cx if sx > 0 else cx - 1) + cy * w
            if edges[eid]:
                return Sight(False, False, f"blocked by the {_edge_name(state, eid)}", a, b)
            cx += sx
            i += 1
        elif tv is None or th < tv:
            eid = n + cx + (cy if sy > 0 else cy - 1) * w
            if edges[eid]:
                return Sight(False, False, f"blocked by the {_edge_name(state, eid)}", a, b)
            cy += sy
            j += 1
        else:
            nx, ny = cx + sx, cy + sy
            vx = cx if sx > 0 else nx  # left column of the vertical line
            hy = cy if sy > 0 else ny  # top row of the horizontal line
            e12 = vx + cy * w  # between (cx, cy) and (nx, cy)
            e43 = vx + ny * w  # between (cx, ny) and (nx, ny)
            e14 = n + cx + hy * w  # between (cx, cy) and (cx, ny)
            e23 = n + nx + hy * w  # between (nx, cy) and (nx, ny)
            side1 = [f"the {_edge_name(state, e)}" for e in (e12, e23) if edges[e]]
            if blocks(nx, cy):
                side1.append(f"the {_square_name(state, (nx, cy))}")
            side2 = [f"the {_edge_name(state, e)}" for e in (e14, e43) if edges[e]]
            if blocks(cx, ny):
                side2.append(f"the {_square_name(state, (cx, ny))}")
            corner = f"the corner of {format_square((cx, cy))} and {format_square((nx, ny))}"
            if side1 and side2:
                return Sight(
                    False,
                    False,
                    f"passes exactly through {corner}, between {side1[0]} and {side2[0]}",
                    a,
                    b,
                )
            if side1 or side2:
                grazes.append(f"grazes {(side1 or side2)[0]} at {corner}")
            cx, cy = nx, ny
            i += 1
            j += 1
        if (cx, cy) != b and blocks(cx, cy):
            return Sight(False, False, f"blocked by the {_square_name(state, (cx, cy))}", a, b)
    if grazes:
        return Sight(
            True,
            True,
            "doubtful: " + "; ".join(grazes) + " (visible; the judge may settle it by a "
            "heavy-die roll-off)",
            a,
            b,
        )
    return Sight(True, False, "clear line", a, b)


def _squares_of(
    state: GameState, target: Figure | str | Square
) -> tuple[tuple[Square, ...], str | None]:
    if isinstance(target, Figure):
        return target.squares, target.id
    if isinstance(target, str):
        try:
            fig = state.figure(target)
        except KeyError as exc:
            raise SightError(str(exc.args[0])) from None
        return fig.squares, fig.id
    return (tuple(target),), None


def figure_sight(
    state: GameState,
    viewer: Figure | str,
    target: Figure | str | Square,
    for_firing: bool = True,
) -> Sight:
    """Sight from a figure to a figure or square. A Dreadnought (or a Tarantula) looks from
    each of its squares and at each square of a large target; the best line counts
    (clear before doubtful before blocked). The viewer and target never block themselves."""
    from_squares, viewer_id = _squares_of(state, viewer)
    to_squares, target_id = _squares_of(state, target)
    if not from_squares:
        raise SightError(f"figure {viewer_id} is inside a vehicle and sees through it")
    if not to_squares:
        raise SightError(f"figure {target_id} is inside a vehicle: look at the vehicle")
    ignore = {fid for fid in (viewer_id, target_id) if fid}
    to_fid = state.occupant[state.board.index(to_squares[0])] if target_id is None else None
    if to_fid:
        ignore.add(to_fid)
    best: Sight | None = None
    for a in from_squares:
        for b in to_squares:
            sight = line_of_sight(state, a, b, for_firing=for_firing, ignore=ignore)
            if sight.visible and not sight.doubtful:
                return sight
            if best is None or (sight.visible and not best.visible):
                best = sight
    assert best is not None
    return best


def visible_squares(
    state: GameState, origin: Square, *, for_firing: bool, ignore: Collection[str] | None = None
) -> list[Square]:
    """Every square seen from ``origin`` (doubtful lines count as visible)."""
    board = state.board
    out = []
    for y in range(board.height):
        for x in range(board.width):
            if line_of_sight(state, origin, (x, y), for_firing=for_firing, ignore=ignore).visible:
                out.append((x, y))
    return out


def seen_by_any(
    state: GameState, squares: Iterable[Square], viewers: Iterable[Figure], for_firing: bool
) -> bool:
    """True if any viewer figure has a line of sight to any of ``squares``."""
    targets = list(squares)
    for viewer in viewers:
        for sq in targets:
            if figure_sight(state, viewer, sq, for_firing).visible:
                return True
    return False
