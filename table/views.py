"""The judge's board page: a session's games, the board, and the actions at the table.

Views are thin: the engine decides through :mod:`table.actions`; every view is for the
session's judge, its tournament's organisers and superusers (``judge_required``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from django.conf import settings
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.core.paginator import Page, Paginator
from django.forms import BaseForm
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import urlencode
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from rules.engine.combat import AttackOption
from rules.engine.dice import DiceError, SeededDice, seed_commitment
from rules.engine.geometry import Facing
from rules.engine.narration import format_param
from rules.engine.state import MARINE, GameState
from rules.engine.vehicles import is_vehicle
from table.actions import (
    GameError,
    UploadError,
    attack_choices,
    check_sight,
    create_game,
    latest_snapshot,
    marine_attack,
    move_marine,
    open_door_by,
    remove_figure,
    request_alien_turn,
    run_turn_again,
    saved_result,
    set_life_points,
    snapshot_state,
    survey_needs_dice,
    undo_to,
    upload_state,
)
from table.alien_dice import alien_turn_panel
from table.board_svg import board_svg, short_labels
from table.catalogue_words import also_labelled, history_labels, labelled
from table.equipment_actions import equipment_action
from table.forms import (
    AlienTurnForm,
    AttackForm,
    EquipmentForm,
    LifePointsForm,
    MoveForm,
    NewGameForm,
    OpenDoorForm,
    RemoveForm,
    SightForm,
    UndoForm,
    UploadForm,
    VersionedForm,
    alien_turn_initial,
    pile_initial,
    planned_map,
)
from table.game_setup import GameSetupError
from table.live_stamp import game_stamp
from table.models import AlienTurnRequest, Game, Snapshot, TurnStatus
from table.reroll_panel import reroll_context
from table.result_from_game import propose_result
from table.seating import player_rows, squad_colours
from table.session_material import SessionMaterialError, engine_setup, plays_aliens
from table.settings_adoption import adopt_session_settings, settings_changed
from table.snapshot_summaries import snapshot_summary
from table.step_log import dice_lines, event_lines, log_lines, narration_language
from table.touch_data import target_name
from table.turn_panel import alien_turn_offered, turn_context
from tournaments.forms.result import initial_from_breakdowns
from tournaments.models import Session
from tournaments.sheets.seats import session_seats
from tournaments.views.judge import render_result_entry
from tournaments.web.dice_choice import dice_from_form, forget_seed, pending_seed
from tournaments.web.permissions import judge_required
from tournaments.web.request_types import HtmxHttpRequest

ATTACK = "attack"
ALIEN_TURN = "alien-turn"
MOVE = "move"


def _game(session: Session, number: int) -> Game:
    return get_object_or_404(Game.objects.select_related("session"), session=session, number=number)


def _board_url(game: Game, **query: str) -> str:
    url = reverse("table:board", args=[game.session_id, game.number])
    return f"{url}?{urlencode(query)}" if query else url


# --- the session's games -------------------------------------------------------------------


@judge_required
@require_http_methods(["GET", "POST"])
def games(request: HttpRequest, session: Session) -> HttpResponse:
    initial = {"map_name": planned_map(session), **pile_initial(session)}
    form = NewGameForm(
        request.POST or None,
        initial=initial,
        tournament=session.stage.tournament,
        with_aliens=plays_aliens(session),
    )
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                game = create_game(
                    session,
                    form.cleaned_data["map_name"],
                    form.cleaned_data["policy"],
                    label=form.cleaned_data["label"],
                    solitaire=form.solitaire_setup(),
                    actor=request.user,
                )
            except (GameSetupError, GameError) as error:
                form.add_error(None, str(error))
            else:
                messages.success(request, _("Game created: the squads stand at their claws."))
                return redirect(_board_url(game))
        status = 400
    games, without_aliens = _games_and_changes(session)
    return render(
        request,
        "table/games.html",
        {
            "session": session,
            "tournament": session.stage.tournament,
            "games": games,
            # The games played without aliens (by pk): they have no Alien policy to name.
            "games_without_aliens": without_aliens,
            "form": form,
            # A saved result closes the board: no new game, nothing to adopt.
            "result_saved": saved_result(session.pk),
        },
        status=status,
    )


def _games_and_changes(session: Session) -> tuple[list[tuple[Game, bool]], set[int]]:
    """The session's games, each with whether the session's settings changed since it
    started (adopting them would change something; settings that cannot be read yet count
    as changed, so that adopting says what is wrong), and the pks of those that play without
    aliens (``Stipulation.with_aliens`` of their latest state, as their board says)."""
    games = list(session.games.order_by("number"))
    states = {game.pk: snapshot_state(latest_snapshot(game)) for game in games}
    without_aliens = {pk for pk, state in states.items() if not state.stipulation.with_aliens}
    try:
        setup = engine_setup(session)
    except SessionMaterialError:
        return [(game, True) for game in games], without_aliens
    changes = [(game, settings_changed(game, setup, states[game.pk])) for game in games]
    return changes, without_aliens


# --- building the board page ---------------------------------------------------------------


def _figure_choices(
    state: GameState, labels: Mapping[str, str], *, marines_only: bool
) -> list[tuple[str, str]]:
    """The figures on the board as the forms' choices, each led by the label drawn on it
    (``labels``: :func:`short_labels` of ``state``; ``Or2 · ork-blip-1-1 · Ork``), so the
    judge finds in the list what the board shows."""
    lang = narration_language()
    return [
        (
            f.id,
            " · ".join(
                [
                    *([labels[f.id]] if f.id in labels else []),
                    f.id,
                    format_param("unit", f.unit, lang),
                ]
            ),
        )
        for f in state.figures
        if f.on_board and (f.side == MARINE or not marines_only)
    ]


def _attacker_choices(
    state: GameState, marines: Sequence[tuple[str, str]]
) -> list[tuple[str, str]]:
    """The ``marines`` that may attack in this turn: the player on turn's own figures (the
    engine refuses another player's, RULES §Turn sequence); every marine while nobody's
    turn has started yet, none in the Alien phase or once the game is over."""
    if state.outcome is not None or state.turn.aliens_phase:
        return []
    active = state.active_player
    return [
        (value, label)
        for value, label in marines
        if active is None or state.figure(value).player == active
    ]


def _vehicle_choices(state: GameState, marines: Sequence[tuple[str, str]]) -> list[tuple[str, str]]:
    """The marine side's Tarantulas and Dreadnoughts (abandoned or crewed), for boarding,
    among the marine side's choices (:func:`_figure_choices`)."""
    return [(value, label) for value, label in marines if is_vehicle(state.figure(value))]


