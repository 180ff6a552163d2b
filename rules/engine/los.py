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

from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .board import EDGE_DOOR, EDGE_WALL, DoorState
from .caches import BoundedCache, declare
from .geometry import Square, is_diagonally_adjacent
from .narration_errors import CodedError
from .narration_sight import sight_reason
from .state import Figure, GameState


class SightError(CodedError):
    """A line of sight was asked for a square off the board or an unknown figure (see
    :mod:`rules.engine.narration_errors` for its code and params)."""


@dataclass(frozen=True)
class Sight:
    """The answer to "can A see B?": visible or not, doubtful or not, and why (a reason
    code of :mod:`rules.engine.narration_sight` and its params, made text when shown)."""

    visible: bool
    doubtful: bool
    reason_code: str
    frm: Square | None = None  # the squares used (useful for a Dreadnought)
    to: Square | None = None
    reason_params: Mapping[str, Any] = field(default_factory=dict, hash=False)

    @property
    def reason(self) -> str:
        """Why, in English (the engine's command line)."""
        return self.reason_in("en")

    def reason_in(self, lang: str) -> str:
        """Why, in ``lang`` ("it" or "en")."""
        return sight_reason(self.reason_code, self.reason_params, lang)

    @property
    def verdict(self) -> str:
        if not self.visible:
            return "blocked"
        return "doubtful" if self.doubtful else "visible"


def _edge_blockers(state: GameState) -> bytearray:
    """1 for every edge id that blocks sight in this state (walls, closed doors, bulkheads):
    the board's walls, and the edges of the doors :func:`door_blockers` lists."""
    board = state.board
    out = bytearray(board.wall_edges)
    for eid, blocks in zip(board.door_edge_ids, door_blockers(state), strict=True):
        if blocks:
            out[eid] = 1
    return out


def _edge_blocker(state: GameState, eid: int) -> dict[str, Any]:
    """The blocking edge as a blocker param of :mod:`rules.engine.narration_sight`."""
    board = state.board
    n = board.width * board.height
    i = eid % n
    a = board.square(i)
    b = (a[0] + 1, a[1]) if eid < n else (a[0], a[1] + 1)
    if board.edge_feature[eid] == EDGE_WALL:
        kind = "wall"
    elif state.door_open_slots[board.edge_slot[eid]] is DoorState.BULKHEAD:
        kind = "bulkhead"
    else:
        kind = "door"
    return {"kind": kind, "a": list(a), "b": list(b)}


def _square_blocker(state: GameState, sq: Square) -> dict[str, Any]:
    if state.board.is_solid(sq):
        return {"kind": "solid", "square": list(sq)}
    figure = state.figure_at(sq)
    assert figure is not None, "a square that blocks sight is solid or holds a figure"
    return {"kind": "figure", "figure": figure.id, "square": list(sq)}


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
                "sight_off_board", square=list(sq), width=board.width, height=board.height
            )
    if a == b:
        return Sight(True, False, "same_square", a, b)
    for sq in (a, b):
        if board.is_solid(sq):
            return Sight(False, False, "solid_end", a, b, {"square": list(sq)})
    if is_diagonally_adjacent(a, b):
        return Sight(False, False, "diagonal", a, b)
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
    grazes: list[dict[str, Any]] = []
    while i < adx or j < ady:
        tv = (1 + 2 * i) * ady if i < adx else None
        th = (1 + 2 * j) * adx if j < ady else None
        if th is None or (tv is not None and tv < th):
            eid = (cx if sx > 0 else cx - 1) + cy * w
            if edges[eid]:
                blocker = _edge_blocker(state, eid)
                return Sight(False, False, "blocked", a, b, {"blocker": blocker})
            cx += sx
            i += 1
        elif tv is None or th < tv:
            eid = n + cx + (cy if sy > 0 else cy - 1) * w
            if edges[eid]:
                blocker = _edge_blocker(state, eid)
                return Sight(False, False, "blocked", a, b, {"blocker": blocker})
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
            side1 = [_edge_blocker(state, e) for e in (e12, e23) if edges[e]]
            if blocks(nx, cy):
                side1.append(_square_blocker(state, (nx, cy)))
            side2 = [_edge_blocker(state, e) for e in (e14, e43) if edges[e]]
            if blocks(cx, ny):
                side2.append(_square_blocker(state, (cx, ny)))
            corner = {"corner_a": [cx, cy], "corner_b": [nx, ny]}
            if side1 and side2:
                params = {**corner, "side1": side1[0], "side2": side2[0]}
                return Sight(False, False, "corner_blocked", a, b, params)
            if side1 or side2:
                grazes.append({**corner, "blocker": (side1 or side2)[0]})
            cx, cy = nx, ny
            i += 1
            j += 1
        if (cx, cy) != b and blocks(cx, cy):
            blocker = _square_blocker(state, (cx, cy))
            return Sight(False, False, "blocked", a, b, {"blocker": blocker})
    if grazes:
        return Sight(True, True, "doubtful", a, b, {"grazes": grazes})
    return Sight(True, False, "clear", a, b)


