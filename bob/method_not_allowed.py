"""A friendly page for 405 (a page asked for with a method it does not take), which Django
answers with an empty body: an HTML page in the reader's language, or a JSON error on the
API, both naming the methods the address takes. The page offers the way back where it can:
the game's board for one of a board's actions (their addresses take only a POST, and a
refused step once left the browser on one), and the page the visitor came from when it is
on this site."""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import urlsplit

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.urls import Resolver404, resolve, reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _

#: A board's actions (``table:move``, ``table:attack``...) take only a POST; their way back
#: is the game's board, found by URL name (the project never imports the board app).
BOARD = "table:board"
BOARD_NAMESPACE = "table"
BOARD_KWARGS = ("pk", "number")


def board_of(request: HttpRequest) -> str:
    """The board of the game whose action ``request`` asked for; empty for any other
    address (or the board itself)."""
    try:
        match = resolve(request.path_info)
    except Resolver404:
        return ""
    if match.namespace != BOARD_NAMESPACE or match.view_name == BOARD:
        return ""
    if not all(key in match.kwargs for key in BOARD_KWARGS):
        return ""
    return reverse(BOARD, kwargs={key: match.kwargs[key] for key in BOARD_KWARGS})


def came_from(request: HttpRequest) -> str:
    """The page the visitor came from (its Referer) when it is on this site and not the
    refused address itself; empty otherwise."""
    referer = request.headers.get("Referer", "")
    if not referer or not url_has_allowed_host_and_scheme(
        referer, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return ""
    if urlsplit(referer).path == request.path:
        return ""
    return referer


class MethodNotAllowedPageMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if response.status_code != 405 or response.content:
            return response
        allowed = response.get("Allow", "")
        if request.path.startswith("/api/"):
            page: HttpResponse = JsonResponse(
                {
                    "error": _("This address does not take %(method)s; use %(allowed)s.")
                    % {"method": request.method, "allowed": allowed}
                },
                status=405,
            )
        else:
            board_url = board_of(request)
            back = came_from(request)
            html = render_to_string(
                "405.html",
                {
                    "method": request.method,
                    "allowed": allowed,
                    "board_url": board_url,
                    "came_from": "" if urlsplit(back).path == board_url else back,
                },
                request=request,
            )
            page = HttpResponse(html, status=405)
        page["Allow"] = allowed
        return page