def _legend(state: GameState, labels: Mapping[str, str]) -> list[dict]:
    """The table of the figures on the board, each with the short label drawn on it, if any
    (``labels``: :func:`short_labels` of ``state``; the key from an alien's label on the
    board to its id in the log)."""
    lang = narration_language()
    return [
        {
            "figure": f,
            "label": labels.get(f.id, ""),
            "unit": format_param("unit", f.unit, lang),
            "weapons": ", ".join(format_param("weapon", w, lang) for w in f.weapons),
            "square": " · ".join(f"{x},{y}" for x, y in f.squares),
        }
        for f in state.figures
        if f.on_board
    ]


def _probability(p: Fraction) -> dict:
    return {"fraction": f"{p.numerator}/{p.denominator}", "percent": float(p) * 100}


def _option_row(
    state: GameState, index: int, option: AttackOption, labels: Mapping[str, str]
) -> dict:
    odds = option.odds
    lang = narration_language()
    return {
        "index": index,
        "description": option.description_in(lang),
        "expected_points": float(odds.expected_points()),
        "expected_life_points": float(odds.expected_life_points()),
        "friendly": option.warns_friendly,
        "targets": [
            {
                "name": target_name(state, target.key, lang, labels),
                "life_points": target.life_points,
                "expected": float(odds.expected_damage(target.key)),
                "kill": _probability(odds.kill_probability(target.key)),
            }
            for target in odds.targets
        ],
    }


