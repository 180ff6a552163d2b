"""Organiser pages of the venue's tables and of a stage's tables × time grid.

Every placement is checked first (:class:`~tournaments.queries.schedule_clashes.ScheduleBook`):
when it clashes, the page shows the warnings with the same placement ready to confirm
("Save anyway") or to fix; nothing is saved until then. Dragging a session onto a cell
(static/js/schedule-grid.js) only fills and submits the cell's form, which works by tapping
without JavaScript.
"""

from __future__ import annotations

from datetime import datetime

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.dateparse import parse_datetime
from django.utils.timezone import is_naive, make_aware
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from tournaments.actions.scheduling import PlannedSession, schedule_session, schedule_sessions
from tournaments.actions.venue_tables import TableError, add_table, add_tables, remove_table
from tournaments.domain.clash_rules import PlanError, plan_stage
from tournaments.forms.moments import MINUTE
from tournaments.forms.scheduling import (
    GridPlaceForm,
    GridTimeForm,
    StagePlanForm,
    TableCountForm,
    TableForm,
)
from tournaments.models import Stage, StaleSessionError, Tournament, VenueTable
from tournaments.queries.schedule_clashes import ScheduleBook
from tournaments.queries.schedule_grid import stage_grid
from tournaments.web.notice_words import players_told
from tournaments.web.permissions import organiser_required


def _tables_page(request, tournament, *, form=None, count_form=None, status=200) -> HttpResponse:
    tables = tournament.tables.all()  # natural order: 1, 2, 10, then by name
    context = {
        "tournament": tournament,
        "tables": tables,
        "form": form or TableForm(),
        "count_form": count_form or TableCountForm(),
        "otab": "schedule",
    }
    return render(request, "organiser/tables.html", context, status=status)


@organiser_required
@require_http_methods(["GET", "POST"])
def tables(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The list of tables; a POST adds one by name."""
    form = TableForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            table = add_table(tournament, form.cleaned_data["name"], actor=request.user)
        except TableError as error:
            form.add_error("name", str(error))
        else:
            messages.success(request, _("Table %(name)s added.") % {"name": table})
            return redirect("tournaments:organiser_tables", slug=tournament.slug)
    return _tables_page(request, tournament, form=form, status=400 if form.errors else 200)


@organiser_required
@require_POST
def tables_numbered(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Add a number of tables named 1, 2, 3… (the next free numbers)."""
    form = TableCountForm(request.POST)
    if not form.is_valid():
        return _tables_page(request, tournament, count_form=form, status=400)
    added = add_tables(tournament, form.cleaned_data["count"], actor=request.user)
    messages.success(
        request,
        ngettext("%(count)d table added.", "%(count)d tables added.", len(added))
        % {"count": len(added)},
    )
    return redirect("tournaments:organiser_tables", slug=tournament.slug)


@organiser_required
@require_POST
def table_remove(request: HttpRequest, tournament: Tournament, pk: int) -> HttpResponse:
    table: VenueTable = get_object_or_404(tournament.tables, pk=pk)
    try:
        remove_table(table, actor=request.user)
    except TableError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, _("Table %(name)s removed.") % {"name": table})
    return redirect("tournaments:organiser_tables", slug=tournament.slug)


def _extra_times(values: list[str]) -> list[datetime]:
    """The start times added to the grid by hand (``at`` in the address), the bad ones left out."""
    times = []
    for value in values:
        moment = parse_datetime(value)
        if moment is not None:
            times.append(make_aware(moment) if is_naive(moment) else moment)
    return times


def _grid_url(stage: Stage, times: list[str] | None = None) -> str:
    url = reverse("tournaments:organiser_grid", args=[stage.tournament.slug, stage.number])
    if times:
        url += "?" + "&".join(f"at={value}" for value in times)
    return url


def _grid_page(
    request: HttpRequest,
    stage: Stage,
    *,
    warnings: list[str] | None = None,
    confirm: dict | None = None,
    plan_form: StagePlanForm | None = None,
    status: int = 200,
) -> HttpResponse:
    tournament = stage.tournament
    times = request.GET.getlist("at") or request.POST.getlist("at")
    grid = stage_grid(stage, _extra_times(times))
    picked = request.GET.get("pick", "")
    pick = next((s for s in grid.movable if str(s.pk) == picked), None)
    first = grid.sessions[0].duration_minutes if grid.sessions else 180
    context = {
        "tournament": tournament,
        "stage": stage,
        "grid": grid,
        "pick": pick,
        "times": times,
        "time_form": GridTimeForm(),
        "plan_form": plan_form
        or StagePlanForm(
            tournament=tournament,
            initial={
                "minutes": first,
                "tables": list(tournament.tables.all()),
                "judges": StagePlanForm.judges_to_tick(tournament),
            },
        ),
        "warnings": warnings or [],
        "confirm": confirm,
        # A stage without sessions is not seated yet: the one before seats it as it closes.
        "previous_stage": None if grid.sessions else _previous_stage(stage),
        "otab": "schedule",
    }
    return render(request, "organiser/schedule_grid.html", context, status=status)


