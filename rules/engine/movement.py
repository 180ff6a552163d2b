"""Movement: legal steps, distance fields, shortest paths and moves (RULES §10).

A 1x1 figure steps to any of 8 neighbours. An orthogonal step needs no wall between the
squares; a door on the way is fine if it is open or destroyed, or closed (the figure
opens it for free by standing in front of it; ``open_doors=False`` forbids that), never a
standing bulkhead. A diagonal step needs the corner clear: no wall, no door (whatever its
state: doors are passed orthogonally) and no solid square among the four edges and two
side squares touching that corner.

A Dreadnought (a figure on 4 squares) is handled by the top-left square of its 2x2 base,
its *anchor*: it shifts one square at a time orthogonally (each shift costs 1, counting
by its front), may pass crouched through a doorway but never stops with a door under its
base, and may pass through other aliens but not end on them.

Passing through figures: a figure may pass squares held by figures of its own side
(aliens through aliens, a marine through its own player's figures), through another
player's figures only if that player is in ``permitted`` (their permission), and never
stops on an occupied square. Aliens may pass hidden blips, marines may not; nobody stops
on one. Aliens never enter docking claws.

Distance fields are flat lists indexed ``x + y * width`` (anchors for a Dreadnought), with
:data:`UNREACHABLE` for positions that cannot be reached.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from .board import Board, DoorState
from .geometry import (
    Edge,
    Facing,
    Square,
    block_2x2,
    edge,
    format_square,
    is_orthogonally_adjacent,
)
from .state import ALIEN, Figure, GameState

#: Distance of a position that cannot be reached (larger than any real distance).
UNREACHABLE = 10**9

_FACING_OF = {
    (0, -1): Facing.NORTH,
    (1, 0): Facing.EAST,
    (0, 1): Facing.SOUTH,
    (-1, 0): Facing.WEST,
}


class MoveError(ValueError):
    """A move is illegal; the message says which step and why."""


@dataclass(frozen=True)
class MoveEvent:
    """Something that happened during a move, for the judge's log."""

    kind: str  # "door_opened", "section_entered", "reached_claw", "moved"
    figure: str
    square: Square
    detail: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "figure": self.figure,
            "square": list(self.square),
            **self.detail,
        }


#: Whether a door in each state can be passed, when closed doors may (True) or may not
#: (False) be opened on the way.
_DOOR_OK = {
    open_doors: {s: s.passable or (s is DoorState.CLOSED and open_doors) for s in DoorState}
    for open_doors in (True, False)
}