def _odds_context(
    request: HttpRequest,
    game: Game,
    snapshot: Snapshot,
    state: GameState,
    attacker: str,
    form=None,
    labels: Mapping[str, str] | None = None,
) -> dict:
    """The attack panel of ``attacker`` (``labels``: :func:`short_labels` of ``state``, when
    the page has read them already)."""
    context: dict = {"attacker": attacker, "game": game, "snapshot": snapshot}
    if not attacker:
        return context
    try:
        options = attack_choices(state, attacker)
    except GameError as error:
        context["odds_error"] = str(error)
        return context
    if labels is None:
        labels = short_labels(state)
    context["options"] = [_option_row(state, i, option, labels) for i, option in enumerate(options)]
    context["attack_form"] = form or AttackForm(
        initial={"version": snapshot.number, "figure": attacker}, prefix="attack"
    )
    context["chosen"] = (
        form.data.get("attack-choice")
        if form is not None and form.is_bound
        else request.GET.get("choice")
    )
    context["attack_commitment"] = seed_commitment(pending_seed(request, game, ATTACK))
    return context


def _turn_request(
    game: Game, request_id: str | None, snapshot: Snapshot
) -> AlienTurnRequest | None:
    """The Alien turn request the page follows: the one named in its address, else one
    still pending from the position shown (a judge who opened the board again, or another
    judge's screen, sees it being resolved instead of being offered the turn again)."""
    if not request_id:
        return (
            game.turn_requests.select_related("snapshot")
            .filter(status=TurnStatus.PENDING, base_number=snapshot.number)
            .order_by("-queued_at")
            .first()
        )
    try:
        return game.turn_requests.select_related("snapshot").filter(pk=request_id).first()
    except (ValueError, ValidationError):
        return None


def _earlier_step(game: Game, snapshot: Snapshot, asked: str | None) -> Snapshot | None:
    """The step of the game named by ``?step=N`` when it is an earlier one than
    ``snapshot`` (the latest): the judge reads again what it did, its whole log, once
    later steps have replaced it on the board. Anything else (no such step, not a number,
    the latest itself) names none: the page shows the latest step."""
    if not asked or not asked.isdigit() or int(asked) >= snapshot.number:
        return None
    return game.snapshots.filter(number=int(asked)).first()


def _log_context(
    game: Game, snapshot: Snapshot, request_id: str | None, step: str | None = None
) -> dict:
    earlier = _earlier_step(game, snapshot, step)
    turn = None if earlier is not None else _turn_request(game, request_id, snapshot)
    shown = turn.snapshot if turn is not None and turn.snapshot is not None else snapshot
    shown = earlier or shown
    deadline = settings.BOB_ALIEN_TURN_DEADLINE_SECONDS
    before = game.snapshots.filter(number=shown.number - 1).first()
    # Its figures as its own state labels them, and as the state before, for those it killed.
    with labelled(*(snapshot_state(s) for s in (before, shown) if s is not None)):
        lines = log_lines(shown.steps)
        events = event_lines(shown.events)
        dice = dice_lines(shown.dice)
    return {
        "game": game,
        "turn": turn,
        "overdue": turn is not None and turn.overdue(timezone.now(), deadline),
        "deadline": deadline,
        "shown": shown,
        "lines": lines,
        "events": events,
        "dice": dice,
        "current": snapshot.number,
        "earlier": earlier is not None,
    }


#: Steps of the history shown on one page of the board (newest first).
HISTORY_PAGE_SIZE = 25


@dataclass(frozen=True)
class HistoryLine:
    """A step of the history as the board lists it: the step and its summary."""

    step: Snapshot
    summary: str


def _history(request: HttpRequest, game: Game) -> tuple[Page, list[HistoryLine]]:
    """One page of the game's history, newest first (``?history=N``), and its lines; the
    stored states, logs and dice are not read, only what the list shows and the figures of
    the states the page's steps stood in, so that a step names a figure it killed as the
    board named it (:func:`~table.catalogue_words.history_labels`), however long ago."""
    steps = (
        game.snapshots.select_related("created_by")
        .defer("state", "steps", "events", "dice")
        .order_by("-number")
    )
    page = Paginator(steps, HISTORY_PAGE_SIZE).get_page(request.GET.get("history"))
    shown = list(page)
    if not shown:
        return page, []
    labels = history_labels(game, shown[-1].number - 1, shown[0].number)
    with also_labelled(labels):
        return page, [HistoryLine(step, snapshot_summary(step)) for step in shown]


