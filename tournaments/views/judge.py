"""Judge pages: the session sheet at the table, draw and initiative, result entry, print sheets.

Built for a phone: one column, big targets, the live score preview under the fields.
"""

from __future__ import annotations

from datetime import datetime

from django.contrib import messages
from django.db.models import Q
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from rules.engine.dice import DiceError, SeededDice, seed_commitment
from tournaments.actions.result_entry import (
    ResultError,
    enter_result,
)
from tournaments.actions.session_setup import SetupError, draw_squads, run_initiative
from tournaments.domain.draw import DrawError
from tournaments.domain.typed_dice import TypedDice, subject_names
from tournaments.forms.judge import PHYSICAL, DiceForm
from tournaments.forms.result import ResultForm, initial_from_breakdowns
from tournaments.forms.result_rows import RowAction
from tournaments.models import (
    ActivityLog,
    DiceRoll,
    Result,
    ResultVersion,
    Seat,
    Session,
    StaleSessionError,
)
from tournaments.queries.result_versions import latest_version, preview_result
from tournaments.sheets.data import loadout_sheet, score_sheet
from tournaments.sheets.seats import loadout_checks, session_seats
from tournaments.web.dice_choice import dice_from_form, forget_seed, pending_seed
from tournaments.web.permissions import judge_required, login_required
from tournaments.web.request_types import AccountHttpRequest


@login_required
@require_GET
def judge_home(request: AccountHttpRequest) -> HttpResponse:
    sessions = (
        Session.objects.filter(
            Q(judge=request.user)
            | Q(stage__tournament__in=request.user.organised_tournaments.all())
        )
        .select_related("stage__tournament", "judge")
        .order_by("scheduled_at", "stage__number", "number")
    )
    if request.user.is_superuser:
        sessions = Session.objects.select_related("stage__tournament", "judge").order_by(
            "scheduled_at", "stage__number", "number"
        )
    mine = [s for s in sessions if s.judge_id == request.user.pk]
    others = [s for s in sessions if s.judge_id != request.user.pk]
    return render(request, "judge/home.html", {"mine": mine, "others": others})


def dice_log(session: Session, seats: list[Seat]) -> list[tuple[DiceRoll, str]]:
    """The session's recorded dice with the roller's name instead of their id."""
    names = {str(seat.player_id): seat.player.display_name for seat in seats}
    rolls = DiceRoll.objects.filter(session=session).order_by("created_at", "sequence")
    return [(roll, names.get(roll.subject, roll.subject)) for roll in rolls]


def _sheet_context(request: HttpRequest, session: Session, **forms) -> dict:
    seats = session_seats(session)
    drawn = bool(seats) and all(seat.squad_id for seat in seats)
    rolled = bool(seats) and all(seat.initiative_position for seat in seats)
    context = {
        "session": session,
        "tournament": session.stage.tournament,
        "seats": seats,
        "by_initiative": sorted(seats, key=lambda s: s.initiative_position or 99),
        "drawn": drawn,
        "rolled": rolled,
        "rolls": dice_log(session, seats),
        "result": Result.objects.filter(session=session).first(),
        "loadout_checks": loadout_checks(session, seats),
    }
    if not drawn:
        context["draw_form"] = forms.get("draw_form") or DiceForm(
            initial={"version": session.version}, prefix="draw"
        )
        context["draw_commitment"] = seed_commitment(pending_seed(request, session, "draw"))
    if drawn and not rolled:
        context["initiative_form"] = forms.get("initiative_form") or DiceForm(
            initial={"version": session.version}, prefix="initiative"
        )
        context["initiative_commitment"] = seed_commitment(
            pending_seed(request, session, "initiative")
        )
    return context


@judge_required
@require_GET
def session_sheet(request: HttpRequest, session: Session) -> HttpResponse:
    return render(request, "judge/session_sheet.html", _sheet_context(request, session))


def _run_setup(request: HttpRequest, session: Session, purpose: str, action) -> HttpResponse:
    form = DiceForm(request.POST, prefix=purpose)
    if form.is_valid():
        players = subject_names(seat.player for seat in session_seats(session))
        dice = dice_from_form(request, form, session, purpose, players)
        try:
            action(session, dice, actor=request.user, expected_version=form.cleaned_data["version"])
        except StaleSessionError:
            form.add_error(
                None,
                _(
                    "Someone else changed this session since you opened it (see the sheet "
                    "below). Nothing was rolled; check and try again."
                ),
            )
            session.refresh_from_db()
        except (DiceError, DrawError, SetupError) as error:
            form.add_error("dice" if isinstance(error, DiceError) else None, str(error))
        else:
            forget_seed(request, session, purpose)
            if isinstance(dice, SeededDice):
                messages.success(
                    request,
                    _("Rolled by the app with seed %(seed)s (its hash was shown before).")
                    % {"seed": dice.seed},
                )
            else:
                messages.success(request, _("Physical dice recorded."))
            return redirect("tournaments:judge_session", pk=session.pk)
    context = _sheet_context(request, session, **{f"{purpose}_form": form})
    return render(request, "judge/session_sheet.html", context, status=400)


