"""How a crewed Tarantula moves (seed 002, "Movimento della Tarantola"; RULES §10).

A crewed Tarantula is one line of three squares: the weapon's front, the weapon's centre
and the gunner on the square behind. The judge names where the front ends and which way
it faces; :func:`tarantula_manoeuvre` finds the cheapest legal manoeuvre (fewest squares
moved, then fewest turns) and :func:`move_tarantula` carries it out. The decisions the seed
leaves open are in ``docs/decisions.md`` ("The Tarantula's moves"):

* it moves only forward, square by square, at most its movement (6) counted at the front;
  it turns by 90 or 180 degrees about its centre at no cost;
* on the way it may pass through marines; an alien or a blip stops it; it cannot end with
  one of its three squares taken by another figure or a blip;
* a closed door crossed on the way opens; walls and standing bulkheads stop it;
* a 90-degree turn needs the new front and gunner squares open and reachable from the
  centre (no wall or bulkhead), and the two corner squares the front and the gunner sweep
  open; none of the four may hold an alien, a blip or another player's marine;
* a 180-degree turn is two such turns or, in a space two squares wide, the seed's narrow
  reversal: the three squares along one side of the line open and reachable from it, no
  alien, blip or other player's marine on them, at most two of the owner's marines and at
  least one of them free.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from rules.engine.board import DoorState
from rules.engine.geometry import Edge, Facing, Square, edge
from rules.engine.movement import MoveError, MoveEvent, surveyed_or_occupied
from rules.engine.state import ALIEN, Figure, GameState

TARANTULA = "tarantula"

#: The kinds of manoeuvre: one square forward, a quarter turn either way, a half turn.
FORWARD = "forward"
TURN_LEFT = "turn_left"
TURN_RIGHT = "turn_right"
TURN_ABOUT = "turn_about"

_RIGHT_OF = {
    Facing.NORTH: Facing.EAST,
    Facing.EAST: Facing.SOUTH,
    Facing.SOUTH: Facing.WEST,
    Facing.WEST: Facing.NORTH,
}
_LEFT_OF = {right: left for left, right in _RIGHT_OF.items()}


def _add(a: Square, d: Square, k: int = 1) -> Square:
    return (a[0] + d[0] * k, a[1] + d[1] * k)


@dataclass(frozen=True, order=True)
class Pose:
    """Where a crewed Tarantula stands: the weapon's centre square and its facing."""

    centre: Square
    facing: Facing

    @property
    def front(self) -> Square:
        return _add(self.centre, self.facing.delta)

    @property
    def gunner(self) -> Square:
        return _add(self.centre, self.facing.delta, -1)

    @property
    def squares(self) -> tuple[Square, Square, Square]:
        """Front, centre and gunner."""
        return (self.front, self.centre, self.gunner)


def gunner_of(state: GameState, tarantula: Figure) -> Figure | None:
    """The marine crewing ``tarantula`` from the board, if any."""
    return next((f for f in state.figures if f.piloting == tarantula.id and f.on_board), None)


def crewed_pose(state: GameState, tarantula_id: str) -> tuple[Figure, Figure, Pose]:
    """The Tarantula, its gunner and its pose; :class:`MoveError` if it is not a crewed
    Tarantula with the gunner on the square behind it."""
    if not state.has_figure(tarantula_id):
        raise MoveError("no_figure", figure=tarantula_id)
    tarantula = state.figure(tarantula_id)
    if tarantula.unit != TARANTULA or len(tarantula.squares) != 2:
        raise MoveError("not_a_tarantula", figure=tarantula_id)
    gunner = gunner_of(state, tarantula)
    if gunner is None:
        raise MoveError("tarantula_uncrewed", figure=tarantula_id)
    a, b = tarantula.squares
    for centre, front in ((a, b), (b, a)):
        behind = (2 * centre[0] - front[0], 2 * centre[1] - front[1])
        if gunner.squares == (behind,):
            facing = next(f for f in Facing if _add(centre, f.delta) == front)
            return tarantula, gunner, Pose(centre, facing)
    raise MoveError("tarantula_gunner_misplaced", figure=tarantula_id, gunner=gunner.id)


class _Ground:
    """What the squares around a Tarantula hold, for one state: which ones it may pass
    (open, no alien, no blip), which hold a marine other than its own crew, and whose."""

    def __init__(self, state: GameState, crew: tuple[str, str]) -> None:
        self.state = state
        self.board = state.board
        self.blocked: set[Square] = {b.square for b in state.blips}
        self.marines: dict[Square, str | None] = {}
        for f in state.figures:
            if f.id in crew:
                continue
            for sq in f.squares:
                if f.side == ALIEN:
                    self.blocked.add(sq)
                else:
                    self.marines[sq] = f.player

    def passable(self, sq: Square) -> bool:
        return not self.board.is_solid(sq) and sq not in self.blocked

    def free(self, sq: Square) -> bool:
        return self.passable(sq) and sq not in self.marines

    def crossing(self, doors: Mapping[Edge, DoorState], a: Square, b: Square) -> Edge | bool:
        """False when a wall or standing bulkhead separates ``a`` and ``b``; else the edge
        of a closed door the step opens, or True."""
        if self.board.has_wall(a, b):
            return False
        e = edge(a, b)
        door = doors.get(e)
        if door is None or door.passable:
            return True
        return e if door is DoorState.CLOSED else False


