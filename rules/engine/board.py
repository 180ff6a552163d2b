"""The board of a session: squares, walls and doors on edges, sections and special squares.

A :class:`Board` is immutable and describes the map as printed, with every door in its
starting state; the current door states live in the game state (``GameState.doors``).
For speed the board precomputes flat tables indexed by ``x + y * width``: the kind of each
square, the legal single steps of a 1x1 figure (orthogonal and diagonal, RULES §10), and
the legal positions and shifts of a 2x2 Dreadnought. Movement and line of sight use these
tables instead of dictionaries of tuples.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType

from .geometry import (
    DIAGONAL,
    ORTHOGONAL,
    Edge,
    Square,
    edge,
    format_square,
    is_orthogonally_adjacent,
)


class SquareKind(StrEnum):
    CORRIDOR = "corridor"
    ROOM = "room"
    SOLID = "solid"


class DoorState(StrEnum):
    """A door's state. Closed doors open for free during a move; bulkheads only by attack."""

    CLOSED = "closed"
    OPEN = "open"
    BULKHEAD = "bulkhead"  # reinforced bulkhead door, armour 4, still standing
    DESTROYED = "destroyed"  # a bulkhead destroyed by an attack: a permanent gap

    @property
    def passable(self) -> bool:
        """True when figures and sight pass the doorway without doing anything."""
        return self in (DoorState.OPEN, DoorState.DESTROYED)


class SectionKind(StrEnum):
    BOARD = "board"
    TILE = "tile"


class BoardError(ValueError):
    """A board description is inconsistent (the message says what and where)."""


#: Armour of a reinforced bulkhead door (RULES §1, §10b).
BULKHEAD_ARMOUR = 4

Rect = tuple[int, int, int, int]  # x0, y0, x1, y1 inclusive


@dataclass(frozen=True)
class Section:
    """A board section or tile: the unit a marine surveys when first entering it."""

    id: str
    kind: SectionKind
    name: str
    rects: tuple[Rect, ...]

    def squares(self) -> frozenset[Square]:
        return frozenset(
            (x, y)
            for x0, y0, x1, y1 in self.rects
            for y in range(y0, y1 + 1)
            for x in range(x0, x1 + 1)
        )


@dataclass(frozen=True)
class DockingClaw:
    """An entry area (escape route): safe for marines, closed to aliens."""

    id: str
    name: str
    squares: tuple[Square, ...]


@dataclass(frozen=True)
class Door:
    """A door on an edge, in its starting state. ``always_open`` marks the two doors of a
    dividing wall, which are open for the whole game and can never be closed."""

    edge: Edge
    state: DoorState
    always_open: bool = False


#: A map's title and description in other languages than English (the base texts).
TRANSLATED_TEXTS = ("title.it", "description.it")

# Static feature of an edge in the precomputed tables.
EDGE_FREE = 0
EDGE_WALL = 1
EDGE_DOOR = 2


