"""Judge pages: the session sheet at the table, draw and initiative, result entry, print sheets.

Built for a phone: one column, big targets, the live score preview under the fields.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from django.contrib import messages
from django.db.models import Q
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from rules.engine.dice import DiceError, DieKind, SeededDice, seed_commitment
from tournaments.actions.attendance import (
    AttendanceError,
    check_in,
    declare_no_show,
    no_show_from,
)
from tournaments.actions.player_choices import (
    StageListKept,
    locked_preferences,
    preferences_locked,
    preferences_locked_reason,
    stage_list_reason,
)
from tournaments.actions.result_entry import (
    FromGame,
    NoStipulation,
    RecordedResult,
    ResultError,
    enter_result,
)
from tournaments.actions.session_setup import (
    SetupError,
    draw_squads,
    redo_squad_draw,
    run_initiative,
)
from tournaments.actions.tournament_setup import reopen_advice
from tournaments.domain.draw import DrawError
from tournaments.domain.typed_dice import (
    TypedDice,
    parse_typed_dice,
    subject_names,
)
from tournaments.forms.judge import PHYSICAL, AttendanceForm, RedrawForm, RollOffForm
from tournaments.forms.result import ResultForm, posted_values, start_values
from tournaments.forms.result_conflict import Conflict, find_conflict
from tournaments.forms.result_rows import RowAction
from tournaments.models import (
    ActivityLog,
    Player,
    Result,
    ResultDispute,
    ResultVersion,
    Seat,
    Session,
    StageStatus,
    StaleSessionError,
)
from tournaments.queries.draw_inputs import stage_own_choices
from tournaments.queries.result_versions import (
    has_confirmed_result,
    latest_version,
    preview_result,
    version_number,
)
from tournaments.queries.roles import is_organiser
from tournaments.queries.session_sheet import (
    dice_log,
    draw_need,
    draw_versions,
    initiative_need,
    seat_wishes,
)
from tournaments.queries.session_stipulation import (
    plays_aliens,
    result_limits,
    stipulation_kind,
)
from tournaments.queries.tournament_catalogue import squad_names
from tournaments.sheets.data import loadout_sheet, score_sheet
from tournaments.sheets.seats import loadout_checks, loadouts_before_initiative, session_seats
from tournaments.views.player import preferences_editing, staff_saved_message
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
        .select_related("stage__tournament", "judge", "table")
        .order_by("scheduled_at", "stage__number", "number")
    )
    if request.user.is_superuser:
        sessions = Session.objects.select_related("stage__tournament", "judge", "table").order_by(
            "scheduled_at", "stage__number", "number"
        )
    mine = [s for s in sessions if s.judge_id == request.user.pk]
    others = [s for s in sessions if s.judge_id != request.user.pk]
    return render(request, "judge/home.html", {"mine": mine, "others": others})


#: The typed-dice rolls of the session sheet: the form prefix and what it rolls.
SETUP_PURPOSES = ("draw", "initiative", "redraw")


def _dice_need(session: Session, seats: list[Seat], purpose: str, text: str) -> dict:
    """How far the dice typed so far (``text``) take the draw or the initiative, for the
    line under the dice field: the need, or what is wrong with the dice."""
    try:
        values = parse_typed_dice(text, DieKind.D6)
    except DiceError as error:
        return {"error": str(error)}
    try:
        if purpose == "initiative":
            return {"need": initiative_need(seats, values)}
        return {"need": draw_need(session, seats, values)}
    except DrawError as error:
        return {"error": str(error)}


def missing_stipulation(request: HttpRequest, session: Session) -> dict | None:
    """What the judge's pages say of a session without a stipulation (none when it has
    one): its result cannot be saved until an organiser sets one, on the session's settings
    page or its stage's page; the links to them only for a visitor who may open them."""
    if stipulation_kind(session):
        return None
    tournament = session.stage.tournament
    if not is_organiser(request.user, tournament):
        return {"links": False}
    return {
        "links": True,
        "session_url": reverse(
            "tournaments:organiser_session_settings", args=[tournament.slug, session.pk]
        )
        + "#stipulation",
        "stage_url": reverse(
            "tournaments:organiser_stage", args=[tournament.slug, session.stage.number]
        ),
    }


