"""Which figures an alien may attack (RULES §10-11): the targets of each player.

A marine-side figure is a target while it is on the board, outside every docking claw,
and not an abandoned vehicle (a Tarantula or a Dreadnought nobody pilots); none of a
player's figures is while Blind Grenades shield that player (``state.progress.shielded``). The event
phase picks its player among the players with a target, the Alien AI its focus.
"""

from __future__ import annotations

from rules.engine.state import MARINE, Figure, GameState


def targets_of(state: GameState, player: str) -> list[Figure]:
    """The player's figures an alien may attack (memoised per state, with the marine
    side's entries: a kept list, not to be changed)."""
    if player in state.progress.shielded:
        return []
    kept = state.memo.marine_side().targets
    cached = kept.get(player)
    if cached is not None:
        return cached
    board = state.board
    out = [
        f
        for f in state.figures
        if f.player == player
        and f.side == MARINE
        and f.on_board
        and not any(board.claw_of(sq) for sq in f.squares)
        and (
            f.unit != "tarantula"
            and not f.is_dreadnought
            or any(p.piloting == f.id for p in state.figures)
        )
    ]
    kept[player] = out
    return out


def players_in_play(state: GameState) -> list[str]:
    """Players with a figure an alien could attack, in initiative order."""
    order = list(state.initiative) or [p.id for p in state.players]
    return [p for p in order if targets_of(state, p)]
