"""Organiser stage control: the checklist beside the close button, and undoing the last
advance or a session's squad draw as a reasoned correction (decisions 37-39)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_POST

from rules.engine.dice import seed_commitment
from tournaments.actions.advance_dice import advance_dice, start_dice
from tournaments.actions.optimistic_lock import StaleEditError
from tournaments.actions.stage_undo import (
    UndoError,
    last_closed_stage,
    undo_advance,
    undo_blocker,
    undo_squad_draw,
)
from tournaments.actions.tournament_setup import (
    StageSettingsError,
    save_stage,
    stage_settings_lock,
)
from tournaments.forms.judge import PHYSICAL, RollOffForm
from tournaments.forms.organiser import StageForm
from tournaments.forms.stage_control import UndoForm
from tournaments.forms.stipulation import describe_stipulation
from tournaments.models import (
    Session,
    Stage,
    StageKind,
    StaleSessionError,
    Tournament,
    readable_rules,
)
from tournaments.queries.dice_needed import AdvanceDice
from tournaments.queries.draw_inputs import stage_own_preferences
from tournaments.queries.playable_maps import map_menu_label
from tournaments.queries.stage_checklist import stage_checklist, undoable_draws
from tournaments.queries.stage_plan import stage_kind_label
from tournaments.queries.tournament_catalogue import catalogue_words
from tournaments.web.dice_choice import pending_seed
from tournaments.web.page_parts import redirect_to_section
from tournaments.web.permissions import organiser_required


def stage_control(
    request: HttpRequest,
    tournament: Tournament,
    stage: Stage | None,
    *,
    advance_form: RollOffForm | None = None,
    undo_form: UndoForm | None = None,
    advance_dice: AdvanceDice | None = None,
) -> dict[str, Any]:
    """The checklist of ``stage`` (the current one on the dashboard), the advance form when
    the stage is the current one and nothing blocks it, and the undo form when the last
    advance can be undone. ``advance_dice``: the dice list under the form when the request
    worked it out already (a refused close)."""
    context: dict[str, Any] = {}
    current = tournament.current_stage()
    if stage is not None:
        checklist = stage_checklist(stage)
        context["checklist"] = checklist
        if current is not None and current.pk == stage.pk and checklist.can_close:
            context["advance_form"] = advance_form or RollOffForm(
                initial={"version": 0}, prefix="advance"
            )
            context["closing_final"] = stage.kind == StageKind.FINAL  # no stage follows
            context["advance_commitment"] = seed_commitment(
                pending_seed(request, tournament, "advance")
            )
            context["advance_dice"] = advance_dice or shown_advance_dice(
                tournament, context["advance_form"]
            )
    blocker = undo_blocker(tournament)
    if blocker is None:
        context["undo_form"] = undo_form or UndoForm(prefix="undo")
    return context


def shown_advance_dice(tournament: Tournament, form: RollOffForm) -> AdvanceDice:
    """The dice list under the advance form's field: once physical dice are chosen on a
    submitted form (a refused close, or the htmx check as the organiser types)."""
    return _typed_dice(form, lambda typed: advance_dice(tournament, typed))


def shown_start_dice(tournament: Tournament, form: RollOffForm) -> AdvanceDice:
    """The dice list under the first stage's seating form, as :func:`shown_advance_dice`."""
    return _typed_dice(form, lambda typed: start_dice(tournament, typed))


def _typed_dice(form: RollOffForm, listed: Callable[[str], AdvanceDice]) -> AdvanceDice:
    """``listed`` of the dice typed in ``form`` once physical dice are chosen on it (an empty
    list before)."""
    if not form.is_bound or form.data.get(form.add_prefix("mode")) != PHYSICAL:
        return AdvanceDice()
    return listed(form.data.get(form.add_prefix("dice"), ""))