def _squares_of(
    state: GameState, target: Figure | str | Square
) -> tuple[tuple[Square, ...], str | None]:
    if isinstance(target, Figure):
        return target.squares, target.id
    if isinstance(target, str):
        try:
            fig = state.figure(target)
        except KeyError:
            raise SightError("no_figure", figure=target) from None
        return fig.squares, fig.id
    return ((target[0], target[1]),), None


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
        raise SightError("viewer_inside", figure=viewer_id)
    if not to_squares:
        raise SightError("target_inside", figure=target_id)
    board = state.board
    if target_id is None and not board.in_bounds(to_squares[0]):
        raise SightError(
            "sight_off_board", square=list(to_squares[0]), width=board.width, height=board.height
        )
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


# -- precompiled lines: the layout part of a sight line, kept per board ---------------------


@dataclass(frozen=True, slots=True)
class LayoutLine:
    """What a sight line meets on a board, precompiled so that a question about it is a
    few table lookups: the parts fixed by the board (walls, solid squares), the doors it
    depends on, and the squares whose figures could block it when firing.

    ``blocked``: walls or solid squares block it whatever the doors and figures.
    ``grazed``: walls or solid squares graze a corner (doubtful). ``doors``: slots of the
    doors whose edge it crosses (each blocks while closed or a standing bulkhead).
    ``squares``: board indices of the squares entered between the two ends. ``corners``:
    for each grid corner passed exactly, ``(square1, fixed1, doors1, square2, fixed2,
    doors2)``: the side squares' indices, whether walls or solid squares already block
    that side, and the door slots on that side's edges. ``watched``: every square whose
    figure could change the verdict (the entered squares and the corners' side squares).
    ``watched_doors``: every door slot whose state could change it.
    """

    blocked: bool
    grazed: bool
    doors: tuple[int, ...] = ()
    squares: tuple[int, ...] = ()
    corners: tuple[tuple[int, bool, tuple[int, ...], int, bool, tuple[int, ...]], ...] = ()
    watched: tuple[int, ...] = ()
    watched_doors: tuple[int, ...] = ()


_BLOCKED = LayoutLine(True, False)
_CLEAR = LayoutLine(False, False)
_LINES: BoundedCache[object, BoundedCache[tuple[Square, Square], LayoutLine]] = declare(
    "los.layout_lines", bound=16, depends_on="the board (each holds at most 600,000 lines)"
)
_MAX_LINES = 600_000


def layout_lines(state: GameState) -> BoundedCache[tuple[Square, Square], LayoutLine]:
    """The memo of :class:`LayoutLine` for the state's board, keyed by the pair of squares
    with the smaller first (lines are symmetric). Shared by every state on that board;
    filled lazily by :func:`layout_line`."""
    board = state.board
    table = _LINES.get(board)
    if table is None:
        table = _LINES.put(board, BoundedCache(_MAX_LINES))
    return table


def layout_line(state: GameState, a: Square, b: Square) -> LayoutLine:
    """The precompiled line between two squares of the state's board (memoised)."""
    table = layout_lines(state)
    pair = (a, b) if a <= b else (b, a)
    line = table.get(pair)
    if line is None:
        line = table.put(pair, _compile_line(state, pair[0], pair[1]))
    return line