def _previous_stage(stage: Stage) -> Stage | None:
    return stage.tournament.stages.filter(number__lt=stage.number).order_by("-number").first()


def _stage(tournament: Tournament, number: int) -> Stage:
    return get_object_or_404(
        Stage.objects.select_related("tournament"), tournament=tournament, number=number
    )


@organiser_required
@require_GET
def grid(request: HttpRequest, tournament: Tournament, number: int) -> HttpResponse:
    """The stage's grid; ``?at=…`` adds start-time rows, ``?pick=<session>`` picks a session
    to place with one tap on a cell."""
    stage = _stage(tournament, number)
    if "at_new" in request.GET:
        form = GridTimeForm(request.GET)
        if form.is_valid():
            added = form.cleaned_data["at_new"].strftime(MINUTE)
            return redirect(_grid_url(stage, [*request.GET.getlist("at"), added]))
        messages.error(request, _("Give the new start time as a date and a time."))
    return _grid_page(request, stage)


@organiser_required
@require_POST
def grid_place(request: HttpRequest, tournament: Tournament, number: int) -> HttpResponse:
    """Put one session at a table and a time; clashes are shown for confirmation first."""
    stage = _stage(tournament, number)
    form = GridPlaceForm(request.POST, stage=stage)
    if not form.is_valid():
        problems = [str(error) for errors in form.errors.values() for error in errors]
        return _grid_page(request, stage, warnings=problems, status=400)
    session = form.cleaned_data["session"]
    table = form.cleaned_data["table"]
    when = form.cleaned_data["when"]
    book = ScheduleBook.of(tournament)
    warnings = book.warnings(book.placement(session, when, table, session.judge))
    if warnings and request.POST.get("confirm") != "1":
        confirm = {
            "action": reverse("tournaments:organiser_grid_place", args=[tournament.slug, number]),
            "fields": {
                "session": session.pk,
                "table": table.pk,
                "when": when.strftime(MINUTE),
            },
        }
        return _grid_page(request, stage, warnings=warnings, confirm=confirm, status=409)
    try:
        schedule_session(session, when=when, table=table, actor=request.user)
    except StaleSessionError as error:
        messages.error(request, str(error))
    else:
        messages.success(
            request,
            _("Session %(number)d placed at table %(table)s.")
            % {"number": session.number, "table": table}
            + f" {players_told()}",
        )
    return redirect(_grid_url(stage, request.POST.getlist("at")))


@organiser_required
@require_POST
def stage_plan(request: HttpRequest, tournament: Tournament, number: int) -> HttpResponse:
    """Schedule every open session of the stage from a start time, in rounds over the tables,
    sharing out the judges ticked; what clashes, and sessions no judge is free for, are
    shown before anything is saved."""
    stage = _stage(tournament, number)
    form = StagePlanForm(request.POST, tournament=tournament)
    if not form.is_valid():
        return _grid_page(request, stage, plan_form=form, status=400)
    grid_now = stage_grid(stage)
    sessions = grid_now.movable
    tables = list(form.cleaned_data["tables"])
    try:
        plan = plan_stage(
            [s.pk for s in sessions],
            start=form.cleaned_data["start"],
            minutes=form.cleaned_data["minutes"],
            table_ids=[t.pk for t in tables],
        )
    except PlanError as error:
        form.add_error(None, str(error))
        return _grid_page(request, stage, plan_form=form, status=400)
    by_pk = {s.pk: s for s in sessions}
    table_by_pk = {t.pk: t for t in tables}
    placements = [PlannedSession(by_pk[pk], when, table_by_pk[table]) for pk, when, table in plan]
    book = ScheduleBook.of(tournament)
    checked = [book.placement(p.session, p.when, p.table, p.session.judge) for p in placements]
    warnings: list[str] = []
    judges = list(form.cleaned_data["judges"])
    if judges:
        shared = book.share_judges(checked, judges)
        checked, warnings = shared.plan, shared.unjudged
        placements = [p._replace(judge=shared.judges[p.session.pk]) for p in placements]
    warnings += book.plan_warnings(checked)
    if warnings and request.POST.get("confirm") != "1":
        return _grid_page(
            request, stage, warnings=warnings, plan_form=form, confirm={"plan": True}, status=409
        )
    schedule_sessions(placements, actor=request.user)
    messages.success(
        request,
        ngettext("%(count)d session scheduled.", "%(count)d sessions scheduled.", len(placements))
        % {"count": len(placements)}
        + f" {players_told(len(placements))}",
    )
    return redirect(_grid_url(stage))
