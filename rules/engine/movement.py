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

from collections.abc import Collection, Iterable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from typing import Any

from .board import Board, DoorState
from .caches import BoundedCache, declare
from .geometry import (
    Edge,
    Facing,
    Square,
    block_2x2,
    orthogonal_neighbours,
    parse_square,
)
from .narration_errors import CodedError
from .state import ALIEN, Figure, GameState, copy_doors

#: Distance of a position that cannot be reached (larger than any real distance).
UNREACHABLE = 10**9

_FACING_OF = {
    (0, -1): Facing.NORTH,
    (1, 0): Facing.EAST,
    (0, 1): Facing.SOUTH,
    (-1, 0): Facing.WEST,
}


class MoveError(CodedError):
    """A move is illegal; the message says which step and why (see
    :mod:`rules.engine.narration_errors` for its code and params)."""


@dataclass(frozen=True, init=False)
class MoveEvent:
    """Something that happened during a move, for the judge's log."""

    kind: str  # "door_opened", "section_entered", "reached_claw", "moved"
    figure: str
    square: Square
    detail: dict[str, Any]

    def __init__(
        self, kind: str, figure: str, square: Square, detail: dict[str, Any] | None = None
    ) -> None:
        # Every alien move makes one: the fields are stored directly rather than through
        # the frozen dataclass's ``object.__setattr__`` for each.
        values = self.__dict__
        values["kind"] = kind
        values["figure"] = figure
        values["square"] = square
        values["detail"] = {} if detail is None else detail

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
            raise MoveError("move_inside_vehicle", figure=figure.id)
        if len(figure.squares) == 2:
            raise MoveError("move_tarantula", figure=figure.id)
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
            for i in board.dread_positions:
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

    @property
    def steps(self) -> tuple[tuple[int, ...], ...]:
        """Per position, the positions one legal step away (ignoring who stands there)."""
        return self.board.dread_steps if self.dread else _open_steps(self.board, self.door_ok)

    def bfs(self) -> list[int]:
        """Distances from the figure's own position."""
        return self.search([self.start])

    def search(self, sources: list[int]) -> list[int]:
        """Breadth-first search over legal steps from every source at distance 0. Steps are
        symmetric, so searching from goal positions gives the distance *to* them."""
        n = len(self.passable)
        dist = [UNREACHABLE] * n
        # Positions still to discover: passable and not reached yet (one test per step).
        todo = bytearray(self.passable)
        for i in sources:
            dist[i] = 0
            todo[i] = 0
        frontier = list(sources)
        d = 0
        steps = self.steps
        while frontier:
            d += 1
            nxt = []
            for i in frontier:
                for j in steps[i]:
                    if todo[j]:
                        todo[j] = 0
                        dist[j] = d
                        nxt.append(j)
            frontier = nxt
        return dist

    def adjacency_goals(self, player: str) -> list[int]:
        """Stopping positions orthogonally adjacent to a figure of ``player`` across an edge
        that is open or can be opened on the way (a closed door, not a wall or bulkhead)."""
        board = self.board
        stoppable = self.stoppable
        pairs = _adjacent_squares(self.state, player, self.figure, self.open_doors)
        if not self.dread:
            w = self.w
            return sorted({i for (x, y), _ in pairs if stoppable[i := x + y * w]})
        goals: set[int] = set()
        for s, t in pairs:
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


def _adjacent_squares(
    state: GameState, player: str, mover: Figure, open_doors: bool
) -> tuple[tuple[Square, Square], ...]:
    """Every (square, figure square) pair where the square is orthogonally next to a
    figure of ``player`` other than ``mover``, not part of one nor solid, and reached
    across an edge that is open or can be opened on the way (whoever stands there): the
    board's orthogonal steps from the figure's squares."""
    board = state.board
    w = board.width
    door_ok = _DOOR_OK[bool(open_doors)]
    doors = state.door_open_slots
    targets: set[int] = set()
    for f in state.figures:
        if f.player == player and f.squares and f.id != mover.id:
            targets.update(x + y * w for x, y in f.squares)
    at = board.square_at
    orth_steps = board.orth_steps
    pairs = [
        (at[s], at[t])
        for t in targets
        for s, slot in orth_steps[t]
        if s not in targets and (slot < 0 or door_ok[doors[slot]])
    ]
    return tuple(pairs)


