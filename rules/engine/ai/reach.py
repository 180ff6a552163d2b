"""What one alien can reach this turn, from ONE distance field (the speed budget).

:func:`assess` runs a single breadth-first search from the alien (movement.distance_field)
and derives from it everything the policies need: the squares where it may stop this turn,
the path distance to stand orthogonally adjacent to each player's figures, and (lazily,
with early exits) whether it could shoot one of a player's figures from some reachable
square. Figures in a docking claw are safe and never count as targets.
"""

from __future__ import annotations

import dataclasses
from bisect import bisect_right
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from itertools import compress
from operator import itemgetter, not_

from rules.engine.ai.activation import Readiness
from rules.engine.ai.focus import UNREACHABLE, PlayerReach, choose_focus, focus_key
from rules.engine.board import DoorState
from rules.engine.caches import BoundedCache, declare, memoised
from rules.engine.geometry import Edge, Square, block_2x2, edge
from rules.engine.los import (
    LayoutLine,
    door_blockers,
    firing_sight,
    layout_line_to,
    layout_lines_to,
    verdict_with,
)
from rules.engine.movement import (
    DistanceField,
    distance_field,
    doors_opened_on,
    passable_table,
    side_stop_table,
    with_doors_open,
)
from rules.engine.movement import stop_table as movement_stop_table
from rules.engine.play.targets import targets_of
from rules.engine.state import ALIEN, Figure, GameState
from rules.engine.units import MARINE_UNITS as SQUAD_MARINE_UNITS
from rules.engine.units import RulesData

#: Units that count as "marines in play" for the focus rule (vehicles do not).
MARINE_UNITS = frozenset({"commander", *SQUAD_MARINE_UNITS})


def activation_type(figure: Figure, rules: RulesData) -> str:
    """The activation type: a Chaos Marine carrying a heavy weapon counts as heavy."""
    if figure.unit == "chaos_marine" and any(rules.weapon(w).is_heavy for w in figure.weapons):
        return "chaos_marine_heavy"
    if figure.unit == "chaos_marine_heavy" and not any(
        rules.weapon(w).is_heavy for w in figure.weapons
    ):
        return "chaos_marine"
    return figure.unit


def can_shoot(figure: Figure, rules: RulesData) -> bool:
    return any(rules.weapon(w).can_shoot for w in figure.weapons)


def footprint(figure: Figure, anchor: Square) -> tuple[Square, ...]:
    return block_2x2(anchor) if figure.is_dreadnought else (anchor,)


def sees(
    state: GameState, figure: Figure, anchor: Square, target: Figure
) -> tuple[bool, bool, Square, Square]:
    """Firing sight from ``figure`` standing at ``anchor`` to ``target``: (visible,
    doubtful, from, to). The alien's own body and the target never block."""
    ignore = {figure.id, target.id}
    best: tuple[bool, bool, Square, Square] | None = None
    for a in footprint(figure, anchor):
        for b in target.squares:
            visible, doubtful = firing_sight(state, a, b, ignore)
            if visible and not doubtful:
                return True, False, a, b
            if visible and best is None:
                best = (True, True, a, b)
    return best if best is not None else (False, False, anchor, target.squares[0])


def edge_passable_for_attack(state: GameState, a: Square, b: Square) -> bool:
    """Hand-to-hand across an edge: no wall; a door must be open (an alien standing in
    front of a closed door would have opened it on its way, so a closed door counts as
    open when the alien ends its move there; bulkheads never)."""
    board = state.board
    if board.has_wall(a, b):
        return False
    door = state.doors.get(edge(a, b))
    return door is None or door.passable or door is DoorState.CLOSED


