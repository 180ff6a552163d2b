"""The organiser's page of the activity log: every entry of the tournament, newest first,
a page at a time, narrowed by action, session or account."""

from __future__ import annotations

from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_http_methods

from tournaments.forms.activity_filter import ActivityFilterForm
from tournaments.models import Tournament
from tournaments.queries.activity_actors import entry_actors
from tournaments.queries.activity_page import ACTIVITY_PAGE_SIZE, activity_entries
from tournaments.web.paging import page_links
from tournaments.web.permissions import organiser_required


@organiser_required
@require_http_methods(["GET"])
def activity(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    narrowing = ActivityFilterForm(request.GET, tournament=tournament)
    entries = activity_entries(tournament, **narrowing.narrowing())
    page = Paginator(entries, ACTIVITY_PAGE_SIZE).get_page(request.GET.get("page"))
    previous, following = page_links(request, page)
    return render(
        request,
        "organiser/activity.html",
        {
            "tournament": tournament,
            "form": narrowing,
            "narrowed": any(request.GET.get(name) for name in narrowing.fields),
            "page": page,
            "entries": entry_actors(list(page.object_list)),
            "previous": previous,
            "next": following,
            "otab": "activity",
        },
    )
