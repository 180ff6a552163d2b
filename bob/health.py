"""``/healthz``: whether this web server can serve pages, and what works less well.

For a load balancer, a monitor or compose's health check. The JSON's ``status`` is

* ``"ok"`` (200): the database, Redis, a worker and the scheduler all answer;
* ``"degraded"`` (200): pages work, something else does not, and ``problems`` says what and
  what it means (Redis unreachable: nothing cached, Alien turns played by the web server,
  notices wait; no worker heard of for a while: queued work waits; no scheduler: lost
  notices are not sent again). Taking this server out of rotation would not help;
* ``"error"`` (503): the database cannot be reached, so no page can be served.

Each part has its own entry (``database``, ``broker``, ``workers``, ``scheduler``) with its
``status`` and, when it is not ``ok``, the ``error``. Each question to Redis waits for its
answer at most ``REDIS_TIMEOUT_SECONDS``, the broker's own connections too: a Redis that
hangs, wholly or only on the connections tasks are queued on, is reported degraded after
about one timeout, not answered "ok" nor left waiting. Workers and the scheduler are known by
their heartbeats in Redis (bob/heartbeat.py). Never cached, and answered over plain HTTP too
(a load balancer checks the servers behind it directly).
"""

from __future__ import annotations

from typing import Any, cast

from django.conf import settings
from django.db import DatabaseError, connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET
from kombu.connection import ConnectionPool
from kombu.exceptions import KombuError

from bob import heartbeat
from bob.celery import app as celery_app
from tournaments.caching.redis_cooldown import cooldown
from tournaments.web.permissions import public

IN_PROCESS = "in-process (no REDIS_URL)"

#: What each part's failure means for the event, said in ``problems``.
EFFECTS = {
    "broker": "pages are computed without the cache, Alien turns are played by the web "
    "server, notices wait until Redis is back",
    "workers": "queued work waits: Alien turns (shown as failed after "
    "BOB_ALIEN_TURN_DEADLINE_SECONDS), notices, standings rebuilds",
    "scheduler": "notices whose task was lost are not sent again",
}


def _database() -> dict[str, str]:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError as error:
        return {"status": "error", "error": str(error).strip()}
    return {"status": "ok", "vendor": connection.vendor}


#: What the broker's own connections raise when Redis does not answer them.
QUEUE_FAULTS = (KombuError, *heartbeat.REDIS_FAULTS)


def check_queue() -> None:
    """Read the length of the tasks' queue over this process's own broker connections, the
    ones its requests queue tasks on, raising what they raise when Redis does not answer
    them within ``REDIS_TIMEOUT_SECONDS`` (their wait, bob/settings.py). They can hang while
    a fresh connection is answered (a pooled connection a firewall or a NAT forgot, a
    half-open link): asking over the heartbeats' connection alone said "ok" while every
    task queued waited for its timeout."""
    # Celery's pool of broker connections (its type stubs take it for a pool of producers).
    pool = cast(ConnectionPool, celery_app.pool)
    with pool.acquire(block=True, timeout=settings.REDIS_TIMEOUT_SECONDS) as connection:
        connection.default_channel.queue_declare(queue=celery_app.conf.task_default_queue)


def _broker() -> dict[str, str]:
    """Redis, asked even during the process's cool-down after a failure (this is the check
    that says whether it answers now), whose answer ends the cool-down or starts another. It
    is asked to write, not only to answer (:func:`heartbeat.check_writes`), then to read the
    tasks' queue over the broker's own connections (:func:`check_queue`)."""
    if not settings.REDIS_URL:
        return {"status": "ok", "mode": IN_PROCESS}
    try:
        heartbeat.check_writes()
    except heartbeat.REDIS_FAULTS as error:
        cooldown.failed("health check", error)
        return {"status": "error", "error": str(error)}
    try:
        check_queue()
    except QUEUE_FAULTS as error:
        cooldown.failed("health check", error)
        return {"status": "error", "error": f"the task queue does not answer: {error}"}
    cooldown.answered("health check")
    return {"status": "ok", "mode": "redis"}


def _heard_of(kind: str, ages: dict[str, float]) -> dict[str, Any]:
    """A kind of part (the workers, the scheduler) by its heartbeats of the last day
    (``ages``: :func:`heartbeat.all_ages` of that kind)."""
    silent_after = heartbeat.silent_after()
    alive = sorted(name for name, age in ages.items() if age <= silent_after)
    if alive:
        return {"status": "ok", "alive": alive}
    if not ages:
        return {"status": "error", "error": f"no {kind} has given a heartbeat in the last day"}
    return {"status": "error", "error": f"no {kind} heard of for {min(ages.values()):.0f} s"}


def _parts() -> dict[str, dict[str, Any]]:
    parts = {"database": _database(), "broker": _broker()}
    heard: dict[str, dict[str, float]] | str = {}
    if settings.REDIS_URL and parts["broker"]["status"] == "ok":
        try:
            heard = heartbeat.all_ages()  # one read for every kind of part
        except heartbeat.REDIS_FAULTS as error:
            heard = f"Redis cannot be read: {error}"
    for kind, name in ((heartbeat.WORKER, "workers"), (heartbeat.SCHEDULER, "scheduler")):
        if not settings.REDIS_URL:
            parts[name] = {"status": "ok", "mode": IN_PROCESS}
        elif parts["broker"]["status"] != "ok":
            parts[name] = {"status": "unknown", "error": "Redis cannot be used"}
        elif isinstance(heard, str):
            parts[name] = {"status": "unknown", "error": heard}
        else:
            parts[name] = _heard_of(kind, heard.get(kind, {}))
    return parts


@public
@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    parts = _parts()
    problems = [
        f"{name}: {part['error']}: {EFFECTS[name]}"
        for name, part in parts.items()
        if part["status"] == "error" and name in EFFECTS
    ]
    if parts["database"]["status"] != "ok":
        status, code = "error", 503
        problems.insert(0, f"database: {parts['database']['error']}: no page can be served")
    elif problems:
        status, code = "degraded", 200
    else:
        status, code = "ok", 200
    return JsonResponse({"status": status, "problems": problems, **parts}, status=code)
