"""The Redis cache, made optional: while Redis cannot be reached the site keeps working.

Everything BoB caches can be recomputed from the database (pages, standings, cache
generations), so a Redis error is logged and read as a cache miss: reads return their
default, writes are dropped. After a failure Redis is left alone for
:attr:`ResilientRedisCache.retry_after` seconds (each request would otherwise wait for the
connection timeout again), then tried again, so the site uses it again by itself once it is
back. The log says when Redis went away and when it came back.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from django.core.cache.backends.redis import RedisCache
from redis.exceptions import RedisError

logger = logging.getLogger("bob.cache")

#: What a broken connection to Redis raises.
REDIS_FAULTS = (RedisError, OSError)


class ResilientRedisCache(RedisCache):
    """Django's Redis cache whose errors fall back to "not cached" (see the module)."""

    #: Seconds to leave Redis alone after an error.
    retry_after = 5.0

    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._down_until = 0.0
        self._lock = threading.Lock()

    def _guarded(self, call: Callable[[], Any], fallback: Any) -> Any:
        if time.monotonic() < self._down_until:
            return fallback
        try:
            result = call()
        except REDIS_FAULTS as error:
            with self._lock:
                was_up = self._down_until == 0.0
                self._down_until = time.monotonic() + self.retry_after
            if was_up:
                logger.warning(
                    "Redis cache unreachable (%s): serving from the database, retrying every "
                    "%.0f s",
                    error,
                    self.retry_after,
                )
            return fallback
        if self._down_until:
            with self._lock:
                self._down_until = 0.0
            logger.warning("Redis cache reachable again: caching resumed")
        return result

    def add(self, key, value, timeout=None, version=None):
        return self._guarded(lambda: RedisCache.add(self, key, value, timeout, version), False)

    def get(self, key, default=None, version=None):
        return self._guarded(lambda: RedisCache.get(self, key, default, version), default)

    def set(self, key, value, timeout=None, version=None):
        return self._guarded(lambda: RedisCache.set(self, key, value, timeout, version), None)

    def touch(self, key, timeout=None, version=None):
        return self._guarded(lambda: RedisCache.touch(self, key, timeout, version), False)

    def delete(self, key, version=None):
        return self._guarded(lambda: RedisCache.delete(self, key, version), False)

    def get_many(self, keys, version=None):
        return self._guarded(lambda: RedisCache.get_many(self, keys, version), {})

    def has_key(self, key, version=None):
        return self._guarded(lambda: RedisCache.has_key(self, key, version), False)

    def incr(self, key, delta=1, version=None):
        missing = object()
        result = self._guarded(lambda: RedisCache.incr(self, key, delta, version), missing)
        if result is missing:
            raise ValueError(f"Key '{key}' not found (the Redis cache is unreachable)")
        return result

    def set_many(self, data, timeout=None, version=None):
        return self._guarded(lambda: RedisCache.set_many(self, data, timeout, version), list(data))

    def delete_many(self, keys, version=None):
        return self._guarded(lambda: RedisCache.delete_many(self, keys, version), None)

    def clear(self):
        return self._guarded(lambda: RedisCache.clear(self), False)
