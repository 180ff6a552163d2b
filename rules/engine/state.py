"""The game state: an immutable snapshot of a session that the engine reads and replaces.

``GameState.from_json`` checks the JSON twice: against the JSON Schema in
``rules/engine/schema/state.schema.json`` (shape and types), then semantically (figures on
the board, no two on one square, Dreadnoughts on 2x2 blocks, references to known figures,
players and sections...). Every problem is a :class:`StateError` naming the JSON path, e.g.
``$.figures[3].squares[0]: square 4,7 is solid``. The format is described in ``docs/state.md``.
Each problem carries a message code and params too, so its text can be shown in Italian
(the templates are in :mod:`rules.engine.narration_state`).
"""

from __future__ import annotations

import errno
import hashlib
import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from types import MappingProxyType
from typing import Any, Generic, TypeVar, overload

import jsonschema

from . import json_text
from .board import Board, BoardError, DoorState
from .caches import declare, memoised
from .geometry import (
    Edge,
    Facing,
    Square,
    edge,
    format_square,
    is_2x2_block,
    is_orthogonally_adjacent,
    top_left,
)
from .maps import (
    board_from_json,
    board_to_json,
    bundled_maps,
    parse_map,
    shared_board_from_json,
    shared_map,
)
from .narration_state import more_problems_text, state_error_text
from .schema_inlining import inlined
from .session_records import LEGACY_SWITCHES, Outcome, Progress, TurnRecord, without_legacy
from .state_memo import StateMemo
from .units import RulesData, load_rules_data

STATE_FORMAT = "bob-state/2"
#: Formats this engine reads (a ``bob-state/1`` state has no turn, progress or outcome).
STATE_FORMATS = ("bob-state/1", STATE_FORMAT)
SCHEMA_PATH = Path(__file__).with_name("schema") / "state.schema.json"
MARINE = "marine"
ALIEN = "alien"
#: Units a marine crews or pilots: nobody's (``player`` null) while abandoned.
VEHICLE_UNITS = ("tarantula", "dreadnought")
STIPULATIONS = ("alien_hunt", "catch_the_flag", "tpk", "extended_tpk")


@dataclass(frozen=True)
class Problem:
    """One thing wrong in a state: its JSON path and English ``message``; a problem found
    by the engine also has a message ``code`` and ``params`` (see :meth:`coded`), while one
    made by a caller with its own, already translated message has ``code`` None."""

    path: str
    message: str
    code: str | None = None
    params: Mapping[str, Any] = field(default_factory=dict, compare=False)

    @classmethod
    def coded(cls, path: str, code: str, /, **params: Any) -> Problem:
        """The problem ``code`` of :data:`rules.engine.narration_state.STATE_ERRORS`."""
        return cls(path, state_error_text(code, params, "en"), code, params)

    def text_in(self, lang: str) -> str:
        """The message in ``lang`` ("it" or "en"); a caller's own message as it is."""
        return state_error_text(self.code, self.params, lang) if self.code else self.message

    def __str__(self) -> str:
        return f"{self.path}: {self.message}"


class StateError(ValueError):
    """A game state is invalid. ``problems`` lists each (JSON path, message) found;
    ``str()`` is the first one in English, :meth:`text_in` the same in another language."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems
        first = problems[0]
        self.path = first.path
        self.message = first.message
        super().__init__(self.text_in("en"))

    def text_in(self, lang: str) -> str:
        """The first problem with its path in ``lang``, and how many more there are."""
        first = self.problems[0]
        more = len(self.problems) - 1
        return f"{first.path}: {first.text_in(lang)}" + (
            more_problems_text(more, lang) if more else ""
        )


@dataclass(frozen=True)
class Figure:
    """A figure on the board (or a pilot inside a vehicle, with no squares)."""

    id: str
    side: str  # "marine" or "alien"
    player: str | None  # owning player id; None for aliens
    unit: str  # key into the rules data tables (units.py)
    squares: tuple[Square, ...]  # 1; 2 for a Tarantula; 4 (2x2) for a Dreadnought
    life_points: int
    facing: Facing = Facing.NORTH
    weapons: tuple[str, ...] = ()
    equipment: tuple[str, ...] = ()
    piloting: str | None = None  # id of the vehicle figure this figure pilots
    #: An alien's or a vehicle's number among the figures of its unit that came into play
    #: in this game (1, 2...; see :func:`takes_number`): kept while it is in play and never
    #: given again, so the board's label (``Or2``) names one figure all game long.
    number: int | None = None
    #: True for a figure on a 2x2 base (4 squares). Set from ``squares`` when the figure is
    #: made, as the AI asks it of every figure it looks at.
    is_dreadnought: bool = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "is_dreadnought", len(self.squares) == 4)

    @property
    def square(self) -> Square:
        """The figure's square; for a Dreadnought, the top-left square of its base."""
        if not self.squares:
            raise ValueError(f"figure {self.id} is inside a vehicle and has no square")
        return top_left(self.squares) if len(self.squares) == 4 else self.squares[0]

    @property
    def on_board(self) -> bool:
        return bool(self.squares)

    @property
    def is_alien(self) -> bool:
        return self.side == ALIEN

    def moved_to(self, squares: Iterable[Square], facing: Facing | None = None) -> Figure:
        return replace(self, squares=tuple(squares), facing=facing or self.facing)

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "side": self.side,
            "player": self.player,
            "unit": self.unit,
            "squares": [list(sq) for sq in self.squares],
            "facing": self.facing.value,
            "life_points": self.life_points,
            "weapons": list(self.weapons),
            "equipment": list(self.equipment),
            "piloting": self.piloting,
            # Written only when set, so marines' figures keep their JSON.
            **({"number": self.number} if self.number is not None else {}),
        }


def takes_number(figure: Figure) -> bool:
    """Whether ``figure`` is numbered within its unit: an alien, or a Tarantula or a
    Dreadnought of the marine side. Marines are named by their ids, which the players use."""
    return figure.side == ALIEN or figure.unit in VEHICLE_UNITS