def _board_context(request: HttpRequest, game: Game, **forms) -> dict:
    session = game.session
    snapshot = latest_snapshot(game)
    state = snapshot_state(snapshot)
    version = {"version": snapshot.number}
    labels = short_labels(state)
    marines = _figure_choices(state, labels, marines_only=True)
    everyone = _figure_choices(state, labels, marines_only=False)
    attack_form = forms.get("attack_form")
    attacker = attack_form.data.get("attack-figure", "") if attack_form else ""
    attacker = attacker or request.GET.get("attacker", "")
    log = _log_context(game, snapshot, request.GET.get("request"), request.GET.get("step"))
    survey_dice = survey_needs_dice(game)
    players = player_rows(session, state)
    history, history_lines = _history(request, game)
    return {
        "session": session,
        "tournament": session.stage.tournament,
        "result_saved": saved_result(session.pk),
        # A step posted from a page loaded before the result was saved: its refusal is said
        # beside the notice, since the forms that would show it are gone.
        "step_refusals": [
            error
            for form in forms.values()
            if isinstance(form, BaseForm) and form.is_bound
            for errors in form.errors.values()
            for error in errors
        ],
        "game": game,
        "snapshot": snapshot,
        "state": state,
        "map_title": state.board.title_in(narration_language()),
        "svg": mark_safe(board_svg(state, squad_colours(players))),
        "legend": _legend(state, labels),
        "blips": len(state.blips),
        "players": players,
        "marines": marines,
        "attackers": _attacker_choices(state, marines),
        "move_form": forms.get("move_form")
        or MoveForm(initial=version, figures=marines, survey_dice=survey_dice, prefix="move"),
        "move_commitment": (
            seed_commitment(pending_seed(request, game, MOVE)) if survey_dice else None
        ),
        **_odds_context(request, game, snapshot, state, attacker, attack_form, labels),
        "door_form": forms.get("door_form")
        or OpenDoorForm(initial=version, figures=marines, prefix="door"),
        "equipment_form": forms.get("equipment_form")
        or EquipmentForm(
            initial=version,
            figures=marines,
            vehicles=_vehicle_choices(state, marines),
            prefix="equip",
        ),
        "remove_form": forms.get("remove_form")
        or RemoveForm(initial=version, figures=everyone, prefix="remove"),
        "life_points_form": forms.get("life_points_form")
        or LifePointsForm(initial=version, figures=everyone, prefix="lp"),
        **alien_turn_panel(
            forms.get("turn_form")
            or AlienTurnForm(
                initial=alien_turn_initial(snapshot.number, game.policy, log["turn"]),
                prefix="turn",
                state=state,
            ),
            players,
        ),
        "turn_commitment": seed_commitment(pending_seed(request, game, ALIEN_TURN)),
        "sight_form": forms.get("sight_form") or SightForm(prefix="los"),
        "sight": forms.get("sight"),
        "upload_form": forms.get("upload_form") or UploadForm(initial=version, prefix="upload"),
        "history": history,
        "history_lines": history_lines,
        "stamp": game_stamp(game.session_id, game.number),
        **turn_context(state, snapshot.number, forms, {row["id"]: row["name"] for row in players}),
        **reroll_context(request, game, snapshot, forms.get("reroll_form")),
        **log,
    }


def _board_page(request: HttpRequest, game: Game, status: int = 200, **forms) -> HttpResponse:
    return render(
        request, "table/board.html", _board_context(request, game, **forms), status=status
    )


# --- pages and partials --------------------------------------------------------------------


@judge_required
@require_GET
def board(request: HttpRequest, session: Session, number: int) -> HttpResponse:
    return _board_page(request, _game(session, number))


@judge_required
@require_GET
def board_partial(request: HttpRequest, session: Session, number: int) -> HttpResponse:
    game = _game(session, number)
    snapshot = latest_snapshot(game)
    state = snapshot_state(snapshot)
    players = player_rows(session, state)
    return render(
        request,
        "table/partials/board.html",
        {
            "game": game,
            "snapshot": snapshot,
            "state": state,
            "svg": mark_safe(board_svg(state, squad_colours(players))),
            "legend": _legend(state, short_labels(state)),
            "blips": len(state.blips),
            "players": players,
            "alien_turn_offered": alien_turn_offered(state),
        },
    )


@judge_required
@require_GET
def attack_panel(request: HtmxHttpRequest, session: Session, number: int) -> HttpResponse:
    game = _game(session, number)
    attacker = request.GET.get("attacker", "")
    if not request.htmx:
        return redirect(_board_url(game, attacker=attacker) + "#attack")
    snapshot = latest_snapshot(game)
    context = _odds_context(request, game, snapshot, snapshot_state(snapshot), attacker)
    return render(request, "table/partials/odds.html", context)


