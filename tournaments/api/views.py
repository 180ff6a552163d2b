"""Thin JSON views over :mod:`.documents`. Every answer under ``api/`` is JSON, errors
too (an ``{"error": ...}`` object in the request's language): an unknown tournament or
address is a 404, a method other than GET or HEAD a 405 naming the allowed ones (worded
by ``bob.method_not_allowed``, as for every page), a query parameter a 400 (no endpoint
takes one: a misspelt or imagined filter must not answer the whole list as if it had
filtered), a failure of the server a 500."""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import cache, wraps
from pathlib import Path

from django.conf import settings
from django.core.signals import got_request_exception
from django.http import HttpRequest, HttpResponse, HttpResponsePermanentRedirect, JsonResponse
from django.urls import Resolver404, resolve, reverse
from django.utils.log import log_response
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_safe

from tournaments.models import Tournament
from tournaments.queries import api_documents

SCHEMA_PATH = Path(__file__).with_name("openapi.json")

View = Callable[..., HttpResponse]


@cache
def openapi_schema() -> dict:
    return json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))


def error_response(message: str, status: int) -> JsonResponse:
    """An answer of the API's ``Error`` schema."""
    return JsonResponse(
        {"error": message}, status=status, json_dumps_params={"ensure_ascii": False}
    )


def refuse_query(request: HttpRequest) -> JsonResponse | None:
    """The 400 naming the query parameters of ``request``, or None when it has none: no
    endpoint takes one (decision 15), so any would be ignored and the client would take
    the whole answer for a filtered one."""
    names = list(request.GET)
    if not names:
        return None
    message = ngettext(
        "This address takes no query parameters, so %(names)s would filter nothing: "
        "remove it and ask %(path)s again (the addresses and what they take are listed "
        "in %(schema)s).",
        "This address takes no query parameters, so %(names)s would filter nothing: "
        "remove them and ask %(path)s again (the addresses and what they take are listed "
        "in %(schema)s).",
        len(names),
    ) % {
        "names": ", ".join(f"“{name}”" for name in names),
        "path": request.path,
        "schema": reverse("tournaments:api-schema"),
    }
    return error_response(message, status=400)


def api_view(view: View) -> View:
    """An API view: it answers GET and HEAD, and any other method with a 405 that
    ``bob.method_not_allowed`` turns into the API's JSON error naming the methods allowed;
    a query parameter with the 400 of :func:`refuse_query`.
    No CSRF check comes first (nothing here changes anything, so a POST gets that 405,
    not Django's HTML 403 page); a failure becomes a JSON 500, logged as Django logs one."""

    @csrf_exempt
    @require_safe
    @wraps(view)
    def wrapped(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        refused = refuse_query(request)
        if refused is not None:
            return refused
        try:
            return view(request, *args, **kwargs)
        except Exception as failure:
            if settings.DEBUG:
                raise  # Django's debugging page shows more than any message could
            got_request_exception.send(sender=None, request=request)
            response = error_response(
                _("The server failed to answer; try again later (the failure is logged)."),
                status=500,
            )
            log_response(
                "Internal Server Error: %s",
                request.path,
                response=response,
                request=request,
                exception=failure,
            )
            return response

    return wrapped


def _not_found(slug: str) -> JsonResponse:
    return error_response(_("No tournament with slug “%(slug)s”.") % {"slug": slug}, status=404)


def _per_tournament(build: Callable[[Tournament], dict]) -> View:
    @api_view
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


@api_view
def tournaments(request: HttpRequest) -> JsonResponse:
    return JsonResponse(api_documents.tournament_list(), json_dumps_params={"ensure_ascii": False})


@api_view
def schema(request: HttpRequest) -> JsonResponse:
    return JsonResponse(openapi_schema())


@csrf_exempt
def unknown(request: HttpRequest) -> HttpResponse:
    """Any other address under ``api/``, whatever the method: a JSON 404 naming where the
    endpoints are listed; an endpoint's address without its final slash is redirected to
    it, as Django does for pages."""
    if not request.path.endswith("/") and _is_endpoint(request.path + "/"):
        target = request.get_full_path(force_append_slash=True)
        return HttpResponsePermanentRedirect(
            target,
            content=json.dumps(
                {"error": _("This address ends with a slash: %(path)s.") % {"path": target}},
                ensure_ascii=False,
            ),
            content_type="application/json",
        )
    return error_response(
        _("There is no API address %(path)s; the addresses are listed in %(schema)s.")
        % {"path": request.path, "schema": reverse("tournaments:api-schema")},
        status=404,
    )


def _is_endpoint(path: str) -> bool:
    try:
        match = resolve(path)
    except Resolver404:
        return False
    return match.url_name != "api-unknown"