def numbered(
    figures: tuple[Figure, ...], arrivals: Mapping[str, int]
) -> tuple[tuple[Figure, ...], dict[str, int]]:
    """``figures`` with a number for every alien and vehicle, and the highest number each
    unit has had (``arrivals`` counted, the numbers of ``figures`` too). A figure keeps
    its number; one without (in a state older than numbers, or added by a judge's upload)
    takes the next of its unit, in the order of ``figures``: the order they came into
    play, so an older state's figures keep the labels the board drew for them."""
    highest = dict(arrivals)
    for f in figures:
        if f.number is not None and takes_number(f):
            highest[f.unit] = max(highest.get(f.unit, 0), f.number)
    if all(f.number is not None or not takes_number(f) for f in figures):
        return figures, highest
    out = []
    for f in figures:
        if f.number is None and takes_number(f):
            highest[f.unit] = highest.get(f.unit, 0) + 1
            f = replace(f, number=highest[f.unit])
        out.append(f)
    return tuple(out), highest


@dataclass(frozen=True)
class Player:
    """A player: squad, docking claw, score, and the chapter cards chosen for the session
    (effect codes, ``docs/turns.md``) with those already spent (a card held twice, such
    as Targeter, is listed twice). ``targeter_marks``: the weapon key each Targeter copy
    marks (RULES §5), written only when some are set."""

    id: str
    squad: str | None = None
    claw: str | None = None
    score: int = 0
    cards: tuple[str, ...] = ()
    cards_spent: tuple[str, ...] = ()
    targeter_marks: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        data = {
            "id": self.id,
            "squad": self.squad,
            "claw": self.claw,
            "score": self.score,
            "cards": list(self.cards),
            "cards_spent": list(self.cards_spent),
        }
        if self.targeter_marks:
            data["targeter_marks"] = list(self.targeter_marks)
        return data


@dataclass(frozen=True)
class Blip:
    """A face-down blip token; ``type`` is the alien (or equipment) it hides."""

    id: str
    square: Square
    type: str


@dataclass(frozen=True)
class Token:
    """A revealed blip or played reinforcement token in the pool; free until taken."""

    id: str
    source: str  # "blip" or "reinforcement"
    alien: str
    taken_by: str | None = None


@dataclass(frozen=True)
class Flag:
    id: str
    square: Square | None = None
    carried_by: str | None = None
    hidden: bool = False


@dataclass(frozen=True)
class Item:
    """Special equipment lying on a square (RULES §10 "Blips (BoB)"): an extra-heavy weapon
    a special-equipment blip hid, until a marine picks it up (``rules.engine.vehicles``)."""

    id: str
    square: Square
    weapon: str


@dataclass(frozen=True)
class Stipulation:
    type: str = "alien_hunt"
    switches: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))

    @property
    def with_aliens(self) -> bool:
        """Whether aliens are in play. Catch the Flag and TPK make them optional (RULES §6):
        the switch ``aliens`` false plays the session without them (no blip, Genestealer,
        reinforcement or Alien turn; ``docs/decisions.md``). Absent, they are in play, as
        in Alien Hunt and in states older than the switch."""
        return self.switches.get("aliens", True) is not False

    @property
    def uses_event_deck(self) -> bool:
        """Whether the Aliens draw event cards: the switch ``event_deck``, and only with
        aliens in play (the deck is drawn at the start of the Alien turn, RULES §11)."""
        return bool(self.switches.get("event_deck")) and self.with_aliens


_T = TypeVar("_T")


def copy_doors(doors: Mapping[Edge, DoorState]) -> dict[Edge, DoorState]:
    """A new dict of the door states ``doors``. A state's table is a read-only view of a
    dict: copying that dict keeps the edges' hashes, which ``dict(view)`` computes again
    (an edge is a pair of pairs, so a dozen tuple hashes per door)."""
    if isinstance(doors, MappingProxyType):
        return doors.copy()
    return dict(doors)


class _derived(Generic[_T]):
    """A table derived from a state, computed on first use and kept in the state's
    ``__dict__`` (where later reads find it without calling this): what
    :func:`functools.cached_property` does, without the lock Python 3.11's takes on every
    first use (3.12 dropped it). Two threads building one at once both store the same
    value."""

    def __init__(self, compute: Callable[[Any], _T]) -> None:
        self.compute = compute
        self.name = compute.__name__
        self.__doc__ = compute.__doc__

    @overload
    def __get__(self, instance: None, owner: type | None = None) -> _derived[_T]: ...

    @overload
    def __get__(self, instance: object, owner: type | None = None) -> _T: ...

    def __get__(self, instance: object | None, owner: type | None = None) -> _derived[_T] | _T:
        if instance is None:
            return self
        value = instance.__dict__[self.name] = self.compute(instance)
        return value