@judge_required
@require_GET
def step_log(request: HttpRequest, session: Session, number: int) -> HttpResponse:
    game = _game(session, number)
    context = _log_context(game, latest_snapshot(game), request.GET.get("request"))
    response = render(request, "table/partials/log.html", context)
    turn = context["turn"]
    if request.GET.get("poll") and turn is not None and turn.status != TurnStatus.PENDING:
        # The turn finished while the page waited: reload it so the board and every
        # form show the new state.
        response["HX-Refresh"] = "true"
    return response


@judge_required
@require_GET
def sight(request: HtmxHttpRequest, session: Session, number: int) -> HttpResponse:
    game = _game(session, number)
    form = SightForm(request.GET, prefix="los")
    result = None
    if form.is_valid():
        state = snapshot_state(latest_snapshot(game))
        try:
            result = check_sight(
                state,
                form.cleaned_data["a"],
                form.cleaned_data["b"],
                for_firing=form.cleaned_data["for_firing"],
            )
        except GameError as error:
            form.add_error(None, str(error))
    status = 200 if result is not None else 400
    if request.htmx:
        return render(
            request,
            "table/partials/sight.html",
            {"game": game, "sight_form": form, "sight": result},
            status=status,
        )
    return _board_page(request, game, status=status, sight_form=form, sight=result)


@judge_required
@require_GET
def state_json(request: HttpRequest, session: Session, number: int) -> HttpResponse:
    game = _game(session, number)
    snapshot = latest_snapshot(game)
    body = json.dumps(snapshot.state, ensure_ascii=False, indent=1, sort_keys=True)
    response = HttpResponse(body, content_type="application/json; charset=utf-8")
    filename = f"bob-session-{session.pk}-game-{game.number}-step-{snapshot.number}.json"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


# --- actions -------------------------------------------------------------------------------


def _done(
    request: HttpRequest, game: Game, snapshot: Snapshot, level: int = messages.SUCCESS
) -> HttpResponse:
    """Back to the board itself, not the page's top: on a phone the judge plays on, tap
    after tap. The board's banner says the step just made and what it did; a step that
    left something out (``level`` a warning) is also said above the page, once."""
    if level != messages.SUCCESS:
        messages.add_message(request, level, snapshot_summary(snapshot))
    return redirect(_board_url(game) + "#play")


def _seed_message(request: HttpRequest, dice) -> None:
    if isinstance(dice, SeededDice):
        messages.info(
            request,
            _("Rolled by the app with seed %(seed)s (its hash was shown before).")
            % {"seed": dice.seed},
        )


@judge_required
@require_POST
def move(request: HttpRequest, session: Session, number: int) -> HttpResponse:
    game = _game(session, number)
    state = snapshot_state(latest_snapshot(game))
    form = MoveForm(
        request.POST,
        figures=_figure_choices(state, short_labels(state), marines_only=True),
        survey_dice=survey_needs_dice(game),
        prefix="move",
    )
    if form.is_valid():
        dice = dice_from_form(request, form, game, MOVE) if form.survey_dice else None
        try:
            snapshot = move_marine(
                game,
                form.cleaned_data["figure"],
                form.cleaned_data["square"],
                expected_number=form.cleaned_data["version"],
                pass_through=form.cleaned_data["pass_through"],
                facing=Facing(form.cleaned_data["facing"]) if form.cleaned_data["facing"] else None,
                dice=dice,
                actor=request.user,
            )
        except DiceError as error:
            form.add_error("dice", str(error))
        except GameError as error:
            form.add_error("square", str(error))
        else:
            if snapshot.dice:  # an app seed that rolled nothing stays secret for the next move
                forget_seed(request, game, MOVE)
                _seed_message(request, dice)
            return _done(request, game, snapshot)
    return _board_page(request, game, status=400, move_form=form)


@judge_required
@require_POST
def attack(request: HttpRequest, session: Session, number: int) -> HttpResponse:
    game = _game(session, number)
    form = AttackForm(request.POST, prefix="attack")

    def act(dice, data) -> Snapshot:
        return marine_attack(
            game,
            data["figure"],
            data["choice"],
            dice,
            expected_number=data["version"],
            actor=request.user,
        )

    return rolled_step(request, game, form, ATTACK, act, "attack_form")


