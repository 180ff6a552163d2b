"""A map's board as the judge will see it, before any game: the picture on the organiser's
map page (organisers only: a map shows where the aliens wait)."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.views.decorators.http import require_GET

from rules.engine.state import build_state
from table.board_svg import board_svg
from tournaments.models import Tournament
from tournaments.queries.playable_maps import map_board
from tournaments.web.permissions import organiser_required


@organiser_required
@require_GET
def map_picture(request: HttpRequest, tournament: Tournament, name: str) -> HttpResponse:
    board = map_board(tournament, name)
    if board is None:
        raise Http404
    svg = board_svg(build_state(board), bare_map=True)
    response = HttpResponse(svg, content_type="image/svg+xml; charset=utf-8")
    response["Cache-Control"] = "private, no-cache"
    return response
