"""An event card that brings a new alien next to a marine (effect ``alien_appears``).

The Genestealer card (RULES §12, three copies; research ``space-crusade-cards.md`` §5): a
Genestealer is placed next to a marine or the commander and moves and attacks normally
this turn. The sources leave the placement to the alien player; the engine settles it the
same way under every Alien policy (game engine decision 27 in ``docs/decisions.md``):

- **whose figure**: the card is played against a player chosen by the die (RULES §11),
  among the players with a figure an alien may attack (:func:`players_with_room`) that
  has a free square next to it;
- **which figure**: one of that player's marines and commander (never a vehicle) with a
  free square next to it, chosen by the dice, all equally likely: seed 000 chooses the
  marine of such a card by a d6 over the figures' numbers and rolls again for one that
  cannot be chosen, which gives the same odds;
- **which square**: a square sharing a side with the figure, with no wall, closed door or
  standing bulkhead between them, on the board and not solid, outside the docking claws
  (aliens never enter them), with no figure and no blip on it; the top-most, then the
  left-most of them (the engine's usual order for equal squares);
- **no free square**: when no player's figure has one, no alien appears and the log says
  so; the card is spent.

The new alien is an alien on the board like any other before the first activation, so
every policy activates it this turn by its type's behaviour.
"""

from __future__ import annotations

from collections.abc import Iterable

from rules.engine.geometry import Square, orthogonal_neighbours
from rules.engine.play.blips import spawn_alien
from rules.engine.play.chance import random_index
from rules.engine.play.targets import targets_of
from rules.engine.play.turn_context import TurnContext
from rules.engine.state import VEHICLE_UNITS, Figure, GameState

CODE = "alien_appears"


def free_squares_next_to(state: GameState, figure: Figure) -> list[Square]:
    """The squares next to ``figure`` where a new alien may be put, top-most first, then
    left-most."""
    board = state.board
    out = set()
    for origin in figure.squares:
        for sq in orthogonal_neighbours(origin):
            if (
                board.in_bounds(sq)
                and not board.is_solid(sq)
                and board.claw_of(sq) is None
                and state.figure_at(sq) is None
                and state.blip_at(sq) is None
                and state.edge_open(origin, sq)
            ):
                out.add(sq)
    return sorted(out, key=lambda s: (s[1], s[0]))


def hosts(state: GameState, player: str) -> list[Figure]:
    """The player's marines and commander an alien may attack (on the board, outside the
    claws, not shielded: :func:`targets_of`) with a free square next to them, in the
    state's order of figures."""
    return [
        f
        for f in targets_of(state, player)
        if f.unit not in VEHICLE_UNITS and free_squares_next_to(state, f)
    ]


def players_with_room(state: GameState, players: Iterable[str]) -> list[str]:
    """Those of ``players`` (kept in their order) with a figure a new alien may appear
    next to."""
    return [p for p in players if hosts(state, p)]


def alien_appears(ctx: TurnContext, unit: str, player: str | None) -> None:
    """Put a new ``unit`` next to a figure of ``player`` chosen by the dice, on its first
    free square, and log it; ``player`` None: nobody had room, and no alien appears."""
    figures = [] if player is None else hosts(ctx.state, player)
    if not figures:
        ctx.say("event_alien_no_room", unit=unit)
        return
    host = figures[random_index(ctx.dice, len(figures), "event_figure")]
    square = free_squares_next_to(ctx.state, host)[0]
    origin = f"event-{len(ctx.state.progress.events_drawn)}"
    ctx.state, figure = spawn_alien(ctx.state, ctx.rules, unit, square, origin)
    assert figure is not None, f"{square} was free for {unit}"
    ctx.say("event_alien_appears", unit=unit, figure=figure.id, square=list(square), target=host.id)