def rolled_step(request: HttpRequest, game: Game, form, purpose: str, act, form_name: str):
    """Carry out ``act(dice, cleaned_data)`` with the dice the valid ``form`` asks for (an
    app seed for ``purpose`` or typed dice); the board again with the form's errors (400)
    when it is refused."""
    if form.is_valid():
        dice = dice_from_form(request, form, game, purpose)
        try:
            snapshot = act(dice, form.cleaned_data)
        except DiceError as error:
            form.add_error("dice", str(error))
        except GameError as error:
            form.add_error(None, str(error))
        else:
            forget_seed(request, game, purpose)
            _seed_message(request, dice)
            return _done(request, game, snapshot)
    return _board_page(request, game, status=400, **{form_name: form})


def _judge_edit(
    request,
    session,
    number,
    form_class,
    prefix,
    form_name,
    apply,
    *,
    marines_only=False,
    more_choices=None,
):
    """A judge's step on one figure (a correction, a door opened, special equipment):
    validate the form, append a snapshot, or show errors. ``more_choices``: the form's
    other choices, from the state and its figures' choices."""
    game = _game(session, number)
    state = snapshot_state(latest_snapshot(game))
    figures = _figure_choices(state, short_labels(state), marines_only=marines_only)
    form = form_class(
        request.POST,
        figures=figures,
        prefix=prefix,
        **(more_choices(state, figures) if more_choices else {}),
    )
    if form.is_valid():
        data = form.cleaned_data
        try:
            snapshot = apply(game, data, expected_number=data["version"], actor=request.user)
        except GameError as error:
            form.add_error(None, str(error))
        else:
            return _done(request, game, snapshot)
    return _board_page(request, game, status=400, **{form_name: form})


@judge_required
@require_POST
def open_door(request: HttpRequest, session: Session, number: int) -> HttpResponse:
    """A marine opens a closed door it stands in front of (the touch board's door tap)."""
    return _judge_edit(
        request,
        session,
        number,
        OpenDoorForm,
        "door",
        "door_form",
        lambda game, data, **kw: open_door_by(game, data["figure"], *data["door"], **kw),
        marines_only=True,
    )


@judge_required
@require_POST
def equipment(request: HttpRequest, session: Session, number: int) -> HttpResponse:
    """A special-equipment action: board or leave a vehicle, pick up a weapon."""
    return _judge_edit(
        request,
        session,
        number,
        EquipmentForm,
        "equip",
        "equipment_form",
        lambda game, data, **kw: equipment_action(
            game,
            data["action"],
            data["figure"],
            vehicle_id=data["vehicle"] or None,
            square=data["square"],
            **kw,
        ),
        marines_only=True,
        more_choices=lambda state, marines: {"vehicles": _vehicle_choices(state, marines)},
    )


@judge_required
@require_POST
def remove(request: HttpRequest, session: Session, number: int) -> HttpResponse:
    return _judge_edit(
        request,
        session,
        number,
        RemoveForm,
        "remove",
        "remove_form",
        lambda game, data, **kw: remove_figure(
            game, data["figure"], data["why"], data["reason"], **kw
        ),
    )


@judge_required
@require_POST
def life_points(request: HttpRequest, session: Session, number: int) -> HttpResponse:
    return _judge_edit(
        request,
        session,
        number,
        LifePointsForm,
        "lp",
        "life_points_form",
        lambda game, data, **kw: set_life_points(
            game, data["figure"], data["life_points"], data["reason"], **kw
        ),
    )


@judge_required
@require_POST
def alien_turn(request: HttpRequest, session: Session, number: int) -> HttpResponse:
    game = _game(session, number)
    form = AlienTurnForm(request.POST, prefix="turn", state=snapshot_state(latest_snapshot(game)))
    if form.is_valid():
        dice = dice_from_form(request, form, game, ALIEN_TURN)
        try:
            turn = request_alien_turn(
                game,
                form.cleaned_data["policy"],
                dice,
                expected_number=form.cleaned_data["version"],
                actor=request.user,
                event_card=form.cleaned_data.get("event_card") or "",
            )
        except GameError as error:
            form.add_error(None, str(error))
        else:
            forget_seed(request, game, ALIEN_TURN)
            _seed_message(request, dice)
            return redirect(_board_url(game, request=str(turn.pk)) + "#log")
    return _board_page(request, game, status=400, turn_form=form)