@dataclass(frozen=True)
class Manoeuvre:
    """One part of a Tarantula's move: its kind, the pose it ends in and the closed doors
    it opens on the way."""

    kind: str
    pose: Pose
    doors: tuple[Edge, ...]


def _steps_from(
    ground: _Ground, doors: Mapping[Edge, DoorState], pose: Pose, owner: str | None
) -> Iterator[Manoeuvre]:
    """Every legal manoeuvre from ``pose`` (forward first, then the turns)."""
    front = pose.front
    ahead = _add(front, pose.facing.delta)
    if ground.passable(ahead):
        crossed = ground.crossing(doors, front, ahead)
        if crossed is not False:
            opened: tuple[Edge, ...] = () if crossed is True else (crossed,)
            yield Manoeuvre(FORWARD, Pose(front, pose.facing), opened)
    for kind, table in ((TURN_RIGHT, _RIGHT_OF), (TURN_LEFT, _LEFT_OF)):
        turned = _quarter_turn(ground, doors, pose, table[pose.facing], owner)
        if turned is not None:
            yield Manoeuvre(kind, Pose(pose.centre, table[pose.facing]), turned)
    reversed_ = _narrow_reversal(ground, doors, pose, owner)
    if reversed_ is not None:
        about = _RIGHT_OF[_RIGHT_OF[pose.facing]]
        yield Manoeuvre(TURN_ABOUT, Pose(pose.centre, about), reversed_)


def _quarter_turn(
    ground: _Ground, doors: Mapping[Edge, DoorState], pose: Pose, to: Facing, owner: str | None
) -> tuple[Edge, ...] | None:
    """The doors a quarter turn from ``pose`` to ``to`` opens, or None if it is illegal.
    Like the narrow reversal, it never sweeps over another player's marine."""
    centre, old, new = pose.centre, pose.facing.delta, to.delta
    front, gunner = _add(centre, new), _add(centre, new, -1)
    corners = (_add(_add(centre, old), new), _add(_add(centre, old, -1), new, -1))
    if not all(ground.passable(sq) for sq in (front, gunner, *corners)):
        return None
    swept = (front, gunner, *corners)
    if any(ground.marines.get(sq, owner) != owner for sq in swept):
        return None
    opened: list[Edge] = []
    for sq in (front, gunner):
        crossed = ground.crossing(doors, centre, sq)
        if crossed is False:
            return None
        if crossed is not True:
            opened.append(crossed)
    return tuple(opened)


def _narrow_reversal(
    ground: _Ground, doors: Mapping[Edge, DoorState], pose: Pose, owner: str | None
) -> tuple[Edge, ...] | None:
    """The doors a half turn using the three squares along one side opens (the side to
    the right first), or None if neither side allows it."""
    for side in (_RIGHT_OF[pose.facing].delta, _LEFT_OF[pose.facing].delta):
        beside = [_add(sq, side) for sq in pose.squares]
        if not all(ground.passable(sq) for sq in beside):
            continue
        players = [ground.marines[sq] for sq in beside if sq in ground.marines]
        if any(p != owner for p in players) or len(players) > 2:
            continue
        opened: list[Edge] = []
        for line_sq, side_sq in zip(pose.squares, beside, strict=True):
            crossed = ground.crossing(doors, line_sq, side_sq)
            if crossed is False:
                break
            if crossed is not True:
                opened.append(crossed)
        else:
            return tuple(opened)
    return None


def tarantula_manoeuvre(
    state: GameState, tarantula_id: str, front: Square, facing: Facing, allowance: int
) -> list[Manoeuvre] | None:
    """The cheapest legal manoeuvre (fewest squares forward, then fewest turns) that ends
    with the front on ``front`` facing ``facing``, within ``allowance`` squares; [] if it
    stands there already, None if it cannot get there."""
    tarantula, gunner, start = crewed_pose(state, tarantula_id)
    ground = _Ground(state, (tarantula.id, gunner.id))
    goal = Pose(_add(front, facing.delta, -1), facing)
    return _cheapest(ground, state.doors, start, goal, tarantula.player, allowance)


