"""One cool-down for every use of Redis in a process: the cache, queueing a task, a heartbeat.

A Redis that is away (connection refused) or hangs (its process stopped: connections are
accepted, nothing is answered) costs each call that tries it up to
``REDIS_TIMEOUT_SECONDS``. So when one use fails, every use of this process leaves Redis
alone for ``REDIS_COOLDOWN_SECONDS`` and takes its fallback at once (the cache: a miss, a
write dropped; a task: recorded for later delivery or played in-process, as its caller
decides): a request waits for a Redis that fails at most once, not once per use. After the
cool-down the next use tries Redis again; the first answer ends the cool-down for all, a
failure starts another. The log says once when Redis went away and once when it came back.

The state is the process's own (:data:`cooldown`): each web process, worker or scheduler
finds out for itself, at the cost of one timeout.

Its mechanism, :class:`tournaments.domain.cooldown.Cooldown`, serves the mail server's
cool-down too (``tournaments/actions/mail_server.py``).
"""

from __future__ import annotations

import logging

from django.conf import settings
from redis.exceptions import RedisError

from tournaments.domain.cooldown import Cooldown

logger = logging.getLogger("bob.redis")

#: What a broken connection to Redis raises.
REDIS_FAULTS = (RedisError, OSError)


class RedisCooldown(Cooldown):
    """The cool-down of every use of Redis (``REDIS_COOLDOWN_SECONDS``)."""

    service = "Redis"
    faults = REDIS_FAULTS
    log = logger

    def configured_seconds(self) -> float:
        return settings.REDIS_COOLDOWN_SECONDS


#: This process's cool-down, shared by all of its uses of Redis.
cooldown = RedisCooldown()
