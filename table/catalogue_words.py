"""The board's pages speak in the tournament's own words: the chapter cards and the alien
event cards are named as the tournament's catalogue names them (the organiser may have
renamed them, or given the Italian names RULES §5 leaves to them), in the step log, the
panels, the game summaries and the errors alike
(:func:`tournaments.queries.tournament_catalogue.catalogue_words`)."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps

from django.http import HttpRequest, HttpResponse

from tournaments.models import Tournament
from tournaments.queries.tournament_catalogue import catalogue_words


def in_catalogue_words(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """``view`` (of the session ``pk``) rendering the engine's texts in its tournament's
    catalogue words."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        tournament = Tournament.objects.filter(stages__sessions=kwargs["pk"]).first()
        if tournament is None:  # no such session: the view answers
            return view(request, *args, **kwargs)
        with catalogue_words(tournament):
            return view(request, *args, **kwargs)

    return wrapper
