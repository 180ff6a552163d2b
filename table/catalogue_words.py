"""The board's pages speak in the tournament's own words: the chapter cards, the alien event
cards and the weapons are named as the tournament's catalogue names them (the organiser may
have renamed them, or given the Italian names RULES §5 leaves to them), in the step log, the
panels, the game summaries and the errors alike
(:func:`tournaments.queries.tournament_catalogue.catalogue_words`). A player's card is
named as their own chapter's deck names it: the session's seats say whose chapter each
player and figure is."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps

from django.http import HttpRequest, HttpResponse

from table.game_setup import seat_arms, squad_figure_ids
from table.seating import game_player_id
from tournaments.models import Seat, Tournament
from tournaments.queries.tournament_catalogue import catalogue_words


def seated_chapters(session_pk: int) -> dict[str, str]:
    """The chapter (squad slug) of each seated player's id in the session's games (``p1``)
    and of each of their figures' ids as a game sets them up (``p1-cmd``, ``p1-m1``...)."""
    owners: dict[str, str] = {}
    seats = Seat.objects.filter(session_id=session_pk, squad__isnull=False).select_related(
        "squad", "loadout"
    )
    for seat in seats:
        player = game_player_id(seat)
        chapter = seat.squad.slug if seat.squad is not None else ""
        for owner in (player, *squad_figure_ids(player, seat_arms(seat))):
            owners[owner] = chapter
    return owners


def in_catalogue_words(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """``view`` (of the session ``pk``) rendering the engine's texts in its tournament's
    catalogue words, each player's cards in their chapter's."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        tournament = Tournament.objects.filter(stages__sessions=kwargs["pk"]).first()
        if tournament is None:  # no such session: the view answers
            return view(request, *args, **kwargs)
        with catalogue_words(tournament, seated_chapters(kwargs["pk"])):
            return view(request, *args, **kwargs)

    return wrapper
