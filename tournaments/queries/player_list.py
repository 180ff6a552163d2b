"""The organiser's list of a tournament's registered players: found by name, nickname,
email or number, a page at a time (2,187 players listed whole made a page of 3 MB)."""

from __future__ import annotations

from django.db.models import Q, QuerySet

from tournaments.models import Registration, Tournament

#: Players a page of the organiser's list.
PLAYERS_PAGE_SIZE = 100
#: Above this many players the list offers a search (a phone shows about three a screen).
SEARCH_ABOVE = 20


def registrations(tournament: Tournament, search: str = "") -> QuerySet[Registration]:
    """The tournament's registrations in registration order with their players and
    accounts; ``search``: only those whose name, nickname or email holds it (any case), or
    whose number it is."""
    found = Registration.objects.filter(tournament=tournament).select_related("player__user")
    search = search.strip()
    if search:
        matching = (
            Q(player__name__icontains=search)
            | Q(player__nickname__icontains=search)
            | Q(player__email__icontains=search)
        )
        if search.isdigit():
            matching |= Q(number=int(search))
        found = found.filter(matching)
    return found.order_by("number")


def page_of(tournament: Tournament, player_id: int) -> int:
    """The page of the whole list (no search) that lists the player."""
    registration = Registration.objects.get(tournament=tournament, player_id=player_id)
    before = Registration.objects.filter(tournament=tournament, number__lt=registration.number)
    return before.count() // PLAYERS_PAGE_SIZE + 1
