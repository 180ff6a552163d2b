"""The Redis cache, made optional: while Redis cannot be reached the site keeps working.

Everything BoB caches can be recomputed from the database (pages, standings, cache
generations), so a Redis error is read as a cache miss: reads return their default, writes
are dropped. A failure also makes the process leave Redis alone for a moment, in every use
of it (``tournaments/caching/redis_cooldown.py``: each request would otherwise wait for the
connection timeout again), then try it again, so the site uses it again by itself once it
is back. The log says when Redis went away and when it came back.

Each connection pool's client object is built once (:class:`KeptClients`): Django builds a
new one for every cache operation, and building it (its table of some 170 reply handlers)
cost more than a cached page's own work.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.core.cache.backends.redis import RedisCache, RedisCacheClient

from tournaments.caching.redis_cooldown import cooldown


class KeptClients(RedisCacheClient):
    """Django's client of the Redis cache, with one ``redis.Redis`` per connection pool
    kept for every operation (the object holds no connection of its own: each command
    takes one from the pool, so it is shared as safely as the pool is)."""

    def __init__(self, servers: list[str], **options: Any) -> None:
        super().__init__(servers, **options)
        self._clients: dict[int, Any] = {}

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        pool = self._get_connection_pool(write)  # type: ignore[attr-defined]
        client = self._clients.get(id(pool))
        if client is None:
            client = self._clients[id(pool)] = self._client(connection_pool=pool)  # type: ignore[attr-defined]
        return client


class ResilientRedisCache(RedisCache):
    """Django's Redis cache whose errors fall back to "not cached" (see the module)."""

    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = KeptClients

    def _guarded(self, call: Callable[[], Any], fallback: Any) -> Any:
        return cooldown.call("cache", call, fallback)

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