@dataclass(frozen=True)
class GameState:
    """Immutable: every change returns a new state (``with_figure``, ``with_door``...)."""

    board: Board
    figures: tuple[Figure, ...] = ()
    doors: Mapping[Edge, DoorState] = field(default_factory=lambda: MappingProxyType({}))
    blips: tuple[Blip, ...] = ()
    reinforcements: tuple[str, ...] = ()
    tokens: tuple[Token, ...] = ()
    players: tuple[Player, ...] = ()
    initiative: tuple[str, ...] = ()
    round: int = 1
    active_player: str | None = None
    stipulation: Stipulation = field(default_factory=Stipulation)
    surveyed_sections: tuple[str, ...] = ()
    flags: tuple[Flag, ...] = ()
    items: tuple[Item, ...] = ()
    data_overrides: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    map_ref: str | None = None  # bundled map name, written back instead of the full map
    turn: TurnRecord = field(default_factory=TurnRecord)
    progress: Progress = field(default_factory=Progress)
    outcome: Outcome | None = None

    def __post_init__(self) -> None:
        self._complete_doors()
        switches = self.stipulation.switches
        if any(key in switches for key in LEGACY_SWITCHES):
            # Progress an older caller put in the switches moves to its fields.
            merged = {k: v for k, v in self.progress.to_json().items() if v}
            object.__setattr__(self, "progress", Progress.from_json(merged, switches))
            object.__setattr__(
                self,
                "stipulation",
                Stipulation(self.stipulation.type, MappingProxyType(without_legacy(switches))),
            )
        # Every alien and vehicle has its number (a state made before numbers, a figure
        # a judge's upload added: see :func:`numbered`), and ``progress.arrivals`` counts
        # them all. Only here, where a state is made whole: a state the engine derives
        # numbers its newcomers itself (:meth:`with_arrival`).
        figures, highest = numbered(self.figures, self.progress.arrivals)
        object.__setattr__(self, "figures", figures)
        if highest != self.progress.arrivals:
            arrivals = MappingProxyType(highest)
            object.__setattr__(self, "progress", replace(self.progress, arrivals=arrivals))

    def _complete_doors(self) -> None:
        """Give every door of the board a current state (missing ones: the map's start). A
        state made from another without new doors (``replace``) shares its table."""
        doors = self.board.initial_door_states()
        doors.update(self.doors)
        object.__setattr__(self, "doors", MappingProxyType(doors))

    # -- lookups ----------------------------------------------------------------------

    @_derived
    def _by_id(self) -> dict[str, Figure]:
        return {f.id: f for f in self.figures}

    @_derived
    def _slot(self) -> dict[str, int]:
        """Where each figure is in ``figures``, by id: the same table for every state whose
        figures have the same ids in the same order (a figure replaced, see
        :meth:`with_figure`), so such states share it."""
        return {f.id: k for k, f in enumerate(self.figures)}

    @_derived
    def occupant(self) -> tuple[str | None, ...]:
        """Figure id standing on each square, indexed like the board tables."""
        w = self.board.width
        occ: list[str | None] = [None] * (w * self.board.height)
        for f in self.figures:
            for x, y in f.squares:
                occ[x + y * w] = f.id
        return tuple(occ)

    @_derived
    def memo(self) -> StateMemo:
        """The tables engine modules worked out from this state (the state never changes,
        so they hold for its lifetime); :mod:`rules.engine.state_memo` lists them."""
        return StateMemo()

    def made_memo(self) -> StateMemo | None:
        """The memo, if something already made it (reading :attr:`memo` makes one)."""
        memo: StateMemo | None = self.__dict__.get("memo")
        return memo

    @_derived
    def door_open_slots(self) -> tuple[DoorState, ...]:
        """Current state of each board door, indexed by the board's door slot (carried to
        the states made from this one while the doors stay the same)."""
        return tuple(map(self.doors.__getitem__, self.board.door_edges))

    def figure(self, figure_id: str) -> Figure:
        try:
            return self._by_id[figure_id]
        except KeyError:
            raise KeyError(f"no figure {figure_id!r} in this state") from None

    def has_figure(self, figure_id: str) -> bool:
        return figure_id in self._by_id

    def figure_at(self, sq: Square) -> Figure | None:
        if not self.board.in_bounds(sq):
            return None
        fid = self.occupant[self.board.index(sq)]
        return None if fid is None else self._by_id[fid]

    def blip_at(self, sq: Square) -> Blip | None:
        return next((b for b in self.blips if b.square == sq), None)

    def figures_of(self, player: str) -> tuple[Figure, ...]:
        return tuple([f for f in self.figures if f.player == player and f.squares])

    def aliens(self) -> tuple[Figure, ...]:
        return tuple(f for f in self.figures if f.side == ALIEN)

    def player(self, player_id: str) -> Player:
        for p in self.players:
            if p.id == player_id:
                return p
        raise KeyError(f"no player {player_id!r} in this state")

    def door_state(self, a: Square, b: Square) -> DoorState | None:
        """State of the door between two orthogonal neighbours, or None if no door."""
        if not is_orthogonally_adjacent(a, b):
            return None
        return self.doors.get(edge(a, b))

    def edge_open(self, a: Square, b: Square) -> bool:
        return self.board.edge_open(a, b, self.doors)

    # -- changes ----------------------------------------------------------------------

    def with_figure(self, figure: Figure, **changes: Any) -> GameState:
        """The state with ``figure`` replacing the figure of the same id (or added), and
        the other ``changes`` of :meth:`replace`. The figure lookups of this state are
        carried to the new one, changed only for ``figure``; if it replaces a figure of
        the same side and player on the same squares, so are the tables of who stands
        where."""
        fid = figure.id
        figures = self.figures
        slot = self._slot
        k = slot.get(fid)
        if k is None:
            return self.replace(figures=figures + (figure,), **changes)
        new = self.replace(figures=figures[:k] + (figure,) + figures[k + 1 :], **changes)
        values = new.__dict__
        values["_slot"] = slot
        by_id = self.__dict__.get("_by_id")
        if by_id is not None:
            by_id = values["_by_id"] = by_id.copy()
            by_id[fid] = figure
        old = figures[k]
        if (
            old.squares == figure.squares
            and old.side == figure.side
            and old.player == figure.player
            and "board" not in changes
            and "blips" not in changes
        ):
            self._keep_standing_tables(new)
        return new

    def with_arrival(self, figure: Figure) -> GameState:
        """The state with ``figure`` coming into play (a revealed blip, a reinforcement, a
        Genestealer, a found vehicle): an alien or a vehicle takes the next number of its
        unit, one no figure of the unit had in this game, even a figure gone since."""
        if not takes_number(figure):
            return self.with_figure(figure)
        # Figures added unnumbered since the state was made (as a test may) get theirs
        # first, the ones the state would give them when loaded again.
        figures, highest = numbered(self.figures, self.progress.arrivals)
        number = highest[figure.unit] = highest.get(figure.unit, 0) + 1
        state = self if figures is self.figures else self.replace(figures=figures)
        progress = replace(self.progress, arrivals=MappingProxyType(highest))
        return state.with_figure(replace(figure, number=number), progress=progress)

    def figure_numbers(self) -> dict[str, int]:
        """Each alien's and vehicle's number, by figure id (the board labels them with it):
        its own, else the one :func:`numbered` would give it (a figure added unnumbered
        to a state the engine derived, as a test may)."""
        figures, _highest = numbered(self.figures, self.progress.arrivals)
        return {f.id: f.number for f in figures if f.number is not None and takes_number(f)}

    def _keep_standing_tables(self, new: GameState) -> None:
        """Give ``new``, where every figure stands as here (same board, blips, squares,
        sides and players), this state's tables of who stands where."""
        old = self.__dict__
        if "occupant" in old:
            new.__dict__["occupant"] = old["occupant"]
        memo = self.made_memo()
        if memo is not None and memo.alien_occupancy is not None:
            new.memo.inherit_standing(memo)

    def without_figure(self, figure_id: str) -> GameState:
        """The state without the figure ``figure_id``. Unless a blip lies under it, the
        new state inherits the occupant table and the alien occupancy table with its
        squares free again (the Alien AI kills a few figures a turn)."""
        gone = self.figure(figure_id)
        k = self._slot[figure_id]
        new = self.replace(figures=self.figures[:k] + self.figures[k + 1 :])
        by_id = self._by_id.copy()
        del by_id[figure_id]
        new.__dict__["_by_id"] = by_id
        squares = gone.squares
        if not any(b.square in squares for b in self.blips):
            w = self.board.width
            freed = [x + y * w for x, y in squares]
            self._carry_occupant(new, freed, (), None)
            memo = self.made_memo()
            if memo is not None and memo.alien_occupancy is not None:
                new.memo.inherit_freed(memo, freed, self.board)
        return new

    def with_alien_moved(
        self, moved: Figure, doors: Mapping[Edge, DoorState] | None = None
    ) -> GameState:
        """The state with the alien ``moved`` (this state's figure of that id, on other
        squares) and, if it opened doors on its way, the door table ``doors`` (a
        :func:`copy_doors` of this state's with those doors open). The new state
        inherits what the move cannot change: the occupant and alien occupancy tables
        (patched where the alien left and arrived) and the memo entries of the marine
        side (:meth:`StateMemo.inherit_marine_side`)."""
        before = self.figure(moved.id)
        if doors is None:
            new = self.with_figure(moved)
        else:
            new = self.with_figure(moved, doors=doors)
        w = self.board.width
        left = [x + y * w for x, y in before.squares]
        entered = [x + y * w for x, y in moved.squares]
        self._carry_occupant(new, left, entered, moved.id)
        memo = self.made_memo()
        if memo is not None:
            mine = new.memo
            mine.inherit_alien_move(memo, left, entered, self.board)
            mine.inherit_marine_side(memo, same_doors=new.doors is self.doors)
        return new

    def _carry_occupant(
        self,
        new: GameState,
        emptied: list[int],
        entered: list[int] | tuple[()],
        figure_id: str | None,
    ) -> None:
        """Give ``new`` the occupant table of this state (if it built one), with the
        squares ``emptied`` free and ``entered`` held by ``figure_id``."""
        occupant = self.__dict__.get("occupant")
        if occupant is not None:
            table = list(occupant)
            for i in emptied:
                table[i] = None
            for i in entered:
                table[i] = figure_id
            new.__dict__["occupant"] = tuple(table)

    def with_door(self, a: Square, b: Square, state: DoorState) -> GameState:
        e = edge(a, b)
        if e not in self.doors:
            raise KeyError(f"no door between {format_square(a)} and {format_square(b)}")
        doors = copy_doors(self.doors)
        doors[e] = DoorState(state)
        return self.replace(doors=doors)

    def with_player(self, player: Player) -> GameState:
        return self.replace(players=tuple(player if p.id == player.id else p for p in self.players))

    def replace(self, **changes: Any) -> GameState:
        """A new state with ``changes`` (like :func:`dataclasses.replace`, which it calls
        for unknown names so they fail the same way). The Alien AI derives hundreds of
        states per turn, so the fields are copied directly instead of through
        ``__init__``; derived tables (``memo``, lookups) start empty in the new state,
        except the figure lookups and the door slots, shared while the figures (or the
        doors) are the same."""
        if not _STATE_FIELDS.issuperset(changes):
            return replace(self, **changes)
        new = object.__new__(GameState)
        values = new.__dict__
        # Merging this state's whole dict (its fields and derived tables) and dropping the
        # tables that no longer hold is far cheaper than copying the fields by name.
        values.update(self.__dict__)
        values.update(changes)
        if "doors" in changes or "board" in changes:
            new._complete_doors()  # else the doors are this state's table, complete already
        values.pop("memo", None)
        if "board" in changes:
            dropped = _DERIVED_TABLES
        elif "figures" in changes:
            dropped = _FIGURE_LOOKUPS + _DOOR_LOOKUPS if "doors" in changes else _FIGURE_LOOKUPS
        else:
            dropped = _DOOR_LOOKUPS if "doors" in changes else ()
        for name in dropped:
            values.pop(name, None)
        if "board" not in changes and "figures" not in changes and "blips" not in changes:
            self._keep_standing_tables(new)
        return new

    # -- JSON -------------------------------------------------------------------------

    @classmethod
    def from_json(cls, data: Any, *, checked: bool = True) -> GameState:
        """Build a state from JSON data, raising :class:`StateError` on any problem.

        ``checked`` False: ``data`` is a state this program stored after checking it (its
        own :meth:`to_json`, or an upload checked before it was saved), read back, so it is
        not checked against the schema again: the check is most of the parse (3.8 of 4.2 ms
        on the reference position). Anything from outside must be checked."""
        if checked:
            _schema_check(data)
        board, map_ref = _load_board(data["map"])
        switches = data.get("stipulation", {}).get("switches", {})
        state = cls(
            board=board,
            map_ref=map_ref,
            figures=tuple(_figure(f) for f in data["figures"]),
            blips=tuple(
                Blip(b["id"], tuple(b["square"]), b["type"]) for b in data.get("blips", [])
            ),
            reinforcements=tuple(data.get("reinforcements", [])),
            tokens=tuple(
                Token(t["id"], t["source"], t["alien"], t.get("taken_by"))
                for t in data.get("tokens", [])
            ),
            players=_players(data),
            initiative=tuple(data.get("initiative", [])),
            round=data.get("round", 1),
            active_player=data.get("active_player"),
            stipulation=Stipulation(
                data.get("stipulation", {}).get("type", "alien_hunt"),
                MappingProxyType(without_legacy(switches)),
            ),
            surveyed_sections=tuple(data.get("surveyed_sections", [])),
            flags=tuple(
                Flag(
                    f["id"],
                    tuple(f["square"]) if f.get("square") is not None else None,
                    f.get("carried_by"),
                    f.get("hidden", False),
                )
                for f in data.get("flags", [])
            ),
            items=tuple(
                Item(i["id"], tuple(i["square"]), i["weapon"]) for i in data.get("items", [])
            ),
            data_overrides=MappingProxyType(dict(data.get("data_overrides", {}))),
            doors=_doors(board, data.get("doors", [])),
            turn=TurnRecord.from_json(data.get("turn")),
            progress=Progress.from_json(data.get("progress"), switches),
            outcome=Outcome.from_json(data.get("outcome")),
        )
        problems = semantic_problems(state)
        if problems:
            raise StateError(problems)
        return state

    @classmethod
    def from_file(cls, path: str | Path) -> GameState:
        path = Path(path)
        text = read_text_file(path)
        try:
            data = json_text.loads(text)
        except json.JSONDecodeError as exc:
            raise StateError(
                [
                    Problem.coded(
                        "$",
                        "not_json",
                        file=str(path),
                        msg=exc.msg,
                        line=exc.lineno,
                        column=exc.colno,
                    )
                ]
            ) from exc
        return cls.from_json(data)

    def to_json(self) -> dict[str, Any]:
        initial = self.board.initial_door_states()
        data = {
            "format": STATE_FORMAT,
            "map": self.map_ref if self.map_ref else board_to_json(self.board),
            "round": self.round,
            "active_player": self.active_player,
            "players": [p.to_json() for p in self.players],
            "initiative": list(self.initiative),
            "stipulation": {
                "type": self.stipulation.type,
                "switches": dict(self.stipulation.switches),
            },
            "figures": [f.to_json() for f in self.figures],
            "doors": [
                {"between": [list(e[0]), list(e[1])], "state": s.value}
                for e, s in self.doors.items()
                if s is not initial[e]
            ],
            "blips": [{"id": b.id, "square": list(b.square), "type": b.type} for b in self.blips],
            "reinforcements": list(self.reinforcements),
            "tokens": [
                {"id": t.id, "source": t.source, "alien": t.alien, "taken_by": t.taken_by}
                for t in self.tokens
            ],
            "surveyed_sections": list(self.surveyed_sections),
            "flags": [
                {
                    "id": f.id,
                    "square": list(f.square) if f.square is not None else None,
                    "carried_by": f.carried_by,
                    "hidden": f.hidden,
                }
                for f in self.flags
            ],
            "data_overrides": dict(self.data_overrides),
            "turn": self.turn.to_json(),
            "progress": self.progress.to_json(),
            "outcome": None if self.outcome is None else self.outcome.to_json(),
        }
        if self.items:  # written only when there are some: older states stay as they were
            data["items"] = [
                {"id": i.id, "square": list(i.square), "weapon": i.weapon} for i in self.items
            ]
        return data


