"""A player's next game in each tournament: table, time, squad, opponents, loadout status."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Prefetch

from tournaments.models import Loadout, Player, Seat
from tournaments.queries.loadout_checks import loadout_problems
from tournaments.queries.result_versions import latest_confirmed_versions

#: What the player still has to do about the loadout of their next game.
LOADOUT_WAITING_DRAW = "waiting_draw"
LOADOUT_MISSING = "missing"
LOADOUT_PROBLEMS = "problems"
LOADOUT_VALID = "valid"


@dataclass
class NextGame:
    seat: Seat
    opponents: list[Seat]
    loadout_status: str
    problems: list[str] = field(default_factory=list)

    @property
    def session(self):
        return self.seat.session


def _loadout_status(seat: Seat) -> tuple[str, list[str]]:
    if seat.squad is None:
        return LOADOUT_WAITING_DRAW, []
    try:
        loadout = seat.loadout
    except Loadout.DoesNotExist:
        return LOADOUT_MISSING, []
    problems = [message for messages in loadout_problems(loadout).values() for message in messages]
    return (LOADOUT_PROBLEMS, problems) if problems else (LOADOUT_VALID, [])


def next_games(player: Player) -> list[NextGame]:
    """Per tournament, the player's first session still without a confirmed result."""
    seats = list(
        Seat.objects.filter(player=player)
        .select_related("session__stage__tournament", "session__table", "squad", "loadout")
        .prefetch_related(
            Prefetch(
                "session__seats",
                queryset=Seat.objects.select_related("player", "squad").order_by("seat_order"),
            )
        )
        .order_by("session__stage__number", "session__scheduled_at", "session__number")
    )
    confirmed = latest_confirmed_versions([seat.session for seat in seats])
    games: dict[int, NextGame] = {}
    for seat in seats:
        tournament_id = seat.session.stage.tournament_id
        if seat.session_id in confirmed or tournament_id in games:
            continue
        status, problems = _loadout_status(seat)
        games[tournament_id] = NextGame(
            seat=seat,
            opponents=[other for other in seat.session.seats.all() if other.pk != seat.pk],
            loadout_status=status,
            problems=problems,
        )
    return list(games.values())
