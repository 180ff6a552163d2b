"""Whole-page cache for the public's busiest page (the standings), for anonymous visitors.

A page is cached per tournament *generation* (see :mod:`tournaments.caching.generations`), language
and path, for at most ``PAGE_SECONDS``. The generation changes when any change to the
tournament's data commits, whichever process made it (a web request, a Celery worker, a
management command, the admin), so the next anonymous request renders the page afresh; the
time limit only bounds what the cache holds.

Since a page's key carries the generation, a cached page never changes: each process keeps
the pages it served in its own memory (the ``local`` cache) in front of the shared cache, so
serving a cached page costs one shared read (the generation, which is what makes a change
made elsewhere show) and one in-memory read.

Only visitors with nothing personal on the page are served from the cache: not logged in,
no player link remembered, no pending message. The CSRF token (the language form) is
rendered as a marked slot and replaced with the visitor's own token on every response.
"""

from __future__ import annotations

from collections.abc import Callable

from django.core.cache import cache, caches
from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.utils.translation import get_language

from tournaments.caching import release
from tournaments.web.permissions import PLAYER_SESSION_KEY

PAGE_SECONDS = 60
CSRF_SLOT = "bob-csrf-token-slot"
_PLACEHOLDER_BYTES = CSRF_SLOT.encode("ascii")


def cacheable(request: HttpRequest) -> bool:
    if request.user.is_authenticated or request.method != "GET":
        return False
    if "messages" in request.COOKIES:
        return False
    session = request.session
    if not session.session_key:
        return True
    return PLAYER_SESSION_KEY not in session and "_messages" not in session


def cached_page(
    request: HttpRequest, version: str, render: Callable[[dict], HttpResponse]
) -> HttpResponse:
    """``render(extra_context)`` builds the page; cached when the visitor allows it."""
    if not cacheable(request):
        return render({})
    key = ":".join(
        ["bob:page", release.current(), version, get_language() or "", request.get_full_path()]
    )
    local = caches["local"]
    parts = local.get(key)
    if parts is None:
        parts = cache.get(key)
        if parts is None:
            response = render({"csrf_token": CSRF_SLOT})
            if response.status_code != 200:
                return response
            # Stored cut at the slot, so serving is one join rather than a search.
            parts = response.content.split(_PLACEHOLDER_BYTES)
            cache.set(key, parts, PAGE_SECONDS)
        local.set(key, parts, PAGE_SECONDS)
    return HttpResponse(get_token(request).encode("ascii").join(parts))