def carry_memo(before: GameState, after: GameState) -> None:
    """Give ``after`` the memo entries of ``before`` that still hold, ``after`` being made
    from ``before`` by moving, hurting or removing figures (none added) and changing
    doors, scores or tokens (:mod:`rules.engine.state_memo` lists what each entry depends
    on). Nothing is inherited across a change of board, blips or surveyed sections, nor
    when a figure appeared. When only aliens changed, the marine side's entries are
    (:meth:`StateMemo.inherit_marine_side`). When marine-side figures were hurt or
    removed (the doors the same, no vehicle or pilot among them), the entries of the
    other players are (:meth:`StateMemo.inherit_unhurt`). Whenever every figure still
    stands where it stood, movement's occupancy tables are too."""
    kept = before.made_memo()
    if (
        kept is None
        or after is before
        or after.blips is not before.blips
        or after.surveyed_sections is not before.surveyed_sections
    ):
        return
    old, new = before.figures, after.figures
    changed: list[Figure] = []  # both versions of a changed figure, or a removed one
    if len(old) == len(new):
        same_squares = True
        for a, b in zip(old, new, strict=True):
            if a is not b:
                if a.id != b.id:
                    return
                changed += (a, b)
                if a.squares != b.squares or a.side != b.side or a.player != b.player:
                    same_squares = False
        if same_squares:
            after.memo.inherit_standing(kept)
    else:
        removed = 0
        for a in old:
            if not after.has_figure(a.id):
                changed.append(a)
                removed += 1
            elif after.figure(a.id) is not a:
                changed += (a, after.figure(a.id))
        if len(new) != len(old) - removed:
            return  # a figure appeared
    marines = [f for f in changed if f.side != ALIEN or f.piloting is not None]
    if not marines:
        after.memo.inherit_marine_side(kept, same_doors=after.doors is before.doors)
        return
    if after.doors is not before.doors or any(
        f.piloting is not None or f.unit == "tarantula" or f.is_dreadnought for f in marines
    ):
        return
    # Figures of ``before`` that are the same objects in ``after`` (none appeared).
    kept_ids = {f.id for f in old}.difference([f.id for f in changed])
    after.memo.inherit_unhurt(kept, {f.player for f in marines}, kept_ids)