def _sheet_context(request: HttpRequest, session: Session, **forms) -> dict:
    seats = session_seats(session)
    drawn = bool(seats) and all(seat.squad_id for seat in seats)
    rolled = bool(seats) and all(seat.initiative_position for seat in seats)
    result = Result.objects.filter(session=session).first()
    wishes = seat_wishes(session, seats)
    players = [seat.player_id for seat in seats]
    # Whose squad preferences the judge may still enter: the draw reads their tournament-wide
    # list (not one of the stage's own) and no squad is drawn for them yet.
    editable = {player for player in players if not wishes[player].stage_list}
    context = {
        "session": session,
        "tournament": session.stage.tournament,
        "seats": [(seat, wishes[seat.player_id]) for seat in seats],
        "preferences_open": editable - locked_preferences(session.stage.tournament, players),
        "by_seat": seats,
        "by_initiative": sorted(seats, key=lambda s: s.initiative_position or 99),
        "drawn": drawn,
        "rolled": rolled,
        "rolls": dice_log(session, seats),
        "draws": draw_versions(session, seats),
        "result": result,
        "closed_advice": "" if session.stage.is_open else reopen_advice(session.stage),
        "plays_aliens": plays_aliens(session),
        "no_stipulation": missing_stipulation(request, session),
        "loadout_checks": (checks := loadout_checks(session, seats)),
        "initiative_warning": loadouts_before_initiative(checks),
        "attendance_open": result is None,
        "no_show_open": result is None
        and (deadline := no_show_from(session)) is not None
        and timezone.now() >= deadline,
    }
    steps = {
        "draw": not drawn,
        # The play order is for playing the session: none once its result is confirmed.
        "initiative": drawn and not rolled and not has_confirmed_result(session),
        "redraw": drawn and result is None,
    }
    for purpose, shown in steps.items():
        if not shown:
            continue
        form = forms.get(f"{purpose}_form") or (RedrawForm if purpose == "redraw" else RollOffForm)(
            initial={"version": session.version}, prefix=purpose
        )
        context[f"{purpose}_form"] = form
        context[f"{purpose}_commitment"] = seed_commitment(pending_seed(request, session, purpose))
        typed = form.data.get(f"{purpose}-dice", "") if form.is_bound else ""
        need_of = "initiative" if purpose == "initiative" else "draw"
        need = _dice_need(session, seats, need_of, typed)
        if "error" in need and form.errors.get("dice"):
            need = {"shown": False}  # the field's own error says it already
        context[f"{purpose}_need"] = need
    return context


@judge_required
@require_GET
def session_sheet(request: HttpRequest, session: Session) -> HttpResponse:
    return render(request, "judge/session_sheet.html", _sheet_context(request, session))


@judge_required
@require_POST
def session_dice_check(request: HttpRequest, session: Session) -> HttpResponse:
    """htmx: the line under a dice field of the sheet, for the dice typed so far (the
    draw's, the initiative's or a redrawn draw's; nothing is rolled or stored)."""
    purpose = request.POST.get("purpose", "")
    if purpose not in SETUP_PURPOSES:
        return HttpResponseBadRequest(_("Say which roll to check: draw or initiative."))
    seats = session_seats(session)
    need_of = "initiative" if purpose == "initiative" else "draw"
    context = _dice_need(session, seats, need_of, request.POST.get(f"{purpose}-dice", ""))
    return render(request, "judge/partials/dice_need.html", {"check": context})


