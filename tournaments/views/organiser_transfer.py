"""A whole tournament out and in from the organiser's pages: the tournament document
(``docs/interchange.md``) downloaded as a file, and a document brought in as a new
tournament of the organiser's, every problem listed when it cannot be."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_http_methods

from tournaments.forms.transfer import TournamentImportForm
from tournaments.interchange.document import dumps
from tournaments.interchange.export import export_tournament
from tournaments.interchange.importer import check_document, import_document, parse_document
from tournaments.interchange.problems import InterchangeError, Problem
from tournaments.models import Tournament
from tournaments.web.permissions import creator_required, organiser_required
from tournaments.web.request_types import AccountHttpRequest

#: Problems listed on the page when a document is refused (the count says how many in all).
PROBLEMS_SHOWN = 100


#: The query that asks for the file even when an import would refuse it.
ANYWAY = "anyway"


@organiser_required
@require_GET
def tournament_export(request: AccountHttpRequest, tournament: Tournament) -> HttpResponse:
    """The tournament document as a file named after the tournament and today's date.

    When the import's checks find something in it (data changed outside the app's pages),
    a page lists what an import would refuse first, with the file a click away: a backup
    is never refused, and nobody keeps one unaware that it will not read back."""
    document = export_tournament(tournament)
    problems = [] if request.GET.get(ANYWAY) else check_document(document, check_slug=False)
    if problems:
        context = {
            "tournament": tournament,
            "problems": problems[:PROBLEMS_SHOWN],
            "problem_count": len(problems),
            "anyway": f"{request.path}?{ANYWAY}=1",
            "otab": "dashboard",
        }
        return render(request, "organiser/tournament_export.html", context)
    response = HttpResponse(dumps(document), content_type="application/json; charset=utf-8")
    day = timezone.localdate().strftime("%Y%m%d")
    response["Content-Disposition"] = f'attachment; filename="bob-{tournament.slug}-{day}.json"'
    return response


@creator_required
@require_http_methods(["GET", "POST"])
def tournament_import(request: AccountHttpRequest) -> HttpResponse:
    """A document becomes a new tournament, its importer one of its organisers."""
    form = TournamentImportForm(request.POST or None, request.FILES or None)
    problems: list[Problem] = []
    count = 0
    if request.method == "POST" and form.is_valid():
        try:
            document = parse_document(form.cleaned_data["file"])
            outcome = import_document(
                document, slug=form.cleaned_data["slug"] or None, organiser=request.user
            )
        except InterchangeError as error:
            count = len(error.problems)
            problems = error.problems[:PROBLEMS_SHOWN]
        else:
            tournament = outcome.tournament
            players, stages = tournament.registrations.count(), tournament.stages.count()
            messages.success(
                request,
                _("Tournament %(name)s imported: %(players)s, %(stages)s.")
                % {
                    "name": tournament.name,
                    "players": ngettext("%(count)d player", "%(count)d players", players)
                    % {"count": players},
                    "stages": ngettext("%(count)d stage", "%(count)d stages", stages)
                    % {"count": stages},
                },
            )
            if outcome.created_users:
                messages.warning(
                    request,
                    _(
                        "Accounts created for the names the document gives, without a "
                        "password: %(users)s. Each can log in once you give them a link to "
                        "set one (the Judges and Players pages)."
                    )
                    % {"users": ", ".join(outcome.created_users)},
                )
            return redirect("tournaments:organiser_dashboard", slug=tournament.slug)
    context = {"form": form, "problems": problems, "problem_count": count}
    status = 400 if problems or form.errors else 200
    return render(request, "organiser/tournament_import.html", context, status=status)
