"""Organiser pages for the venue: the round timer the projectors show, and result disputes."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from tournaments.actions.result_disputes import DisputeError, resolve_dispute
from tournaments.actions.timer_control import pause_timer, reset_timer, start_timer
from tournaments.domain.countdown import TimerError
from tournaments.forms.venue import DisputeResolutionForm, TimerResetForm
from tournaments.models import ResultDispute, Tournament
from tournaments.queries.dispute_lists import tournament_disputes
from tournaments.queries.venue_screen import timer_view
from tournaments.web.permissions import organiser_required


def _resolution_form(dispute: ResultDispute, data=None) -> DisputeResolutionForm:
    return DisputeResolutionForm(data, prefix=f"dispute-{dispute.pk}")


def _venue_page(
    request: HttpRequest,
    tournament: Tournament,
    *,
    reset_form: TimerResetForm | None = None,
    refused: tuple[ResultDispute, DisputeResolutionForm] | None = None,
    status: int = 200,
) -> HttpResponse:
    """The venue page; ``reset_form`` or ``refused`` (a dispute and its answer) bring back a
    refused form with its errors."""
    timer = timer_view(tournament, timezone.now())
    open_disputes, resolved = tournament_disputes(tournament)
    forms = {dispute.pk: _resolution_form(dispute) for dispute in open_disputes}
    if refused is not None:
        forms[refused[0].pk] = refused[1]
    if refused is not None or (reset_form is not None and reset_form.errors):
        status = 400
    return render(
        request,
        "organiser/venue.html",
        {
            "tournament": tournament,
            "timer": timer,
            "reset_form": reset_form or TimerResetForm(initial={"minutes": timer.minutes}),
            "open_disputes": [(dispute, forms[dispute.pk]) for dispute in open_disputes],
            "resolved_disputes": resolved,
            "otab": "venue",
        },
        status=status,
    )


@organiser_required
@require_GET
def venue(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    return _venue_page(request, tournament)


@organiser_required
@require_POST
def timer_control(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Start, pause or reset the round timer (every projector screen follows within seconds)."""
    command = request.POST.get("command", "")
    try:
        if command == "start":
            start_timer(tournament, actor=request.user)
            messages.success(request, _("The round timer is running."))
        elif command == "pause":
            pause_timer(tournament, actor=request.user)
            messages.success(request, _("The round timer is paused."))
        elif command == "reset":
            form = TimerResetForm(request.POST)
            if not form.is_valid():
                return _venue_page(request, tournament, reset_form=form)
            reset_timer(tournament, form.cleaned_data["minutes"], actor=request.user)
            messages.success(request, _("The round timer is set to a new round."))
        else:
            messages.error(request, _("Choose start, pause or reset for the round timer."))
            return _venue_page(request, tournament, status=400)
    except TimerError as error:
        messages.error(request, str(error))
    return redirect("tournaments:organiser_venue", slug=tournament.slug)


@organiser_required
@require_POST
def dispute_resolve(request: HttpRequest, tournament: Tournament, pk: int) -> HttpResponse:
    dispute = get_object_or_404(
        ResultDispute.objects.select_related("player"),
        pk=pk,
        session__stage__tournament=tournament,
    )
    form = _resolution_form(dispute, request.POST)
    if not form.is_valid():
        return _venue_page(request, tournament, refused=(dispute, form))
    try:
        resolve_dispute(
            dispute,
            outcome=form.cleaned_data["outcome"],
            note=form.cleaned_data["note"],
            actor=request.user,
        )
    except DisputeError as error:
        messages.error(request, str(error))
    else:
        messages.success(
            request,
            _("The dispute of %(name)s is resolved.") % {"name": dispute.player.display_name},
        )
    return redirect("tournaments:organiser_venue", slug=tournament.slug)
