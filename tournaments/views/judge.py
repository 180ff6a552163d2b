"""Judge pages: the session sheet at the table, draw and initiative, result entry, print sheets.

Built for a phone: one column, big targets, the live score preview under the fields.
"""

from __future__ import annotations

from datetime import datetime

from django.contrib import messages
from django.db import transaction
from django.db.models import Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from rules.engine.dice import DiceError, ScriptedDice, SeededDice, seed_commitment

from ..draw import DrawError
from ..forms.judge import PHYSICAL, DiceForm
from ..forms.loadout import catalogue_for, problems_for, stored_loadout
from ..forms.result import ResultForm, initial_from_breakdowns
from ..models import ActivityLog, CommanderCombo, DiceRoll, Result, Seat, Session, StaleSessionError
from ..permissions import judge_required, login_required
from ..ranking import RankingError, SeatResult, rank_session
from ..results import (
    ResultError,
    correct_result,
    record_result,
    scoring_values,
    seat_names,
    stipulation_kind,
)
from ..scoring import score_session
from ..table_setup import SetupError, run_initiative, run_squad_draw
from .dice_choice import dice_from_form, forget_seed, pending_seed


@login_required
@require_GET
def judge_home(request: HttpRequest) -> HttpResponse:
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


def _seats(session: Session) -> list[Seat]:
    return list(session.seats.select_related("player", "squad", "loadout").order_by("seat_order"))


def loadout_checks(session: Session, seats: list[Seat]) -> list[dict]:
    """Each seat's chosen loadout and what the rules say about it (with the reason)."""
    catalogue = catalogue_for(session.stage.tournament)
    combos = dict(CommanderCombo.choices)

    def weapon(slug: str) -> str:
        spec = catalogue.weapon(slug)
        return spec.display_name() if spec else slug

    checks = []
    for seat in seats:
        chosen = stored_loadout(seat)
        cards = {
            card.slug: card.display_name()
            for card in (catalogue.chapter_cards(seat.squad.slug) if seat.squad else ())
        }
        checks.append(
            {
                "seat": seat,
                "loadout": chosen,
                "problems": problems_for(seat, chosen, catalogue) if chosen else (),
                "commander": combos.get(chosen.commander_combo, "") if chosen else "",
                "weapons": [
                    weapon(slug) for slug in (chosen.marine_weapons + chosen.extra_marine_weapons)
                ]
                if chosen
                else [],
                "orders": [cards.get(s, s) for s in chosen.order_cards] if chosen else [],
                "equipment": [cards.get(s, s) for s in chosen.equipment_cards] if chosen else [],
            }
        )
    return checks


def dice_log(session: Session, seats: list[Seat]) -> list[tuple[DiceRoll, str]]:
    """The session's recorded dice with the roller's name instead of their id."""
    names = {str(seat.player_id): seat.player.display_name for seat in seats}
    rolls = DiceRoll.objects.filter(session=session).order_by("created_at", "sequence")
    return [(roll, names.get(roll.subject, roll.subject)) for roll in rolls]


def _sheet_context(request: HttpRequest, session: Session, **forms) -> dict:
    seats = _seats(session)
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
        dice = dice_from_form(request, form, session, purpose)
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
    return _run_setup(request, session, "draw", run_squad_draw)


@judge_required
@require_POST
def session_initiative(request: HttpRequest, session: Session) -> HttpResponse:
    return _run_setup(request, session, "initiative", run_initiative)


def _latest_version(session: Session):
    result = Result.objects.filter(session=session).first()
    return result.latest_version() if result else None