def _dice_check(
    request: HttpRequest,
    prefix: str,
    shown: Callable[[RollOffForm], AdvanceDice],
    **extra: Any,
) -> HttpResponse:
    """htmx: a seating form's dice list for the dice typed so far (nothing is stored)."""
    form = RollOffForm(request.POST, prefix=prefix)
    return render(
        request, "organiser/partials/advance_dice.html", {"advance_dice": shown(form), **extra}
    )


@organiser_required
@require_POST
def start_dice_check(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """htmx: the first stage's seating form's dice list for the dice typed so far."""
    return _dice_check(
        request, "start", lambda form: shown_start_dice(tournament, form), starting=True
    )


@organiser_required
@require_POST
def advance_dice_check(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """htmx: the advance form's dice list for the dice typed so far (nothing is stored)."""
    return _dice_check(request, "advance", lambda form: shown_advance_dice(tournament, form))


@organiser_required
@require_POST
def undo_last_advance(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    form = UndoForm(request.POST, prefix="undo")
    if form.is_valid():
        try:
            stage = undo_advance(tournament, reason=form.cleaned_data["reason"], actor=request.user)
        except UndoError as error:
            form.add_error(None, str(error))
        else:
            messages.success(
                request,
                _("Stage %(n)d is open again; what its close seated and awarded is superseded.")
                % {"n": stage.number},
            )
            return redirect(
                "tournaments:organiser_stage", slug=tournament.slug, number=stage.number
            )
    stage = last_closed_stage(tournament) or tournament.current_stage()
    if stage is None:
        return redirect("tournaments:organiser_dashboard", slug=tournament.slug)
    return stage_page(request, tournament, stage, undo_form=form, status=400)


@organiser_required
@require_POST
def undo_draw(request: HttpRequest, tournament: Tournament, pk: int) -> HttpResponse:
    session = get_object_or_404(
        Session.objects.select_related("stage__tournament"), pk=pk, stage__tournament=tournament
    )
    form = UndoForm(request.POST, prefix=f"undraw{session.pk}")
    if form.is_valid():
        try:
            undo_squad_draw(
                session,
                reason=form.cleaned_data["reason"],
                actor=request.user,
                expected_version=form.cleaned_data["version"] or session.version,
            )
        except (UndoError, StaleSessionError) as error:
            form.add_error(None, str(error))
        else:
            messages.success(
                request,
                _("The squad draw of session %(n)d is undone; its judge draws again.")
                % {"n": session.number},
            )
            return redirect_to_section(
                "tournaments:organiser_stage",
                "stage-control",
                slug=tournament.slug,
                number=session.stage.number,
            )
    return stage_page(request, tournament, session.stage, draw_forms={session.pk: form}, status=400)


@organiser_required
@require_http_methods(["GET", "POST"])
def stage_edit(request: HttpRequest, tournament: Tournament, number: int) -> HttpResponse:
    """The stage's page; a POST saves its settings, refused once the stage is closed (then
    the page shows them read-only, with the reason: decision 54)."""
    stage = get_object_or_404(tournament.stages, number=number)
    form = StageForm(request.POST or None, instance=stage)
    refused = None
    if request.method == "POST" and form.is_valid():
        try:
            changed = save_stage(
                form.save(commit=False),
                form.cleaned_data["thresholds"],
                actor=request.user,
                expected_version=form.expected_version,
            )
        except StaleEditError:
            stage = tournament.stages.get(number=number)
            form.refuse_stale(StageForm(instance=stage))
        except StageSettingsError as error:
            refused = str(error)
        else:
            if changed:
                messages.success(request, _("Stage saved."))
                if changed.kept:
                    messages.info(request, kept_message(changed.kept))
            else:
                messages.info(request, _("Nothing changed: the stage's settings are as they were."))
            if form.map_problem is not None:
                messages.warning(request, form.map_problem.message)
            return redirect("tournaments:organiser_dashboard", slug=tournament.slug)
    if request.method == "POST":
        # The form wrote what was typed into its instance: a closed stage is shown as stored,
        # read-only, with the reason (nothing typed is offered again).
        stored = tournament.stages.get(number=number)
        refused = refused or stage_settings_lock(stored)
        if refused is not None:
            return stage_page(request, tournament, stored, refused=refused, status=400)
    if form.stale:
        status = 409
    else:
        status = 400 if form.is_bound and form.errors else 200
    return stage_page(request, tournament, stage, form=form, status=status)


def kept_message(numbers: tuple[int, ...]) -> str:
    """What the organiser is told of the sessions with a result that kept the stipulation
    and map they were played with when the stage's changed."""
    return ngettext(
        "Session %(sessions)s already has a result, so it keeps the stipulation and map it "
        "was played with; the new settings apply to the stage's other sessions.",
        "Sessions %(sessions)s already have a result, so they keep the stipulation and map "
        "they were played with; the new settings apply to the stage's other sessions.",
        len(numbers),
    ) % {"sessions": ", ".join(str(number) for number in numbers)}


def stage_page(
    request: HttpRequest,
    tournament: Tournament,
    stage: Stage,
    *,
    form: StageForm | None = None,
    undo_form: UndoForm | None = None,
    draw_forms: dict[int, UndoForm] | None = None,
    refused: str | None = None,
    status: int = 200,
) -> HttpResponse:
    """The organiser's stage page: its settings (a form while the stage is open, read-only
    with the reason once it is closed; ``refused``: a save was just refused for that
    reason), its checklist, the close button when it can succeed, the undo of the last
    advance and of each session's squad draw, and the stage's own squad preferences
    (read-only: only an import brings them)."""
    draw_forms = draw_forms or {}
    sessions = [
        (session, draw_forms.get(session.pk) or _draw_undo_form(session))
        for session in undoable_draws(stage)
    ]
    listed = {session.pk for session, _form in sessions}
    for pk, refused_form in draw_forms.items():
        if pk not in listed:  # its draw can no longer be undone: no form to say it at
            for errors in refused_form.errors.values():
                for error in errors:
                    messages.error(request, str(error))
    lock = refused or stage_settings_lock(stage)
    context: dict[str, Any] = {
        "tournament": tournament,
        "stage": stage,
        "stage_kind": stage_kind_label(tournament, stage),
        "settings_lock": lock,
        "settings_refused": refused is not None,
        "general_fields": STAGE_GENERAL_FIELDS,
        "draw_undos": sessions,
        "stage_preferences": stage_own_preferences(stage),
        "otab": "dashboard",
    }
    if lock is None:
        context["form"] = form or StageForm(instance=stage)
    context.update(stage_control(request, tournament, stage, undo_form=undo_form))
    with catalogue_words(tournament):  # the deck's choices as the catalogue names them
        if lock is not None:
            context["settings"] = stage_settings_summary(stage)
        return render(request, "organiser/stage_form.html", context, status=status)


def stage_settings_summary(stage: Stage) -> dict[str, Any]:
    """What a closed stage was played with, in words, for its read-only page."""
    return {
        "stipulation": describe_stipulation(
            stage.stipulation_kind,
            stage.stipulation_params,
            readable_rules(stage.tournament)[0],
        ),
        "map": map_menu_label(stage.tournament, stage.map_name) if stage.map_name else "",
        "qualifier_count": stage.qualifier_count,
        "seating": stage.get_seating_method_display() if stage.seating_method else "",
        "tournament_seating": stage.tournament.get_seating_method_display(),
        "thresholds": list(stage.thresholds.values_list("points", flat=True)),
    }


def _draw_undo_form(session: Session) -> UndoForm:
    return UndoForm(prefix=f"undraw{session.pk}", initial={"version": session.version})


STAGE_GENERAL_FIELDS = (
    "stipulation_kind",
    "map_name",
    "qualifier_count",
    "seating_method",
    "thresholds",
)
