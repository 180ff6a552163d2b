"""Deleting a whole tournament from the organiser's pages: a page that says what goes and
asks for the tournament's short name, typed, before anything is deleted."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from tournaments.actions.tournament_setup import TournamentDeleteError, delete_tournament
from tournaments.forms.deletion import TournamentDeleteForm
from tournaments.models import Tournament
from tournaments.web.permissions import organiser_required
from tournaments.web.request_types import AccountHttpRequest


@organiser_required
@require_http_methods(["GET", "POST"])
def tournament_delete(request: AccountHttpRequest, tournament: Tournament) -> HttpResponse:
    form = TournamentDeleteForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            delete_tournament(
                tournament, confirmation=form.cleaned_data["confirmation"], actor=request.user
            )
        except TournamentDeleteError as error:
            form.add_error("confirmation", str(error))
        else:
            messages.success(request, _("Tournament %(name)s deleted.") % {"name": tournament.name})
            return redirect("tournaments:organiser_home")
    context = {
        "tournament": tournament,
        "form": form,
        "otab": "dashboard",
    }
    status = 400 if form.errors else 200
    return render(request, "organiser/tournament_delete.html", context, status=status)