#: By board and square: a plain dict of the lines to it by their other end (one entry per
#: square of the board at most).
_LINES_TO: BoundedCache[tuple[object, Square], dict[Square, LayoutLine]] = declare(
    "los.layout_lines_to", bound=512, depends_on="the board and the square looked at"
)


def layout_lines_to(state: GameState, b: Square) -> dict[Square, LayoutLine]:
    """The lines already compiled towards ``b`` on the state's board, by their other end
    (a faster index into the same memo for scans of many squares against one square);
    fill it with :func:`layout_line_to`."""
    key = (state.board, b)
    table = _LINES_TO.get(key)
    if table is None:
        table = _LINES_TO.put(key, {})
    return table


def layout_line_to(
    state: GameState, lines_to: dict[Square, LayoutLine], a: Square, b: Square
) -> LayoutLine:
    """The line from ``a`` to ``b``, taken from (and kept in) ``lines_to`` =
    ``layout_lines_to(state, b)``."""
    line = lines_to.get(a)
    if line is None:
        line = lines_to[a] = layout_line(state, a, b)
    return line


def _compile_line(state: GameState, a: Square, b: Square) -> LayoutLine:
    """Walk the line exactly as :func:`line_of_sight` does, recording the doors, squares
    and corners where door states and figures matter instead of looking at them."""
    board = state.board
    for sq in (a, b):
        if not board.in_bounds(sq):
            raise SightError(
                "sight_off_board", square=list(sq), width=board.width, height=board.height
            )
    if a == b:
        return _CLEAR
    solid = board.solid
    w = board.width
    if solid[a[0] + a[1] * w] or solid[b[0] + b[1] * w] or is_diagonally_adjacent(a, b):
        return _BLOCKED
    feature = board.edge_feature
    slot = board.edge_slot
    n = w * board.height
    ax, ay = a
    bx, by = b
    sx = 1 if bx > ax else -1
    sy = 1 if by > ay else -1
    adx, ady = abs(bx - ax), abs(by - ay)
    cx, cy = ax, ay
    i = j = 0
    grazed = False
    doors: list[int] = []
    squares: list[int] = []
    corners: list[tuple[int, bool, tuple[int, ...], int, bool, tuple[int, ...]]] = []
    while i < adx or j < ady:
        tv = (1 + 2 * i) * ady if i < adx else None
        th = (1 + 2 * j) * adx if j < ady else None
        if th is None or (tv is not None and tv < th):
            eid = (cx if sx > 0 else cx - 1) + cy * w
            if feature[eid] == EDGE_WALL:
                return _BLOCKED
            if feature[eid] == EDGE_DOOR:
                doors.append(slot[eid])
            cx += sx
            i += 1
        elif tv is None or th < tv:
            eid = n + cx + (cy if sy > 0 else cy - 1) * w
            if feature[eid] == EDGE_WALL:
                return _BLOCKED
            if feature[eid] == EDGE_DOOR:
                doors.append(slot[eid])
            cy += sy
            j += 1
        else:
            nx, ny = cx + sx, cy + sy
            vx = cx if sx > 0 else nx
            hy = cy if sy > 0 else ny
            s1 = nx + cy * w
            s2 = cx + ny * w
            side1 = (vx + cy * w, n + nx + hy * w)
            side2 = (n + cx + hy * w, vx + ny * w)
            fixed1 = bool(solid[s1]) or any(feature[e] == EDGE_WALL for e in side1)
            fixed2 = bool(solid[s2]) or any(feature[e] == EDGE_WALL for e in side2)
            if fixed1 and fixed2:
                return _BLOCKED
            if fixed1 or fixed2:
                grazed = True
            doors1 = tuple(slot[e] for e in side1 if feature[e] == EDGE_DOOR)
            doors2 = tuple(slot[e] for e in side2 if feature[e] == EDGE_DOOR)
            corners.append((s1, fixed1, doors1, s2, fixed2, doors2))
            cx, cy = nx, ny
            i += 1
            j += 1
        if (cx, cy) != b:
            k = cx + cy * w
            if solid[k]:
                return _BLOCKED
            squares.append(k)
    if not doors and not squares and not corners:
        return LayoutLine(False, grazed)
    watched = tuple(squares) + tuple(k for c in corners for k in (c[0], c[3]))
    watched_doors = tuple(doors) + tuple(d for c in corners for d in c[2] + c[5])
    return LayoutLine(
        False, grazed, tuple(doors), tuple(squares), tuple(corners), watched, watched_doors
    )