# -- loading helpers ------------------------------------------------------------------------


_STATE_FIELDS = frozenset(f.name for f in fields(GameState))
#: Tables derived from the figures alone (none of them is ever changed in place).
_FIGURE_LOOKUPS = ("_by_id", "_slot", "occupant")
#: Tables derived from the doors alone.
_DOOR_LOOKUPS = ("door_open_slots",)
#: Every table a state derives (the memo included).
_DERIVED_TABLES = tuple(
    name for name, value in vars(GameState).items() if isinstance(value, _derived)
)


@memoised("state.schema", bound=1, depends_on="schema/state.schema.json")
def state_schema() -> dict[str, Any]:
    return json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))


def _json_path(parts: Iterable[Any]) -> str:
    out = "$"
    for part in parts:
        out += f"[{part}]" if isinstance(part, int) else f".{part}"
    return out


#: Parsed states by a hash of their JSON content, so a state stored once is parsed (and
#: checked) once per process, and its own memo stays warm from one request to the next.
_PARSED = declare(
    "state.parsed",
    bound=16,
    depends_on="the state's JSON content (a hash of its canonical text); a bundled map "
    "as it was when the state was first parsed",
)


def _content_key(data: Any) -> str:
    text = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def parsed_state(data: Any, *, checked: bool = True) -> GameState:
    """:meth:`GameState.from_json` of ``data`` (``checked``: as there), the same object
    again for the same content (a stored state is never changed in place: an equal text is
    an equal state)."""
    key = _content_key(data)
    state = _PARSED.get(key)
    if state is None:
        state = _PARSED.put(key, GameState.from_json(data, checked=checked))
    return state