class Board:
    """An immutable map. Build it directly or through :mod:`rules.engine.maps`."""

    __slots__ = (
        "name",
        "title",
        "description",
        "translations",
        "width",
        "height",
        "kinds",
        "walls",
        "doors",
        "start_door_states",
        "sections",
        "claws",
        "reinforcement_squares",
        "markers",
        "flag_spots",
        "door_edges",
        "door_slot",
        "solid",
        "square_at",
        "section_index",
        "claw_index",
        "edge_feature",
        "edge_slot",
        "steps",
        "orth_steps",
        "dread_doors",
        "dread_steps",
        "dread_positions",
        "door_steps",
        "wall_edges",
        "door_edge_ids",
        "open_squares",
        "alien_open_squares",
    )

    # The slots' types (set once, in __init__, through object.__setattr__).
    name: str
    title: str
    description: str
    translations: Mapping[str, str]
    width: int
    height: int
    kinds: tuple[SquareKind, ...]
    walls: frozenset[Edge]
    doors: dict[Edge, Door]
    #: Each door's state at the start (copied by :meth:`initial_door_states`).
    start_door_states: dict[Edge, DoorState]
    sections: tuple[Section, ...]
    claws: tuple[DockingClaw, ...]
    reinforcement_squares: frozenset[Square]
    markers: dict[Square, str]
    flag_spots: tuple[Square, ...]
    door_edges: tuple[Edge, ...]
    door_slot: dict[Edge, int]
    #: 1 where the square at that index is solid.
    solid: bytes
    square_at: tuple[Square, ...]
    section_index: tuple[str | None, ...]
    claw_index: tuple[str | None, ...]
    #: EDGE_FREE, EDGE_WALL or EDGE_DOOR by edge id (east edge of square i: i; south: n + i).
    edge_feature: bytes
    #: The door slot of each edge id, -1 where there is no door.
    edge_slot: tuple[int, ...]
    #: From each square index: (neighbour index, door slot or -1), orthogonal then diagonal.
    steps: tuple[tuple[tuple[int, int], ...], ...]
    orth_steps: tuple[tuple[tuple[int, int], ...], ...]
    #: None where a Dreadnought cannot stand (top-left square), else the door slots under it.
    dread_doors: tuple[tuple[int, ...] | None, ...]
    dread_steps: tuple[tuple[int, ...], ...]
    #: 1 for every edge id with a wall on it, else 0.
    wall_edges: bytes
    #: The edge id of each door, by door slot.
    door_edge_ids: tuple[int, ...]
    #: The indices where a Dreadnought's 2x2 base fits (``dread_doors`` not None).
    dread_positions: tuple[int, ...]
    #: The orthogonal steps of ``steps`` through a door, by (from index, to index): its edge.
    door_steps: dict[tuple[int, int], Edge]
    #: 1 for every square a figure could stand on with no figure or blip on the board (not
    #: solid); for aliens also not in a docking claw.
    open_squares: bytes
    alien_open_squares: bytes

    def __init__(
        self,
        *,
        width: int,
        height: int,
        kinds: Sequence[SquareKind],
        walls: Iterable[Edge] = (),
        doors: Iterable[Door] = (),
        sections: Iterable[Section] = (),
        claws: Iterable[DockingClaw] = (),
        reinforcement_squares: Iterable[Square] = (),
        markers: Mapping[Square, str] | None = None,
        flag_spots: Iterable[Square] = (),
        name: str = "",
        title: str = "",
        description: str = "",
        translations: Mapping[str, str] | None = None,
    ) -> None:
        s = object.__setattr__
        if width < 1 or height < 1:
            raise BoardError(f"a board needs at least one square, got {width}x{height}")
        kinds = tuple(SquareKind(k) for k in kinds)
        if len(kinds) != width * height:
            raise BoardError(f"{width}x{height} board needs {width * height} square kinds")
        s(self, "name", name)
        s(self, "title", title)
        s(self, "description", description)
        translations = dict(translations or {})
        unknown = sorted(set(translations) - set(TRANSLATED_TEXTS))
        if unknown:
            raise BoardError(
                f"unknown map text {', '.join(unknown)}; use {', '.join(TRANSLATED_TEXTS)}"
            )
        s(self, "translations", MappingProxyType(translations))
        s(self, "width", width)
        s(self, "height", height)
        s(self, "kinds", kinds)
        s(self, "walls", frozenset(self._checked_edge(e, "wall") for e in walls))
        door_map: dict[Edge, Door] = {}
        for door in doors:
            e = self._checked_edge(door.edge, "door")
            if e in door_map:
                raise BoardError(f"two doors on the edge {_edge_text(e)}")
            if e in self.walls:
                raise BoardError(f"the edge {_edge_text(e)} has both a wall and a door")
            if door.always_open and door.state is not DoorState.OPEN:
                raise BoardError(f"always-open door {_edge_text(e)} must start open")
            door_map[e] = Door(e, DoorState(door.state), door.always_open)
        s(self, "doors", dict(sorted(door_map.items())))
        s(self, "start_door_states", {e: d.state for e, d in self.doors.items()})
        s(self, "door_edges", tuple(self.doors))
        s(self, "door_slot", {e: i for i, e in enumerate(self.door_edges)})
        s(self, "sections", tuple(sections))
        s(self, "claws", tuple(claws))
        s(self, "reinforcement_squares", frozenset(reinforcement_squares))
        s(self, "markers", dict(sorted((markers or {}).items())))
        s(self, "flag_spots", tuple(flag_spots))
        self._check_special_squares()
        self._build_tables()

    def __setattr__(self, key: str, value: object) -> None:
        raise AttributeError("a Board is immutable")

    def title_in(self, lang: str) -> str:
        """The title in ``lang`` when the map gives one, else the English title."""
        return self.translations.get(f"title.{lang}") or self.title

    def description_in(self, lang: str) -> str:
        """The description in ``lang`` when the map gives one, else the English one."""
        return self.translations.get(f"description.{lang}") or self.description

    def __repr__(self) -> str:
        return f"Board({self.name!r}, {self.width}x{self.height})"

    # -- validation -------------------------------------------------------------------

    def _checked_edge(self, e: Edge, what: str) -> Edge:
        a: Square = (e[0][0], e[0][1])
        b: Square = (e[1][0], e[1][1])
        if not (self.in_bounds(a) and self.in_bounds(b)):
            raise BoardError(f"{what} {_edge_text((a, b))} lies outside the board")
        if not is_orthogonally_adjacent(a, b):
            raise BoardError(f"{what} {_edge_text((a, b))} is not between adjacent squares")
        return edge(a, b)

    def _check_special_squares(self) -> None:
        seen_sections: dict[Square, str] = {}
        ids = set()
        for section in self.sections:
            if section.id in ids:
                raise BoardError(f"section id {section.id!r} is used twice")
            ids.add(section.id)
            for sq in section.squares():
                if not self.in_bounds(sq):
                    raise BoardError(f"section {section.id} reaches outside the board at {sq}")
                if sq in seen_sections:
                    raise BoardError(
                        f"square {format_square(sq)} is in sections "
                        f"{seen_sections[sq]} and {section.id}"
                    )
                seen_sections[sq] = section.id
        claw_ids = set()
        for claw in self.claws:
            if claw.id in claw_ids:
                raise BoardError(f"docking claw id {claw.id!r} is used twice")
            claw_ids.add(claw.id)
            for sq in claw.squares:
                self._check_open_square(sq, f"docking claw {claw.id}")
        for sq in self.reinforcement_squares:
            self._check_open_square(sq, "reinforcement square")
        for sq in self.markers:
            self._check_open_square(sq, "alien marker")
        for sq in self.flag_spots:
            self._check_open_square(sq, "flag spot")

    def _check_open_square(self, sq: Square, what: str) -> None:
        if not self.in_bounds(sq):
            raise BoardError(f"{what} at {format_square(sq)} lies outside the board")
        if self.kinds[sq[0] + sq[1] * self.width] is SquareKind.SOLID:
            raise BoardError(f"{what} at {format_square(sq)} is on a solid square")

    # -- precomputed tables -----------------------------------------------------------

    def _build_tables(self) -> None:
        s = object.__setattr__
        w, h = self.width, self.height
        n = w * h
        solid = bytes(1 if k is SquareKind.SOLID else 0 for k in self.kinds)
        s(self, "solid", solid)
        # The square of each index, built once so tables can hand out shared tuples.
        s(self, "square_at", tuple((i % w, i // w) for i in range(n)))
        section_index: list[str | None] = [None] * n
        for section in self.sections:
            for x, y in section.squares():
                section_index[x + y * w] = section.id
        s(self, "section_index", tuple(section_index))
        claw_index: list[str | None] = [None] * n
        for claw in self.claws:
            for x, y in claw.squares:
                claw_index[x + y * w] = claw.id
        s(self, "claw_index", tuple(claw_index))

        # Edge ids: east edge of square i is i, south edge of square i is n + i.
        feature = bytearray(2 * n)
        slot = [-1] * (2 * n)
        for a, b in self.walls:
            feature[self._edge_id(a, b)] = EDGE_WALL
        for i, e in enumerate(self.door_edges):
            eid = self._edge_id(*e)
            feature[eid] = EDGE_DOOR
            slot[eid] = i
        s(self, "edge_feature", bytes(feature))
        s(self, "edge_slot", tuple(slot))
        s(self, "wall_edges", bytes(1 if f == EDGE_WALL else 0 for f in feature))
        s(self, "door_edge_ids", tuple(self._edge_id(*e) for e in self.door_edges))

        steps: list[tuple[tuple[int, int], ...]] = []
        orth_steps: list[tuple[tuple[int, int], ...]] = []
        for y in range(h):
            for x in range(w):
                i = x + y * w
                orth: list[tuple[int, int]] = []
                diag: list[tuple[int, int]] = []
                if not solid[i]:
                    for dx, dy in ORTHOGONAL:
                        nx, ny = x + dx, y + dy
                        if not (0 <= nx < w and 0 <= ny < h) or solid[nx + ny * w]:
                            continue
                        eid = self._edge_id((x, y), (nx, ny))
                        if feature[eid] == EDGE_WALL:
                            continue
                        orth.append((nx + ny * w, slot[eid]))
                    for dx, dy in DIAGONAL:
                        nx, ny = x + dx, y + dy
                        if not (0 <= nx < w and 0 <= ny < h):
                            continue
                        if solid[nx + ny * w] or solid[nx + y * w] or solid[x + ny * w]:
                            continue
                        corner = (
                            self._edge_id((x, y), (nx, y)),
                            self._edge_id((nx, y), (nx, ny)),
                            self._edge_id((x, y), (x, ny)),
                            self._edge_id((x, ny), (nx, ny)),
                        )
                        if any(feature[c] != EDGE_FREE for c in corner):
                            continue
                        diag.append((nx + ny * w, -1))
                orth_steps.append(tuple(orth))
                steps.append(tuple(orth + diag))
        s(self, "steps", tuple(steps))
        s(self, "orth_steps", tuple(orth_steps))

        # Dreadnought: a position is named by its top-left square. dread_doors[i] is None
        # when the 2x2 block cannot stand there, else the door slots under the block (a
        # non-empty tuple means crouched in a doorway: it may pass but never stop there).
        dread_doors: list[tuple[int, ...] | None] = [None] * n
        for y in range(h - 1):
            for x in range(w - 1):
                dread_doors[x + y * w] = self._dread_position(x, y, feature, slot, solid)
        s(self, "dread_doors", tuple(dread_doors))
        dread_steps: list[tuple[int, ...]] = []
        for y in range(h):
            for x in range(w):
                i = x + y * w
                out: list[int] = []
                if dread_doors[i] is not None:
                    for dx, dy in ORTHOGONAL:
                        nx, ny = x + dx, y + dy
                        if 0 <= nx < w - 1 and 0 <= ny < h - 1:
                            j = nx + ny * w
                            if dread_doors[j] is not None:
                                out.append(j)
                dread_steps.append(tuple(out))
        s(self, "dread_steps", tuple(dread_steps))
        s(self, "dread_positions", tuple(i for i, d in enumerate(dread_doors) if d is not None))
        door_steps = {
            (i, j): self.door_edges[slot]
            for i, here in enumerate(steps)
            for j, slot in here
            if slot >= 0
        }
        s(self, "door_steps", door_steps)
        s(self, "open_squares", bytes(1 - solid_i for solid_i in solid))
        s(
            self,
            "alien_open_squares",
            bytes(
                0 if solid_i or claw is not None else 1
                for solid_i, claw in zip(solid, claw_index, strict=True)
            ),
        )

    def _dread_position(
        self, x: int, y: int, feature: bytearray, slot: list[int], solid: bytes
    ) -> tuple[int, ...] | None:
        w = self.width
        if any(solid[sx + sy * w] for sx, sy in ((x, y), (x + 1, y), (x, y + 1), (x + 1, y + 1))):
            return None
        lines = (
            (self._edge_id((x, y), (x + 1, y)), self._edge_id((x, y + 1), (x + 1, y + 1))),
            (self._edge_id((x, y), (x, y + 1)), self._edge_id((x + 1, y), (x + 1, y + 1))),
        )
        doors: list[int] = []
        for line in lines:
            kinds = [feature[e] for e in line]
            if EDGE_DOOR in kinds:
                doors.extend(slot[e] for e in line if feature[e] == EDGE_DOOR)
            elif EDGE_WALL in kinds:
                return None
        return tuple(sorted(doors))

    def _edge_id(self, a: Square, b: Square) -> int:
        (ax, ay), (bx, by) = (a, b) if a < b else (b, a)
        n = self.width * self.height
        if ay == by:
            return ax + ay * self.width
        return n + ax + ay * self.width

    # -- queries ------------------------------------------------------------------------

    def in_bounds(self, sq: Square) -> bool:
        return 0 <= sq[0] < self.width and 0 <= sq[1] < self.height

    def index(self, sq: Square) -> int:
        """Flat index ``x + y * width`` used by the precomputed tables."""
        return sq[0] + sq[1] * self.width

    def square(self, index: int) -> Square:
        return (index % self.width, index // self.width)

    def squares(self) -> Iterable[Square]:
        for y in range(self.height):
            for x in range(self.width):
                yield (x, y)

    def kind(self, sq: Square) -> SquareKind:
        self._require(sq)
        return self.kinds[sq[0] + sq[1] * self.width]

    def is_solid(self, sq: Square) -> bool:
        """True for solid squares and for squares off the board."""
        x, y = sq
        w = self.width
        return not (0 <= x < w and 0 <= y < self.height) or self.solid[x + y * w] == 1

    def section_of(self, sq: Square) -> str | None:
        self._require(sq)
        return self.section_index[sq[0] + sq[1] * self.width]

    def section(self, section_id: str) -> Section:
        for section in self.sections:
            if section.id == section_id:
                return section
        raise KeyError(f"no section {section_id!r} on map {self.name!r}")

    def claw_of(self, sq: Square) -> str | None:
        """The id of the docking claw ``sq`` belongs to, or None."""
        self._require(sq)
        return self.claw_index[sq[0] + sq[1] * self.width]

    def claw(self, claw_id: str) -> DockingClaw:
        for claw in self.claws:
            if claw.id == claw_id:
                return claw
        raise KeyError(f"no docking claw {claw_id!r} on map {self.name!r}")

    def marker(self, sq: Square) -> str | None:
        """The alien type marked on ``sq`` by the session map, or None."""
        return self.markers.get(sq)

    def has_wall(self, a: Square, b: Square) -> bool:
        """True if a wall (or the board's outer edge) separates orthogonal neighbours."""
        if not (self.in_bounds(a) and self.in_bounds(b)):
            return True
        return self.edge_feature[self._edge_id(a, b)] == EDGE_WALL

    def door_at(self, a: Square, b: Square) -> Door | None:
        if not is_orthogonally_adjacent(a, b):
            return None
        return self.doors.get(edge(a, b))

    def initial_door_states(self) -> dict[Edge, DoorState]:
        """A new dict of each door's state at the start (every new door table of a state
        starts from one)."""
        return self.start_door_states.copy()

    def edge_open(
        self, a: Square, b: Square, doors: Mapping[Edge, DoorState] | None = None
    ) -> bool:
        """True if ``a`` and ``b`` are orthogonal neighbours on the board with no wall and no
        closed door or standing bulkhead between them. ``doors`` gives the current door
        states (default: the map's starting states)."""
        (ax, ay), (bx, by) = a, b
        w, h = self.width, self.height
        if not (0 <= ax < w and 0 <= ay < h and 0 <= bx < w and 0 <= by < h):
            return False
        if not is_orthogonally_adjacent(a, b):
            return False
        eid = self._edge_id(a, b)
        feat = self.edge_feature[eid]
        if feat == EDGE_FREE:
            return True
        if feat == EDGE_WALL:
            return False
        e = edge(a, b)
        state = doors[e] if doors is not None and e in doors else self.doors[e].state
        return state.passable

    def _require(self, sq: Square) -> None:
        if not self.in_bounds(sq):
            raise BoardError(
                f"square {format_square(sq)} is outside the {self.width}x{self.height} board"
            )


def _edge_text(e: Edge) -> str:
    return f"{format_square(e[0])}|{format_square(e[1])}"