def _run_setup(
    request: HttpRequest, session: Session, purpose: str, action, form: RollOffForm | None = None
) -> HttpResponse:
    form = form or RollOffForm(request.POST, prefix=purpose)
    if form.is_valid():
        players = subject_names(seat.player for seat in session_seats(session))
        squads = squad_names(session.stage.tournament)
        dice = dice_from_form(request, form, session, purpose, players, squads)
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
def session_redraw(request: HttpRequest, session: Session) -> HttpResponse:
    """Do the squad draw again (a mistyped die): a new recorded version, with a reason."""
    form = RedrawForm(request.POST, prefix="redraw")

    def redo(session: Session, dice, *, actor, expected_version: int) -> object:
        return redo_squad_draw(
            session,
            dice,
            reason=form.cleaned_data["reason"],
            actor=actor,
            expected_version=expected_version,
        )

    return _run_setup(request, session, "redraw", redo, form)


def _attendance(request: HttpRequest, session: Session, action, done: str) -> HttpResponse:
    form = AttendanceForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("The form was incomplete; reload the sheet and try again."))
        return redirect("tournaments:judge_session", pk=session.pk)
    try:
        seat = action(
            session,
            form.cleaned_data["player"],
            actor=request.user,
            expected_version=form.cleaned_data["version"],
        )
    except (AttendanceError, StaleSessionError) as error:
        messages.error(request, str(error))
    else:
        messages.success(request, done % {"name": seat.player.display_name})
    return redirect("tournaments:judge_session", pk=session.pk)


@judge_required
@require_POST
def session_check_in(request: HttpRequest, session: Session) -> HttpResponse:
    return _attendance(request, session, check_in, _("%(name)s is checked in."))


@judge_required
@require_POST
def session_no_show(request: HttpRequest, session: Session) -> HttpResponse:
    return _attendance(
        request, session, declare_no_show, _("%(name)s did not show up: a forfeit, ranked last.")
    )


@judge_required
@require_http_methods(["GET", "POST"])
def seat_preferences(request: AccountHttpRequest, session: Session, seat: int) -> HttpResponse:
    """The judge enters or corrects the squad preferences a player of the session hands in
    (RULES §3), until a squad is drawn for them; only for a player seated in this session.

    The page edits the tournament-wide list. Where the session's stage has a list of its own
    for the player (imported, read-only: decision 28), its draw reads that one instead, so
    the page shows it and refuses a save rather than change a list the draw ignores."""
    seat_obj = get_object_or_404(Seat.objects.select_related("player"), pk=seat, session=session)
    player = seat_obj.player
    tournament = session.stage.tournament
    data = request.POST if request.method == "POST" else None
    own = _stage_list(session, player)
    if own is not None and not preferences_locked(player, tournament):
        if data is not None:
            messages.error(request, stage_list_reason(player))
        return _stage_list_page(request, session, seat_obj, own, 200 if data is None else 409)
    try:
        context, status = preferences_editing(
            player, tournament, data, actor=request.user, stage=session.stage
        )
    except StageListKept as refused:  # the stage's list came while the form was open
        messages.error(request, str(refused))
        own = _stage_list(session, player) or []
        return _stage_list_page(request, session, seat_obj, own, 409)
    if own is not None and context.get("locked"):
        # This session's stage drew from its own list: that is the list kept for the record.
        context["kept"] = own
    if status is None:
        messages.success(request, staff_saved_message(player, context))
        return redirect("tournaments:judge_session", pk=session.pk)
    if context["locked"] and status == 409:
        messages.error(request, preferences_locked_reason(player))
    context.update({"session": session, "tournament": session.stage.tournament, "seat": seat_obj})
    return render(request, "judge/preferences.html", context, status=status)


def _stage_list(session: Session, player: Player) -> list[str] | None:
    """The list ``session``'s stage has of its own for ``player``, squads by name (None:
    it has none, and its draw reads the tournament-wide list)."""
    choices = stage_own_choices(session.stage, [player.pk]).get(player.pk)
    if choices is None:
        return None
    names = squad_names(session.stage.tournament)
    return [names.get(slug, slug) for slug in choices]


def _stage_list_page(
    request: HttpRequest, session: Session, seat: Seat, own: list[str], status: int
) -> HttpResponse:
    """The judge's preferences page showing the stage's own list read-only."""
    context = {
        "stage_list": own,
        "session": session,
        "tournament": session.stage.tournament,
        "seat": seat,
    }
    return render(request, "judge/preferences.html", context, status=status)


