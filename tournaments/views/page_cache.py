"""Whole-page cache for the public's busiest page (the standings), for anonymous visitors.

A page is cached per tournament, language, path and *tournament version* — the id of the
tournament's latest activity-log entry, which every change that moves the standings writes
(results, corrections, draws, stage advances, registrations) — and for at most
``PAGE_SECONDS``, which bounds staleness from changes made outside the logged actions (the
admin) or while a background worker is still rebuilding the standings. The version itself
is cached too and dropped whenever an activity entry of the tournament is committed in this
process; elsewhere (a Celery worker, a management command) it simply expires.

Only visitors with nothing personal on the page are served from the cache: not logged in,
no player link remembered, no pending message. The CSRF token (the language form) is
rendered as a marked slot and replaced with the visitor's own token on every response.
"""

from __future__ import annotations

from collections.abc import Callable

from django.core.cache import cache
from django.db import transaction
from django.db.models.signals import post_save
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.utils.translation import get_language

from ..models import ActivityLog, Tournament
from ..permissions import PLAYER_SESSION_KEY

PAGE_SECONDS = 60
VERSION_SECONDS = 60
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
    key = ":".join(["bob:page", version, get_language() or "", request.get_full_path()])
    parts = cache.get(key)
    if parts is None:
        response = render({"csrf_token": CSRF_SLOT})
        if response.status_code != 200:
            return response
        # Stored cut at the slot, so serving is one join rather than a search.
        parts = response.content.split(_PLACEHOLDER_BYTES)
        cache.set(key, parts, PAGE_SECONDS)
    return HttpResponse(get_token(request).encode("ascii").join(parts))


def _version_key(slug: str) -> str:
    return f"bob:tournament-version:{slug}"


def tournament_version(slug: str) -> str:
    """The id of the tournament's latest activity entry, as text ("0" when none)."""
    key = _version_key(slug)
    version = cache.get(key)
    if version is None:
        last = (
            ActivityLog.objects.filter(tournament__slug=slug)
            .order_by("-pk")
            .values_list("pk", flat=True)
            .first()
        )
        version = str(last or 0)
        cache.add(key, version, VERSION_SECONDS)
    return version


@receiver(post_save, sender=ActivityLog, dispatch_uid="bob-page-cache-version")
def _forget_version(sender, instance: ActivityLog, created: bool, **kwargs) -> None:
    if not created or instance.tournament_id is None:
        return
    slug = Tournament.objects.filter(pk=instance.tournament_id).values_list("slug", flat=True)
    key = _version_key(slug.first() or "")
    transaction.on_commit(lambda: cache.delete(key))
