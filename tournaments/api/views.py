"""Thin JSON views over :mod:`.documents`; unknown tournaments give a JSON 404."""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import cache
from pathlib import Path

from django.http import HttpRequest, JsonResponse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from tournaments.models import Tournament
from tournaments.queries import api_documents

SCHEMA_PATH = Path(__file__).with_name("openapi.json")


@cache
def openapi_schema() -> dict:
    return json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))


def _not_found(slug: str) -> JsonResponse:
    return JsonResponse(
        {"error": _("No tournament with slug “%(slug)s”.") % {"slug": slug}}, status=404
    )


def _per_tournament(build: Callable[[Tournament], dict]):
    @require_safe
    def view(request: HttpRequest, slug: str) -> JsonResponse:
        tournament = Tournament.objects.filter(slug=slug).first()
        if tournament is None:
            return _not_found(slug)
        return JsonResponse(build(tournament), json_dumps_params={"ensure_ascii": False})

    return view


standings = _per_tournament(api_documents.standings_document)
bracket = _per_tournament(api_documents.bracket_document)
honours = _per_tournament(api_documents.honours_document)
schedule = _per_tournament(api_documents.schedule_document)


@require_safe
def tournaments(request: HttpRequest) -> JsonResponse:
    return JsonResponse(api_documents.tournament_list(), json_dumps_params={"ensure_ascii": False})


@require_safe
def schema(request: HttpRequest) -> JsonResponse:
    return JsonResponse(openapi_schema())
