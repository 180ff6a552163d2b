"""Session maps: the human-editable text format, its validator, and the JSON form.

The text format is described in ``docs/maps.md``. In short: an optional header of
``key: value`` lines, then a drawing where every square is two characters wide and the
characters *between* squares are the edges (walls and doors), then a legend naming the
sections, alien marker letters and docking claws::

    name: tiny
    +--+--+--+
    |.  .o|: |
    +  +DD+--+
    |.1 .R .F|
    +--+--+--+

    section A board 0,0 2,1 Only section
    marker o ork

Every problem is reported with its line and column (both counted from 1) so a map can be
fixed in a text editor. Maps bundled with the engine live in ``rules/engine/maps/``.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .board import (
    TRANSLATED_TEXTS,
    Board,
    BoardError,
    DockingClaw,
    Door,
    DoorState,
    Section,
    SectionKind,
    SquareKind,
)
from .caches import declare
from .geometry import Edge, Square, edge
from .narration_tools import map_problem_text
from .units import load_rules_data

MAPS_DIR = Path(__file__).with_name("maps")
MAP_FORMAT = "bob-map/1"

KIND_CHARS: dict[str, SquareKind] = {
    ".": SquareKind.CORRIDOR,
    ":": SquareKind.ROOM,
    "#": SquareKind.SOLID,
}
KIND_TO_CHAR = {kind: char for char, kind in KIND_CHARS.items()}

#: Edge characters for doors (the same letter on vertical and horizontal edges).
DOOR_CHARS: dict[str, tuple[DoorState, bool]] = {
    "D": (DoorState.CLOSED, False),
    "O": (DoorState.OPEN, False),
    "B": (DoorState.BULKHEAD, False),
    "X": (DoorState.DESTROYED, False),
    "A": (DoorState.OPEN, True),
}
DOOR_STATE_CHARS: dict[DoorState, str] = {
    state: char for char, (state, always) in DOOR_CHARS.items() if not always
}
CORNER_CHARS = "+ -|"
HEADER_KEYS = ("name", "title", "description", *TRANSLATED_TEXTS)
_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]*$")
_SECTION_ID = re.compile(r"^[A-Za-z0-9_]+$")
_ALIEN = re.compile(r"^[a-z0-9_:-]+$")
_COORD = re.compile(r"^(\d+),(\d+)$")


def alien_types() -> tuple[str, ...]:
    """The alien types a marker may name: the aliens of the shipped unit data (a marker
    of another type would be revealed as nothing the rules know)."""
    rules = load_rules_data()
    return tuple(sorted(key for key, unit in rules.units.items() if unit.side == "alien"))


@dataclass(frozen=True)
class MapProblem:
    """A problem of a map drawing at a line and column: a code of
    :data:`rules.engine.narration_tools.MAP_PROBLEMS` and its params."""

    line: int
    column: int
    code: str
    params: Mapping[str, Any] = field(default_factory=dict, hash=False)

    @property
    def message(self) -> str:
        """The problem in English."""
        return map_problem_text(self.code, dict(self.params), "en")

    def text_in(self, lang: str) -> str:
        """The problem with its line and column, in ``lang`` ("it" or "en")."""
        message = map_problem_text(self.code, dict(self.params), lang)
        where = {"line": self.line, "column": self.column, "message": message}
        return map_problem_text("where", where, lang)

    def __str__(self) -> str:
        return self.text_in("en")


class MapError(ValueError):
    """A map text or JSON has problems; ``problems`` lists every one of them."""

    def __init__(self, problems: list[MapProblem], source: str = "map") -> None:
        self.problems = problems
        self.source = source
        lines = "\n".join(f"{source}: {p}" for p in problems)
        super().__init__(lines)


# -- text -> Board ----------------------------------------------------------------------


#: A drawn square: (kind character, marker character, line index, column index).
_Cells = dict[Square, tuple[str, str, int, int]]
#: A drawn edge that is not empty: (character, line index, column index).
_Edges = dict[Edge, tuple[str, int, int]]


class _Parser:
    def __init__(self, text: str, source: str) -> None:
        self.lines = text.splitlines()
        self.source = source
        self.problems: list[MapProblem] = []

    def problem(self, line_index: int, column_index: int, code: str, **params: Any) -> None:
        self.problems.append(MapProblem(line_index + 1, column_index + 1, code, params))

    def parse(self) -> Board:
        header: dict[str, str] = {}
        i = 0
        lines = self.lines
        while i < len(lines) and not lines[i].startswith("+"):
            self._header_line(i, header)
            i += 1
        if i == len(lines):
            self.problem(max(len(lines) - 1, 0), 0, "no_drawing")
            raise MapError(self.problems, self.source)
        start = i
        while i < len(lines) and lines[i].strip():
            i += 1
        grid = [line.rstrip() for line in lines[start:i]]
        legend_start = i
        cells, edges, width, height = self._grid(grid, start)
        legend = self._legend(legend_start)
        if not width:
            raise MapError(self.problems, self.source)
        board = self._build(header, cells, edges, width, height, legend, start)
        if self.problems:
            raise MapError(self.problems, self.source)
        return board

    def _header_line(self, i: int, header: dict[str, str]) -> None:
        line = self.lines[i]
        if not line.strip() or line.lstrip().startswith("#"):
            return
        key, sep, value = line.partition(":")
        key = key.strip()
        if not sep or key not in HEADER_KEYS:
            self.problem(
                i,
                0,
                "header_line",
                got_repr=repr(line.strip()),
            )
            return
        if key in header:
            self.problem(i, 0, "header_twice", key=key)
        value = value.strip()
        if key == "name" and not _NAME.match(value):
            self.problem(
                i,
                line.index(":") + 1,
                "bad_name",
            )
        header[key] = value

    def _grid(self, grid: list[str], start: int) -> tuple[_Cells, _Edges, int, int]:
        first = grid[0]
        if (len(first) - 1) % 3 or len(first) < 4:
            self.problem(
                start,
                len(first) - 1,
                "first_line",
                length=len(first),
            )
            return {}, {}, 0, 0
        width = (len(first) - 1) // 3
        if len(grid) % 2 == 0 or len(grid) < 3:
            self.problem(
                start + len(grid) - 1,
                0,
                "line_count",
                count=len(grid),
            )
            return {}, {}, 0, 0
        height = (len(grid) - 1) // 2
        cells: _Cells = {}
        edges: _Edges = {}
        for r, raw in enumerate(grid):
            li = start + r
            if len(raw) > 3 * width + 1:
                self.problem(
                    li,
                    3 * width + 1,
                    "line_too_long",
                    length=3 * width + 1,
                )
            line = raw.ljust(3 * width + 1)
            if r % 2 == 0:
                self._edge_line(line, li, r // 2, width, height, edges)
            else:
                self._cell_line(line, li, r // 2, width, cells, edges)
        return cells, edges, width, height

    def _edge_line(
        self, line: str, li: int, y: int, width: int, height: int, edges: _Edges
    ) -> None:
        boundary = y == 0 or y == height
        for x in range(width + 1):
            c = line[3 * x]
            if c not in CORNER_CHARS:
                self.problem(li, 3 * x, "bad_corner", got_repr=repr(c))
        for x in range(width):
            pair = line[3 * x + 1 : 3 * x + 3]
            if pair[0] != pair[1]:
                self.problem(
                    li,
                    3 * x + 1,
                    "edge_mismatch",
                    got_repr=repr(pair),
                )
                continue
            c = pair[0]
            if c not in " -" and c not in DOOR_CHARS:
                self.problem(
                    li,
                    3 * x + 1,
                    "unknown_edge_row",
                    got_repr=repr(pair),
                )
                continue
            if boundary:
                if c in DOOR_CHARS:
                    self.problem(li, 3 * x + 1, "outer_door")
                continue
            if c != " ":
                edges[edge((x, y - 1), (x, y))] = (c, li, 3 * x + 1)

    def _cell_line(
        self, line: str, li: int, y: int, width: int, cells: _Cells, edges: _Edges
    ) -> None:
        for x in range(width + 1):
            col = 3 * x
            c = line[col]
            if x in (0, width):
                if c not in " |":
                    if c in DOOR_CHARS:
                        self.problem(li, col, "outer_door")
                    else:
                        self.problem(li, col, "outer_edge", got_repr=repr(c))
            elif c == "|" or c in DOOR_CHARS:
                edges[edge((x - 1, y), (x, y))] = (c, li, col)
            elif c != " ":
                self.problem(
                    li,
                    col,
                    "unknown_edge_column",
                    got_repr=repr(c),
                )
            if x < width:
                kind, feature = line[col + 1], line[col + 2]
                cells[(x, y)] = (kind, feature, li, col + 1)

    def _legend(self, i: int) -> dict[str, Any]:
        legend: dict[str, Any] = {"sections": {}, "markers": {}, "claws": {}}
        for li in range(i, len(self.lines)):
            words = self.lines[li].split()
            if not words or words[0].startswith("#"):
                continue
            head = words[0]
            if head == "section":
                self._legend_section(li, words, legend["sections"])
            elif head == "marker":
                if len(words) != 3 or len(words[1]) != 1 or not words[1].islower():
                    self.problem(li, 0, "marker_usage")
                elif not _ALIEN.match(words[2]):
                    self.problem(li, len("marker x "), "bad_alien", got_repr=repr(words[2]))
                elif words[2] not in alien_types():
                    self.problem(
                        li,
                        len("marker x "),
                        "unknown_alien",
                        got_repr=repr(words[2]),
                        known=", ".join(alien_types()),
                    )
                elif words[1] in legend["markers"]:
                    self.problem(li, 7, "marker_twice", got_repr=repr(words[1]))
                else:
                    legend["markers"][words[1]] = words[2]
            elif head == "claw":
                if len(words) < 2 or len(words[1]) != 1 or not "1" <= words[1] <= "9":
                    self.problem(li, 0, "claw_usage")
                elif words[1] in legend["claws"]:
                    self.problem(li, 5, "claw_twice", claw=words[1])
                else:
                    legend["claws"][words[1]] = " ".join(words[2:])
            else:
                self.problem(
                    li,
                    0,
                    "legend_line",
                    got_repr=repr(head),
                )
        return legend

    def _legend_section(self, li: int, words: list[str], sections: dict) -> None:
        if len(words) < 5:
            self.problem(li, 0, "section_usage")
            return
        sid, kind, a, b = words[1:5]
        line = self.lines[li]
        if not _SECTION_ID.match(sid):
            self.problem(li, line.index(sid), "bad_section_id", got_repr=repr(sid))
            return
        if kind not in ("board", "tile"):
            self.problem(li, line.index(kind), "section_kind", got_repr=repr(kind))
            return
        ma, mb = _COORD.match(a), _COORD.match(b)
        if not ma or not mb:
            self.problem(li, line.index(a), "section_corners")
            return
        x0, y0, x1, y1 = int(ma[1]), int(ma[2]), int(mb[1]), int(mb[2])
        if x0 > x1 or y0 > y1:
            self.problem(li, line.index(a), "section_top_left")
            return
        entry = sections.setdefault(sid, {"kind": kind, "name": "", "rects": [], "line": li})
        if entry["kind"] != kind:
            self.problem(
                li, line.index(kind), "section_kind_changed", section=sid, kind=entry["kind"]
            )
            return
        if len(words) > 5 and not entry["name"]:
            entry["name"] = " ".join(words[5:])
        entry["rects"].append(((x0, y0, x1, y1), li, line.index(a)))

    def _build(
        self,
        header: dict[str, str],
        cells: _Cells,
        edges: _Edges,
        width: int,
        height: int,
        legend: dict[str, Any],
        start: int,
    ) -> Board:
        kinds: list[SquareKind] = []
        reinforcements: list[Square] = []
        flags: list[Square] = []
        markers: dict[Square, str] = {}
        claw_squares: dict[str, list[Square]] = {}
        for y in range(height):
            for x in range(width):
                kind_char, feature, li, col = cells[(x, y)]
                kind = KIND_CHARS.get(kind_char)
                if kind is None:
                    self.problem(
                        li,
                        col,
                        "unknown_square",
                        got_repr=repr(kind_char),
                    )
                    kind = SquareKind.CORRIDOR
                kinds.append(kind)
                if kind is SquareKind.SOLID:
                    if feature not in " #":
                        self.problem(li, col + 1, "solid_marker")
                    continue
                if feature == " ":
                    continue
                if feature == "R":
                    reinforcements.append((x, y))
                elif feature == "F":
                    flags.append((x, y))
                elif "1" <= feature <= "9":
                    claw_squares.setdefault(feature, []).append((x, y))
                elif feature.islower() and feature in legend["markers"]:
                    markers[(x, y)] = legend["markers"][feature]
                elif feature.islower():
                    self.problem(
                        li,
                        col + 1,
                        "marker_not_in_legend",
                        got_repr=repr(feature),
                        letter=feature,
                    )
                else:
                    self.problem(
                        li,
                        col + 1,
                        "unknown_marker",
                        got_repr=repr(feature),
                    )
        for digit in legend["claws"]:
            if digit not in claw_squares:
                self.problem(start, 0, "claw_not_drawn", claw=digit)
        claws = [
            DockingClaw(d, legend["claws"].get(d, "") or f"Claw {d}", tuple(sorted(sqs)))
            for d, sqs in sorted(claw_squares.items())
        ]
        claw_set = {sq for sqs in claw_squares.values() for sq in sqs}
        sections = self._sections(legend["sections"], kinds, width, height, claw_set, cells)
        section_at = {sq: s.id for s in sections for sq in s.squares()}
        walls: list[Edge] = []
        doors: list[Door] = []
        for e, (c, li, col) in sorted(edges.items()):
            if c in "|-":
                walls.append(e)
                continue
            state, always_open = DOOR_CHARS[c]
            if any(kinds[sq[0] + sq[1] * width] is SquareKind.SOLID for sq in e):
                self.problem(li, col, "door_on_solid")
            if always_open and section_at.get(e[0]) == section_at.get(e[1]):
                self.problem(
                    li,
                    col,
                    "always_open_inside",
                )
            doors.append(Door(e, state, always_open))
        if self.problems:
            raise MapError(self.problems, self.source)
        try:
            return Board(
                width=width,
                height=height,
                kinds=kinds,
                walls=walls,
                doors=doors,
                sections=sections,
                claws=claws,
                reinforcement_squares=reinforcements,
                markers=markers,
                flag_spots=flags,
                name=header.get("name", ""),
                title=header.get("title", ""),
                description=header.get("description", ""),
                translations={k: header[k] for k in TRANSLATED_TEXTS if header.get(k)},
            )
        except BoardError as exc:
            self.problem(start, 0, "board", detail=str(exc))
            raise MapError(self.problems, self.source) from exc

    def _sections(
        self,
        declared: dict[str, Any],
        kinds: list[SquareKind],
        width: int,
        height: int,
        claw_set: set[Square],
        cells: _Cells,
    ) -> list[Section]:
        if not declared:
            return [Section("A", SectionKind.BOARD, "", ((0, 0, width - 1, height - 1),))]
        owner: dict[Square, str] = {}
        sections = []
        for sid, entry in declared.items():
            for (x0, y0, x1, y1), li, col in entry["rects"]:
                if x1 >= width or y1 >= height:
                    self.problem(
                        li,
                        col,
                        "section_outside",
                        section=sid,
                        x=x1,
                        y=y1,
                        width=width,
                        height=height,
                    )
                    continue
                for y in range(y0, y1 + 1):
                    for x in range(x0, x1 + 1):
                        if (x, y) in owner and owner[(x, y)] != sid:
                            self.problem(
                                li,
                                col,
                                "section_overlap",
                                section=sid,
                                other=owner[(x, y)],
                                x=x,
                                y=y,
                            )
                            return []
                        owner[(x, y)] = sid
            sections.append(
                Section(
                    sid,
                    SectionKind(entry["kind"]),
                    entry["name"],
                    tuple(rect for rect, _, _ in entry["rects"]),
                )
            )
        for y in range(height):
            for x in range(width):
                sq = (x, y)
                if kinds[x + y * width] is SquareKind.SOLID or sq in claw_set or sq in owner:
                    continue
                _, _, li, col = cells[sq]
                self.problem(
                    li,
                    col,
                    "square_without_section",
                    x=x,
                    y=y,
                )
        return sections


def parse_map(text: str, source: str = "map") -> Board:
    """Read a map drawing; raises :class:`MapError` listing every problem found."""
    return _Parser(text, source).parse()


def validate_map_text(text: str, source: str = "map") -> list[MapProblem]:
    """Every problem of a map drawing (empty when the map is valid)."""
    try:
        parse_map(text, source)
    except MapError as exc:
        return exc.problems
    return []


# -- Board -> text ----------------------------------------------------------------------


def board_to_text(board: Board) -> str:
    """Draw a board in the text format; ``parse_map`` reads it back to an equal board."""
    letters = _marker_letters(board)
    out: list[str] = []
    for key in HEADER_KEYS:
        value = board.translations.get(key) if key in TRANSLATED_TEXTS else getattr(board, key)
        if value:
            out.append(f"{key}: {value}")
    if out:
        out.append("")
    for claw in board.claws:
        if len(claw.id) != 1 or not "1" <= claw.id <= "9":
            raise MapError([MapProblem(1, 1, f"claw id {claw.id!r} cannot be drawn: use 1-9")])
    out.extend(draw_grid(board))
    out.append("")
    for section in board.sections:
        for i, (x0, y0, x1, y1) in enumerate(section.rects):
            name = f" {section.name}" if section.name and i == 0 else ""
            out.append(f"section {section.id} {section.kind.value} {x0},{y0} {x1},{y1}{name}")
    for alien, letter in letters.items():
        out.append(f"marker {letter} {alien}")
    for claw in board.claws:
        out.append(f"claw {claw.id} {claw.name}".rstrip())
    return "\n".join(out) + "\n"


def draw_grid(
    board: Board,
    doors: Mapping[Edge, DoorState] | None = None,
    cells: Callable[[Square], str | None] | None = None,
) -> list[str]:
    """The drawing lines of a board. ``doors`` overrides door states (a game state's
    current doors); ``cells`` may return two characters to draw on a square instead of
    its map contents (figures, blips), or None to keep them."""
    w, h = board.width, board.height
    letters = _marker_letters(board)
    claw_at = {sq: claw.id for claw in board.claws for sq in claw.squares}
    flags = set(board.flag_spots)
    out: list[str] = []

    def horizontal(y: int) -> str:
        parts = ["+"]
        for x in range(w):
            if y in (0, h):
                parts.append("--")
            else:
                parts.append(_edge_char(board, (x, y - 1), (x, y), "-", doors) * 2)
            parts.append("+")
        return "".join(parts)

    for y in range(h):
        out.append(horizontal(y))
        parts = ["|"]
        for x in range(w):
            sq = (x, y)
            kind = board.kinds[x + y * w]
            drawn = cells(sq) if cells is not None else None
            if drawn is not None:
                parts.append(drawn)
            else:
                if kind is SquareKind.SOLID:
                    feature = "#"
                elif sq in board.reinforcement_squares:
                    feature = "R"
                elif sq in flags:
                    feature = "F"
                elif sq in claw_at:
                    feature = claw_at[sq][0]
                elif sq in board.markers:
                    feature = letters[board.markers[sq]]
                else:
                    feature = " "
                parts.append(KIND_TO_CHAR[kind] + feature)
            parts.append("|" if x == w - 1 else _edge_char(board, sq, (x + 1, y), "|", doors))
        out.append("".join(parts))
    out.append(horizontal(h))
    return out


def _edge_char(
    board: Board, a: Square, b: Square, wall: str, doors: Mapping[Edge, DoorState] | None
) -> str:
    door = board.door_at(a, b)
    if door is not None:
        if door.always_open:
            return "A"
        state = doors.get(door.edge, door.state) if doors is not None else door.state
        return DOOR_STATE_CHARS[state]
    return wall if board.has_wall(a, b) else " "


#: Letters used when drawing markers of the usual alien types (others get a free letter).
MARKER_LETTERS: dict[str, str] = {
    "ork": "o",
    "gretchin": "g",
    "android": "a",
    "chaos_marine": "c",
    "chaos_marine_heavy": "h",
    "chaos_commander": "k",
    "genestealer": "s",
    "dreadnought": "d",
}


def _marker_letters(board: Board) -> dict[str, str]:
    aliens = sorted(set(board.markers.values()))
    if len(aliens) > 26:
        raise MapError([MapProblem(1, 1, "more than 26 alien types cannot be drawn")])
    letters: dict[str, str] = {}
    used: set[str] = set()
    for alien in aliens:
        if alien in MARKER_LETTERS:
            letters[alien] = MARKER_LETTERS[alien]
            used.add(MARKER_LETTERS[alien])
    for alien in aliens:
        if alien not in letters:
            candidates = [c for c in alien if "a" <= c <= "z"] + list("abcdefghijklmnopqrstuvwxyz")
            letter = next(c for c in candidates if c not in used)
            used.add(letter)
            letters[alien] = letter
    return letters


# -- Board <-> JSON ---------------------------------------------------------------------


def board_to_json(board: Board) -> dict[str, Any]:
    """The map as plain JSON data (see ``docs/maps.md`` and the state schema's ``map``)."""
    w = board.width
    rows = [
        "".join(KIND_TO_CHAR[board.kinds[x + y * w]] for x in range(w)) for y in range(board.height)
    ]
    return {
        "format": MAP_FORMAT,
        "name": board.name,
        "title": board.title,
        "description": board.description,
        **({"translations": dict(board.translations)} if board.translations else {}),
        "width": board.width,
        "height": board.height,
        "squares": rows,
        "walls": [[list(a), list(b)] for a, b in sorted(board.walls)],
        "doors": [
            {
                "between": [list(d.edge[0]), list(d.edge[1])],
                "state": d.state.value,
                "always_open": d.always_open,
            }
            for d in board.doors.values()
        ],
        "sections": [
            {"id": s.id, "kind": s.kind.value, "name": s.name, "rects": [list(r) for r in s.rects]}
            for s in board.sections
        ],
        "claws": [
            {"id": c.id, "name": c.name, "squares": [list(sq) for sq in c.squares]}
            for c in board.claws
        ],
        "reinforcements": [list(sq) for sq in sorted(board.reinforcement_squares)],
        "markers": [{"square": list(sq), "alien": a} for sq, a in board.markers.items()],
        "flags": [list(sq) for sq in board.flag_spots],
    }


def board_from_json(data: dict[str, Any]) -> Board:
    """Build a board from its JSON form. The caller validates the JSON against the schema
    first (``state.validate_map_json`` does); consistency errors raise :class:`BoardError`."""
    width, height = data["width"], data["height"]
    rows = data["squares"]
    if len(rows) != height or any(len(row) != width for row in rows):
        raise BoardError(f"'squares' must be {height} rows of {width} characters")
    kinds = []
    for y, row in enumerate(rows):
        for x, c in enumerate(row):
            if c not in KIND_CHARS:
                raise BoardError(f"square {x},{y}: unknown kind {c!r} (use '.', ':' or '#')")
            kinds.append(KIND_CHARS[c])
    return Board(
        width=width,
        height=height,
        kinds=kinds,
        walls=[(tuple(a), tuple(b)) for a, b in data.get("walls", [])],
        doors=[
            Door(
                (tuple(d["between"][0]), tuple(d["between"][1])),
                DoorState(d["state"]),
                d.get("always_open", False),
            )
            for d in data.get("doors", [])
        ],
        sections=[
            Section(
                s["id"],
                SectionKind(s["kind"]),
                s.get("name", ""),
                tuple(tuple(r) for r in s["rects"]),
            )
            for s in data.get("sections", [])
        ],
        claws=[
            DockingClaw(c["id"], c.get("name", ""), tuple(tuple(sq) for sq in c["squares"]))
            for c in data.get("claws", [])
        ],
        reinforcement_squares=[tuple(sq) for sq in data.get("reinforcements", [])],
        markers={tuple(m["square"]): m["alien"] for m in data.get("markers", [])},
        flag_spots=[tuple(sq) for sq in data.get("flags", [])],
        name=data.get("name", ""),
        title=data.get("title", ""),
        description=data.get("description", ""),
        translations=data.get("translations", {}),
    )


# -- bundled maps -----------------------------------------------------------------------


def bundled_maps() -> list[str]:
    """Names of the maps shipped in ``rules/engine/maps/``."""
    return sorted(p.stem for p in MAPS_DIR.glob("*.txt"))


def _map_path(name_or_path: str | Path) -> Path:
    path = Path(name_or_path)
    if not path.suffix:
        path = MAPS_DIR / f"{name_or_path}.txt"
        if not path.exists():
            known = ", ".join(bundled_maps())
            raise FileNotFoundError(f"no bundled map {name_or_path!r}; known maps: {known}")
    return path


def bundled_map_text(name: str) -> str:
    """The drawing of the bundled map ``name`` (FileNotFoundError: no such map)."""
    return _map_path(name).read_text(encoding="utf-8")


def load_map(name_or_path: str | Path) -> Board:
    """A bundled map by name (e.g. ``"reference"``) or a map file by path (a new board)."""
    path = _map_path(name_or_path)
    return parse_map(path.read_text(encoding="utf-8"), source=path.name)


# -- boards shared by content -----------------------------------------------------------

#: Boards by a hash of the map's content. A board never changes, and the engine's tables
#: keyed by the board (sight lines, distances, open steps...) live as long as it does, so
#: every state parsed from the same map, in any request, shares one board and its tables.
_BOARDS = declare(
    "maps.boards",
    bound=32,
    depends_on="the map's content (a hash of its file's text or of its JSON form)",
)


def _content_hash(kind: str, text: str) -> str:
    return f"{kind}:{hashlib.sha256(text.encode('utf-8')).hexdigest()}"


def shared_map(name_or_path: str | Path) -> Board:
    """The board of a bundled map or map file, one per content: :func:`load_map` the first
    time, the same board afterwards while the file's text is the same."""
    path = _map_path(name_or_path)
    return shared_map_text(path.read_text(encoding="utf-8"), source=path.name)


def shared_map_text(text: str, source: str = "map") -> Board:
    """:func:`parse_map`, one board per content: a map drawing kept elsewhere (a
    tournament's own map, read from its database) shares its board and tables between
    requests like a bundled one. Raises :class:`MapError` as :func:`parse_map` does."""
    key = (_content_hash("text", text), source)
    board = _BOARDS.get(key)
    if board is None:
        board = _BOARDS.put(key, parse_map(text, source=source))
    return board


def share_bundled_maps() -> tuple[str, ...]:
    """Build the board of every bundled map into the boards shared by content, and name
    them. A server's parent process calls it before it forks its workers (Gunicorn's
    master, Celery's main process), so every worker it starts, at once or hours later,
    finds the boards built and shares them instead of each building its own on its first
    game (about 8 ms a map). The memos filled while games are played (sight lines,
    distances) stay each worker's own."""
    names = tuple(bundled_maps())
    for name in names:
        shared_map(name)
    return names


def shared_board_from_json(data: dict[str, Any]) -> Board:
    """:func:`board_from_json`, one board per content (the JSON's hash, keys sorted)."""
    key = _content_hash("json", json.dumps(data, sort_keys=True, separators=(",", ":")))
    board = _BOARDS.get(key)
    if board is None:
        board = _BOARDS.put(key, board_from_json(data))
    return board