class _Mover:
    """Per-(state, figure) tables: which positions can be passed and where it may stop."""

    def __init__(
        self,
        state: GameState,
        figure: Figure,
        open_doors: bool,
        permitted: Collection[str],
    ) -> None:
        board = state.board
        self.state = state
        self.board = board
        self.figure = figure
        self.w = board.width
        n = board.width * board.height
        self.dread = figure.is_dreadnought
        if not figure.on_board:
            raise MoveError(f"figure {figure.id} is inside a vehicle and cannot move by itself")
        if len(figure.squares) == 2:
            raise MoveError(
                f"figure {figure.id} covers two squares (a Tarantula): its straight-line moves "
                "are not handled by this module"
            )
        door_ok = list(map(_DOOR_OK[bool(open_doors)].__getitem__, state.door_open_slots))
        self.door_ok = door_ok
        self.open_doors = open_doors
        base_pass, base_free = _occupancy_tables(state, figure, frozenset(permitted))
        passable = bytearray(base_pass)
        free = bytearray(base_free)
        for sq in figure.squares:  # the figure's own squares are free for itself
            i = board.index(sq)
            passable[i] = free[i] = 1
        if self.dread:
            dpass = bytearray(n)
            dstop = bytearray(n)
            w = self.w
            dread_doors = board.dread_doors
            for i in _dread_positions(board):
                doors = dread_doors[i]
                if doors and not all(door_ok[s] for s in doors):
                    continue
                if passable[i] and passable[i + 1] and passable[i + w] and passable[i + w + 1]:
                    dpass[i] = 1
                    if not doors and free[i] and free[i + 1] and free[i + w] and free[i + w + 1]:
                        dstop[i] = 1
            self.passable, self.stoppable = dpass, dstop
            self.start = board.index(figure.square)
        else:
            self.passable, self.stoppable = passable, free
            self.start = board.index(figure.squares[0])

    def neighbours(self, i: int) -> list[int]:
        if self.dread:
            return list(self.board.dread_steps[i])
        door_ok = self.door_ok
        return [j for j, slot in self.board.steps[i] if slot < 0 or door_ok[slot]]

    def bfs(self) -> tuple[list[int], list[int]]:
        """Distances and parents from the figure's own position."""
        return self.search([self.start])

    def search(self, sources: list[int]) -> tuple[list[int], list[int]]:
        """Breadth-first search over legal steps from every source at distance 0. Steps are
        symmetric, so searching from goal positions gives the distance *to* them."""
        n = len(self.passable)
        dist = [UNREACHABLE] * n
        parent = [-1] * n
        # Positions still to discover: passable and not reached yet (one test per step).
        todo = bytearray(self.passable)
        for i in sources:
            dist[i] = 0
            todo[i] = 0
        frontier = list(sources)
        d = 0
        steps = self.board.dread_steps if self.dread else _open_steps(self.board, self.door_ok)
        while frontier:
            d += 1
            nxt = []
            for i in frontier:
                for j in steps[i]:
                    if todo[j]:
                        todo[j] = 0
                        dist[j] = d
                        parent[j] = i
                        nxt.append(j)
            frontier = nxt
        return dist, parent

    def adjacency_goals(self, player: str) -> list[int]:
        """Stopping positions orthogonally adjacent to a figure of ``player`` across an edge
        that is open or can be opened on the way (a closed door, not a wall or bulkhead)."""
        board = self.board
        targets = set()
        for f in self.state.figures:
            if f.player == player and f.on_board and f.id != self.figure.id:
                targets.update(f.squares)
        stoppable = self.stoppable
        goals: set[int] = set()
        for t in targets:
            for s in ((t[0] + 1, t[1]), (t[0] - 1, t[1]), (t[0], t[1] + 1), (t[0], t[1] - 1)):
                if not board.in_bounds(s) or s in targets or not self._reaches(s, t):
                    continue
                if not self.dread:
                    if stoppable[board.index(s)]:
                        goals.add(board.index(s))
                    continue
                for anchor in (
                    (s[0], s[1]),
                    (s[0] - 1, s[1]),
                    (s[0], s[1] - 1),
                    (s[0] - 1, s[1] - 1),
                ):
                    if (
                        board.in_bounds(anchor)
                        and stoppable[board.index(anchor)]
                        and t not in block_2x2(anchor)
                    ):
                        goals.add(board.index(anchor))
        return sorted(goals)

    def _reaches(self, a: Square, b: Square) -> bool:
        if self.board.has_wall(a, b):
            return False
        door = self.state.doors.get(edge(a, b))
        return door is None or door.passable or (door is DoorState.CLOSED and self.open_doors)


_DREAD_POSITIONS: dict[Board, tuple[int, ...]] = {}


def _dread_positions(board: Board) -> tuple[int, ...]:
    """Indices where a Dreadnought's 2x2 base fits the board (kept per board)."""
    positions = _DREAD_POSITIONS.get(board)
    if positions is None:
        if len(_DREAD_POSITIONS) >= 64:
            _DREAD_POSITIONS.clear()
        positions = _DREAD_POSITIONS[board] = tuple(
            i for i, doors in enumerate(board.dread_doors) if doors is not None
        )
    return positions


_OPEN_STEPS: dict[tuple, tuple[tuple[int, ...], ...]] = {}


def _open_steps(board: Board, door_ok: list[bool]) -> tuple[tuple[int, ...], ...]:
    """``board.steps`` without the steps through doors that cannot be passed (same order),
    kept per board and door states."""
    key = (board, tuple(door_ok))
    table = _OPEN_STEPS.get(key)
    if table is None:
        if len(_OPEN_STEPS) >= 256:
            _OPEN_STEPS.clear()
        table = _OPEN_STEPS[key] = tuple(
            tuple(j for j, slot in here if slot < 0 or door_ok[slot]) for here in board.steps
        )
    return table


_OPEN_SQUARES: dict[tuple[Board, bool], bytes] = {}


