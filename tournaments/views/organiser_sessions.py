"""Organiser page of one session: its own stipulation, map and score thresholds (RULES §6,
§9; decision 49).

The rules of what may change when live in :mod:`tournaments.actions.session_settings`; this page
shows what the stage provides when the session has no setting of its own, and why a
setting is locked when it is.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_POST

from tournaments.actions.optimistic_lock import StaleEditError
from tournaments.actions.session_settings import (
    SessionSettingsError,
    SettingsSaved,
    add_threshold,
    clear_stipulation,
    remove_threshold,
    set_stipulation,
    stipulation_lock,
    thresholds_lock,
)
from tournaments.forms.session_settings import SessionStipulationForm, ThresholdForm
from tournaments.forms.stipulation import describe_stipulation
from tournaments.models import Session, Tournament, readable_rules
from tournaments.queries.edit_versions import session_stipulation_version
from tournaments.queries.playable_maps import map_menu_label
from tournaments.queries.session_stipulation import (
    own_map_name,
    own_stipulation,
    own_thresholds,
    stage_defaults,
)
from tournaments.queries.tournament_catalogue import catalogue_words
from tournaments.views.organiser import schedule_row_url
from tournaments.web.permissions import organiser_required


def _session(tournament: Tournament, pk: int) -> Session:
    return get_object_or_404(
        Session.objects.select_related("stage__tournament"), pk=pk, stage__tournament=tournament
    )


def _settings_url(session: Session, section: str = "") -> str:
    """The session's settings page, at its part ``section`` when given."""
    url = reverse(
        "tournaments:organiser_session_settings",
        args=[session.stage.tournament.slug, session.pk],
    )
    return f"{url}#{section}" if section else url


def _page(
    request: HttpRequest,
    tournament: Tournament,
    session: Session,
    *,
    stipulation_form: SessionStipulationForm | None = None,
    threshold_form: ThresholdForm | None = None,
) -> HttpResponse:
    stipulation = own_stipulation(session)
    defaults = stage_defaults(session)
    refused = any(
        form is not None and form.is_bound and form.errors
        for form in (stipulation_form, threshold_form)
    )
    stipulation_form = stipulation_form or SessionStipulationForm(session=session)
    own_map, stage_map = own_map_name(session), session.stage.map_name
    rules, _problem = readable_rules(tournament)  # the form says it
    with catalogue_words(tournament):  # the event cards as the catalogue names them
        context = {
            "tournament": tournament,
            "session": session,
            "stage": session.stage,
            "seats": session.seats.select_related("player").order_by("seat_order"),
            "own_stipulation": describe_stipulation(stipulation.kind, stipulation.params, rules)
            if stipulation
            else None,
            "stage_stipulation": describe_stipulation(defaults.kind, defaults.params, rules),
            "same_as_stage": stipulation is not None
            and stipulation.kind == defaults.kind
            and stipulation.params == defaults.params,
            "own_map": stipulation_form.map_labels[own_map] if own_map else "",
            "stage_map": stipulation_form.map_labels[stage_map] if stage_map else "",
            "stipulation_lock": stipulation_lock(session),
            "stipulation_form": stipulation_form,
            # The clear button names what it clears: the stipulation as this page shows it.
            "stipulation_version": session_stipulation_version(session),
            "own_thresholds": own_thresholds(session),
            "stage_thresholds": defaults.thresholds,
            "thresholds_lock": thresholds_lock(session),
            "threshold_form": threshold_form or ThresholdForm(session=session),
            "schedule_url": schedule_row_url(tournament, session),
            "otab": "schedule",
        }
        status = 409 if stipulation_form.stale else 400 if refused else 200
        return render(request, "organiser/session_settings.html", context, status=status)


@organiser_required
@require_http_methods(["GET", "POST"])
def session_settings(request: HttpRequest, tournament: Tournament, pk: int) -> HttpResponse:
    """The page; a POST sets the session's own stipulation and map."""
    session = _session(tournament, pk)
    form = SessionStipulationForm(request.POST or None, session=session)
    if request.method == "POST" and form.is_valid():
        try:
            saved = set_stipulation(
                session,
                form.cleaned_data["stipulation_kind"],
                form.cleaned_data["stipulation_params"],
                map_name=form.cleaned_data["map_name"],
                actor=request.user,
                expected_version=form.expected_version,
            )
        except SessionSettingsError as error:
            form.add_error(None, str(error))
        except StaleEditError:
            form.refuse_stale(SessionStipulationForm(session=_session(tournament, pk)))
        else:
            _say_saved(request, session, saved)
            return redirect(_settings_url(session))
    return _page(request, tournament, session, stipulation_form=form)


def _say_saved(request: HttpRequest, session: Session, saved: SettingsSaved) -> None:
    if saved.stipulation and saved.map:
        messages.success(request, _("The session's stipulation and map are saved."))
    elif saved.stipulation:
        messages.success(request, _("The session's own stipulation is saved."))
    elif saved.map:
        name = own_map_name(session)
        if name:
            text = _("Saved: the session now plays on its own map, %(map)s.") % {
                "map": map_menu_label(session.stage.tournament, name)
            }
        else:
            text = _("Saved: the session now plays on its stage's map again.")
        messages.success(request, text)
    else:
        messages.info(
            request,
            _("Nothing changed: the session already plays this stipulation on this map."),
        )


@organiser_required
@require_POST
def session_stipulation_clear(request: HttpRequest, tournament: Tournament, pk: int):
    session = _session(tournament, pk)
    try:
        cleared = clear_stipulation(
            session, actor=request.user, expected_version=request.POST.get("version") or None
        )
    except SessionSettingsError as error:
        messages.error(request, str(error))
    except StaleEditError:
        messages.error(
            request,
            _(
                "This session's stipulation was changed in another tab or by someone else "
                "while you were looking at it, so nothing was cleared: the page now shows it "
                "as saved; clear it again if you still want the stage's."
            ),
        )
    else:
        if cleared:
            messages.success(request, _("Cleared: the session now plays its stage's stipulation."))
        else:
            messages.info(request, _("The session already plays its stage's stipulation."))
    return redirect(_settings_url(session))


@organiser_required
@require_POST
def session_threshold_add(request: HttpRequest, tournament: Tournament, pk: int):
    session = _session(tournament, pk)
    form = ThresholdForm(request.POST, session=session)
    if form.is_valid():
        try:
            points = form.cleaned_data["points"]
            add_threshold(session, points, actor=request.user)
        except SessionSettingsError as error:
            form.add_error("points", str(error))
        else:
            messages.success(
                request,
                ngettext(
                    "Threshold of %(points)d point added.",
                    "Threshold of %(points)d points added.",
                    points,
                )
                % {"points": points},
            )
            return redirect(_settings_url(session, "thresholds"))
    return _page(request, tournament, session, threshold_form=form)


@organiser_required
@require_POST
def session_threshold_remove(request: HttpRequest, tournament: Tournament, pk: int):
    session = _session(tournament, pk)
    try:
        points = remove_threshold(
            session, _int_or_none(request.POST.get("threshold")), actor=request.user
        )
    except SessionSettingsError as error:
        messages.error(request, str(error))
    else:
        messages.success(
            request,
            ngettext(
                "Threshold of %(points)d point removed.",
                "Threshold of %(points)d points removed.",
                points,
            )
            % {"points": points},
        )
    return redirect(_settings_url(session, "thresholds"))


def _int_or_none(value: str | None) -> int | None:
    try:
        return int(value or "")
    except ValueError:
        return None
