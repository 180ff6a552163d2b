"""The judge's turn actions on the board page (thin: :mod:`table.turn_actions` and
:mod:`table.reroll_actions` decide)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET, require_POST

from table.actions import GameError, latest_snapshot, snapshot_state
from table.alien_dice import alien_turn_panel
from table.forms import AlienTurnForm, RerollForm
from table.models import Snapshot
from table.reroll_actions import reroll_die
from table.reroll_panel import REROLL, reroll_context
from table.seating import player_rows
from table.turn_actions import finish_turn
from table.turn_actions import next_round as close_the_round
from table.turn_actions import play_card as play
from table.turn_forms import TurnStepForm
from table.turn_panel import card_form
from table.views import _board_page, _done, _game, rolled_step
from tournaments.models import Session
from tournaments.web.permissions import judge_required


def _turn_step(request: HttpRequest, session: Session, number: int, action) -> HttpResponse:
    game = _game(session, number)
    form = TurnStepForm(request.POST)
    if form.is_valid():
        try:
            snapshot = action(
                game, expected_number=form.cleaned_data["version"], actor=request.user
            )
        except GameError as error:
            form.add_error(None, str(error))
        else:
            return _done(request, game, snapshot)
    return _board_page(request, game, status=400, turn_step_form=form)


@judge_required
@require_POST
def end_turn(request: HttpRequest, session: Session, number: int) -> HttpResponse:
    return _turn_step(request, session, number, finish_turn)


@judge_required
@require_POST
def next_round(request: HttpRequest, session: Session, number: int) -> HttpResponse:
    return _turn_step(request, session, number, close_the_round)


@judge_required
@require_POST
def play_card(request: HttpRequest, session: Session, number: int) -> HttpResponse:
    game = _game(session, number)
    form = card_form(snapshot_state(latest_snapshot(game)), request.POST)
    if form.is_valid():
        try:
            snapshot = play(
                game,
                form.cleaned_data["card"],
                figure=form.cleaned_data.get("figure") or None,
                expected_number=form.cleaned_data["version"],
                actor=request.user,
            )
        except GameError as error:
            form.add_error(None, str(error))
        else:
            return _done(request, game, snapshot)
    return _board_page(request, game, status=400, card_form=form)


@judge_required
@require_POST
def reroll(request: HttpRequest, session: Session, number: int) -> HttpResponse:
    """Roll one die of the last attack again (a card allows it) and resolve it again."""
    game = _game(session, number)
    form = RerollForm(request.POST, prefix="reroll")

    def act(dice, data) -> Snapshot:
        return reroll_die(
            game,
            data["number"],
            dice,
            expected_number=data["version"],
            card=data.get("card"),
            actor=request.user,
        )

    return rolled_step(request, game, form, REROLL, act, "reroll_form")


@judge_required
@require_GET
def reroll_panel(request: HttpRequest, session: Session, number: int) -> HttpResponse:
    """The re-roll panel alone: every open view of the board fetches it again when the game
    changes, so an attack made on another device shows its offer (and a re-roll taken
    there takes it away) without reloading the page."""
    game = _game(session, number)
    context = reroll_context(request, game, latest_snapshot(game))
    return render(
        request,
        "table/partials/reroll_panel.html",
        {"session": session, "game": game, **context},
    )


@judge_required
@require_POST
def alien_dice(request: HttpRequest, session: Session, number: int) -> HttpResponse:
    """htmx: the Alien turn's dice list for what the judge has typed or chosen so far
    (nothing is rolled or stored)."""
    game = _game(session, number)
    state = snapshot_state(latest_snapshot(game))
    form = AlienTurnForm(request.POST, prefix="turn", state=state)
    form.is_valid()  # the check that lists the dice
    context = alien_turn_panel(form, player_rows(session, state), live=True)
    return render(request, "table/partials/alien_dice.html", context)