def _open_squares(board: Board, alien: bool) -> bytes:
    """1 for every square a figure of the side could stand on with no figure or blip on
    the board: not solid and (for aliens) not in a docking claw. Kept per board."""
    key = (board, alien)
    table = _OPEN_SQUARES.get(key)
    if table is None:
        if len(_OPEN_SQUARES) >= 64:
            _OPEN_SQUARES.clear()
        table = _OPEN_SQUARES[key] = bytes(
            0 if solid or (alien and claw is not None) else 1
            for solid, claw in zip(board.solid, board.claw_index, strict=True)
        )
    return table


def _occupancy_tables(
    state: GameState, figure: Figure, permitted: frozenset[str]
) -> tuple[bytes, bytes]:
    """Which squares a figure of this side (and player) may pass and may stop on, with every
    figure on the board counted, itself included (the caller frees its own squares). The
    tables are shared by all figures of a side, so they are kept in the state's memo."""
    alien = figure.side == ALIEN
    key = ("movement", alien, None if alien else figure.player, permitted)
    cached = state.memo.get(key)
    if cached is not None:
        return cached
    board = state.board
    open_ = _open_squares(board, alien)
    passable = bytearray(open_)
    free = bytearray(open_)
    for b in state.blips:
        i = board.index(b.square)
        if open_[i]:
            free[i] = 0
            passable[i] = 1 if alien else 0
    for other in state.figures:
        for sq in other.squares:
            i = board.index(sq)
            if not open_[i]:
                continue
            free[i] = 0
            if alien:
                passable[i] = 1 if other.side == ALIEN else 0
            elif other.side == ALIEN:
                passable[i] = 1 if "aliens" in permitted else 0
            else:
                passable[i] = 1 if other.player == figure.player or other.player in permitted else 0
    tables = (bytes(passable), bytes(free))
    state.memo[key] = tables
    return tables