@judge_required
@require_POST
def session_draw(request: HttpRequest, session: Session) -> HttpResponse:
    return _run_setup(request, session, "draw", draw_squads)


@judge_required
@require_POST
def session_initiative(request: HttpRequest, session: Session) -> HttpResponse:
    return _run_setup(request, session, "initiative", run_initiative)


def preview_context(session: Session, form: ResultForm) -> dict:
    """Scores and provisional ranking of what the form holds (nothing is stored; without a
    stipulation the points alone, the top of the page saying why, once)."""
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
    request: HttpRequest,
    session: Session,
    *,
    correction: bool,
    done_url: str,
    on_saved: Callable[[RecordedResult], None] | None = None,
    answering: ResultDispute | None = None,
    from_game: dict | None = None,
) -> HttpResponse:
    """Enter a result (judge) or correct one with a reason (organiser): always a new version.

    Refused, nothing saved and everything typed kept, when the session changed since the
    form was loaded (optimistic locking) or a newer result version was saved meanwhile: the
    page then compares the two field by field, and the save goes through only once the
    judge has chosen, for every difference, which value to keep
    (:mod:`tournaments.forms.result_conflict`). ``on_saved``: what follows a saved
    version, before the redirect to ``done_url``; ``answering``: the player's dispute the
    correction answers, shown above it; ``from_game``: the board game the form was filled
    from (:func:`render_result_entry`), said above it on every page shown again."""
    seats = session_seats(session)
    latest = latest_version(session)
    limits = result_limits(session)
    action = RowAction.from_post(request.POST, [seat.player_id for seat in seats])
    if action is not None:
        return _rows_changed_page(
            request, session, seats, action, correction, latest, done_url, answering, from_game
        )
    entry = _Entry(request, session, correction, latest, done_url, answering, from_game)
    if request.method != "POST":
        initial = {
            **start_values(seats, latest),
            "version": session.version,
            "based_on": latest.number if latest else 0,
        }
        # The preview scores the values shown, as the browser will post them.
        filled = ResultForm(posted_values(initial), seats=seats, limits=limits)
        form = ResultForm(initial=initial, seats=seats, limits=limits)
        dice_form = RollOffForm(initial={"version": session.version}, prefix="tie")
        return entry.render(filled, dice_form, loaded_at=timezone.now().isoformat(), shown=form)
    form = ResultForm(request.POST, seats=seats, limits=limits)
    dice_form = RollOffForm(request.POST, prefix="tie")
    if not (form.is_valid() and dice_form.is_valid()):
        return entry.render(form, dice_form, status=400)
    base = version_number(session, form.cleaned_data.get("based_on"))
    conflict = find_conflict(form, latest, base, request.POST)
    if conflict is not None and not conflict.resolved:
        return entry.conflict(form, dice_form, conflict)
    if conflict is not None:
        # The judge chose for every difference: their values with the newer version's
        # where they chose those, now based on the newer version.
        data = {
            **posted_values(conflict.merged()),
            "version": form.cleaned_data["version"],
            "based_on": conflict.theirs.number,
            **{
                name: form.cleaned_data[name]
                for name in ("from_game", "from_step")
                if form.cleaned_data.get(name)
            },
        }
        form = ResultForm(data, seats=seats, limits=limits)
        if not form.is_valid():
            return entry.render(form, dice_form, status=400)
    try:
        recorded = enter_result(
            session,
            form.breakdowns(),
            survivors=form.survivors(),
            expected_version=form.cleaned_data["version"],
            actor=request.user,
            dice=_tie_dice(request, session, seats, dice_form),
            correction=correction,
            reason=request.POST.get("reason", ""),
            from_game=_from_game(form),
        )
    except StaleSessionError:
        session.refresh_from_db()
        latest = latest_version(session)
        entry.latest = latest
        base = version_number(session, form.cleaned_data.get("based_on"))
        conflict = find_conflict(form, latest, base, {})
        return entry.conflict(form, dice_form, conflict)
    except NoStipulation:
        # Said once, at the top of the page, with who can set the stipulation.
        return entry.render(form, dice_form, status=400, stipulation_refused=True)
    except (ResultError, DiceError) as error:
        form.add_error(None, str(error))
        return entry.render(form, dice_form, status=400)
    forget_seed(request, session, "ranking")
    messages.success(
        request,
        _("Result saved as version %(number)d; the standings are updated.")
        % {"number": recorded.version.number},
    )
    if on_saved is not None:
        on_saved(recorded)
    return redirect(done_url)


