"""Handing work to the Celery workers once the current transaction has committed.

A task is queued only after the change it works on is committed (``on_commit``), so a
worker never looks for rows that are not there yet, and a rolled-back change queues
nothing. When the broker (Redis) cannot be reached, the request that made the change does
not fail: the error is logged and ``on_unreachable`` decides what happens instead (run the
work in-process, or leave it to the sweep that retries it once the broker is back). A
failure of the broker, or of any other use of Redis in this process (the cache), makes the
next tasks take that path at once for a moment, without trying Redis
(``caching.redis_cooldown``): a request waits for a Redis that hangs at most once.
Without ``REDIS_URL`` tasks run in-process anyway (``task_always_eager``).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from django.core.cache import cache
from django.db import transaction
from kombu.exceptions import OperationalError
from redis.exceptions import RedisError

from tournaments.caching.redis_cooldown import cooldown
from tournaments.queries.standings import cache_key, rebuild_standings

logger = logging.getLogger("bob.tasks")

#: What publishing a message raises when the broker is down or unreachable.
BROKER_ERRORS = (OperationalError, RedisError, OSError)


class BrokerAway(OperationalError):
    """Redis failed a moment ago in this process and is not tried again yet."""


def _publish(task: Any, args: tuple) -> Exception | None:
    """Hand ``task(*args)`` to the broker; the error instead when it fails, or at once while
    this process leaves Redis alone after a failure of any of its uses (its cool-down)."""
    if cooldown.skip():
        return BrokerAway(f"Redis failed a moment ago, tried again in {cooldown.remaining():.1f} s")
    try:
        # No retry, no result to wait for: a request never waits for a broker away.
        task.apply_async(args=args, retry=False, ignore_result=True)
    except BROKER_ERRORS as error:
        cooldown.failed("broker", error)
        return error
    cooldown.answered("broker")
    return None


def queue_after_commit(
    task: Any, *args: Any, on_unreachable: Callable[[Exception], object] | None = None
) -> None:
    """Queue ``task(*args)`` when the current transaction commits (at once outside one)."""

    def send() -> None:
        if task.app.conf.task_always_eager:
            task.apply_async(args=args)  # in-process: its errors are on_commit's to log
            return
        error = _publish(task, args)
        if error is None:
            return
        logger.warning(
            "task %s%r not queued, the broker cannot be reached: %s", task.name, args, error
        )
        if on_unreachable is not None:
            on_unreachable(error)

    transaction.on_commit(send, robust=True)


def schedule_rebuild(tournament_id: int) -> None:
    """After the current transaction commits: drop the cached standings (so no page shows
    stale ones, even if the task is slow, fails or cannot be queued) and queue their
    rebuild; without a broker the next read rebuilds them."""

    def drop() -> None:
        cache.delete(cache_key(tournament_id))

    transaction.on_commit(drop, robust=True)
    queue_after_commit(rebuild_standings, tournament_id)
