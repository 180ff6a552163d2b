"""The touch board's endpoints and the spectators' view of a game.

``reachable`` and ``targets`` answer the board's script (``static/js/board-play.js``) with
JSON for the session's judge and organisers; the moves and attacks themselves go through
the board's forms (:mod:`table.views`), which stay the no-JavaScript way to play.
``stamp`` is what every open view of a game polls: it changes whenever a step is added or
an Alien turn is requested or resolved, and only then do the views fetch the board and the
log again. ``watch`` and ``watch_panel`` show the game read-only to anyone (a projector,
the players), the blips' contents hidden.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from rules.engine.state import GameState
from table.actions import GameError, latest_snapshot, snapshot_state
from table.board_svg import board_svg
from table.live_stamp import game_stamp
from table.models import Game
from table.seating import player_rows, squad_colours
from table.step_log import event_lines, log_lines, narration_language
from table.touch_data import attack_targets, reachable_squares
from tournaments.models import Session
from tournaments.web.permissions import judge_required, public


def _game(session_pk: int, number: int) -> Game:
    return get_object_or_404(
        Game.objects.select_related("session__stage__tournament"),
        session_id=session_pk,
        number=number,
    )


def _json(data: dict[str, Any], status: int = 200) -> JsonResponse:
    response = JsonResponse(data, status=status, json_dumps_params={"ensure_ascii": False})
    response["Cache-Control"] = "no-store"
    return response


def _asked(request: HttpRequest, name: str) -> str | None:
    value = request.GET.get(name, "").strip()
    return value or None


def _lit(
    request: HttpRequest,
    session: Session,
    number: int,
    name: str,
    missing: str,
    light: Callable[[GameState, str], dict[str, Any]],
) -> JsonResponse:
    """What ``light`` finds for the figure named by ``?<name>=`` on the latest step, or
    the reason it cannot (400)."""
    game = _game(session.pk, number)
    figure = _asked(request, name)
    if figure is None:
        return _json({"error": missing}, status=400)
    snapshot = latest_snapshot(game)
    try:
        data = light(snapshot_state(snapshot), figure)
    except GameError as error:
        return _json({"error": str(error)}, status=400)
    return _json({"step": snapshot.number, **data})


@judge_required
@require_GET
def reachable(request: HttpRequest, session: Session, number: int) -> HttpResponse:
    """Where ``?figure=`` may end its move, from the engine's distance field."""
    missing = _("Say which figure: ?figure=p1-m1.")
    return _lit(request, session, number, "figure", missing, reachable_squares)


@judge_required
@require_GET
def targets(request: HttpRequest, session: Session, number: int) -> HttpResponse:
    """The legal attacks of ``?attacker=`` with their targets and exact odds."""
    missing = _("Say which figure attacks: ?attacker=p1-m1.")
    return _lit(request, session, number, "attacker", missing, attack_targets)


@public
@require_GET
def stamp(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """The game's current stamp (two small queries); the views poll it every few seconds."""
    found = game_stamp(pk, number)
    if found is None:
        return _json({"error": _("There is no such game.")}, status=404)
    return _json(found)


def _watch_context(game: Game) -> dict[str, Any]:
    snapshot = latest_snapshot(game)
    state = snapshot_state(snapshot)
    players = player_rows(game.session, state)
    return {
        "game": game,
        "session": game.session,
        "tournament": game.session.stage.tournament,
        "snapshot": snapshot,
        "state": state,
        "map_title": state.board.title_in(narration_language()) or game.map_name,
        "svg": mark_safe(board_svg(state, squad_colours(players), show_blip_types=False)),
        "players": players,
        "blips": len(state.blips),
        "lines": log_lines(snapshot.steps),
        "events": event_lines(snapshot.events),
        "stamp": game_stamp(game.session_id, game.number),
    }


@public
@require_GET
def watch(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    return render(request, "table/watch.html", _watch_context(_game(pk, number)))


@public
@require_GET
def watch_panel(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    return render(request, "table/partials/watch_panel.html", _watch_context(_game(pk, number)))