def _from_game(form: ResultForm) -> FromGame | None:
    """The board game the posted form was filled from, if it says so."""
    number, step = form.cleaned_data.get("from_game"), form.cleaned_data.get("from_step")
    return FromGame(number, step) if number and step else None


def _tie_dice(
    request: HttpRequest, session: Session, seats: list[Seat], dice_form: RollOffForm
) -> TypedDice | SeededDice:
    """The dice for a tie in the ranking: the judge's typed values, or the app's."""
    if dice_form.cleaned_data["mode"] == PHYSICAL:
        return TypedDice(
            values=dice_form.cleaned_data["values"],
            subjects=subject_names(seat.player for seat in seats),
        )
    return SeededDice(seed=pending_seed(request, session, "ranking"))


@dataclass
class _Entry:
    """The result page of one request: the form, and after a refused save the comparison."""

    request: HttpRequest
    session: Session
    correction: bool
    latest: ResultVersion | None
    done_url: str
    answering: ResultDispute | None = None
    #: The board game the form was filled from, said above it (None: typed in).
    from_game: dict | None = None

    def render(
        self,
        form: ResultForm,
        dice_form: RollOffForm,
        *,
        status: int = 200,
        loaded_at: str = "",
        conflict: Conflict | None = None,
        shown: ResultForm | None = None,
        stipulation_refused: bool = False,
    ) -> HttpResponse:
        """The page with ``shown`` (default ``form``) and the live preview of ``form``;
        ``stipulation_refused``: a save refused because the session has no stipulation."""
        context = _entry_context(
            self.request,
            self.session,
            shown or form,
            dice_form,
            self.correction,
            self.latest,
            self.done_url,
            answering=self.answering,
        )
        refused = status == 409
        context.update(
            from_game=self.from_game,
            conflict=conflict,
            refused=refused,
            stipulation_refused=stipulation_refused,
            # What others did meanwhile, after a refused save.
            changes=changes_since(self.session, _loaded_at(self.request)) if refused else [],
            preview=preview_context(self.session, form) if form.is_bound else None,
            loaded_at=loaded_at or self.request.POST.get("loaded_at") or timezone.now().isoformat(),
        )
        return render(self.request, "judge/result_entry.html", context, status=status)

    def conflict(
        self, form: ResultForm, dice_form: RollOffForm, conflict: Conflict | None
    ) -> HttpResponse:
        """Refused: the judge's values again, under the comparison with the newer version
        (none when only something else of the session changed), with the session's current
        version token; the page the judge resubmits from."""
        self.session.refresh_from_db()
        based_on = form.cleaned_data.get("based_on") or 0
        values = conflict.mine if conflict is not None else form.values()
        shown = ResultForm(
            initial={
                **values,
                "version": self.session.version,
                "based_on": based_on,
                "compared_with": conflict.theirs.number if conflict is not None else based_on,
                # Still the board game it was filled from, if it was.
                "from_game": form.cleaned_data.get("from_game"),
                "from_step": form.cleaned_data.get("from_step"),
            },
            seats=form.seats,
            limits=form.limits,
        )
        data = self.request.POST.copy()
        data["tie-version"] = str(self.session.version)
        dice_form = RollOffForm(data, prefix="tie")
        dice_form.is_valid()
        return self.render(form, dice_form, status=409, conflict=conflict, shown=shown)