_DOOR_BLOCKS = {d: 0 if d.passable else 1 for d in DoorState}


def door_blockers(state: GameState) -> bytes:
    """1 for every door slot whose door blocks sight in this state (closed or bulkhead)."""
    memo = state.memo
    table = memo.door_blockers
    if table is None:
        table = memo.door_blockers = bytes(map(_DOOR_BLOCKS.__getitem__, state.door_open_slots))
    return table


def line_verdict(
    state: GameState, line: LayoutLine, ignore: Collection[str] | None
) -> tuple[bool, bool]:
    """``(visible, doubtful)`` of a precompiled line in this state; figures block unless
    ``ignore`` is None (sight that ignores figures) or they are in ``ignore``."""
    if line.blocked:
        return False, False
    return verdict_with(line, door_blockers(state), state.occupant, ignore)


def verdict_with(
    line: LayoutLine,
    shut: bytes,
    occupant: tuple[str | None, ...],
    ignore: Collection[str] | None,
) -> tuple[bool, bool]:
    """:func:`line_verdict` of a line that walls and solid squares do not block, given
    the state's :func:`door_blockers` and ``occupant`` (for a caller that reads many
    lines of one state)."""
    for d in line.doors:
        if shut[d]:
            return False, False
    if ignore is not None:
        for k in line.squares:
            fid = occupant[k]
            if fid is not None and fid not in ignore:
                return False, False
    doubtful = line.grazed
    for s1, side1, doors1, s2, side2, doors2 in line.corners:
        if not side1:
            for d in doors1:
                if shut[d]:
                    side1 = True
            if not side1 and ignore is not None:
                fid = occupant[s1]
                side1 = fid is not None and fid not in ignore
        if not side2:
            for d in doors2:
                if shut[d]:
                    side2 = True
            if not side2 and ignore is not None:
                fid = occupant[s2]
                side2 = fid is not None and fid not in ignore
        if side1 and side2:
            return False, False
        if side1 or side2:
            doubtful = True
    return True, doubtful


def firing_sight(
    state: GameState, a: Square, b: Square, ignore: Collection[str]
) -> tuple[bool, bool]:
    """``(visible, doubtful)`` of a firing line from ``a`` to ``b`` where the figures in
    ``ignore`` never block: the same verdict as ``line_of_sight(state, a, b,
    for_firing=True, ignore=ignore)`` without building its explanation."""
    return line_verdict(state, layout_line(state, a, b), ignore)


def layout_sight(state: GameState, a: Square, b: Square) -> tuple[bool, bool]:
    """``(visible, doubtful)`` of the line when figures are ignored: the verdict of
    ``line_of_sight(state, a, b, for_firing=False)``."""
    return line_verdict(state, layout_line(state, a, b), None)


def figure_sees(
    state: GameState,
    viewer: Figure | str,
    target: Figure | str | Square,
    for_firing: bool = True,
) -> bool:
    """``figure_sight(state, viewer, target, for_firing).visible``, answered from the
    precompiled lines without building explanations (same errors for bad input)."""
    from_squares, viewer_id = _squares_of(state, viewer)
    to_squares, target_id = _squares_of(state, target)
    if not from_squares:
        raise SightError("viewer_inside", figure=viewer_id)
    if not to_squares:
        raise SightError("target_inside", figure=target_id)
    ignore = {fid for fid in (viewer_id, target_id) if fid}
    to_fid = state.occupant[state.board.index(to_squares[0])] if target_id is None else None
    if to_fid:
        ignore.add(to_fid)
    blockers = ignore if for_firing else None
    for a in from_squares:
        for b in to_squares:
            if line_verdict(state, layout_line(state, a, b), blockers)[0]:
                return True
    return False
