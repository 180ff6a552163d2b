"""A plain, script-free public standings page (the rich pages live in ``views``)."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_safe

from tournaments.models import Rank, Tournament
from tournaments.standings import get_standings
from tournaments.views.public import standings_context


@require_safe
def standings_plain(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = get_object_or_404(Tournament, slug=slug)
    context = standings_context(tournament, get_standings(tournament))
    rows = [
        {**row, "rank_name": Rank(row["rank"]).label} for row in context["standings"]["players"]
    ]
    return render(request, "tournaments/standings_plain.html", {**context, "rows": rows})