def _entry_context(
    request: HttpRequest,
    session: Session,
    form: ResultForm,
    dice_form: RollOffForm,
    correction: bool,
    latest: ResultVersion | None,
    done_url: str,
    focus: RowAction | None = None,
    answering: ResultDispute | None = None,
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
        # A new version of a confirmed result says why, the judge's too (decision 50).
        "reason_needed": correction or has_confirmed_result(session),
        "answering": answering,
        "reason": request.POST.get("reason", ""),
        "done_url": done_url,
        # The result of a closed stage's session cannot change: said before any typing.
        "stage_closed": session.stage.status != StageStatus.OPEN,
        # Nor can one without a stipulation be saved: said before any typing too.
        "no_stipulation": missing_stipulation(request, session),
    }


def _rows_changed_page(
    request: HttpRequest,
    session: Session,
    seats: list[Seat],
    action: RowAction,
    correction: bool,
    latest: ResultVersion | None,
    done_url: str,
    answering: ResultDispute | None = None,
    from_game: dict | None = None,
) -> HttpResponse:
    """The no-JavaScript "add a row"/"remove" buttons: the same page, nothing saved, with
    everything typed kept, the rows changed and the version and load time of the first load
    (so optimistic locking still compares with what the editor started from)."""
    form = ResultForm(
        action.apply(request.POST), seats=seats, limits=result_limits(session), keep=action
    )
    typed_dice = {name: request.POST.get(f"tie-{name}") for name in ("mode", "dice")}
    dice_form = RollOffForm(
        initial={"version": session.version, **{k: v for k, v in typed_dice.items() if v}},
        prefix="tie",
    )
    context = _entry_context(
        request,
        session,
        form.as_typed(),
        dice_form,
        correction,
        latest,
        done_url,
        focus=action,
        answering=answering,
    )
    context.update(
        from_game=from_game,
        conflict=None,
        changes=[],
        preview=preview_context(session, form),
        loaded_at=request.POST.get("loaded_at") or timezone.now().isoformat(),
    )
    return render(request, "judge/result_entry.html", context)


def render_result_entry(
    request: HttpRequest, session: Session, initial: dict, *, from_game: object | None
) -> HttpResponse:
    """The judge's result page with the form filled from ``initial`` (as
    :func:`~tournaments.forms.result.initial_from_breakdowns` gives it) and nothing saved:
    the page the judge's board opens with the result its game proposes (``from_game``, shown
    above the form). The form posts back to the board's address, which hands the post here:
    it is saved as on the usual result page, and a page shown again (a value to fix, a row
    added, a newer version to compare) still says the game it came from, so the judge is
    not invited to fill it again over their edits. ``from_game`` None: the posted form
    names no step of the game, so no banner (it is saved as typed in, without the link)."""
    banner = None if from_game is None else {"proposal": from_game, "action": request.path}
    done_url = reverse("tournaments:judge_session", args=[session.pk])
    if request.method == "POST":
        return edit_result(request, session, correction=False, done_url=done_url, from_game=banner)
    seats = session_seats(session)
    latest = latest_version(session)
    initial = {"version": session.version, "based_on": latest.number if latest else 0, **initial}
    # The same values as the browser will post them, for the preview under the form.
    limits = result_limits(session)
    filled = ResultForm(posted_values(initial), seats=seats, limits=limits)
    dice_form = RollOffForm(initial={"version": session.version}, prefix="tie")
    form = ResultForm(initial=initial, seats=seats, limits=limits)
    context = _entry_context(request, session, form, dice_form, False, latest, done_url)
    context.update(
        conflict=None,
        changes=[],
        preview=preview_context(session, filled),
        loaded_at=timezone.now().isoformat(),
        from_game=banner,
    )
    return render(request, "judge/result_entry.html", context)


@judge_required
@require_POST
def result_preview(request: HttpRequest, session: Session) -> HttpResponse:
    form = ResultForm(request.POST, seats=session_seats(session), limits=result_limits(session))
    return render(
        request,
        "judge/partials/score_preview.html",
        {"preview": preview_context(session, form), "form": form, "oob_totals": True},
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
    form = ResultForm(
        action.apply(request.POST), seats=seats, limits=result_limits(session), keep=action
    )
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