def keep_parsed(state: GameState, data: Any) -> None:
    """Remember ``state`` as the parse of ``data``, its own :meth:`GameState.to_json` just
    stored, so the next request reading it back skips the parse."""
    _PARSED.put(_content_key(data), state)


#: The validator of each state schema (the one file; a test may swap in another).
_VALIDATORS = declare("state.validator", bound=2, depends_on="the state schema (state.schema)")


def _whole_number(checker: Any, instance: Any) -> bool:
    """JSON Schema counts ``0.0`` as an integer; a state's squares, counts and numbers are
    whole numbers written as such, so a decimal is refused as the wrong type (it would
    otherwise reach the board as a float index)."""
    return isinstance(instance, int) and not isinstance(instance, bool)


#: Draft 2020-12 with integers that are whole numbers written as such (see above).
StateValidator = jsonschema.validators.extend(
    jsonschema.Draft202012Validator,
    type_checker=jsonschema.Draft202012Validator.TYPE_CHECKER.redefine("integer", _whole_number),
)


def _validator() -> jsonschema.Draft202012Validator:
    schema = state_schema()
    kept = _VALIDATORS.get(id(schema))
    if kept is None or kept[0] is not schema:
        validator = StateValidator(inlined(schema))
        kept = _VALIDATORS.put(id(schema), (schema, validator))
    return kept[1]


def _schema_check(data: Any) -> None:
    validator = _validator()
    errors = sorted(validator.iter_errors(data), key=lambda e: list(map(str, e.absolute_path)))
    if errors:
        raise StateError([_schema_problem(e) for e in errors])


def _schema_problem(error: jsonschema.ValidationError) -> Problem:
    """A schema error as a coded problem at its path; for ``oneOf``, the closest branch's."""
    path = _json_path(error.absolute_path)
    if error.validator == "oneOf" and error.context:
        error = jsonschema.exceptions.best_match(error.context)
    for code, params in _schema_codes(error):
        problem = Problem.coded(path, code, **params)
        # The English text must stay jsonschema's own; a wording it changed falls through.
        if problem.message == error.message:
            return problem
    return Problem.coded(path, "schema_other", detail=error.message)


#: Validators whose message shows the value checked and the schema's limit or values.
_SCHEMA_VALUE_CODES = {
    "type": ("schema_type", "types"),
    "enum": ("schema_enum", "allowed"),
    "pattern": ("schema_pattern", "pattern"),
    "minimum": ("schema_minimum", "limit"),
    "maximum": ("schema_maximum", "limit"),
    "minItems": ("schema_min_items", "limit"),
    "maxItems": ("schema_max_items", "limit"),
}


def _schema_codes(error: jsonschema.ValidationError) -> Iterable[tuple[str, dict[str, Any]]]:
    """Candidate (code, params) for a schema error (several when its message names one of a
    few properties)."""
    kind, instance, expected = error.validator, error.instance, error.validator_value
    if kind == "required" and isinstance(instance, Mapping) and isinstance(expected, list):
        for name in expected:
            if name not in instance:
                yield "schema_required", {"property": name}
    elif kind == "additionalProperties" and isinstance(instance, Mapping):
        known = error.schema.get("properties", {}) if isinstance(error.schema, Mapping) else {}
        extras = sorted((name for name in instance if name not in known), key=str)
        yield "schema_additional", {"properties": extras}
    elif kind == "const":
        yield "schema_const", {"expected": expected}
    elif kind in _SCHEMA_VALUE_CODES:
        code, name = _SCHEMA_VALUE_CODES[kind]
        if kind == "type" and isinstance(expected, str):
            expected = [expected]
        yield code, {"value": instance, name: expected}


def validate_map_json(data: Any) -> Board:
    """Check a map's JSON form against the schema and build the board (StateError if bad)."""
    schema = {"$defs": state_schema()["$defs"], "$ref": "#/$defs/map"}
    errors = list(StateValidator(schema).iter_errors(data))
    if errors:
        raise StateError([_schema_problem(e) for e in errors])
    try:
        return board_from_json(data)
    except BoardError as exc:
        raise StateError([Problem.coded("$", "bad_map", detail=str(exc))]) from exc


def _load_board(spec: Any) -> tuple[Board, str | None]:
    if isinstance(spec, str):
        try:
            return shared_map(spec), spec
        except FileNotFoundError as exc:
            problem = Problem.coded("$.map", "unknown_map", map=spec, maps=bundled_maps())
            raise StateError([problem]) from exc
        except ValueError as exc:
            raise StateError([Problem.coded("$.map", "bad_map", detail=str(exc))]) from exc
    try:
        return shared_board_from_json(spec), None
    except BoardError as exc:
        raise StateError([Problem.coded("$.map", "bad_map", detail=str(exc))]) from exc


