"""The process's cool-down after Redis failed (tournaments/caching/redis_cooldown.py): one
failure, of any use, makes every use skip Redis for REDIS_COOLDOWN_SECONDS and take its
fallback at once (the cache a miss, a task its fallback, a heartbeat missed); then Redis is
tried again, by one caller at a time, and its answer ends the cool-down. On a fake clock;
Redis stood in for by fakes (the real thing: tests/reliability/test_redis_hangs.py)."""

from __future__ import annotations

import logging

import pytest
from django.core.cache.backends.redis import RedisCache
from kombu.exceptions import OperationalError
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from bob import heartbeat
from bob.cache import ResilientRedisCache
from tournaments.actions import task_queue
from tournaments.caching.redis_cooldown import RedisCooldown, cooldown
from tournaments.queries.standings import rebuild_standings

SECONDS = 5.0


class Clock:
    """A monotonic clock moved by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


class FakeRedis:
    """One Redis call: counts its calls, answers ``"answer"`` or raises ``error``."""

    def __init__(self, error: Exception | None = None) -> None:
        self.calls = 0
        self.error = error

    def __call__(self, *args, **kwargs):
        self.calls += 1
        if self.error is not None:
            raise self.error
        return "answer"


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def pause(clock) -> RedisCooldown:
    return RedisCooldown(SECONDS, clock)


def test_redis_is_used_while_it_answers(pause):
    redis = FakeRedis()
    assert [pause.call("cache", redis, "fallback") for _ in range(3)] == ["answer"] * 3
    assert redis.calls == 3
    assert not pause.skip()


def test_a_failure_makes_every_use_skip_redis_for_the_cool_down(pause, clock):
    hung = FakeRedis(RedisTimeoutError("Timeout reading from socket"))
    assert pause.call("cache", hung, "miss") == "miss"
    assert hung.calls == 1
    other = FakeRedis()
    clock.advance(SECONDS - 0.1)
    assert pause.call("heartbeat", other, None) is None
    assert pause.skip()
    assert pause.remaining() == pytest.approx(0.1)
    assert other.calls == 0  # not asked: the fallback at once


def test_after_the_cool_down_redis_is_tried_again_and_its_answer_ends_it(pause, clock):
    pause.call("cache", FakeRedis(RedisConnectionError("Connection refused")), None)
    clock.advance(SECONDS)
    back = FakeRedis()
    assert pause.call("broker", back, None) == "answer"
    assert back.calls == 1
    assert not pause.skip() and pause.remaining() == 0.0
    assert pause.call("cache", back, None) == "answer"  # and then every use uses it
    assert back.calls == 2


def test_a_new_failure_after_the_cool_down_starts_another_whole_one(pause, clock):
    hung = FakeRedis(OSError("Connection reset by peer"))
    pause.call("cache", hung, None)
    clock.advance(SECONDS + 1)
    pause.call("cache", hung, None)
    assert hung.calls == 2
    clock.advance(SECONDS - 0.1)
    assert pause.skip()
    clock.advance(0.1)
    assert not pause.skip()


def test_once_the_cool_down_is_over_one_caller_tries_redis_the_others_still_skip(pause, clock):
    pause.failed("cache", RedisTimeoutError("Timeout"))
    clock.advance(SECONDS)
    assert not pause.skip()  # this caller tries Redis...
    assert pause.skip()  # ...while another, meanwhile, does not wait for it too
    pause.answered("cache")
    assert not pause.skip()


def test_the_log_says_once_that_redis_went_away_and_once_that_it_came_back(pause, clock, caplog):
    caplog.set_level(logging.WARNING, logger="bob.redis")
    hung = FakeRedis(RedisTimeoutError("Timeout reading from socket"))
    for _ in range(3):
        pause.call("cache", hung, None)
        clock.advance(SECONDS)
    pause.call("cache", FakeRedis(), None)
    pause.call("cache", FakeRedis(), None)
    assert [record.getMessage() for record in caplog.records] == [
        "Redis unreachable (cache: Timeout reading from socket): going on without it, "
        "trying it again every 5 s",
        "Redis reachable again (cache): using it again",
    ]


def test_an_error_that_is_not_redis_s_is_raised_and_starts_no_cool_down(pause):
    with pytest.raises(ValueError):
        pause.call("cache", FakeRedis(ValueError("a bug")), None)
    assert not pause.skip()


def test_a_cool_down_of_zero_tries_redis_every_time(clock):
    pause = RedisCooldown(0.0, clock)
    hung = FakeRedis(RedisTimeoutError("Timeout"))
    pause.call("cache", hung, None)
    pause.call("cache", hung, None)
    assert hung.calls == 2


def test_the_cool_down_is_the_setting_unless_given(settings):
    settings.REDIS_COOLDOWN_SECONDS = 12.5
    assert RedisCooldown().seconds == 12.5
    assert RedisCooldown(3.0).seconds == 3.0


# The process's one cool-down, shared by the cache, the task queue and the heartbeats.


@pytest.fixture
def shared(clock, monkeypatch) -> Clock:
    """The process's cool-down on the fake clock, a real broker asked for tasks."""
    monkeypatch.setattr(cooldown, "clock", clock)
    monkeypatch.setattr(cooldown, "_seconds", SECONDS)
    monkeypatch.setitem(rebuild_standings.app.conf, "task_always_eager", False)
    return clock