@judge_required
@require_POST
def alien_turn_again(request: HttpRequest, session: Session, number: int) -> HttpResponse:
    """Play, in this request, an Alien turn still pending past its deadline."""
    game = _game(session, number)
    request_id = request.POST.get("request", "")
    try:
        turn = run_turn_again(game, request_id)
    except (GameError, ValueError, ValidationError) as error:
        messages.error(
            request, str(error) if isinstance(error, GameError) else _("Unknown Alien turn.")
        )
        return redirect(_board_url(game) + "#log")
    return redirect(_board_url(game, request=str(turn.pk)) + "#log")


@judge_required
@require_POST
def undo(request: HttpRequest, session: Session, number: int) -> HttpResponse:
    game = _game(session, number)
    form = UndoForm(request.POST)
    if form.is_valid():
        try:
            snapshot = undo_to(
                game,
                form.cleaned_data["number"],
                expected_number=form.cleaned_data["version"],
                actor=request.user,
            )
        except GameError as error:
            messages.error(request, str(error))
        else:
            return _done(request, game, snapshot)
    else:
        messages.error(request, _("Choose a step of the history to go back to."))
    return redirect(_board_url(game) + "#history")


@judge_required
@require_POST
def adopt_settings(request: HttpRequest, session: Session, number: int) -> HttpResponse:
    """The game takes the session's corrected settings (a recorded snapshot)."""
    game = _game(session, number)
    form = VersionedForm(request.POST)
    if form.is_valid():
        try:
            snapshot = adopt_session_settings(
                game, expected_number=form.cleaned_data["version"], actor=request.user
            )
        except GameError as error:
            messages.error(request, str(error))
        else:
            return _done(request, game, snapshot)
    else:
        messages.error(request, _("Open the games page again and retry."))
    return redirect("table:games", pk=session.pk)


@judge_required
@require_POST
def upload(request: HttpRequest, session: Session, number: int) -> HttpResponse:
    game = _game(session, number)
    form = UploadForm(request.POST, request.FILES, prefix="upload")
    if form.is_valid():
        try:
            snapshot = upload_state(
                game,
                form.cleaned_data["json_text"],
                expected_number=form.cleaned_data["version"],
                actor=request.user,
            )
        except UploadError as error:
            lang = narration_language()
            for problem in error.problems:
                form.add_error("text", f"{problem.path}: {problem.text_in(lang)}")
        except GameError as error:
            form.add_error(None, str(error))
        else:
            kept = any(code == "rules_data_kept" for code, _params in snapshot.summary_parts)
            return _done(request, game, snapshot, messages.WARNING if kept else messages.SUCCESS)
    return _board_page(request, game, status=400, upload_form=form)


@judge_required
@require_http_methods(["GET", "POST"])
def result_from_game(request: HttpRequest, session: Session, number: int) -> HttpResponse:
    """The session's result page with the form filled from game ``number`` as it stands
    (nothing is saved): the judge checks the notes, corrects and submits. The form posts
    back here and is saved as on the usual result page; a page shown again (a value to fix,
    a row added, a newer version to compare) keeps saying which game and step it came from,
    with the notes of that step."""
    game = _game(session, number)
    seats = session_seats(session)
    if request.method == "POST":
        step = _posted_step(request)
        proposal = propose_result(game, seats, step) if step is not None else None
        return render_result_entry(request, session, {}, from_game=proposal)
    proposal = propose_result(game, seats)
    breakdowns = [breakdown.to_dict() for breakdown in proposal.breakdowns]
    initial = initial_from_breakdowns(seats, breakdowns, proposal.survivors)
    # Saved with the result: the version keeps the game and step it came from.
    initial.update(from_game=game.number, from_step=proposal.step)
    return render_result_entry(request, session, initial, from_game=proposal)


def _posted_step(request: HttpRequest) -> int | None:
    """The step of its game a posted result form says it was filled from (None: not a
    step number)."""
    value = request.POST.get("from_step", "")
    return int(value) if value.isdigit() and int(value) >= 1 else None
