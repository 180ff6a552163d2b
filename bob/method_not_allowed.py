"""A friendly page for 405 (a page asked for with a method it does not take), which Django
answers with an empty body: an HTML page in the reader's language, or a JSON error on the
API, both naming the methods the address takes."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.utils.translation import gettext as _


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
            html = render_to_string(
                "405.html",
                {"method": request.method, "allowed": allowed},
                request=request,
            )
            page = HttpResponse(html, status=405)
        page["Allow"] = allowed
        return page
