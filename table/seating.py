"""Who sits at a game's table: the session's seats read for the board, by the game's
player ids (``p1`` is the seat in order 1)."""

from __future__ import annotations

from rules.engine.state import GameState
from tournaments.domain.roll_subjects import seat_player_id
from tournaments.models import Seat, Session


def game_player_id(seat: Seat) -> str:
    """The id the engine's state gives the player of ``seat`` (``p1`` for seat order 1)."""
    return seat_player_id(seat.seat_order)


def squad_colours(rows: list[dict]) -> dict[str, str]:
    """Each seated player's id in the game (``p1``...) -> their squad's colour, from the
    :func:`player_rows` already read."""
    return {row["id"]: row["squad"].colour for row in rows if row["squad"] is not None}


def player_rows(session: Session, state: GameState) -> list[dict]:
    """The state's players in initiative order, with the seated player's name and squad."""
    seats = {game_player_id(seat): seat for seat in session.seats.select_related("player", "squad")}
    order = list(state.initiative) + [p.id for p in state.players if p.id not in state.initiative]
    rows = []
    for pid in order:
        player = state.player(pid)
        seat = seats.get(pid)
        rows.append(
            {
                "id": pid,
                "name": seat.player.display_name if seat else pid,
                "squad": seat.squad if seat and seat.squad_id else None,
                "claw": player.claw,
                "score": player.score,
                "figures": len(state.figures_of(pid)),
            }
        )
    return rows
