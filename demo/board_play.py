"""Playing a game on the judge's board with the board's own actions, as a simple player would:
the demo's finished game and the tests' whole games are played this way.

Each player's turn, every marine of theirs (in figure order) attacks the first enemy it
can (an alien, or another squad's figure), else moves as close as it can to an enemy, a
blip or a flag (a flag's carrier goes home to its own docking claw) and then attacks if it
now can; the player then ends the turn. When every player has played, the Alien turn is
run with the game's policy (or, with nothing alien in play or a session played without
aliens, the next round is called).
Every die comes from a :class:`~rules.engine.dice.SeededDice` numbered from the game's
seed, so a game plays the same every time.

Only the board's actions write (:mod:`table.actions`, :mod:`table.turn_actions`): each step
is a snapshot as if a judge had clicked it.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from rules.engine.combat import AttackOption
from rules.engine.dice import SeededDice
from rules.engine.geometry import Square
from rules.engine.movement import UNREACHABLE, field_to_squares, reachable
from rules.engine.play.round_end import alien_turn_due
from rules.engine.state import ALIEN, MARINE, Figure, GameState
from rules.engine.turns import movement_allowance
from rules.engine.units import load_rules_data
from table.actions import (
    GameError,
    attack_choices,
    carry_out_turn,
    latest_snapshot,
    marine_attack,
    move_marine,
    request_alien_turn,
    snapshot_state,
)
from table.models import Game
from table.turn_actions import finish_turn, next_round

#: The attacks the player makes: at one figure (no area or line weapon, which may hit its
#: own squad).
SINGLE_TARGET = ("shoot", "hand_to_hand")


@dataclass
class BoardPlayer:
    """Plays ``game`` from where it stands; ``seed`` numbers the dice of every roll."""

    game: Game
    seed: int
    actor: Any = None
    rolls: Iterator[int] = field(init=False)
    #: The latest snapshot's number and state, read once per step.
    _seen: tuple[int, GameState] | None = field(init=False, default=None)

    def __post_init__(self) -> None:
        self.rolls = iter(range(self.seed * 1000, self.seed * 1000 + 10**6))

    def dice(self) -> SeededDice:
        return SeededDice(seed=next(self.rolls))

    def state(self) -> GameState:
        number = self.number()
        if self._seen is None or self._seen[0] != number:
            self._seen = (number, snapshot_state(latest_snapshot(self.game)))
        return self._seen[1]

    def number(self) -> int:
        numbers = self.game.snapshots.order_by("-number").values_list("number", flat=True)
        return numbers.first() or 0

    # -- whole games -------------------------------------------------------------------

    def play(self, rounds: int) -> GameState:
        """Play ``rounds`` rounds, or fewer if the game ends; the state at the end."""
        for _round in range(rounds):
            if self.state().outcome is not None:
                break
            self.play_round()
        return self.state()

    def play_round(self) -> None:
        """Every player's turn, then the Alien turn (or the next round)."""
        state = self.state()
        while state.outcome is None and not state.turn.aliens_phase:
            player = state.active_player
            if player is None:
                break
            self.play_turn(player)
            state = self.state()
            if state.outcome is not None:
                break  # the turn ended the game (one squad left): nothing more to end
            finish_turn(self.game, expected_number=self.number(), actor=self.actor)
            state = self.state()
        if state.outcome is not None:
            return
        if alien_turn_due(state):
            request = request_alien_turn(
                self.game,
                self.game.policy,
                self.dice(),
                expected_number=self.number(),
                actor=self.actor,
            )
            done = carry_out_turn(request.pk)  # at once (a queued task finds it done)
            if done is not None and done.error:
                raise GameError(done.error)
        else:
            next_round(self.game, expected_number=self.number(), actor=self.actor)

    # -- one turn ----------------------------------------------------------------------

    def play_turn(self, player: str) -> None:
        for figure_id in [f.id for f in self.state().figures_of(player) if _marine(f)]:
            if not self.state().has_figure(figure_id):
                continue
            if not self.attack(figure_id):
                self.move(figure_id)
                if self.state().has_figure(figure_id):
                    self.attack(figure_id)

    def attack(self, figure_id: str) -> bool:
        """The first attack of ``figure_id`` at an enemy figure; False when it has none."""
        state = self.state()
        me = state.figure(figure_id)
        options = attack_choices(state, figure_id)
        for index, option in enumerate(options):
            if option.kind in SINGLE_TARGET and _enemy(state, me, option):
                try:
                    marine_attack(
                        self.game,
                        figure_id,
                        index,
                        self.dice(),
                        expected_number=self.number(),
                        actor=self.actor,
                    )
                except GameError:
                    return False
                return True
        return False

    def move(self, figure_id: str) -> None:
        """Move ``figure_id`` as close as it can get to what it goes for (:func:`goals`),
        never onto a docking claw unless going home."""
        state = self.state()
        figure = state.figure(figure_id)
        goals, home = goals_of(state, figure)
        if not goals:
            return
        board = state.board
        distance = field_to_squares(state, figure_id, goals)
        allowance = movement_allowance(state, figure, load_rules_data(dict(state.data_overrides)))
        here = distance[board.index(figure.squares[0])]
        best: tuple[int, int, int, int] | None = None
        target: Square | None = None
        for square, steps in reachable(state, figure_id, allowance).items():
            if not steps or (board.claw_of(square) is not None and not home):
                continue
            key = (distance[board.index(square)], steps, square[1], square[0])
            if key[0] < here and (best is None or key < best):
                best, target = key, square
        if target is None or best is None or best[0] >= UNREACHABLE:
            return
        try:
            move_marine(
                self.game,
                figure_id,
                target,
                expected_number=self.number(),
                dice=self.dice(),
                actor=self.actor,
            )
        except GameError:
            return


def _marine(figure: Figure) -> bool:
    """A marine the player moves and fires with (no vehicle, no crew)."""
    return (
        figure.side == MARINE
        and figure.on_board
        and figure.unit != "tarantula"
        and not figure.is_dreadnought
        and figure.piloting is None
    )


def _enemy(state: GameState, me: Figure, option: AttackOption) -> bool:
    if option.target is None or not state.has_figure(option.target):
        return False
    target = state.figure(option.target)
    return target.side == ALIEN or target.player != me.player


def goals_of(state: GameState, figure: Figure) -> tuple[set[Square], bool]:
    """Where ``figure`` goes, and whether that is home: a flag's carrier to its own claw;
    otherwise next to an enemy figure or a blip, or onto a flag lying on the board."""
    board = state.board
    if any(flag.carried_by == figure.id for flag in state.flags):
        claw = state.player(figure.player).claw if figure.player else None
        squares = {sq for c in board.claws if c.id == claw for sq in c.squares}
        return squares, True
    goals: set[Square] = {flag.square for flag in state.flags if flag.square is not None}
    enemies = [
        sq
        for other in state.figures
        if other.on_board and (other.side == ALIEN or other.player != figure.player)
        for sq in other.squares
    ]
    enemies += [blip.square for blip in state.blips]
    for x, y in enemies:
        for sq in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if board.in_bounds(sq) and board.claw_of(sq) is None:
                goals.add(sq)
    return goals, False