@dataclass(frozen=True)
class DistanceField:
    """Steps from a figure's position to every position of the board.

    ``dist[i]`` and ``parent[i]`` are indexed ``x + y * width`` (the anchor, i.e. top-left
    square, for a Dreadnought); ``stoppable[i]`` says whether the figure may end there.
    """

    width: int
    dist: list[int]
    parent: list[int]
    stoppable: bytes
    start: Square

    def distance(self, sq: Square) -> int:
        return self.dist[sq[0] + sq[1] * self.width]

    def can_stop(self, sq: Square) -> bool:
        return bool(self.stoppable[sq[0] + sq[1] * self.width])

    def path_to(self, sq: Square) -> list[Square] | None:
        """Squares stepped on from the start (excluded) to ``sq`` (included), or None."""
        i = sq[0] + sq[1] * self.width
        if self.dist[i] >= UNREACHABLE:
            return None
        out = []
        while self.parent[i] >= 0:
            out.append((i % self.width, i // self.width))
            i = self.parent[i]
        out.reverse()
        return out

    def reachable(self, max_steps: int) -> dict[Square, int]:
        """Stopping positions within ``max_steps`` (the start included, at 0)."""
        w = self.width
        out = {self.start: 0}
        for i, d in enumerate(self.dist):
            if d <= max_steps and self.stoppable[i]:
                out[(i % w, i // w)] = d
        return out


def _mover(
    state: GameState, figure_id: str, open_doors: bool, permitted: Collection[str]
) -> _Mover:
    try:
        figure = state.figure(figure_id)
    except KeyError as exc:
        raise MoveError(str(exc.args[0])) from None
    return _Mover(state, figure, open_doors, frozenset(permitted))


def distance_field(
    state: GameState,
    figure_id: str,
    *,
    open_doors: bool = True,
    permitted: Collection[str] = (),
) -> DistanceField:
    """Breadth-first distances over the figure's legal steps (doors openable by default)."""
    mover = _mover(state, figure_id, open_doors, permitted)
    dist, parent = mover.bfs()
    return DistanceField(
        state.board.width, dist, parent, bytes(mover.stoppable), state.board.square(mover.start)
    )


def stop_table(
    state: GameState,
    figure_id: str,
    *,
    open_doors: bool = True,
    permitted: Collection[str] = (),
) -> bytes:
    """Where the figure may end a move in this state: 1 for every position it may stop on
    (its own included), indexed ``x + y * width`` like a distance field (anchors for a
    Dreadnought). The same table as ``distance_field(...).stoppable``, without the search;
    for a 1x1 figure it is a copy of the per-state table its side shares."""
    try:
        figure = state.figure(figure_id)
    except KeyError as exc:
        raise MoveError(str(exc.args[0])) from None
    if len(figure.squares) != 1:
        return bytes(_Mover(state, figure, open_doors, frozenset(permitted)).stoppable)
    free = bytearray(_occupancy_tables(state, figure, frozenset(permitted))[1])
    free[state.board.index(figure.squares[0])] = 1
    return bytes(free)


def reachable(
    state: GameState,
    figure_id: str,
    max_steps: int,
    *,
    open_doors: bool = True,
    permitted: Collection[str] = (),
) -> dict[Square, int]:
    """Where the figure may end a move of at most ``max_steps``: square (anchor for a
    Dreadnought) -> steps. Its current position is included at 0."""
    return distance_field(state, figure_id, open_doors=open_doors, permitted=permitted).reachable(
        max_steps
    )


def shortest_path(
    state: GameState,
    figure_id: str,
    target: Square,
    *,
    open_doors: bool = True,
    permitted: Collection[str] = (),
) -> list[Square] | None:
    """A shortest legal path ending on ``target`` (start excluded), or None if the figure
    cannot end there. For a Dreadnought squares are anchors (top-left of its base)."""
    board = state.board
    if not board.in_bounds(target):
        raise MoveError(f"square {format_square(target)} is outside the board")
    field_ = distance_field(state, figure_id, open_doors=open_doors, permitted=permitted)
    if field_.start == target:
        return []
    if not field_.can_stop(target):
        return None
    return field_.path_to(target)


def distance_to_adjacent(
    state: GameState,
    figure_id: str,
    player: str,
    *,
    open_doors: bool = True,
    permitted: Collection[str] = (),
) -> int:
    """Squares the figure must move to stand orthogonally adjacent to any figure of
    ``player`` (on a free square, not across a wall or bulkhead), or UNREACHABLE."""
    mover = _mover(state, figure_id, open_doors, permitted)
    dist, _ = mover.bfs()
    goals = mover.adjacency_goals(player)
    return min((dist[g] for g in goals), default=UNREACHABLE)


def field_to_adjacent(
    state: GameState,
    figure_id: str,
    player: str,
    *,
    open_doors: bool = True,
    permitted: Collection[str] = (),
) -> list[int]:
    """For every position the figure could occupy, the steps still needed from there to
    stand orthogonally adjacent to ``player``'s figures (a reverse breadth-first search from
    all such positions). Moving to the reachable position with the lowest value is moving
    as close as possible to that player. Indexed ``x + y * width`` (anchors for a
    Dreadnought)."""
    mover = _mover(state, figure_id, open_doors, permitted)
    dist, _ = mover.search(mover.adjacency_goals(player))
    return dist


def move(
    state: GameState,
    figure_id: str,
    path: Sequence[Square],
    *,
    allowance: int | None = None,
    open_doors: bool = True,
    permitted: Collection[str] = (),
    stop_on_survey: bool = True,
) -> tuple[GameState, list[MoveEvent]]:
    """Move a figure along ``path`` (squares after its start; anchors for a Dreadnought).

    Closed doors met on the way are opened (removed). A marine entering a section not yet
    surveyed stops on its first square there (RULES §10, Blips): the move ends early with a
    ``section_entered`` event and the caller places the blips, then may move the figure
    again with its remaining movement. Raises :class:`MoveError` for an illegal step, a
    move longer than ``allowance``, or an end on an occupied square.
    """
    mover = _mover(state, figure_id, open_doors, permitted)
    board = state.board
    figure = mover.figure
    steps = list(path)
    if steps and board.index(steps[0]) == mover.start:
        steps = steps[1:]
    if allowance is not None and len(steps) > allowance:
        raise MoveError(
            f"figure {figure_id} may move {allowance} squares, the path has {len(steps)}"
        )
    events: list[MoveEvent] = []
    doors = dict(state.doors)
    current = mover.start
    facing = figure.facing
    # A section is surveyed once listed, or while a marine-side figure stands in it.
    survey: MoveEvent | None = None
    surveyed = set(state.surveyed_sections) | {
        board.section_of(sq) for f in state.figures if f.side != ALIEN for sq in f.squares
    }
    taken = 0
    for k, sq in enumerate(steps):
        if not board.in_bounds(sq):
            raise MoveError(f"step {k + 1}: square {format_square(sq)} is outside the board")
        j = board.index(sq)
        here = board.square(current)
        if j not in mover.neighbours(current):
            raise MoveError(
                f"step {k + 1}: {figure_id} cannot step from {format_square(here)} to "
                f"{format_square(sq)} (not a neighbour, or a wall, bulkhead, solid square or "
                "blocked corner is in the way)"
            )
        if not mover.passable[j]:
            raise MoveError(
                f"step {k + 1}: {figure_id} cannot pass {format_square(sq)} (occupied by a "
                "figure it may not pass, a blip, or a docking claw closed to aliens)"
            )
        for e in _doors_crossed(board, mover.dread, here, sq):
            if doors[e] is DoorState.CLOSED:
                doors[e] = DoorState.OPEN
                events.append(
                    MoveEvent("door_opened", figure_id, here, {"between": [list(e[0]), list(e[1])]})
                )
        facing = _FACING_OF.get((sq[0] - here[0], sq[1] - here[1]), facing)
        current = j
        taken = k + 1
        if stop_on_survey and figure.side != ALIEN:
            entered = _new_section(board, mover.dread, sq, surveyed)
            if entered is not None:
                if not mover.stoppable[j]:
                    raise MoveError(
                        f"step {k + 1}: {figure_id} enters section {entered} at "
                        f"{format_square(sq)} and must stop there, but cannot stop on it"
                    )
                surveyed.add(entered)
                survey = MoveEvent(
                    "section_entered", figure_id, sq, {"section": entered, "steps_taken": taken}
                )
                break
    if not mover.stoppable[current]:
        raise MoveError(
            f"{figure_id} cannot end its move at {format_square(board.square(current))}: the "
            "square is occupied, holds a blip, or (Dreadnought) a door would be under its base"
        )
    end = board.square(current)
    squares = block_2x2(end) if mover.dread else (end,)
    new_figure = figure.moved_to(squares, facing)
    new_state = replace(
        state.with_figure(new_figure),
        doors=doors,
        surveyed_sections=tuple(sorted(s for s in surveyed if s is not None)),
    )
    if taken:
        path_json = [list(s) for s in steps[:taken]]
        events.append(MoveEvent("moved", figure_id, end, {"steps": taken, "path": path_json}))
    if survey is not None:
        events.append(survey)
    starts_in_claw = any(board.claw_of(s) for s in figure.squares)
    claw = next((board.claw_of(s) for s in squares if board.claw_of(s)), None)
    if claw is not None and not starts_in_claw:
        events.append(MoveEvent("reached_claw", figure_id, end, {"claw": claw}))
    return new_state, events


def _doors_crossed(board: Board, dread: bool, here: Square, to: Square) -> list[Edge]:
    if not dread:
        if is_orthogonally_adjacent(here, to):
            e = edge(here, to)
            return [e] if e in board.doors else []
        return []
    doors = board.dread_doors[board.index(to)] or ()
    return [board.door_edges[s] for s in doors]


def _new_section(board: Board, dread: bool, sq: Square, surveyed: set[str]) -> str | None:
    for s in block_2x2(sq) if dread else (sq,):
        sid = board.section_of(s)
        if sid is not None and sid not in surveyed:
            return sid
    return None


def can_stop_at(state: GameState, figure_id: str, sq: Square) -> bool:
    """True if the figure could end a move on ``sq`` (anchor for a Dreadnought)."""
    mover = _mover(state, figure_id, True, ())
    return state.board.in_bounds(sq) and bool(mover.stoppable[state.board.index(sq)])


def open_door(
    state: GameState, figure_id: str, a: Square, b: Square
) -> tuple[GameState, list[MoveEvent]]:
    """A figure standing on either square in front of a closed door opens it (free, during
    its move) without going through. Raises :class:`MoveError` if it cannot."""
    try:
        figure = state.figure(figure_id)
    except KeyError as exc:
        raise MoveError(str(exc.args[0])) from None
    where = f"{format_square(a)} and {format_square(b)}"
    door = state.door_state(a, b)
    if door is None:
        raise MoveError(f"there is no door between {where}")
    if door is not DoorState.CLOSED:
        raise MoveError(f"the door between {where} is {door.value}, not closed")
    if a not in figure.squares and b not in figure.squares:
        raise MoveError(f"{figure_id} must stand in front of the door between {where}")
    here = a if a in figure.squares else b
    event = MoveEvent("door_opened", figure_id, here, {"between": [list(a), list(b)]})
    return state.with_door(a, b, DoorState.OPEN), [event]