def _figure(f: dict[str, Any]) -> Figure:
    return Figure(
        id=f["id"],
        side=f["side"],
        player=f.get("player"),
        unit=f["unit"],
        squares=tuple(tuple(sq) for sq in f["squares"]),
        life_points=f["life_points"],
        facing=Facing(f.get("facing", "N")),
        weapons=tuple(f.get("weapons", [])),
        equipment=tuple(f.get("equipment", [])),
        piloting=f.get("piloting"),
        number=f.get("number"),
    )


def _players(data: dict[str, Any]) -> tuple[Player, ...]:
    if "players" in data:
        return tuple(
            Player(
                p["id"],
                p.get("squad"),
                p.get("claw"),
                p.get("score", 0),
                tuple(p.get("cards", [])),
                tuple(p.get("cards_spent", [])),
                tuple(p.get("targeter_marks", [])),
            )
            for p in data["players"]
        )
    return tuple(Player(pid) for pid in data.get("initiative", []))


def _doors(board: Board, entries: list[dict[str, Any]]) -> dict[Edge, DoorState]:
    problems = []
    doors: dict[Edge, DoorState] = {}
    for i, entry in enumerate(entries):
        a, b = (tuple(entry["between"][0]), tuple(entry["between"][1]))
        path = f"$.doors[{i}]"
        if not is_orthogonally_adjacent(a, b):
            problems.append(Problem.coded(f"{path}.between", "door_not_adjacent"))
            continue
        e = edge(a, b)
        door = board.doors.get(e)
        state = DoorState(entry["state"])
        where = {"a": list(a), "b": list(b)}
        if door is None:
            problems.append(Problem.coded(f"{path}.between", "no_door", **where))
        elif e in doors:
            problems.append(Problem.coded(f"{path}.between", "door_twice", **where))
        elif door.always_open and state is not DoorState.OPEN:
            problems.append(Problem.coded(f"{path}.state", "door_always_open", **where))
        elif (door.state in (DoorState.BULKHEAD, DoorState.DESTROYED)) != (
            state in (DoorState.BULKHEAD, DoorState.DESTROYED)
        ):
            code = "bulkhead_state" if door.state is DoorState.BULKHEAD else "ordinary_door_state"
            problems.append(Problem.coded(f"{path}.state", code, door_state=state.value, **where))
        else:
            doors[e] = state
    if problems:
        raise StateError(problems)
    return doors