def _cheapest(
    ground: _Ground,
    doors: Mapping[Edge, DoorState],
    start: Pose,
    goal: Pose,
    owner: str | None,
    allowance: int,
) -> list[Manoeuvre] | None:
    """Dijkstra over poses, by (squares forward, turns); see :func:`tarantula_manoeuvre`."""
    if not all(ground.free(sq) for sq in goal.squares):
        return None
    best: dict[Pose, tuple[int, int]] = {start: (0, 0)}
    came: dict[Pose, tuple[Pose, Manoeuvre]] = {}
    queue: list[tuple[int, int, Pose]] = [(0, 0, start)]
    while queue:
        moved, turns, pose = heapq.heappop(queue)
        if best[pose] != (moved, turns):
            continue
        if pose == goal:
            path: list[Manoeuvre] = []
            while pose != start:
                pose, step = came[pose]
                path.append(step)
            return path[::-1]
        for step in _steps_from(ground, doors, pose, owner):
            cost = (moved + 1, turns) if step.kind == FORWARD else (moved, turns + 1)
            if cost[0] > allowance:
                continue
            if step.pose not in best or cost < best[step.pose]:
                best[step.pose] = cost
                came[step.pose] = (pose, step)
                heapq.heappush(queue, (*cost, step.pose))
    return None


def move_tarantula(
    state: GameState,
    tarantula_id: str,
    front: Square,
    facing: Facing,
    *,
    allowance: int = 6,
    stop_on_survey: bool = True,
) -> tuple[GameState, list[MoveEvent]]:
    """Move a crewed Tarantula (and its gunner) so that its front ends on ``front`` facing
    ``facing``. Like a marine, it stops as soon as one of its squares enters a section not
    yet surveyed (a ``section_entered`` event; the caller places the blips). Raises
    :class:`MoveError` when no legal manoeuvre gets there within ``allowance``."""
    tarantula, gunner, start = crewed_pose(state, tarantula_id)
    ground = _Ground(state, (tarantula.id, gunner.id))
    goal = Pose(_add(front, facing.delta, -1), facing)
    steps = _cheapest(ground, state.doors, start, goal, tarantula.player, allowance)
    if steps is None:
        raise MoveError(
            "tarantula_no_manoeuvre",
            figure=tarantula_id,
            square=list(front),
            facing=facing.value,
            allowance=allowance,
        )
    if not steps:
        raise MoveError("tarantula_already_there", figure=tarantula_id)
    board = state.board
    surveyed = surveyed_or_occupied(state)
    doors = dict(state.doors)
    events: list[MoveEvent] = []
    pose = start
    path: list[list[int]] = []
    survey: MoveEvent | None = None
    for step in steps:
        for e in step.doors:
            doors[e] = DoorState.OPEN
            events.append(
                MoveEvent(
                    "door_opened", tarantula_id, pose.centre, {"between": [list(e[0]), list(e[1])]}
                )
            )
        pose = step.pose
        if step.kind == FORWARD:
            path.append(list(pose.front))
        entered = next(
            (
                section
                for sq in pose.squares
                if (section := board.section_of(sq)) is not None and section not in surveyed
            ),
            None,
        )
        if stop_on_survey and entered is not None:
            if not all(ground.free(sq) for sq in pose.squares):
                raise MoveError(
                    "section_stop",
                    step=len(path),
                    figure=tarantula_id,
                    section=entered,
                    square=list(pose.front),
                )
            survey = MoveEvent(
                "section_entered",
                tarantula_id,
                pose.front,
                {"section": entered, "steps_taken": len(path)},
            )
            break
    moved = state.with_figure(
        tarantula.moved_to((pose.front, pose.centre), pose.facing)
    ).with_figure(gunner.moved_to((pose.gunner,), pose.facing))
    moved = moved.replace(doors=doors)
    if path:
        events.append(
            MoveEvent("moved", tarantula_id, pose.front, {"steps": len(path), "path": path})
        )
    if pose.facing is not start.facing:
        events.append(MoveEvent("turned", tarantula_id, pose.front, {"facing": pose.facing.value}))
    if survey is not None:
        events.append(survey)
    return moved, events


def tarantula_reach(
    state: GameState, tarantula_id: str, allowance: int
) -> dict[Square, tuple[Facing, ...]]:
    """Where a crewed Tarantula's front may end a move within ``allowance`` squares, with
    the ways it may face there (its own pose left out): every pose the manoeuvres of
    :func:`move_tarantula` reach whose three squares are free."""
    tarantula, gunner, start = crewed_pose(state, tarantula_id)
    ground = _Ground(state, (tarantula.id, gunner.id))
    doors = state.doors
    best: dict[Pose, int] = {start: 0}
    queue: list[tuple[int, Pose]] = [(0, start)]
    while queue:
        moved, pose = heapq.heappop(queue)
        if best[pose] != moved:
            continue
        for step in _steps_from(ground, doors, pose, tarantula.player):
            cost = moved + 1 if step.kind == FORWARD else moved
            if cost <= allowance and cost < best.get(step.pose, allowance + 1):
                best[step.pose] = cost
                heapq.heappush(queue, (cost, step.pose))
    reach: dict[Square, list[Facing]] = {}
    for pose in sorted(best):
        if pose != start and all(ground.free(sq) for sq in pose.squares):
            reach.setdefault(pose.front, []).append(pose.facing)
    return {front: tuple(facings) for front, facings in reach.items()}