@judge_required
@require_POST
def session_draw(request: HttpRequest, session: Session) -> HttpResponse:
    return _run_setup(request, session, "draw", draw_squads)


@judge_required
@require_POST
def session_initiative(request: HttpRequest, session: Session) -> HttpResponse:
    return _run_setup(request, session, "initiative", run_initiative)


def preview_context(session: Session, form: ResultForm) -> dict:
    """Scores and provisional ranking of what the form holds (nothing is stored)."""
    if not form.is_valid():
        return {"invalid": True}
    return preview_result(session, form.breakdowns(), form.survivors())


def _loaded_at(request: HttpRequest) -> datetime | None:
    value = request.POST.get("loaded_at", "")
    moment = parse_datetime(value) if value else None
    return moment


def changes_since(session: Session, since: datetime | None) -> list[ActivityLog]:
    """What others did to this session after the editor loaded the form."""
    entries = ActivityLog.objects.filter(
        tournament=session.stage.tournament, details__session=session.pk
    ).select_related("actor")
    if since is not None:
        entries = entries.filter(created_at__gt=since)
    return list(entries[:10])


@judge_required
@require_http_methods(["GET", "POST"])
def result_entry(request: HttpRequest, session: Session) -> HttpResponse:
    return edit_result(
        request,
        session,
        correction=False,
        done_url=reverse("tournaments:judge_session", args=[session.pk]),
    )


def edit_result(
    request: HttpRequest, session: Session, *, correction: bool, done_url: str
) -> HttpResponse:
    """Enter a result (judge) or correct one with a reason (organiser): always a new version,
    refused when the session changed since the form was loaded (optimistic locking)."""
    seats = session_seats(session)
    latest = latest_version(session)
    initial = {"version": session.version}
    if latest is not None:
        initial.update(initial_from_breakdowns(seats, latest.breakdown, latest.survivors))
    else:
        initial.update({ResultForm.key(seat, "survived"): True for seat in seats})
    action = RowAction.from_post(request.POST, [seat.player_id for seat in seats])
    if action is not None:
        return _rows_changed_page(request, session, seats, action, correction, latest, done_url)
    form = ResultForm(request.POST or None, initial=initial, seats=seats)
    stale = None
    status = 200
    if request.method == "POST":
        dice_form = DiceForm(request.POST, prefix="tie")
        if form.is_valid() and dice_form.is_valid():
            dice = (
                TypedDice(
                    values=dice_form.cleaned_data["values"],
                    subjects=subject_names(seat.player for seat in seats),
                )
                if dice_form.cleaned_data["mode"] == PHYSICAL
                else SeededDice(seed=pending_seed(request, session, "ranking"))
            )
            try:
                recorded = enter_result(
                    session,
                    form.breakdowns(),
                    survivors=form.survivors(),
                    expected_version=form.cleaned_data["version"],
                    actor=request.user,
                    dice=dice,
                    correction=correction,
                    reason=request.POST.get("reason", ""),
                )
            except StaleSessionError:
                session.refresh_from_db()
                stale = {
                    "latest": latest_version(session),
                    "changes": changes_since(session, _loaded_at(request)),
                }
                data = request.POST.copy()  # the form's data, now with the current version
                data["version"] = str(session.version)
                form.data = data
                form.add_error(
                    None,
                    _(
                        "Not saved: someone else changed this session while you were editing. "
                        "Your entries are kept below; compare them with the changes listed, "
                        "then submit again to record your version."
                    ),
                )
            except (ResultError, DiceError) as error:
                form.add_error(None, str(error))
            else:
                forget_seed(request, session, "ranking")
                messages.success(
                    request,
                    _("Result saved as version %(number)d; the standings are updated.")
                    % {"number": recorded.version.number},
                )
                return redirect(done_url)
        status = 409 if stale else 400
    else:
        dice_form = DiceForm(initial={"version": session.version}, prefix="tie")
    context = _entry_context(request, session, form, dice_form, correction, latest, done_url)
    context.update(
        stale=stale,
        preview=preview_context(session, form) if form.is_bound else None,
        loaded_at=timezone.now().isoformat(),
    )
    return render(request, "judge/result_entry.html", context, status=status)


