"""A process's cool-down of a server it may wait for: after a use of the server failed (timed
out, could not connect), every use of it in the process takes its fallback at once for a
while instead of waiting for the server again, so a request waits for a server that hangs at
most once. After the cool-down one caller at a time tries the server again; its answer ends
the cool-down for all, its failure starts another. The log says once when the server went
away and once when it came back.

The state is the process's own (each process finds out for itself, at the cost of one
timeout). Plain Python, for any server: Redis's is ``tournaments/caching/redis_cooldown.py``
(the cache, the task queue and the heartbeats share it), the mail server's
``tournaments/actions/mail_server.py``.
"""

from __future__ import annotations

import logging
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


class Cooldown(ABC):
    """Whether this process leaves a server alone for now, after a use of it failed.

    ``seconds``: the cool-down (:meth:`configured_seconds` when not given).
    """

    #: The server, as the log names it.
    service: str
    #: What a failed use of the server raises (:meth:`call` takes its fallback on these).
    faults: tuple[type[BaseException], ...] = (OSError,)
    #: Where it says that the server went away and came back.
    log: logging.Logger

    def __init__(
        self, seconds: float | None = None, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self._seconds = seconds
        #: Seconds from a monotonic clock (a fake one in tests).
        self.clock = clock
        #: The clock's time until which the server is skipped.
        self._until = 0.0
        #: Whether the last use of the server failed (it is away until one gets an answer).
        self._away = False
        self._lock = threading.Lock()

    @property
    def seconds(self) -> float:
        return self.configured_seconds() if self._seconds is None else self._seconds

    @abstractmethod
    def configured_seconds(self) -> float:
        """The cool-down when none was given: a server's reads its setting at each use (a
        test may change it)."""

    def skip(self) -> bool:
        """Whether to leave the server alone now and take the fallback: while a use of it
        failed less than the cool-down ago. Once the cool-down is over the first caller tries
        the server, and the others (other threads) go on skipping until its answer ends the
        cool-down or its failure starts another: a process waits for a server that hangs once
        at a time."""
        if not self._away:
            return False
        now = self.clock()
        with self._lock:
            if now < self._until:
                return True
            if self._away:
                self._until = now + self.seconds
        return False

    def remaining(self) -> float:
        """Seconds until the server is tried again (0.0 when it is tried now)."""
        return max(self._until - self.clock(), 0.0)

    def failed(self, use: str, error: BaseException) -> None:
        """A use of the server (``use``: "cache", "broker"...) failed: skip it from now on for
        the cool-down."""
        with self._lock:
            went_away = not self._away
            self._away = True
            self._until = self.clock() + self.seconds
        if went_away:
            self.log.warning(
                "%s unreachable (%s: %s): going on without it, trying it again every %g s",
                self.service,
                use,
                error,
                self.seconds,
            )

    def answered(self, use: str) -> None:
        """A use of the server got its answer: the cool-down, if any, is over."""
        if not self._away:
            return
        with self._lock:
            came_back = self._away
            self._away = False
            self._until = 0.0
        if came_back:
            self.log.warning("%s reachable again (%s): using it again", self.service, use)

    def call(self, use: str, action: Callable[[], T], fallback: T) -> T:
        """``action()``, or ``fallback`` while the server is skipped or when ``action`` fails
        because of it (which starts the cool-down)."""
        if self.skip():
            return fallback
        try:
            result = action()
        except self.faults as error:
            self.failed(use, error)
            return fallback
        self.answered(use)
        return result

    def reset(self) -> None:
        """Forget any failure (a test starting afresh)."""
        with self._lock:
            self._away = False
            self._until = 0.0
