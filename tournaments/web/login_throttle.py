"""Login rate limiting kept in the Django cache (Redis in production, the shared file cache
otherwise), so every web process counts the same attempts.

Failed log-ins are counted per client address and per user name within a window; once either
count reaches the limit, further attempts are refused until the window expires. A successful
log-in clears the user name's count. Working through the cache means every server process
sees the same counts when the cache is shared (Redis).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache

DEFAULT_LIMIT = 5
DEFAULT_WINDOW_SECONDS = 15 * 60


@dataclass(frozen=True)
class ThrottleState:
    blocked: bool
    retry_after_seconds: int


def _limit() -> int:
    return int(getattr(settings, "BOB_LOGIN_ATTEMPTS", DEFAULT_LIMIT))


def _window() -> int:
    return int(getattr(settings, "BOB_LOGIN_WINDOW_SECONDS", DEFAULT_WINDOW_SECONDS))


def _keys(client_address: str, username: str) -> list[str]:
    name = hashlib.sha256(username.strip().lower().encode("utf-8")).hexdigest()[:32]
    return [f"bob:login-fail:ip:{client_address}", f"bob:login-fail:user:{name}"]


def state(client_address: str, username: str) -> ThrottleState:
    """Whether this address or user name has used up its failed attempts."""
    counts = cache.get_many(_keys(client_address, username))
    blocked = any(count >= _limit() for count in counts.values())
    return ThrottleState(blocked=blocked, retry_after_seconds=_window() if blocked else 0)


def record_failure(client_address: str, username: str) -> None:
    for key in _keys(client_address, username):
        # add() starts the window on the first failure; incr() keeps its expiry.
        if not cache.add(key, 1, timeout=_window()):
            try:
                cache.incr(key)
            except ValueError:
                cache.set(key, 1, timeout=_window())


def record_success(client_address: str, username: str) -> None:
    cache.delete(_keys(client_address, username)[1])
