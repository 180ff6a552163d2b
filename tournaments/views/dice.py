"""The tournament's public Dice page and the page that replays one seed's rolls."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_GET

from tournaments.models import Tournament
from tournaments.queries.dice_page import (
    dice_stream,
    dice_streams,
    pending_announcements,
    stage_seatings,
)
from tournaments.views.public import cached_tournament_page
from tournaments.web.permissions import public

#: Rolls listed per stream on the Dice page (``?rolls=all``: every one); a stream's replay
#: page lists all of its rolls. Seating 2,187 players rolls some 11,000 dice.
DICE_ROLLS_SHOWN = 30


@public
@require_GET
def dice(request: HttpRequest, slug: str) -> HttpResponse:
    """Cached whole for anonymous visitors like the tournament's other public pages: the
    whole tournament may open it after a draw (30 ms computed at 243 players)."""
    every = request.GET.get("rolls") == "all"

    def context(tournament: Tournament) -> dict:
        return {
            "tournament": tournament,
            "seatings": stage_seatings(tournament),
            "streams": dice_streams(tournament, None if every else DICE_ROLLS_SHOWN),
            "announced": pending_announcements(tournament),
            "tab": "dice",
        }

    return cached_tournament_page(request, slug, "tournaments/dice.html", context)


@public
@require_GET
def dice_verify(request: HttpRequest, slug: str, key: str) -> HttpResponse:
    """One seed's rolls with the server's replay; the browser replays them again itself."""
    tournament = get_object_or_404(Tournament, slug=slug)
    stream = dice_stream(tournament, key)
    if stream is None or not stream.seeded:
        raise Http404("no app-rolled dice with this seed hash")
    check = stream.replay()
    rows = list(zip(stream.rolls, check.replayed, check.matches, strict=True))
    context = {
        "tournament": tournament,
        "stream": stream,
        "check": check,
        "rows": rows,
        "tab": "dice",
    }
    return render(request, "tournaments/dice_verify.html", context)
