"""A player's next game in each tournament: table, time, squad, opponents, loadout status."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from django.db.models import Prefetch

from tournaments.models import Loadout, Player, Seat
from tournaments.queries.loadout_checks import loadout_lock_reasons, loadout_problems
from tournaments.queries.pages import live_games
from tournaments.queries.result_versions import latest_confirmed_versions

#: What the player still has to do about the loadout of their next game.
LOADOUT_WAITING_DRAW = "waiting_draw"
LOADOUT_MISSING = "missing"
LOADOUT_PROBLEMS = "problems"
LOADOUT_VALID = "valid"
#: The session is being played (or its stage closed): the loadout stays as it is.
LOADOUT_LOCKED = "locked"


@dataclass
class NextGame:
    seat: Seat
    opponents: list[Seat]
    loadout_status: str
    problems: list[str] = field(default_factory=list)
    #: The number of the board game the session is being played on, for the spectators'
    #: page (:func:`tournaments.queries.pages.live_games`); ``None`` when there is none.
    live_game: int | None = None

    @property
    def session(self):
        return self.seat.session

    @property
    def in_progress(self) -> bool:
        """The session is being played (it has no confirmed result, or it would not be
        the player's next game)."""
        return self.session.in_progress


def _loadout_status(seat: Seat) -> tuple[str, list[str]]:
    if seat.squad is None:
        return LOADOUT_WAITING_DRAW, []
    try:
        loadout = seat.loadout
    except Loadout.DoesNotExist:
        return LOADOUT_MISSING, []
    problems = [message for messages in loadout_problems(loadout).values() for message in messages]
    return (LOADOUT_PROBLEMS, problems) if problems else (LOADOUT_VALID, [])


def next_games(player: Player, locks: Mapping[int, str] | None = None) -> list[NextGame]:
    """Per tournament, the player's first session still without a confirmed result.
    ``locks``: :func:`loadout_lock_reasons` of (at least) the player's seats without one,
    when the caller read them already."""
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
    if locks is None:
        locks = loadout_lock_reasons(game.seat.pk for game in games.values())
    for game in games.values():
        if game.seat.pk in locks and game.loadout_status != LOADOUT_WAITING_DRAW:
            game.loadout_status, game.problems = LOADOUT_LOCKED, []
    live = live_games([game.seat.session_id for game in games.values() if game.in_progress])
    for game in games.values():
        game.live_game = live.get(game.seat.session_id)
    return list(games.values())