_OPEN_STEPS: BoundedCache[tuple, tuple[tuple[int, ...], ...]] = declare(
    "movement.open_steps", bound=256, depends_on="the board and which doors can be passed"
)


def _open_steps(board: Board, door_ok: list[bool]) -> tuple[tuple[int, ...], ...]:
    """``board.steps`` without the steps through doors that cannot be passed (same order),
    kept per board and door states."""
    key = (board, tuple(door_ok))
    table = _OPEN_STEPS.get(key)
    if table is None:
        table = _OPEN_STEPS.put(
            key,
            tuple(
                tuple(j for j, slot in here if slot < 0 or door_ok[slot]) for here in board.steps
            ),
        )
    return table


#: No permission to pass anyone's figures.
_NOBODY: frozenset[str] = frozenset()


def _occupancy_tables(
    state: GameState, figure: Figure, permitted: frozenset[str]
) -> tuple[bytes, bytes]:
    """Which squares a figure of this side (and player) may pass and may stop on, with every
    figure on the board counted, itself included (the caller frees its own squares). The
    tables of aliens with no permissions, which every alien reads, are kept in the state's
    memo (and patched for the next state after an alien's move or a kill)."""
    alien = figure.side == ALIEN
    kept = alien and not permitted
    if kept:
        cached = state.memo.alien_occupancy
        if cached is not None:
            return cached
    board = state.board
    w = board.width
    open_ = board.alien_open_squares if alien else board.open_squares
    passable = bytearray(open_)
    free = bytearray(open_)
    for b in state.blips:
        i = b.square[0] + b.square[1] * w
        if open_[i]:
            free[i] = 0
            passable[i] = 1 if alien else 0
    for other in state.figures:
        for x, y in other.squares:
            i = x + y * w
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
    if kept:
        state.memo.alien_occupancy = tables
    return tables


