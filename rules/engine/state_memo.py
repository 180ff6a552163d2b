"""What a game state remembers about itself, and what a new state made from it inherits.

A :class:`~rules.engine.state.GameState` never changes, so a table worked out from it
holds for the state's whole life: such tables are kept in ``state.memo``, a
:class:`StateMemo`. Every entry is declared below with the module that writes it and
what it depends on. A new state starts with an empty memo, except for the entries the
change that made it cannot have touched; the ``inherit_*`` methods are those rules, and
the state module (``GameState.replace``, ``without_figure``, ``with_alien_moved``,
:func:`rules.engine.state.carry_memo`) says which change happened.

Entries written by modules above the state (the Alien AI's assessments, plans...) are
typed ``Any`` here: this module sits below them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from .board import Board
from .geometry import Square

#: Movement's occupancy tables of one side: which squares a figure may pass, and which it
#: may stop on (``movement._occupancy_tables``).
Occupancy = tuple[bytes, bytes]

K = TypeVar("K")
V = TypeVar("V")


class MarineSideMemo:
    """Entries that depend only on the marine-side figures, the blips and which doors an
    alien can pass or open. An alien's move changes none of these, so the state after it
    shares this very object with the state before (what either adds holds for both), and
    two states sharing it have the same layout and marine side (``ai.readiness`` relies
    on that). Written by :mod:`rules.engine.play.targets` (``targets``) and
    :mod:`rules.engine.ai.reach` (the rest)."""

    __slots__ = (
        "targets",
        "attack_squares",
        "attack_indices",
        "player_counts",
        "field_layout",
        "players_table",
    )

    def __init__(self) -> None:
        #: Per player: the Figures an alien may attack (one player's figures).
        self.targets: dict[str, list[Any]] = {}
        #: Per target figure id: the squares to fight it from (its squares, the doors).
        self.attack_squares: dict[str, tuple[Square, ...]] = {}
        #: Per player: the board indices next to its targets (its figures, the doors).
        self.attack_indices: dict[str, frozenset[int]] = {}
        #: Per player: (marines in play, commander alive) (its figures).
        self.player_counts: dict[str, tuple[int, bool]] = {}
        #: What every alien's distances depend on besides its own squares (the board, the
        #: squares of non-alien figures, the blips, the openable doors).
        self.field_layout: tuple[Board, frozenset[Square], frozenset[Square], bytes] | None = None
        #: Per player with a target: (initiative index, player, attack indices, counts).
        self.players_table: list[tuple[Any, ...]] | None = None

    def inherit_unhurt(
        self, before: MarineSideMemo, hurt_players: Iterable[str | None], kept_ids: set[str]
    ) -> None:
        """Fill the entries ``before`` holds that still hold once some marine-side figures
        were hurt or removed (the doors as they were): those of the players in none of
        ``hurt_players`` and the attack squares of the targets still the same objects
        (``kept_ids``). Entries already here are kept."""
        hurt = set(hurt_players)
        _fill(self.targets, before.targets, lambda player: player not in hurt)
        _fill(self.attack_indices, before.attack_indices, lambda player: player not in hurt)
        _fill(self.player_counts, before.player_counts, lambda player: player not in hurt)
        _fill(self.attack_squares, before.attack_squares, kept_ids.__contains__)

    def fill_from(self, before: MarineSideMemo) -> None:
        """Fill every entry ``before`` holds and this one lacks (the same marine side)."""
        _fill(self.targets, before.targets)
        _fill(self.attack_squares, before.attack_squares)
        _fill(self.attack_indices, before.attack_indices)
        _fill(self.player_counts, before.player_counts)
        if self.field_layout is None:
            self.field_layout = before.field_layout
        if self.players_table is None:
            self.players_table = before.players_table


class StateMemo:
    """The tables worked out from one state, each None until its writer fills it (a dict
    entry is made by its first writer), listed with its writer and what it depends on."""

    __slots__ = ("alien_occupancy", "door_blockers", "side", "assessments", "approaches")

    def __init__(self) -> None:
        #: Movement's occupancy tables for aliens with no permissions (``movement``):
        #: depends on the board, the blips and where every figure stands (squares, side,
        #: player). Inherited by a state where all of those are the same
        #: (:meth:`inherit_standing`), patched after an alien's move or a figure's
        #: removal (:meth:`inherit_alien_move`, :meth:`inherit_freed`).
        self.alien_occupancy: Occupancy | None = None
        #: 1 for every door slot whose door blocks sight (``los.door_blockers``): depends
        #: on the door states. Inherited while the door table is the same object, when
        #: only aliens changed or marine-side figures were hurt or removed.
        self.door_blockers: bytes | None = None
        #: The entries of the marine side, the blips and the openable doors: see
        #: :class:`MarineSideMemo` (shared after an alien's move, :meth:`inherit_marine_side`;
        #: partly inherited after marine-side figures were hurt, :meth:`inherit_unhurt`).
        self.side: MarineSideMemo | None = None
        # -- this state only, never inherited: kept so that Monte Carlo turns resolved
        #    again from the same position work out its first activation once.
        #: (rules, figure, Assessment) by (figure id, allowance) (``ai.readiness``).
        self.assessments: dict[tuple[str, int], tuple[Any, Any, Any]] | None = None
        #: (reach, stop, remaining distances) by (figure id, player) (``ai.actions``).
        self.approaches: dict[tuple[str, str], tuple[Any, Any, Any]] | None = None

    def marine_side(self) -> MarineSideMemo:
        """The :class:`MarineSideMemo` (made on first use)."""
        side = self.side
        if side is None:
            side = self.side = MarineSideMemo()
        return side

    # -- inheritance: each fills only the entries this (new) memo still lacks ------------

    def inherit_standing(self, before: StateMemo) -> None:
        """Every figure stands as in ``before``'s state (same board and blips): take its
        alien occupancy table."""
        if self.alien_occupancy is None:
            self.alien_occupancy = before.alien_occupancy

    def inherit_freed(self, before: StateMemo, freed: Iterable[int], board: Board) -> None:
        """``before``'s state without one figure, which stood on ``freed`` (board indices
        where no blip lies): its alien occupancy table with those squares free again (no
        other figure can stand there). Every other table is built again."""
        tables = before.alien_occupancy
        if tables is None or self.alien_occupancy is not None:
            return
        open_ = board.alien_open_squares
        passable = bytearray(tables[0])
        free = bytearray(tables[1])
        for i in freed:
            passable[i] = free[i] = open_[i]
        self.alien_occupancy = (bytes(passable), bytes(free))

    def inherit_alien_move(
        self, before: StateMemo, left: Iterable[int], entered: Iterable[int], board: Board
    ) -> None:
        """An alien moved from the board indices ``left`` to ``entered``: an alien passes
        every alien, so only where one may stop changes in the alien occupancy table."""
        tables = before.alien_occupancy
        if tables is None or self.alien_occupancy is not None:
            return
        free = bytearray(tables[1])
        open_ = board.alien_open_squares
        for i in left:
            free[i] = open_[i]
        for i in entered:
            free[i] = 0
        self.alien_occupancy = (tables[0], bytes(free))

    def inherit_marine_side(self, before: StateMemo, same_doors: bool) -> None:
        """Only aliens changed (moved, hurt, removed; a door an alien opened on its way
        could be opened before): share the marine-side memo, and take the door blockers
        when the door table is the same."""
        side = before.side
        if side is not None:
            if self.side is None:
                self.side = side
            elif self.side is not side:
                self.side.fill_from(side)
        if same_doors and self.door_blockers is None:
            self.door_blockers = before.door_blockers

    def inherit_unhurt(
        self, before: StateMemo, hurt_players: set[str | None], kept_ids: set[str]
    ) -> None:
        """Marine-side figures of ``hurt_players`` were hurt or removed, none moved, the
        doors are the same table: take the door blockers and the marine-side entries that
        still hold."""
        if self.door_blockers is None:
            self.door_blockers = before.door_blockers
        side = before.side
        if side is not None:
            self.marine_side().inherit_unhurt(side, hurt_players, kept_ids)


def _fill(mine: dict[K, V], theirs: dict[K, V], keep: Callable[[K], bool] | None = None) -> None:
    """Copy into ``mine`` the entries of ``theirs`` it lacks (those whose key ``keep``
    accepts, when given)."""
    for key, value in theirs.items():
        if keep is None or keep(key):
            mine.setdefault(key, value)
