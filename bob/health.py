"""``/healthz``: whether this web process can reach the database and the task broker.

For a load balancer or a monitor: 200 with ``{"status": "ok", ...}`` when both answer, 503
otherwise, with each part's state and, for a part that failed, the error. Never cached, and
answered over plain HTTP too (a load balancer checks the servers behind it directly).
"""

from __future__ import annotations

import redis
from django.conf import settings
from django.db import DatabaseError, connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from tournaments.web.permissions import public


def _database() -> dict[str, str]:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError as error:
        return {"status": "error", "error": str(error).strip()}
    return {"status": "ok", "vendor": connection.vendor}


def _broker() -> dict[str, str]:
    if not settings.REDIS_URL:
        return {"status": "ok", "mode": "in-process (no REDIS_URL)"}
    timeout = settings.REDIS_TIMEOUT_SECONDS
    client = redis.Redis.from_url(
        settings.REDIS_URL, socket_connect_timeout=timeout, socket_timeout=timeout
    )
    try:
        client.ping()
    except (redis.RedisError, OSError) as error:
        return {"status": "error", "error": str(error)}
    finally:
        client.close()
    return {"status": "ok", "mode": "redis"}


@public
@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    parts = {"database": _database(), "broker": _broker()}
    healthy = all(part["status"] == "ok" for part in parts.values())
    return JsonResponse(
        {"status": "ok" if healthy else "error", **parts}, status=200 if healthy else 503
    )
