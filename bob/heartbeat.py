"""Heartbeats of the Celery workers and of the scheduler, read by ``/healthz``.

Every ``BOB_HEARTBEAT_SECONDS`` each worker writes the time into one Redis hash, a field of
its own (``worker:celery@host``), from its consumer's event loop while it is connected to the
broker: a worker that died, hangs or lost Redis falls silent. The scheduler (Celery beat)
does the same from its scheduling loop (``scheduler:celerybeat@host``). ``/healthz`` reads
the hash and reports a kind of part none of which has been heard of for
:data:`SILENT_AFTER_BEATS` heartbeats (bob/health.py).

The time is each machine's own clock: the machines of a set-up keep theirs in step (NTP).
"""

from __future__ import annotations

import functools
import logging
import socket
import time
from typing import Any

import redis
from celery import bootsteps
from celery.beat import PersistentScheduler
from django.conf import settings

from tournaments.caching.redis_cooldown import REDIS_FAULTS, cooldown

logger = logging.getLogger("bob.heartbeat")

WORKER = "worker"
SCHEDULER = "scheduler"
#: A kind of part none of which has written for this many heartbeats is reported missing.
SILENT_AFTER_BEATS = 3
#: Heartbeats older than this (a worker renamed, a machine gone) are forgotten.
FORGET_AFTER_SECONDS = 24 * 3600


def silent_after() -> float:
    """Seconds without a heartbeat after which a part counts as missing."""
    return SILENT_AFTER_BEATS * settings.BOB_HEARTBEAT_SECONDS


def _key() -> str:
    prefix = settings.CACHES["default"].get("KEY_PREFIX") or "bob"
    return f"{prefix}:heartbeats"


@functools.lru_cache(maxsize=4)
def _client(url: str, timeout: float) -> redis.Redis:
    return redis.Redis.from_url(url, socket_connect_timeout=timeout, socket_timeout=timeout)


def client() -> redis.Redis:
    """This process's Redis client for the heartbeats (it waits REDIS_TIMEOUT_SECONDS)."""
    return _client(settings.REDIS_URL, settings.REDIS_TIMEOUT_SECONDS)


def beat(kind: str, name: str) -> None:
    """Record that the part ``name`` of ``kind`` is alive now. Never raises: a heartbeat
    Redis cannot take is a heartbeat missed, which is what /healthz should see; none is
    tried during the process's cool-down after a use of Redis failed (REDIS_COOLDOWN_SECONDS,
    shorter than the heartbeats /healthz allows to miss)."""
    if settings.REDIS_URL:
        cooldown.call(
            "heartbeat", lambda: client().hset(_key(), f"{kind}:{name}", repr(time.time())), None
        )


def check_writes() -> None:
    """Write a short-lived key, raising what Redis raises when it cannot be reached or
    takes no writes: a Redis out of memory, whose disk is full (MISCONF) or a read-only
    replica still answers a PING, but queues no task and keeps no heartbeat."""
    prefix = settings.CACHES["default"].get("KEY_PREFIX") or "bob"
    client().set(f"{prefix}:healthz", repr(time.time()), ex=60)


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


def all_ages() -> dict[str, dict[str, float]]:
    """Seconds since each part last gave a heartbeat, by kind and name (the last day's), in
    one read; raises what Redis raises when it cannot be read."""
    now = time.time()
    found: dict[str, dict[str, float]] = {}
    for field, value in client().hgetall(_key()).items():
        part, _, name = _text(field).partition(":")
        age = now - float(value)
        if age < FORGET_AFTER_SECONDS:
            found.setdefault(part, {})[name] = max(age, 0.0)
    return found


def forget_old() -> None:
    """Delete the heartbeats older than :data:`FORGET_AFTER_SECONDS` (a part long gone)."""
    now = time.time()
    stale = [
        field
        for field, value in client().hgetall(_key()).items()
        if now - float(value) >= FORGET_AFTER_SECONDS
    ]
    if stale:
        client().hdel(_key(), *stale)


def patient_broker_connections(conf: Any) -> None:
    """Give a worker's or the scheduler's broker connections their longer wait
    (``BOB_WORKER_REDIS_TIMEOUT_SECONDS``; bob/settings.py says why)."""
    timeout = settings.BOB_WORKER_REDIS_TIMEOUT_SECONDS
    for option in ("broker_transport_options", "result_backend_transport_options"):
        conf[option] = {**(conf[option] or {}), "socket_timeout": timeout}


class WorkerHeartbeat(bootsteps.StartStopStep):
    """A step of the worker's consumer: heartbeats from its event loop, from the moment it
    consumes until it stops or loses the broker (then the consumer restarts its steps)."""

    requires = ("celery.worker.consumer.tasks:Tasks",)

    def __init__(self, parent: Any, **kwargs: Any) -> None:
        super().__init__(parent, **kwargs)
        self.entry: Any = None

    def start(self, parent: Any) -> None:
        beat(WORKER, parent.hostname)
        try:
            forget_old()
        except REDIS_FAULTS as error:
            logger.debug("old heartbeats not cleared: %s", error)
        self.entry = parent.timer.call_repeatedly(
            settings.BOB_HEARTBEAT_SECONDS, beat, (WORKER, parent.hostname)
        )

    def stop(self, parent: Any) -> None:
        if self.entry is not None:
            self.entry.cancel()
            self.entry = None

    shutdown = stop


class HeartbeatScheduler(PersistentScheduler):
    """Celery beat's own scheduler, giving a heartbeat from each pass of its loop (the loop
    wakes at least every ``CELERY_BEAT_MAX_LOOP_INTERVAL``, one heartbeat)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.name = f"celerybeat@{socket.gethostname()}"
        self.last_beat = 0.0
        patient_broker_connections(kwargs["app"].conf)
        super().__init__(*args, **kwargs)

    def tick(self, *args: Any, **kwargs: Any) -> float:
        now = time.monotonic()
        if now - self.last_beat >= settings.BOB_HEARTBEAT_SECONDS / 2:
            self.last_beat = now
            beat(SCHEDULER, self.name)
        return super().tick(*args, **kwargs)