@dataclass
class AlienReach:
    """One alien's options this turn, all derived from a single distance field."""

    figure: Figure
    #: Its distances (shared by every state they hold in: their ``stoppable`` is of the
    #: state they were searched on; :attr:`field` has this state's).
    distances: DistanceField
    allowance: int
    stops: list[tuple[int, Square]]  # (steps, anchor) sorted by steps then row, column
    #: Where it may stop in this state (:func:`stop_table`), except that a 1x1 alien's own
    #: square counts as taken here (its side's shared table, not copied).
    free: bytes
    # dataclasses.field in full: the property ``field`` below hides the bare name.
    _shoot_cache: dict[str, tuple[int, Square, str] | None] = dataclasses.field(
        default_factory=dict
    )
    #: When sets: collect the squares whose figures, and the door slots whose states,
    #: the sight answers depended on.
    reads: set[int] | None = None
    door_reads: set[int] | None = None
    _stops_mask: int | None = None
    _field: DistanceField | None = None
    #: Per target's squares: :meth:`_open_lines_from` (shared like :attr:`_stops_by_mask`).
    _open_from: BoundedCache[tuple[Square, ...], int] = dataclasses.field(
        default_factory=lambda: BoundedCache(_MAX_KEPT_STOPS)
    )
    _stop_picker: _Picker | None = None
    #: The tables kept with its distances (:func:`_assess`), None if unknown.
    _tables: _FieldTables | None = None
    #: :meth:`stops_in` by mask, shared by the reaches with the same stops, if kept.
    _stops_by_mask: BoundedCache[int, list[tuple[int, Square]]] | None = None

    @property
    def field(self) -> DistanceField:
        """The alien's distance field in this state, its stop table included (built when
        first asked: most assessments only rank the alien)."""
        built = self._field
        if built is None:
            d = self.distances
            stoppable = self.free
            if not self.figure.is_dreadnought:
                i = d.start[0] + d.start[1] * d.width
                stoppable = stoppable[:i] + b"\x01" + stoppable[i + 1 :]
            built = self._field = DistanceField(d.width, d.dist, d.steps, stoppable, d.start)
        return built

    def on_state(self, state: GameState) -> AlienReach:
        """The same reach in ``state``, where only where the alien may stop can differ (the
        stops are not listed again: the caller knows they are the same), keeping the
        firing answers."""
        return AlienReach(
            self.figure,
            self.distances,
            self.allowance,
            self.stops,
            free_table(state, self.figure),
            dict(self._shoot_cache),
            _stops_mask=self._stops_mask,
            _stop_picker=self._stop_picker,
            _tables=self._tables,
            _stops_by_mask=self._stops_by_mask,
            _open_from=self._open_from,
        )

    def adjacent_stop(self, state: GameState, target: Figure) -> tuple[int, Square | None]:
        """Fewest steps to a stop orthogonally adjacent to ``target`` (any distance); of
        equally near ones the first by row, then column."""
        tables = self._tables
        if tables is not None and not self.figure.is_dreadnought:
            return self._nearest_free(state, attack_squares(state, target), tables)
        best: tuple[int, Square | None] = (UNREACHABLE, None)
        best_key = (UNREACHABLE, 0, 0)
        dist = self.distances.dist
        stoppable = self.free  # the start, the only square it differs at, is seen to first
        board = state.board
        w = board.width
        start = self.distances.start
        anchors: Iterable[Square] = attack_squares(state, target)
        if self.figure.is_dreadnought:
            anchors = [
                anchor
                for nb in anchors
                for anchor in _anchors_covering(self.figure, nb, w, board.height)
            ]
        for anchor in anchors:
            i = anchor[0] + anchor[1] * w
            if anchor == start:
                d = 0
            elif not stoppable[i]:
                continue
            else:
                d = dist[i]
            key = (d, anchor[1], anchor[0])
            if d < UNREACHABLE and key < best_key:
                best, best_key = (d, anchor), key
        return best

    def _nearest_free(
        self, state: GameState, squares: tuple[Square, ...], tables: _FieldTables
    ) -> tuple[int, Square | None]:
        """:meth:`adjacent_stop` of a 1x1 alien, given the target's attack squares: the
        squares as (steps, board index), sorted once per distance field (by steps, row,
        column, as the plain scan compares them), read up to the first the alien may
        stop on (its start, at 0 steps, whatever its free table says)."""
        nearest = tables.anchors.get(squares)
        if nearest is None:
            w = state.board.width
            dist = self.distances.dist
            nearest = tables.anchors[squares] = sorted(
                {(dist[x + y * w], x + y * w) for x, y in squares}
            )
        start = self.distances.start
        first = start[0] + start[1] * state.board.width
        stoppable = self.free
        for d, i in nearest:
            if d >= UNREACHABLE:
                break
            if i == first or stoppable[i]:
                return d, state.board.square_at[i]
        return UNREACHABLE, None

    def shooting_stop(self, state: GameState, target: Figure) -> tuple[int, Square, str] | None:
        """Nearest reachable stop (fewest steps) from which the alien sees ``target``:
        (steps, anchor, "clear"|"doubtful"); cached per target. Each line is checked on
        the memoised layout line (:func:`rules.engine.los.firing_sight`)."""
        if target.id in self._shoot_cache:
            return self._shoot_cache[target.id]
        dread = self.figure.is_dreadnought
        # Stops with no line to the target that walls and solid squares leave open can
        # be skipped: they see nothing and their answer depends on no figure or door.
        open_from = 0 if dread else self._open_lines_from(state, target)
        if dread:
            result = self._nearest_sight(state, target, self.stops)
        elif not open_from:
            result = None
        elif len(target.squares) == 1:
            result = self._nearest_sight_of_square(state, target, open_from)
        else:
            result = self._nearest_sight(state, target, self.stops_in(open_from, state.board.width))
        self._shoot_cache[target.id] = result
        return result

    def _nearest_sight(
        self, state: GameState, target: Figure, scan: list[tuple[int, Square]]
    ) -> tuple[int, Square, str] | None:
        """:meth:`shooting_stop` looked for among ``scan`` (stops in their order)."""
        figure = self.figure
        dread = figure.is_dreadnought
        towards = [(b, layout_lines_to(state, b)) for b in target.squares]
        found = None
        doubtful = None
        ignore = {figure.id, target.id}
        door_reads = self.door_reads if self.door_reads is not None else set()
        shut = door_blockers(state)
        occupant = state.occupant
        body: tuple[Square, ...]
        for steps, anchor in scan:
            if doubtful is not None and steps > doubtful[0]:
                break
            if dread:
                if in_doorway(state, anchor):
                    continue
                body = block_2x2(anchor)
            else:
                body = (anchor,)
            seen = False
            for a in body:
                for b, lines_to in towards:
                    visible, is_doubtful = _line_verdict(
                        state, lines_to, a, b, shut, occupant, ignore, self.reads, door_reads
                    )
                    if visible and not is_doubtful:
                        found = (steps, anchor, "clear")
                        break
                    seen = seen or visible
                if found is not None:
                    break
            if found is not None:
                break
            if seen and doubtful is None:
                doubtful = (steps, anchor, "doubtful")
        return found or doubtful

    def _nearest_sight_of_square(
        self, state: GameState, target: Figure, open_from: int
    ) -> tuple[int, Square, str] | None:
        """:meth:`_nearest_sight` of a 1x1 alien at a one-square target among the stops
        of ``open_from`` (:meth:`_open_lines_from`), the common case, with one line per
        stop: no body or target squares to loop over."""
        b = target.squares[0]
        lines_to = layout_lines_to(state, b)
        doubtful = None
        ignore = {self.figure.id, target.id}
        door_reads = self.door_reads if self.door_reads is not None else set()
        shut = door_blockers(state)
        occupant = state.occupant
        for steps, anchor in self.stops_in(open_from, state.board.width):
            if doubtful is not None and steps > doubtful[0]:
                break
            visible, is_doubtful = _line_verdict(
                state, lines_to, anchor, b, shut, occupant, ignore, self.reads, door_reads
            )
            if visible:
                if not is_doubtful:
                    return steps, anchor, "clear"
                if doubtful is None:
                    doubtful = (steps, anchor, "doubtful")
        return doubtful

    def may_see(self, state: GameState, targets: list[Figure]) -> bool:
        """False when walls and solid squares block every line from every stop to every
        square of ``targets`` (a 1x1 alien): :meth:`shooting_stop` would then find none,
        and it is not asked."""
        if self.figure.is_dreadnought:
            return True
        return any(self._open_lines_from(state, target) for target in targets)

    def _open_lines_from(self, state: GameState, target: Figure) -> int:
        """Bit mask of the stops (1x1 alien) with a line to one of the target's squares
        that no wall or solid square blocks (as :func:`open_lines_to`); kept per target."""
        mask = self._open_from.get(target.squares)
        if mask is None:
            stops_mask = self.stops_mask(state.board.width)
            mask = 0
            for b in target.squares:
                lines_to = layout_lines_to(state, b)
                mask |= open_lines_to(state, lines_to, b, self.stops, stops_mask)
            mask = self._open_from.put(target.squares, mask & stops_mask)
        return mask

    def stops_in(self, mask: int, width: int) -> list[tuple[int, Square]]:
        """The stops whose bit (index ``x + y * width``) is set in ``mask``, in the order
        of :attr:`stops` (kept per mask with the stops when :func:`assess` kept those: the
        same targets' masks are asked of them state after state; never changed)."""
        kept = self._stops_by_mask
        if kept is None:
            return self._stops_in(mask, width)
        found = kept.get(mask)
        if found is None:
            found = kept.put(mask, self._stops_in(mask, width))
        return found

    def _stops_in(self, mask: int, width: int) -> list[tuple[int, Square]]:
        """:meth:`stops_in` worked out. Stops are ordered by steps, then row, then column, i.e. by
        (distance, board index), so a sparse mask is read bit by bit instead of picking
        every stop off a table of the mask's bits."""
        stops = self.stops
        if mask.bit_count() * 4 >= len(stops):
            flags = _bit_flags(mask, len(self.distances.dist))
            return list(compress(stops, self._stop_bits(width)(flags)))
        dist = self.distances.dist
        start = self.distances.start
        first = start[0] + start[1] * width
        keyed = []
        while mask:
            low = mask & -mask
            i = low.bit_length() - 1
            keyed.append((0 if i == first else dist[i], i))
            mask ^= low
        keyed.sort()
        return [(d, (i % width, i // width)) for d, i in keyed]

    def _stop_bits(self, width: int) -> _Picker:
        """A :func:`values_at` of the board indices of :attr:`stops`, in their order."""
        picker = self._stop_picker
        if picker is None:
            indices = [x + y * width for _, (x, y) in self.stops]
            picker = self._stop_picker = values_at(indices)
        return picker

    def stops_mask(self, width: int) -> int:
        mask = self._stops_mask
        if mask is None:
            mask = self._stops_mask = mask_of(self.stops, width, len(self.distances.dist))
        return mask


def mask_of(stops: Iterable[tuple[int, Square]], width: int, size: int) -> int:
    """The bit mask (index ``x + y * width``) of ``stops`` on a board of ``size`` squares."""
    # Set the bits in a byte string first: small-number work instead of a long integer
    # rebuilt for every stop.
    bits = bytearray((size + 7) >> 3)
    for _, (x, y) in stops:
        i = x + y * width
        bits[i >> 3] |= 1 << (i & 7)
    return int.from_bytes(bits, "little")


def stops_by_doors(
    state: GameState, reach: AlienReach
) -> list[tuple[GameState, list[tuple[int, Square]]]]:
    """``reach``'s stops grouped by the closed doors the alien opens on its way to each
    (its path, the one :func:`rules.engine.ai.actions.move_to` follows), each group with
    ``state`` with those doors open: an attack from a stop is resolved once the alien has
    moved there, so a blast or a line through such a door reaches what is behind it.
    The stops reached opening no door come first, with ``state`` itself; each group's
    stops keep the order of :attr:`AlienReach.stops`. The doors of each path are kept
    with the alien's distance field, by door states."""
    slots = state.door_open_slots
    if DoorState.CLOSED not in slots:
        return [(state, reach.stops)]
    tables = reach._tables
    opened_by = None if tables is None else tables.opened.get(slots)
    if opened_by is None:
        opened_by = {}
        if tables is not None:
            tables.opened.put(slots, opened_by)
    field = reach.field
    groups: dict[frozenset[Edge], list[tuple[int, Square]]] = {frozenset(): []}
    for stop in reach.stops:
        anchor = stop[1]
        opened = opened_by.get(anchor)
        if opened is None:
            path = field.path_to(anchor) if stop[0] else None
            opened = opened_by[anchor] = (
                doors_opened_on(state, reach.figure, field.start, path) if path else frozenset()
            )
        groups.setdefault(opened, []).append(stop)
    return [(with_doors_open(state, opened), stops) for opened, stops in groups.items() if stops]


#: Turns the digits of a binary numeral into the bytes 0 and 1.
_DIGIT_VALUES = bytes.maketrans(b"01", b"\x00\x01")


def _bit_flags(mask: int, size: int) -> bytes:
    """Byte ``i`` is 1 where bit ``i`` of ``mask`` is set, else 0, for every ``i`` below
    ``size`` (from the binary numeral: C loops, not one step per bit)."""
    return format(mask, f"0{size}b").encode().translate(_DIGIT_VALUES)[::-1]


def _line_verdict(
    state: GameState,
    lines_to: dict[Square, LayoutLine],
    a: Square,
    b: Square,
    shut: bytes,
    occupant: tuple[str | None, ...],
    ignore: set[str],
    reads: set[int] | None,
    door_reads: set[int],
) -> tuple[bool, bool]:
    """(visible, doubtful) of the firing line from ``a`` to ``b`` on its memoised layout
    line (:func:`rules.engine.los.verdict_with`, given the closed door edges ``shut``, the
    occupant table and the figures that do not block); a line walls block reads nothing.
    With ``reads`` given, the squares and doors the answer depended on are recorded."""
    line = lines_to.get(a)
    if line is None:
        line = layout_line_to(state, lines_to, a, b)
    if line.blocked:
        return False, False
    if reads is not None:
        reads.update(line.watched)
        door_reads.update(line.watched_doors)
    return verdict_with(line, shut, occupant, ignore)


#: Per board and square: (bit mask of the squares whose line to it is compiled, bit mask
#: of those whose line no wall or solid square blocks).
_OPEN_LINES: BoundedCache[tuple, list[int]] = declare(
    "reach.open_lines", bound=20_000, depends_on="the board and the square looked at"
)


def open_lines_to(
    state: GameState,
    lines_to: dict,
    b: Square,
    stops: list[tuple[int, Square]],
    stops_mask: int,
) -> int:
    """Bit mask (index ``x + y * width``) of the squares whose layout line to ``b`` is not
    blocked by walls or solid squares, complete for every square of ``stops`` (their
    lines are compiled if needed). Layout lines depend on the board alone, so the masks
    are kept per board and square."""
    key = (state.board, b)
    masks = _OPEN_LINES.get(key)
    if masks is None:
        masks = _OPEN_LINES.put(key, [0, 0])
    if stops_mask & ~masks[0]:
        w = state.board.width
        known, opened = masks
        for _, a in stops:
            bit = 1 << (a[0] + a[1] * w)
            if not known & bit:
                known |= bit
                if not layout_line_to(state, lines_to, a, b).blocked:
                    opened |= bit
        masks[0], masks[1] = known, opened
    return masks[1]


_ATTACK_SQUARES: BoundedCache[tuple, tuple[Square, ...]] = declare(
    "reach.attack_squares",
    bound=20_000,
    depends_on="the board, the target's squares and which doors can be passed or opened",
)


def attack_squares(state: GameState, target: Figure) -> tuple[Square, ...]:
    """Squares orthogonally next to ``target`` from which it can be fought: on the board,
    not part of it, not across a wall or standing bulkhead. Memoised per state, and per
    (board, target squares, doors that can be passed or opened) across states."""
    side = state.memo.marine_side()
    cached = side.attack_squares.get(target.id)
    if cached is not None:
        return cached
    board = state.board
    shared_key = (board, target.squares, openable_doors(state))
    result = _ATTACK_SQUARES.get(shared_key)
    if result is None:
        out = []
        for tsq in target.squares:
            for nb in (
                (tsq[0] + 1, tsq[1]),
                (tsq[0] - 1, tsq[1]),
                (tsq[0], tsq[1] + 1),
                (tsq[0], tsq[1] - 1),
            ):
                if (
                    board.in_bounds(nb)
                    and nb not in target.squares
                    and not board.solid[board.index(nb)]
                    and edge_passable_for_attack(state, nb, tsq)
                ):
                    out.append(nb)
        result = _ATTACK_SQUARES.put(shared_key, tuple(out))
    side.attack_squares[target.id] = result
    return result


def attack_indices(state: GameState, player: str) -> frozenset[int]:
    """Board indices of the squares next to ``player``'s targets (memoised per state)."""
    kept = state.memo.marine_side().attack_indices
    cached = kept.get(player)
    if cached is None:
        w = state.board.width
        cached = kept[player] = frozenset(
            sq[0] + sq[1] * w for t in targets_of(state, player) for sq in attack_squares(state, t)
        )
    return cached


#: Reads the items at fixed indices of a sequence, as a tuple.
_Picker = Callable[[Sequence[int]], tuple[int, ...]]


def values_at(indices: Sequence[int]) -> _Picker:
    """A function giving ``tuple(seq[i] for i in indices)`` for a sequence ``seq``:
    :func:`operator.itemgetter`, which loops in C, where it returns a tuple (two indices
    or more)."""
    if len(indices) > 1:
        return itemgetter(*indices)
    return lambda seq: tuple(seq[i] for i in indices)


def _player_counts(state: GameState, player: str) -> tuple[int, bool]:
    """(marines in play, commander alive) for the focus rule (memoised per state)."""
    kept = state.memo.marine_side().player_counts
    cached = kept.get(player)
    if cached is None:
        figures = state.figures_of(player)
        cached = kept[player] = (
            sum(1 for t in figures if t.unit in MARINE_UNITS),
            any(t.unit == "commander" for t in figures),
        )
    return cached


def in_doorway(state: GameState, anchor: Square) -> bool:
    """True if a Dreadnought based at ``anchor`` is crouched under a door."""
    doors = state.board.dread_doors[state.board.index(anchor)]
    return bool(doors)


def _anchors_covering(figure: Figure, sq: Square, width: int, height: int) -> Iterable[Square]:
    if not figure.is_dreadnought:
        return (sq,)
    x, y = sq
    return [
        (ax, ay)
        for ax, ay in ((x, y), (x - 1, y), (x, y - 1), (x - 1, y - 1))
        if 0 <= ax < width - 1 and 0 <= ay < height - 1
    ]


#: An alien's distances by :func:`field_layout_key`, with their near positions and tables.
_FIELDS: BoundedCache[tuple, tuple[DistanceField, list[int], _FieldTables]] = declare(
    "reach.fields",
    bound=1024,
    depends_on="an alien's position, the figures it may not pass, blips, openable doors",
)
#: Positions nearer than this are listed once per field, sorted, to build stops quickly.
_NEAR = 24


#: Doors a moving alien may pass or open (everything but a standing bulkhead): 1, else 0.
_OPENABLE = {d: 1 if d.passable or d is DoorState.CLOSED else 0 for d in DoorState}


def openable_doors(state: GameState) -> bytes:
    """Per door slot: 1 if a moving alien can pass or open it. A byte string keeps its
    hash, and it is part of cache keys."""
    return bytes(map(_OPENABLE.__getitem__, state.door_open_slots))


def field_layout_key(state: GameState, figure: Figure) -> tuple:
    """What an alien's distances depend on: its position, the squares of figures it may
    not pass (every non-alien figure), hidden blips, claws (fixed) and which doors can be
    passed or opened. Other aliens only change where it may *stop*, not its distances."""
    side = state.memo.marine_side()
    layout = side.field_layout
    if layout is None:
        blocked = frozenset(sq for f in state.figures if f.side != ALIEN for sq in f.squares)
        doors = openable_doors(state)
        blips = frozenset(b.square for b in state.blips)
        layout = side.field_layout = (state.board, blocked, blips, doors)
    return (figure.id, figure.squares, layout)


#: A field per alien position and everything but the blocking figures, kept for the most
#: blocking figures seen: a field for fewer of them (marines died) is derived from it.
_WIDER: BoundedCache[tuple, tuple[frozenset[Square], DistanceField, list[int]]] = declare(
    "reach.wider_fields",
    bound=1024,
    depends_on="an alien's position, blips and openable doors",
)


def alien_field(state: GameState, figure: Figure) -> tuple[DistanceField, list[int]]:
    """The alien's distance field with this state's stop table (what the AI reads through
    :func:`_alien_field` and :class:`AlienReach`, whole), reusing the distances of an
    earlier, equivalent state
    (same key, see :func:`field_layout_key`) and taking where it may stop from this state.
    When only figures that blocked it have gone since an earlier field from the same
    position, that field is relaxed through their squares instead of searched again
    (:meth:`DistanceField.with_freed`: the same distances).
    Also returns the board indices of the positions within reach of any turn, sorted by
    (steps, row, column)."""
    dfield, near, _ = _alien_field(state, figure)
    stoppable = stop_table(state, figure)
    return DistanceField(dfield.width, dfield.dist, dfield.steps, stoppable, dfield.start), near


class _FieldTables:
    """What every state a distance field serves reads off it the same way (filled by
    :func:`_assess`, :meth:`AlienReach.adjacent_stop` and :func:`assess_focus`).

    ``within``: per allowance, the positions within it (as in ``near``), a
    :func:`values_at` of them, each as (steps, square), and the bit mask of them and the
    start. ``goals``: per set of squares next to a player's targets, those squares as
    (steps, index), nearest first. ``anchors``: the same per target's
    :func:`attack_squares` (:meth:`AlienReach.adjacent_stop`). ``stops``: per allowance
    and which positions within it the alien may stop on, the stops, their bit mask,
    :meth:`AlienReach.stops_in` by mask and :meth:`AlienReach._open_lines_from` by target
    squares (shared by the reaches with those stops: never changed). ``opened``: per
    door states (:attr:`GameState.door_open_slots`), the closed doors the alien opens on
    its way to each position asked (:func:`stops_by_doors`)."""

    __slots__ = ("within", "goals", "anchors", "stops", "opened")

    def __init__(self) -> None:
        self.within: dict[int, tuple[list[int], _Picker, list[tuple[int, Square]], int]] = {}
        self.goals: dict[frozenset[int], list[tuple[int, int]]] = {}
        self.anchors: dict[tuple[Square, ...], list[tuple[int, int]]] = {}
        self.stops: BoundedCache[
            tuple[int, tuple[int, ...]],
            tuple[
                list[tuple[int, Square]],
                int,
                BoundedCache[int, list[tuple[int, Square]]],
                BoundedCache[tuple[Square, ...], int],
            ],
        ] = BoundedCache(_MAX_KEPT_STOPS)
        self.opened: BoundedCache[tuple, dict[Square, frozenset[Edge]]] = BoundedCache(
            _MAX_KEPT_STOPS
        )


#: Bound on :attr:`_FieldTables.stops` per distance field.
_MAX_KEPT_STOPS = 256


def _alien_field(state: GameState, figure: Figure) -> tuple[DistanceField, list[int], _FieldTables]:
    """:func:`alien_field`, with the field's tables, and where the alien may stop left as
    in the state the field was first made for."""
    key = field_layout_key(state, figure)
    cached = _FIELDS.get(key)
    if cached is None:
        board, blocked, blips, doors = key[2]
        position = (figure.id, figure.squares, board, blips, doors)
        earlier = _WIDER.get(position)
        if earlier is not None and not figure.is_dreadnought and earlier[0] >= blocked:
            w = board.width
            freed = [sq[0] + sq[1] * w for sq in earlier[0] - blocked]
            dfield, improved = earlier[1].with_freed(freed, passable_table(state, figure.id))
            dist = dfield.dist
            # Distances only shrank: the old near positions stay near, joined by the
            # improved ones that came near (sorted again if any near one changed).
            near = earlier[2]
            closer = {i for i in improved if dist[i] <= _NEAR}
            if closer:
                near = sorted(closer.union(near))
                near.sort(key=dist.__getitem__)
        else:
            dfield = distance_field(state, figure.id)
            dist = dfield.dist
            start = dfield.start
            near = list(compress(range(len(dist)), map(_NEAR.__ge__, dist)))
            near.remove(start[0] + start[1] * board.width)  # the only position at 0
            # Indices ascend, so a stable sort by steps keeps (row, column) order in a step.
            near.sort(key=dist.__getitem__)
        tables = _FieldTables()
        _FIELDS.put(key, (dfield, near, tables))
        if earlier is None or not earlier[0] >= blocked:
            _WIDER.put(position, (blocked, dfield, near))
        return dfield, near, tables
    return cached


def stop_table(state: GameState, figure: Figure) -> bytes:
    """Where the figure may end a move in this state, by movement's own rules."""
    return movement_stop_table(state, figure.id)


def free_table(state: GameState, figure: Figure) -> bytes:
    """:attr:`AlienReach.free`: for a 1x1 alien its side's table (:func:`stop_table` but
    for its own square, counted as taken), else its :func:`stop_table`."""
    if figure.is_dreadnought:
        return stop_table(state, figure)
    return side_stop_table(state, figure)


def assess(state: GameState, figure: Figure, rules: RulesData, allowance: int) -> AlienReach:
    """The alien's one distance field, its stops this turn, and its adjacency queries."""
    return _assess(state, figure, allowance)[0]


def _assess(state: GameState, figure: Figure, allowance: int) -> tuple[AlienReach, _FieldTables]:
    """:func:`assess`, with the tables kept with the alien's distance field."""
    dfield, near, tables = _alien_field(state, figure)
    within_table = tables.within
    w = state.board.width
    stops = [(0, dfield.start)]
    # The start, the only square where a 1x1 alien's free table is wrong, is not in near.
    stoppable = free_table(state, figure)
    mask = None
    by_mask: BoundedCache[int, list[tuple[int, Square]]] | None = None
    open_from: BoundedCache[tuple[Square, ...], int] = BoundedCache(_MAX_KEPT_STOPS)
    if allowance <= _NEAR:
        # The positions within the allowance, with their steps and bit mask, are the same
        # in every state the field serves: only where the alien may stop is read here.
        kept = within_table.get(allowance)
        if kept is None:
            dist = dfield.dist
            at = state.board.square_at
            within = near[: bisect_right(near, allowance, key=dist.__getitem__)]
            bits = bytearray((len(dist) + 7) >> 3)
            start = dfield.start[0] + dfield.start[1] * w
            for i in (start, *within):
                bits[i >> 3] |= 1 << (i & 7)
            kept = within_table[allowance] = (
                within,
                values_at(within),
                [(dist[i], at[i]) for i in within],
                int.from_bytes(bits, "little"),
            )
        within, stoppable_within, steps_and_squares, mask = kept
        can_stop = stoppable_within(stoppable)
        # The same few occupancies come back state after state: their stops are kept.
        by_free = tables.stops
        known = by_free.get((allowance, can_stop))
        if known is None:
            stops += compress(steps_and_squares, can_stop)
            if 0 in can_stop:
                for i in compress(within, map(not_, can_stop)):
                    mask ^= 1 << i
            by_mask = BoundedCache(_MAX_KEPT_STOPS)
            by_free.put((allowance, can_stop), (stops, mask, by_mask, open_from))
        else:
            stops, mask, by_mask, open_from = known
    else:
        for i, d in enumerate(dfield.dist):
            if 0 < d <= allowance and stoppable[i]:  # 0 < d: never the start
                stops.append((d, (i % w, i // w)))
        stops.sort(key=lambda item: (item[0], item[1][1], item[1][0]))
    reach = AlienReach(
        figure=figure,
        distances=dfield,
        allowance=allowance,
        stops=stops,
        free=stoppable,
        _stops_mask=mask,
        _tables=tables,
        _stops_by_mask=by_mask,
        _open_from=open_from,
    )
    return reach, tables


@dataclass
class Assessment:
    """An alien's focus and what it can do against each player, for one activation."""

    reach: AlienReach
    reaches: list[PlayerReach]
    focus: PlayerReach | None
    criterion: str
    activation_type: str
    #: :meth:`readiness`, once made (the same for a copy on another state).
    ready: Readiness | None = None

    def readiness(self) -> Readiness:
        made = self.ready
        if made is None:
            made = self.ready = Readiness(self.reach.figure.id, self.activation_type, self.focus)
        return made


def assess_focus(
    state: GameState,
    figure: Figure,
    rules: RulesData,
    allowance: int,
    *,
    may_attack: bool = True,
    record: bool = False,
    known_shots: dict[str, tuple[int, Square, str] | None] | None = None,
) -> Assessment:
    """The BoB focus of one alien: per player, path distance to adjacency and whether it
    can attack one of the player's figures this turn (reach adjacency or shoot).
    ``record``: collect in ``reach.reads`` the squares whose figures the sight answers
    depended on (see :mod:`rules.engine.ai.readiness`). ``known_shots``: answers of
    :meth:`AlienReach.shooting_stop` already known to hold in this state, by target id."""
    reach, tables = _assess(state, figure, allowance)
    if record:
        reach.reads = set()
        reach.door_reads = set()
    if known_shots:
        reach._shoot_cache.update(known_shots)
    shoots, fights, kind = _traits(figure, rules)
    shooter = may_attack and shoots and not _only_doorway(state, reach)
    melee = may_attack and fights
    reaches = []
    dist = reach.distances.dist
    start = state.board.index(reach.distances.start)
    dread = figure.is_dreadnought
    stoppable = reach.free
    by_goals = tables.goals
    for index, player, goals, marines_in_play, commander_alive in _players_table(state):
        if dread:
            distance = min(
                (reach.adjacent_stop(state, t)[0] for t in targets_of(state, player)),
                default=UNREACHABLE,
            )
        elif start in goals:
            distance = 0
        else:
            # The same minimum as adjacent_stop over every target, on the shared index set
            # (the alien's own square, where it alone may stop, is not among them here):
            # the first free one of them in order of distance.
            nearest = by_goals.get(goals)
            if nearest is None:
                nearest = by_goals[goals] = sorted((dist[i], i) for i in goals)
            distance = UNREACHABLE
            for d, i in nearest:
                if stoppable[i]:
                    distance = d
                    break
        reaches.append(
            _player_reach(
                player,
                distance,
                melee and distance <= allowance,
                marines_in_play,
                commander_alive,
                index,
            )
        )
    if shooter:
        reaches = _with_shooting(state, reach, reaches)
    focus, criterion = choose_focus(reaches)
    return Assessment(reach, reaches, focus, criterion, kind)


#: PlayerReach is immutable, so equal ones are shared instead of built again. Its flags
#: are always bools here (never the ints 0 and 1, which would share their entries).
_player_reach = memoised(
    "reach.player_reach", bound=4096, depends_on="the player's distance, flags and counts"
)(PlayerReach)


def _players_table(state: GameState) -> list[tuple]:
    """Per player with a target, in initiative order: (initiative position, player, the
    squares next to its targets, marines in play, commander alive). It depends on the
    marine side alone, so it is memoised per state and carried with the marine-side
    entries."""
    side = state.memo.marine_side()
    cached = side.players_table
    if cached is None:
        order = list(state.initiative) or [p.id for p in state.players]
        cached = side.players_table = [
            (
                index,
                player,
                attack_indices(state, player),
                *_player_counts(state, player),
            )
            for index, player in enumerate(order)
            if targets_of(state, player)
        ]
    return cached


#: Per rules data (by id, holding it so the id stays its own): the traits of each unit and
#: weapons, see :func:`_traits`.
_TRAITS: BoundedCache[int, tuple[RulesData, dict[tuple, tuple[bool, bool, str]]]] = declare(
    "reach.traits", bound=64, depends_on="the rules data (by id, held); units and weapons"
)


def _traits(figure: Figure, rules: RulesData) -> tuple[bool, bool, str]:
    """(can shoot, can fight hand-to-hand, activation type) of the figure's unit and
    weapons, worked out once per rules data."""
    kept = _TRAITS.get(id(rules))
    if kept is None or kept[0] is not rules:
        kept = _TRAITS.put(id(rules), (rules, {}))
    key = (figure.unit, figure.weapons)
    traits = kept[1].get(key)
    if traits is None:
        traits = kept[1][key] = (
            can_shoot(figure, rules),
            rules.hand_to_hand_dice(figure.unit, figure.weapons).count > 0,
            activation_type(figure, rules),
        )
    return traits


def _with_shooting(
    state: GameState, reach: AlienReach, reaches: list[PlayerReach]
) -> list[PlayerReach]:
    """Mark the players the alien can shoot, in focus order, stopping at the first player
    it can attack: every player after it would lose to it on the focus criteria anyway, so
    whether they could be shot does not change the focus (and the lines are never traced)."""
    for r in sorted(reaches, key=focus_key):
        if r.attackable:
            break
        targets = targets_of(state, r.player)
        if not reach.may_see(state, targets):
            continue
        for target in targets:
            if reach.shooting_stop(state, target) is not None:
                shot = _player_reach(
                    r.player, r.distance, True, r.marines_in_play, r.commander_alive, r.initiative
                )
                return [shot if other is r else other for other in reaches]
    return reaches


def _only_doorway(state: GameState, reach: AlienReach) -> bool:
    """A Dreadnought crouched in a doorway that cannot get out this turn cannot shoot."""
    if not reach.figure.is_dreadnought:
        return False
    return all(in_doorway(state, anchor) for _, anchor in reach.stops)
