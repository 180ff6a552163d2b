"""Handing work to the Celery workers once the current transaction has committed.

A task is queued only after the change it works on is committed (``on_commit``), so a
worker never looks for rows that are not there yet, and a rolled-back change queues
nothing. When the broker (Redis) cannot be reached, the request that made the change does
not fail: the error is logged and ``on_unreachable`` decides what happens instead (run the
work in-process, or leave it to the sweep that retries it once the broker is back).
Without ``REDIS_URL`` tasks run in-process anyway (``task_always_eager``).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

from django.core.cache import cache
from django.db import transaction
from kombu.exceptions import OperationalError
from redis.exceptions import RedisError

from tournaments.queries.standings import cache_key, rebuild_standings

logger = logging.getLogger("bob.tasks")

#: What publishing a message raises when the broker is down or unreachable.
BROKER_ERRORS = (OperationalError, RedisError, OSError)
#: Seconds during which a broker that just failed is not tried again: connecting to it takes
#: a while, and a request does not wait for it again and again.
RETRY_BROKER_AFTER = 10.0
_broker_down_until = 0.0


class BrokerAway(OperationalError):
    """The broker failed a moment ago and is not tried again yet."""


def queue_after_commit(
    task: Any, *args: Any, on_unreachable: Callable[[Exception], object] | None = None
) -> None:
    """Queue ``task(*args)`` when the current transaction commits (at once outside one)."""

    def send() -> None:
        global _broker_down_until
        if task.app.conf.task_always_eager:
            task.apply_async(args=args)  # in-process: its errors are on_commit's to log
            return
        try:
            if time.monotonic() < _broker_down_until:
                raise BrokerAway("the broker was unreachable a moment ago")
            # No retry, no result to wait for: a request never waits for a broker away.
            task.apply_async(args=args, retry=False, ignore_result=True)
        except BROKER_ERRORS as error:
            if not isinstance(error, BrokerAway):
                _broker_down_until = time.monotonic() + RETRY_BROKER_AFTER
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
