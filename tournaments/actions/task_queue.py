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
from collections.abc import Callable
from typing import Any

from django.db import transaction
from kombu.exceptions import OperationalError
from redis.exceptions import RedisError

logger = logging.getLogger("bob.tasks")

#: What publishing a message raises when the broker is down or unreachable.
BROKER_ERRORS = (OperationalError, RedisError, OSError)


def queue_after_commit(
    task: Any, *args: Any, on_unreachable: Callable[[Exception], None] | None = None
) -> None:
    """Queue ``task(*args)`` when the current transaction commits (at once outside one)."""

    def send() -> None:
        try:
            task.apply_async(args=args)
        except BROKER_ERRORS as error:
            logger.warning(
                "task %s%r not queued, the broker cannot be reached: %s", task.name, args, error
            )
            if on_unreachable is not None:
                on_unreachable(error)

    transaction.on_commit(send, robust=True)