@pytest.fixture
def redis_cache() -> ResilientRedisCache:
    return ResilientRedisCache("redis://127.0.0.1:1/0", {})


def _queue(on_unreachable=None) -> None:
    task_queue.queue_after_commit(rebuild_standings, 7, on_unreachable=on_unreachable)


@pytest.mark.django_db
def test_a_cache_failure_makes_the_next_task_skip_the_broker(
    shared, redis_cache, monkeypatch, django_capture_on_commit_callbacks, caplog
):
    monkeypatch.setattr(RedisCache, "get", FakeRedis(RedisTimeoutError("Timeout")))
    broker = FakeRedis()
    monkeypatch.setattr(rebuild_standings, "apply_async", broker)
    fallbacks = []
    assert redis_cache.get("key", "miss") == "miss"
    with django_capture_on_commit_callbacks(execute=True):
        _queue(on_unreachable=fallbacks.append)
    assert broker.calls == 0
    assert [type(error) for error in fallbacks] == [task_queue.BrokerAway]
    assert "tournaments.tasks.rebuild_standings(7,) not queued" in caplog.text
    assert "Redis failed a moment ago, tried again in 5.0 s" in caplog.text


@pytest.mark.django_db
def test_a_broker_failure_makes_the_cache_and_the_heartbeats_skip_redis(
    shared, redis_cache, monkeypatch, settings, django_capture_on_commit_callbacks
):
    refused = FakeRedis(OperationalError("Error 111 connecting to redis:6379."))
    monkeypatch.setattr(rebuild_standings, "apply_async", refused)
    with django_capture_on_commit_callbacks(execute=True):
        _queue()
    assert refused.calls == 1
    redis = FakeRedis()
    monkeypatch.setattr(RedisCache, "get", redis)
    monkeypatch.setattr(RedisCache, "set", redis)
    assert redis_cache.get("key", "miss") == "miss"
    assert redis_cache.set("key", "value") is None
    settings.REDIS_URL = "redis://127.0.0.1:1/0"
    monkeypatch.setattr(heartbeat, "client", lambda: pytest.fail("the heartbeat asked Redis"))
    heartbeat.beat(heartbeat.WORKER, "celery@here")
    assert redis.calls == 0
    # The cool-down over, the cache tries Redis again; its answer has the broker used too.
    shared.advance(SECONDS)
    assert redis_cache.get("key", "miss") == "answer"
    broker = FakeRedis()
    monkeypatch.setattr(rebuild_standings, "apply_async", broker)
    with django_capture_on_commit_callbacks(execute=True):
        _queue()
    assert broker.calls == 1


def test_the_cache_falls_back_on_each_kind_of_call(shared, redis_cache, monkeypatch):
    """Every call of the cache answers its "not cached" while Redis is skipped."""
    cooldown.failed("broker", OSError("Connection refused"))
    assert redis_cache.add("k", 1) is False
    assert redis_cache.get("k", "default") == "default"
    assert redis_cache.get_many(["k"]) == {}
    assert redis_cache.set_many({"k": 1, "j": 2}) == ["k", "j"]  # owed, not stored
    assert redis_cache.delete("k") is False
    with pytest.raises(ValueError, match="unreachable"):
        redis_cache.incr("k")


def test_each_operation_uses_the_same_client_of_the_pool(redis_cache):
    """Django builds a Redis client per operation; the cache keeps one per pool (no
    connection is made to build it)."""
    client = redis_cache._cache.get_client(write=True)
    assert redis_cache._cache.get_client("a key") is client
    assert redis_cache._cache.get_client(write=True) is client
    assert client.connection_pool is redis_cache._cache._get_connection_pool(True)