def semantic_problems(state: GameState) -> list[Problem]:
    """Consistency problems of a state, each with the JSON path of the offending value."""
    problems: list[Problem] = []
    board = state.board

    def add(path: str, code: str, /, **params: Any) -> None:
        problems.append(Problem.coded(path, code, **params))

    player_ids: set[str] = set()
    for i, p in enumerate(state.players):
        if p.id in player_ids:
            add(f"$.players[{i}].id", "player_id_twice", player=p.id)
        player_ids.add(p.id)
        if p.claw is not None and p.claw not in {c.id for c in board.claws}:
            add(f"$.players[{i}].claw", "no_claw", claw=p.claw)
    seen_init: set[str] = set()
    for i, pid in enumerate(state.initiative):
        if pid not in player_ids:
            add(f"$.initiative[{i}]", "unknown_player", player=pid)
        if pid in seen_init:
            add(f"$.initiative[{i}]", "player_twice", player=pid)
        seen_init.add(pid)
    if state.active_player is not None and state.active_player not in player_ids:
        add("$.active_player", "unknown_player", player=state.active_player)

    figure_ids: dict[str, Figure] = {}
    occupied: dict[Square, str] = {}
    for i, f in enumerate(state.figures):
        path = f"$.figures[{i}]"
        if f.id in figure_ids:
            add(f"{path}.id", "figure_id_twice", figure=f.id)
        figure_ids[f.id] = f
        if f.side == MARINE and f.player is None:
            if f.unit not in VEHICLE_UNITS:
                add(f"{path}.player", "marine_needs_player")
        elif f.side == MARINE and f.player not in player_ids:
            add(f"{path}.player", "unknown_player", player=f.player)
        elif f.side == ALIEN and f.player is not None:
            add(f"{path}.player", "alien_has_player")
        n = len(f.squares)
        if n == 0 and f.piloting is None:
            add(f"{path}.squares", "needs_square")
        elif n == 3:
            add(f"{path}.squares", "square_count")
        elif n == 2 and not is_orthogonally_adjacent(*f.squares):
            add(f"{path}.squares", "tarantula_squares")
        elif n == 4 and not is_2x2_block(f.squares):
            add(f"{path}.squares", "dreadnought_squares")
        for j, sq in enumerate(f.squares):
            spath = f"{path}.squares[{j}]"
            if not board.in_bounds(sq):
                add(spath, "off_board", square=list(sq), width=board.width, height=board.height)
            elif board.is_solid(sq):
                add(spath, "solid", square=list(sq))
            elif sq in occupied:
                add(spath, "square_taken", square=list(sq), figure=occupied[sq])
            elif f.side == ALIEN and board.claw_of(sq) is not None:
                add(spath, "alien_in_claw", square=list(sq), claw=board.claw_of(sq))
            else:
                occupied[sq] = f.id
    numbers: dict[tuple[str, int], str] = {}
    for i, f in enumerate(state.figures):
        if f.number is None:
            continue
        path = f"$.figures[{i}].number"
        if not takes_number(f):
            add(path, "number_not_taken", figure=f.id)
        elif (f.unit, f.number) in numbers:
            other = numbers[(f.unit, f.number)]
            add(path, "number_twice", figure=f.id, other=other, number=f.number, unit=f.unit)
        else:
            numbers[(f.unit, f.number)] = f.id
    pilots: dict[str, str] = {}
    for i, f in enumerate(state.figures):
        if f.piloting is None:
            continue
        path = f"$.figures[{i}].piloting"
        if f.piloting not in figure_ids:
            add(path, "unknown_figure", figure=f.piloting)
        elif f.piloting == f.id:
            add(path, "pilots_itself")
        elif f.piloting in pilots:
            add(path, "already_piloted", figure=f.piloting, pilot=pilots[f.piloting])
        else:
            pilots[f.piloting] = f.id
            if f.squares and figure_ids[f.piloting].is_dreadnought:
                add(f"$.figures[{i}].squares", "pilot_inside")

    blip_ids: set[str] = set()
    blip_squares: set[Square] = set()
    for i, b in enumerate(state.blips):
        path = f"$.blips[{i}]"
        if b.id in blip_ids:
            add(f"{path}.id", "blip_id_twice", blip=b.id)
        blip_ids.add(b.id)
        sq = b.square
        if not board.in_bounds(sq):
            add(f"{path}.square", "blip_off_board", square=list(sq))
        elif board.is_solid(sq):
            add(f"{path}.square", "solid", square=list(sq))
        elif sq in occupied:
            add(f"{path}.square", "blip_on_figure", square=list(sq), figure=occupied[sq])
        elif sq in blip_squares:
            add(f"{path}.square", "blip_on_blip", square=list(sq))
        blip_squares.add(sq)

    token_ids: set[str] = set()
    for i, t in enumerate(state.tokens):
        if t.id in token_ids:
            add(f"$.tokens[{i}].id", "token_id_twice", token=t.id)
        token_ids.add(t.id)
        if t.taken_by is not None and t.taken_by not in player_ids:
            add(f"$.tokens[{i}].taken_by", "unknown_player", player=t.taken_by)

    section_ids = {s.id for s in board.sections}
    for i, sid in enumerate(state.surveyed_sections):
        if sid not in section_ids:
            add(f"$.surveyed_sections[{i}]", "no_section", section=sid)

    for i, flag in enumerate(state.flags):
        path = f"$.flags[{i}]"
        if (flag.square is None) == (flag.carried_by is None):
            add(path, "flag_place")
        if flag.carried_by is not None and flag.carried_by not in figure_ids:
            add(f"{path}.carried_by", "unknown_figure", figure=flag.carried_by)
        if flag.square is not None and board.is_solid(flag.square):
            add(f"{path}.square", "flag_square", square=list(flag.square))
    item_ids: set[str] = set()
    for i, item in enumerate(state.items):
        if item.id in item_ids:
            add(f"$.items[{i}].id", "item_id_twice", item=item.id)
        item_ids.add(item.id)
        if not board.in_bounds(item.square) or board.is_solid(item.square):
            add(f"$.items[{i}].square", "item_square", square=list(item.square))
    for i, pid in enumerate(state.progress.shielded):
        if pid not in player_ids:
            add(f"$.progress.shielded[{i}]", "unknown_player", player=pid)
    for i, (pid, _round) in enumerate(state.progress.eliminated):
        if pid not in player_ids:
            add(f"$.progress.eliminated[{i}].player", "unknown_player", player=pid)
    if state.outcome is not None:
        for name, players in (
            ("winners", state.outcome.winners),
            ("ranking", state.outcome.ranking),
        ):
            for i, pid in enumerate(players):
                if pid not in player_ids:
                    add(f"$.outcome.{name}[{i}]", "unknown_player", player=pid)
    if state.stipulation.type not in STIPULATIONS:
        add("$.stipulation.type", "unknown_stipulation", stipulation=state.stipulation.type)
    return problems


def load_state(source: str | Path | dict[str, Any]) -> GameState:
    """A state from a file path or from already-parsed JSON data."""
    if isinstance(source, dict):
        return GameState.from_json(source)
    return GameState.from_file(source)


def build_state(board: Board | str, figures: Iterable[Figure] = (), **fields: Any) -> GameState:
    """A checked state from a board (or a map drawing, see ``docs/maps.md``) and figures,
    for tests and tools. Players default to the figures' players in order of appearance;
    other ``GameState`` fields may be given by name. Raises :class:`StateError`."""
    if isinstance(board, str):
        board = parse_map(board)
    figures = tuple(figures)
    if "players" not in fields:
        ids: list[str] = []
        for f in figures:
            if f.player is not None and f.player not in ids:
                ids.append(f.player)
        fields["players"] = tuple(Player(pid) for pid in ids)
    fields.setdefault("initiative", tuple(p.id for p in fields["players"]))
    state = GameState(board=board, figures=figures, **fields)
    problems = semantic_problems(state)
    if problems:
        raise StateError(problems)
    return state


def rules_of(state: GameState) -> RulesData:
    """The rules data a game plays with: the defaults with the tournament's overrides its
    state carries (cached per overrides, like :func:`load_rules_data`)."""
    return load_rules_data(dict(state.data_overrides) or None)


#: Far above any state or map drawing: a wrong file is refused after its first bytes.
MAX_FILE_MEGABYTES = 20


def read_text_file(path: str | Path) -> str:
    """The UTF-8 text of a file the engine is given (a state, a map drawing); a file that
    cannot be read, is larger than :data:`MAX_FILE_MEGABYTES` or is not UTF-8 is a
    :class:`StateError` naming the file and why, in the reader's language."""
    path = Path(path)
    limit = MAX_FILE_MEGABYTES * 1_000_000
    try:
        with path.open("rb") as handle:
            data = handle.read(limit + 1)
        if len(data) > limit:
            raise StateError(
                [Problem.coded("$", "too_large", file=str(path), limit=MAX_FILE_MEGABYTES)]
            )
        return data.decode("utf-8")
    except OSError as exc:
        reason = errno.errorcode.get(exc.errno or 0, "")
        raise StateError(
            [Problem.coded("$", "cannot_read", file=str(path), reason=exc.strerror, errno=reason)]
        ) from exc
    except UnicodeDecodeError as exc:
        raise StateError([Problem.coded("$", "not_utf8", file=str(path))]) from exc