@dataclass(frozen=True, init=False)
class DistanceField:
    """Steps from a figure's position to every position of the board.

    ``dist[i]`` is indexed ``x + y * width`` (the anchor, i.e. top-left square, for a
    Dreadnought); ``stoppable[i]`` says whether the figure may end there; ``steps[i]``
    lists the positions one legal step from ``i`` (the search's own table).
    """

    width: int
    dist: list[int]
    steps: tuple[tuple[int, ...], ...]
    stoppable: bytes
    start: Square

    def __init__(
        self,
        width: int,
        dist: list[int],
        steps: tuple[tuple[int, ...], ...],
        stoppable: bytes,
        start: Square,
    ) -> None:
        # The Alien AI makes one for every alien it assesses: the fields are stored
        # directly rather than through the frozen dataclass's ``object.__setattr__``.
        values = self.__dict__
        values["width"] = width
        values["dist"] = dist
        values["steps"] = steps
        values["stoppable"] = stoppable
        values["start"] = start

    def distance(self, sq: Square) -> int:
        return self.dist[sq[0] + sq[1] * self.width]

    def can_stop(self, sq: Square) -> bool:
        return bool(self.stoppable[sq[0] + sq[1] * self.width])

    def path_to(self, sq: Square) -> list[Square] | None:
        """Squares stepped on from the start (excluded) to ``sq`` (included), or None.

        Of the shortest paths, the one found walking back from ``sq``: each step goes to
        the first position, in the board's step order, one step nearer the start. It
        depends on the distances alone, so every equal field gives the same path."""
        w = self.width
        dist = self.dist
        steps = self.steps
        i = sq[0] + sq[1] * w
        d = dist[i]
        if d >= UNREACHABLE:
            return None
        out = []
        while d > 0:
            out.append((i % w, i // w))
            d -= 1
            for j in steps[i]:
                if dist[j] == d:
                    i = j
                    break
        out.reverse()
        return out

    def with_freed(
        self, freed: Collection[int], passable: bytes
    ) -> tuple[DistanceField, list[int]]:
        """The field once the positions ``freed`` no longer block (a figure that could not
        be passed left them) and ``passable`` is the new table of positions that can be
        passed, with the positions whose distance shrank: every old path still exists,
        so only distances through a freed position can shrink; they are relaxed outwards
        from there, nearest first."""
        dist = self.dist
        steps = self.steps
        new: list[int] | None = None
        seeds: list[tuple[int, int]] = []
        for v in freed:
            if not passable[v]:
                continue
            d = min((dist[u] for u in steps[v]), default=UNREACHABLE) + 1
            if d < dist[v]:
                if new is None:
                    new = dist = list(dist)
                dist[v] = d
                seeds.append((d, v))
        if new is None:
            return self, []
        improved = [v for _, v in seeds]
        # Every step costs 1, so positions are settled a distance at a time (a queue per
        # distance, the freed positions waiting in theirs): a freed position whose
        # distance shrank again before its turn is passed over then.
        waiting: dict[int, list[int]] = {}
        for d, v in seeds:
            waiting.setdefault(d, []).append(v)
        level = min(waiting)
        layer = waiting.pop(level)
        while True:
            d = level + 1
            reached = waiting.pop(d, [])
            for x in layer:
                if dist[x] != level:
                    continue
                for y in steps[x]:
                    if d < dist[y] and passable[y]:
                        dist[y] = d
                        improved.append(y)
                        reached.append(y)
            if reached:
                level, layer = d, reached
            elif waiting:
                level = min(waiting)
                layer = waiting.pop(level)
            else:
                break
        return DistanceField(self.width, dist, steps, self.stoppable, self.start), improved

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
    except KeyError:
        raise MoveError("no_figure", figure=figure_id) from None
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
    return DistanceField(
        state.board.width,
        mover.bfs(),
        mover.steps,
        bytes(mover.stoppable),
        state.board.square(mover.start),
    )


def passable_table(state: GameState, figure_id: str) -> bytes:
    """Which positions the figure may pass in this state (doors openable, no
    permissions), indexed like its distance field."""
    figure = state.figure(figure_id)
    if len(figure.squares) != 1:
        return bytes(_mover(state, figure_id, True, ()).passable)
    passable = _occupancy_tables(state, figure, _NOBODY)[0]
    i = state.board.index(figure.squares[0])
    return passable[:i] + b"\x01" + passable[i + 1 :]


def side_stop_table(state: GameState, figure: Figure) -> bytes:
    """Where a 1x1 figure of ``figure``'s side (and player) may end a move in this state,
    with doors openable and no permissions: the table :func:`stop_table` starts from, with
    the figure's own square still counted as taken (shared by the side, memoised)."""
    return _occupancy_tables(state, figure, _NOBODY)[1]


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
    except KeyError:
        raise MoveError("no_figure", figure=figure_id) from None
    permits = frozenset(permitted) if permitted else _NOBODY
    if len(figure.squares) != 1:
        return bytes(_Mover(state, figure, open_doors, permits).stoppable)
    free = _occupancy_tables(state, figure, permits)[1]
    x, y = figure.squares[0]
    i = x + y * state.board.width
    return free[:i] + b"\x01" + free[i + 1 :]


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
        raise MoveError("off_board", square=list(target))
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
    dist = mover.bfs()
    goals = mover.adjacency_goals(player)
    return min((dist[g] for g in goals), default=UNREACHABLE)


def field_to_squares(
    state: GameState, figure_id: str, goals: Collection[Square], *, open_doors: bool = True
) -> list[int]:
    """For every position the figure could occupy, the steps still needed from there to
    reach one of the ``goals`` (as :func:`field_to_adjacent`, to squares instead of next to
    a player's figures). Indexed ``x + y * width``."""
    mover = _mover(state, figure_id, open_doors, ())
    board = state.board
    return mover.search(sorted({board.index(sq) for sq in goals if board.in_bounds(sq)}))


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
    return mover.search(mover.adjacency_goals(player))


def on_shortest_paths(
    state: GameState, figure_id: str, dfield: DistanceField, player: str, max_steps: int
) -> tuple[int, list[list[int]]]:
    """Where the figure stands after ``k`` steps of a shortest path towards standing next
    to ``player``'s figures, for every ``k`` up to ``max_steps``.

    ``dfield`` is the figure's distance field in this state's layout. Returns the distance
    ``D`` to the nearest position next to the player (the goals of
    :func:`field_to_adjacent`) and, per ``k``, the positions ``p`` with
    ``dist[p] == k`` on a shortest path to such a goal: exactly those from which the goal
    is ``D - k`` steps away, found by walking the shortest paths back from the goals
    instead of a second search over the whole board. ``(UNREACHABLE, [])`` if no goal can
    be reached.
    """
    mover = _mover(state, figure_id, True, ())
    dist = dfield.dist
    goals = mover.adjacency_goals(player)
    nearest = min((dist[g] for g in goals), default=UNREACHABLE)
    if nearest >= UNREACHABLE:
        return UNREACHABLE, []
    steps = mover.steps
    layer = [g for g in goals if dist[g] == nearest]
    seen = set(layer)
    layers: list[list[int]] = [[] for _ in range(min(max_steps, nearest) + 1)]
    for d in range(nearest, 0, -1):
        if d <= max_steps:
            layers[d] = layer
        previous = []
        for q in layer:
            for p in steps[q]:
                if dist[p] == d - 1 and p not in seen:
                    seen.add(p)
                    previous.append(p)
        layer = previous
    layers[0] = layer
    return nearest, layers


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
    ``section_entered`` event and the caller surveys the section (places its blips and
    lists it, :func:`rules.engine.play.blips.survey_section`), then may move the figure
    again with its remaining movement. A move never lists a section as surveyed itself:
    that would hide from the survey the section the marine just entered. Raises
    :class:`MoveError` for an illegal step, a move longer than ``allowance``, or an end on
    an occupied square.
    """
    mover = _mover(state, figure_id, open_doors, permitted)
    board = state.board
    figure = mover.figure
    steps = list(path)
    if steps and board.index(steps[0]) == mover.start:
        steps = steps[1:]
    if allowance is not None and len(steps) > allowance:
        raise MoveError("too_long", figure=figure_id, allowance=allowance, steps=len(steps))
    events: list[MoveEvent] = []
    doors: Mapping[Edge, DoorState] = copy_doors(state.doors)
    current = mover.start
    facing: Facing | None = figure.facing
    # A section is surveyed once listed, or while a marine-side figure stands in it.
    survey: MoveEvent | None = None
    surveyed = surveyed_or_occupied(state)
    taken = 0
    for k, sq in enumerate(steps):
        if not board.in_bounds(sq):
            raise MoveError("step_off_board", step=k + 1, square=list(sq))
        j = board.index(sq)
        here = board.square(current)
        if j not in mover.neighbours(current):
            raise MoveError("step_blocked", step=k + 1, figure=figure_id, a=list(here), b=list(sq))
        if not mover.passable[j]:
            raise MoveError("step_occupied", step=k + 1, figure=figure_id, square=list(sq))
        facing, doors = _step_effects(
            board, mover.dread, figure_id, here, sq, doors, events, facing
        )
        current = j
        taken = k + 1
        if stop_on_survey and figure.side != ALIEN:
            entered = _new_section(board, mover.dread, sq, surveyed)
            if entered is not None:
                if not mover.stoppable[j]:
                    raise MoveError(
                        "section_stop",
                        step=k + 1,
                        figure=figure_id,
                        section=entered,
                        square=list(sq),
                    )
                survey = MoveEvent(
                    "section_entered", figure_id, sq, {"section": entered, "steps_taken": taken}
                )
                break
    if not mover.stoppable[current]:
        raise MoveError("end_occupied", figure=figure_id, square=list(board.square(current)))
    end = board.square(current)
    squares = block_2x2(end) if mover.dread else (end,)
    new_figure = figure.moved_to(squares, facing)
    new_state = state.with_figure(new_figure).replace(doors=doors)
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


def _step_effects(
    board: Board,
    dread: bool,
    figure_id: str,
    here: Square,
    to: Square,
    doors: Mapping[Edge, DoorState],
    events: list[MoveEvent],
    facing: Facing | None,
) -> tuple[Facing | None, Mapping[Edge, DoorState]]:
    """One step from ``here`` to ``to``: open the closed doors crossed (with an event each)
    and return the facing after the step and the doors. ``doors`` is changed in place when
    it is a dict; any other mapping (a state's read-only table) is copied into a new dict
    before its first change, so a move through no closed door copies nothing."""
    doors = _open_crossed(_doors_crossed(board, dread, here, to), doors, figure_id, here, events)
    return _FACING_OF.get((to[0] - here[0], to[1] - here[1]), facing), doors


def _open_crossed(
    crossed: Iterable[Edge],
    doors: Mapping[Edge, DoorState],
    figure_id: str,
    here: Square,
    events: list[MoveEvent],
) -> Mapping[Edge, DoorState]:
    """Open the closed doors among ``crossed`` on a step from ``here``, with an event each;
    ``doors`` is copied into a dict before its first change unless it is one already."""
    for e in crossed:
        if doors[e] is DoorState.CLOSED:
            if type(doors) is not dict:
                doors = copy_doors(doors)
            doors[e] = DoorState.OPEN
            events.append(
                MoveEvent("door_opened", figure_id, here, {"between": [list(e[0]), list(e[1])]})
            )
    return doors


def _facing_after(start: Square, path: Sequence[Square], facing: Facing) -> Facing:
    """The facing at the end of ``path`` from ``start``: the direction of its last
    orthogonal step, or ``facing`` if it has none (a diagonal step keeps the facing)."""
    for k in range(len(path) - 1, -1, -1):
        to = path[k]
        here = path[k - 1] if k else start
        step_facing = _FACING_OF.get((to[0] - here[0], to[1] - here[1]))
        if step_facing is not None:
            return step_facing
    return facing


def follow_path(
    state: GameState, figure_id: str, path: Sequence[Square]
) -> tuple[GameState, list[MoveEvent]]:
    """Move an alien along ``path`` (squares after its start) that is already known to be
    legal: read off a distance field of this state's layout, ending on a square where it
    may stop. The same result and events as :func:`move`, without checking each step again
    (the Alien AI moves every alien this way). Aliens never survey sections or enter
    docking claws, so only doors and facing change on the way. The new state inherits
    the tables the move leaves true (:meth:`GameState.with_alien_moved`)."""
    figure = state.figure(figure_id)
    if figure.side != ALIEN:
        raise MoveError("aliens_only", figure=figure_id)
    board = state.board
    dread = figure.is_dreadnought
    doors: Mapping[Edge, DoorState] = state.doors
    events: list[MoveEvent] = []
    start = here = figure.square
    if dread:
        for sq in path:
            doors = _open_crossed(
                _doors_crossed(board, True, here, sq), doors, figure_id, here, events
            )
            here = sq
    else:
        # A 1x1 step crosses a door only if it is one of the board's steps through one.
        door_steps = board.door_steps
        w = board.width
        i = here[0] + here[1] * w
        for sq in path:
            j = sq[0] + sq[1] * w
            e = door_steps.get((i, j))
            if e is not None:
                doors = _open_crossed((e,), doors, figure_id, here, events)
            here = sq
            i = j
    squares = block_2x2(here) if dread else (here,)
    moved_figure = _moved_figure(figure, squares, _facing_after(start, path, figure.facing))
    # Doors opened: ``doors`` is a dict copied from the state's table.
    moved = state.with_alien_moved(moved_figure, doors if events else None)
    if path:
        path_json = [list(s) for s in path]
        events.append(MoveEvent("moved", figure_id, here, {"steps": len(path), "path": path_json}))
    return moved, events


def doors_opened_on(
    state: GameState, figure: Figure, start: Square, path: Sequence[Square]
) -> frozenset[Edge]:
    """The closed doors ``figure`` (an alien) opens following ``path`` from ``start``, as
    :func:`follow_path` opens them."""
    board = state.board
    dread = figure.is_dreadnought
    doors = state.doors
    opened: list[Edge] = []
    here = start
    for sq in path:
        opened.extend(
            e for e in _doors_crossed(board, dread, here, sq) if doors[e] is DoorState.CLOSED
        )
        here = sq
    return frozenset(opened)


def with_doors_open(state: GameState, opened: Collection[Edge]) -> GameState:
    """``state`` with the doors ``opened`` open (``state`` itself when there are none)."""
    if not opened:
        return state
    doors = copy_doors(state.doors)
    for e in opened:
        doors[e] = DoorState.OPEN
    return state.replace(doors=doors)


def _moved_figure(figure: Figure, squares: tuple[Square, ...], facing: Facing | None) -> Figure:
    """``figure.moved_to(squares, facing)``, built by copying the fields directly instead
    of through the frozen dataclass's ``__init__`` (every alien move of the AI makes one)."""
    moved = object.__new__(Figure)
    new = moved.__dict__
    new.update(figure.__dict__)  # the fields (a figure derives nothing else)
    new["squares"] = squares
    new["is_dreadnought"] = len(squares) == 4
    new["facing"] = facing or figure.facing
    return moved


def surveyed_or_occupied(state: GameState) -> frozenset[str | None]:
    """Sections surveyed: listed in the state, or where a marine-side figure stands.

    In a session without aliens (``Stipulation.with_aliens``) a survey places only the
    special-equipment blips, so every section holding none counts as surveyed: a marine
    entering it does not stop, since nothing would be placed there."""
    board = state.board
    done = frozenset(state.surveyed_sections) | {
        board.section_of(sq) for f in state.figures if f.side != ALIEN for sq in f.squares
    }
    if state.stipulation.with_aliens:
        return done
    return done | (frozenset(s.id for s in board.sections) - _equipment_sections(state))


def _equipment_sections(state: GameState) -> frozenset[str | None]:
    """The sections holding a square of the switch ``equipment_blips`` (marker squares
    ``"x,y"`` whose blip hides special equipment); a key that is no square is skipped."""
    sections = set()
    for key in state.stipulation.switches.get("equipment_blips") or {}:
        try:
            sections.add(state.board.section_of(parse_square(str(key))))
        except ValueError:
            continue
    return frozenset(sections)


def _doors_crossed(board: Board, dread: bool, here: Square, to: Square) -> list[Edge]:
    """The doors a legal step from ``here`` to ``to`` goes through."""
    if not dread:
        w = board.width
        e = board.door_steps.get((here[0] + here[1] * w, to[0] + to[1] * w))
        return [e] if e is not None else []
    doors = board.dread_doors[board.index(to)] or ()
    return [board.door_edges[s] for s in doors]


def _new_section(
    board: Board, dread: bool, sq: Square, surveyed: AbstractSet[str | None]
) -> str | None:
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
    except KeyError:
        raise MoveError("no_figure", figure=figure_id) from None
    between = {"a": list(a), "b": list(b)}
    door = state.door_state(a, b)
    if door is None:
        raise MoveError("no_door", **between)
    if door is not DoorState.CLOSED:
        raise MoveError("door_not_closed", door_state=door.value, **between)
    if a not in figure.squares and b not in figure.squares:
        raise MoveError("not_at_door", figure=figure_id, **between)
    here = a if a in figure.squares else b
    event = MoveEvent("door_opened", figure_id, here, {"between": [list(a), list(b)]})
    return state.with_door(a, b, DoorState.OPEN), [event]


def closed_doors_at(state: GameState, figure_id: str) -> list[tuple[Square, Square]]:
    """The closed doors ``figure_id`` stands in front of, each as (its square, the square
    beyond the door): the doors :func:`open_door` would open for it."""
    figure = state.figure(figure_id)
    return [
        (here, there)
        for here in figure.squares
        for there in orthogonal_neighbours(here)
        if there not in figure.squares and state.door_state(here, there) is DoorState.CLOSED
    ]