def _entry_context(
    request: HttpRequest,
    session: Session,
    form: ResultForm,
    dice_form: DiceForm,
    correction: bool,
    latest: ResultVersion | None,
    done_url: str,
    focus: RowAction | None = None,
) -> dict:
    return {
        "session": session,
        "tournament": session.stage.tournament,
        "form": form,
        "blocks": [form.seat_fields(seat, focus=focus) for seat in form.seats],
        "dice_form": dice_form,
        "tie_commitment": seed_commitment(pending_seed(request, session, "ranking")),
        "latest": latest,
        "correction": correction,
        "reason": request.POST.get("reason", ""),
        "done_url": done_url,
    }


def _rows_changed_page(
    request: HttpRequest,
    session: Session,
    seats: list[Seat],
    action: RowAction,
    correction: bool,
    latest: ResultVersion | None,
    done_url: str,
) -> HttpResponse:
    """The no-JavaScript "add a row"/"remove" buttons: the same page, nothing saved, with
    everything typed kept, the rows changed and the version and load time of the first load
    (so optimistic locking still compares with what the editor started from)."""
    form = ResultForm(action.apply(request.POST), seats=seats)
    typed_dice = {name: request.POST.get(f"tie-{name}") for name in ("mode", "dice")}
    dice_form = DiceForm(
        initial={"version": session.version, **{k: v for k, v in typed_dice.items() if v}},
        prefix="tie",
    )
    context = _entry_context(
        request, session, form.as_typed(), dice_form, correction, latest, done_url, focus=action
    )
    context.update(
        stale=None,
        preview=preview_context(session, form),
        loaded_at=request.POST.get("loaded_at") or timezone.now().isoformat(),
    )
    return render(request, "judge/result_entry.html", context)


def render_result_entry(
    request: HttpRequest, session: Session, initial: dict, *, from_game: object
) -> HttpResponse:
    """The judge's result page with the form filled from ``initial`` (as
    :func:`~tournaments.forms.result.initial_from_breakdowns` gives it) and nothing saved:
    the page the judge's board opens with the result its game proposes (``from_game``, shown
    above the form). The form posts to the usual result page."""
    seats = session_seats(session)
    initial = {"version": session.version, **initial}
    # The same values as the browser will post them, for the preview under the form.
    posted = {
        name: "on" if value is True else value
        for name, value in initial.items()
        if value is not None and value is not False
    }
    filled = ResultForm(posted, seats=seats)
    dice_form = DiceForm(initial={"version": session.version}, prefix="tie")
    done_url = reverse("tournaments:judge_session", args=[session.pk])
    form = ResultForm(initial=initial, seats=seats)
    context = _entry_context(
        request, session, form, dice_form, False, latest_version(session), done_url
    )
    context.update(
        stale=None,
        preview=preview_context(session, filled),
        loaded_at=timezone.now().isoformat(),
        from_game={
            "proposal": from_game,
            "action": reverse("tournaments:judge_result", args=[session.pk]),
        },
    )
    return render(request, "judge/result_entry.html", context)


@judge_required
@require_POST
def result_preview(request: HttpRequest, session: Session) -> HttpResponse:
    form = ResultForm(request.POST, seats=session_seats(session))
    return render(
        request,
        "judge/partials/score_preview.html",
        {"preview": preview_context(session, form), "form": form},
    )


@judge_required
@require_POST
def result_rows(request: HttpRequest, session: Session) -> HttpResponse:
    """htmx "add a row"/"remove": one seat's rows of one kind again, changed, plus the
    live preview of the whole form (out of band). The page's form is posted whole."""
    seats = session_seats(session)
    action = RowAction.from_post(request.POST, [seat.player_id for seat in seats])
    if action is None:
        return HttpResponseBadRequest(_("Say which row to add or remove."))
    form = ResultForm(action.apply(request.POST), seats=seats)
    seat = next(seat for seat in seats if seat.player_id == action.player_id)
    return render(
        request,
        "judge/partials/result_rows.html",
        {
            "session": session,
            "section": form.as_typed().row_section(seat, action.kind, focus=action),
            "preview": preview_context(session, form),
            "form": form,
            "oob_preview": True,
        },
    )


@judge_required
@require_GET
def print_score_sheet(request: HttpRequest, session: Session) -> HttpResponse:
    context = {"session": session, "sheet": score_sheet(session)}
    return render(request, "judge/print_score_sheet.html", context)


@judge_required
@require_GET
def print_loadouts(request: HttpRequest, session: Session) -> HttpResponse:
    context = {"session": session, "sheet": loadout_sheet(session)}
    return render(request, "judge/print_loadouts.html", context)
