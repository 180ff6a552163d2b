"""The engine's texts on the board's pages in the tournament's own words: the chapter cards
and the alien event cards are named as the tournament's catalogue names them (the organiser
may have renamed them, or given the Italian names RULES §5 leaves to them), in the step
log, the panels, the game summaries and the errors alike."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps

from django.http import HttpRequest, HttpResponse

from rules.engine.card_names import named_cards
from tournaments.models import ChapterCard, Tournament
from tournaments.queries.event_deck import event_card_names


def session_card_names(session_pk: int) -> dict[str, dict[str, str]]:
    """The names of the chapter cards of the session's tournament by effect code, each as its
    first squad's deck names it (an Italian name left empty reads as the English one). Empty
    for a tournament without cards of its own: the shipped names stand, as its catalogue's."""
    names: dict[str, dict[str, str]] = {}
    for code, english, italian in (
        ChapterCard.objects.filter(squad__tournament__stages__sessions=session_pk)
        .exclude(effect_code="")
        .order_by("squad__order", "squad_id", "order", "pk")
        .values_list("effect_code", "name_en", "name_it")
    ):
        names.setdefault(code, {"en": english, "it": italian or english})
    return names


def in_catalogue_words(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """``view`` (of the session ``pk``) rendering the engine's texts with the names of its
    tournament's chapter and event cards."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        session = kwargs["pk"]
        tournament = (
            Tournament.objects.only("data_overrides").filter(stages__sessions=session).first()
        )
        events = event_card_names(tournament) if tournament is not None else {}
        with named_cards(session_card_names(session), events):
            return view(request, *args, **kwargs)

    return wrapper