def preview_context(session: Session, form: ResultForm) -> dict:
    """Scores and provisional ranking of what the form holds (nothing is stored)."""
    if not form.is_valid():
        return {"invalid": True}
    names = seat_names(session)
    cards = score_session(form.breakdowns(), scoring_values(session.stage.tournament), names)
    survivors = {str(pk) for pk in form.survivors()}
    tie = ""
    order: list[tuple[int | None, str]] = []
    try:
        kind = stipulation_kind(session)
    except ResultError as error:
        return {"cards": cards, "names": names, "error": str(error)}
    results = [
        SeatResult(seat=seat, points=card.total, survived=seat in survivors)
        for seat, card in cards.items()
    ]
    try:
        ranking = rank_session(kind, results, dice=None)
        order = [(ranked.position, ranked.seat) for ranked in ranking.order]
    except RankingError:
        tie = _("Some seats are tied: a roll-off will settle it when you submit.")
        order = [(None, r.seat) for r in sorted(results, key=lambda r: -r.points)]
    rows = [
        {"position": position, "name": names[seat], "card": cards[seat]} for position, seat in order
    ]
    problems = {p.message for card in cards.values() for p in card.problems}
    return {"rows": rows, "tie": tie, "problems": sorted(problems)}


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
    seats = _seats(session)
    latest = _latest_version(session)
    initial = {"version": session.version}
    if latest is not None:
        initial.update(initial_from_breakdowns(seats, latest.breakdown, latest.survivors))
    else:
        initial.update({ResultForm.key(seat, "survived"): True for seat in seats})
    form = ResultForm(request.POST or None, initial=initial, seats=seats)
    stale = None
    status = 200
    if request.method == "POST":
        dice_form = DiceForm(request.POST, prefix="tie")
        if form.is_valid() and dice_form.is_valid():
            dice = (
                ScriptedDice(values=dice_form.cleaned_data["values"])
                if dice_form.cleaned_data["mode"] == PHYSICAL
                else SeededDice(seed=pending_seed(request, session, "ranking"))
            )
            try:
                with transaction.atomic():
                    session.update_if_current(form.cleaned_data["version"])
                    if correction:
                        recorded = correct_result(
                            session,
                            form.breakdowns(),
                            reason=request.POST.get("reason", ""),
                            survivors=form.survivors(),
                            actor=request.user,
                            dice=dice,
                        )
                    else:
                        recorded = record_result(
                            session,
                            form.breakdowns(),
                            survivors=form.survivors(),
                            actor=request.user,
                            confirmed=True,
                            dice=dice,
                        )
            except StaleSessionError:
                session.refresh_from_db()
                stale = {
                    "latest": _latest_version(session),
                    "changes": changes_since(session, _loaded_at(request)),
                }
                form.data = form.data.copy()
                form.data["version"] = str(session.version)
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
    return render(
        request,
        "judge/result_entry.html",
        {
            "session": session,
            "tournament": session.stage.tournament,
            "form": form,
            "blocks": [form.seat_fields(seat) for seat in seats],
            "dice_form": dice_form,
            "tie_commitment": seed_commitment(pending_seed(request, session, "ranking")),
            "preview": preview_context(session, form) if form.is_bound else None,
            "latest": latest,
            "stale": stale,
            "loaded_at": timezone.now().isoformat(),
            "correction": correction,
            "reason": request.POST.get("reason", ""),
            "done_url": done_url,
        },
        status=status,
    )


@judge_required
@require_POST
def result_preview(request: HttpRequest, session: Session) -> HttpResponse:
    form = ResultForm(request.POST, seats=_seats(session))
    return render(
        request,
        "judge/partials/score_preview.html",
        {"preview": preview_context(session, form), "form": form},
    )


@judge_required
@require_GET
def print_score_sheet(request: HttpRequest, session: Session) -> HttpResponse:
    context = _sheet_context(request, session)
    return render(request, "judge/print_score_sheet.html", context)


@judge_required
@require_GET
def print_loadouts(request: HttpRequest, session: Session) -> HttpResponse:
    seats = _seats(session)
    return render(
        request,
        "judge/print_loadouts.html",
        {
            "session": session,
            "tournament": session.stage.tournament,
            "checks": loadout_checks(session, seats),
        },
    )
