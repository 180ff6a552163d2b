"""``/healthz`` (bob/health.py) in each state, Redis stood in for by a fake: 503 only when
the database cannot be reached; Redis away, no worker or no scheduler heard of is
"degraded" with a 200 and says what and what it means. The same on real processes:
tests/reliability/test_production_server.py."""

from __future__ import annotations

import contextlib
import socket
import threading
import time

import pytest
import redis
from kombu import Connection

from bob import health, heartbeat

pytestmark = pytest.mark.django_db

REDIS = "redis://127.0.0.1:6379/0"


class FakeRedis:
    """The heartbeats' hash, or a Redis that cannot be reached (``error``) or that answers
    but takes no writes (``write_error``)."""

    def __init__(
        self,
        beats: dict[str, float] | None = None,
        error: Exception | None = None,
        write_error: Exception | None = None,
    ):
        self.beats = {field.encode(): repr(when).encode() for field, when in (beats or {}).items()}
        self.error = error
        self.write_error = write_error

    def _answer(self, value):
        if self.error:
            raise self.error
        return value

    def ping(self):
        return self._answer(True)

    def hgetall(self, key):
        return self._answer(dict(self.beats))

    def set(self, key, value, ex=None):
        if self.write_error:
            raise self.write_error
        return self._answer(True)


@pytest.fixture
def with_redis(settings, monkeypatch):
    settings.REDIS_URL = REDIS
    settings.BOB_HEARTBEAT_SECONDS = 10

    def use(fake: FakeRedis) -> None:
        monkeypatch.setattr(heartbeat, "client", lambda: fake)

    return use


def _health(client) -> tuple[int, dict]:
    response = client.get("/healthz")
    return response.status_code, response.json()


def test_without_redis_everything_runs_in_process_and_is_ok(client, settings):
    settings.REDIS_URL = ""
    status, report = _health(client)
    assert status == 200 and report["status"] == "ok" and report["problems"] == []
    assert report["workers"]["mode"] == report["scheduler"]["mode"] == health.IN_PROCESS


def test_a_worker_and_a_scheduler_heard_of_lately_are_ok(client, with_redis):
    now = time.time()
    with_redis(
        FakeRedis(
            {
                "worker:celery@a": now - 2,
                "worker:celery@b": now - 300,  # stopped a while ago: not counted
                "scheduler:celerybeat@a": now - 5,
            }
        )
    )
    status, report = _health(client)
    assert status == 200 and report["status"] == "ok", report
    assert report["workers"] == {"status": "ok", "alive": ["celery@a"]}
    assert report["scheduler"] == {"status": "ok", "alive": ["celerybeat@a"]}


def test_workers_silent_for_three_heartbeats_are_reported(client, with_redis):
    now = time.time()
    with_redis(FakeRedis({"worker:celery@a": now - 31, "scheduler:celerybeat@a": now}))
    status, report = _health(client)
    assert status == 200 and report["status"] == "degraded"
    assert report["workers"] == {"status": "error", "error": "no worker heard of for 31 s"}
    assert report["problems"] == [
        "workers: no worker heard of for 31 s: queued work waits: Alien turns (shown as "
        "failed after BOB_ALIEN_TURN_DEADLINE_SECONDS), notices, standings rebuilds"
    ]


def test_a_part_never_heard_of_and_one_from_another_day(client, with_redis):
    with_redis(FakeRedis({"worker:celery@old": time.time() - 2 * 24 * 3600}))
    status, report = _health(client)
    assert status == 200 and report["status"] == "degraded"
    never = "has given a heartbeat in the last day"
    assert report["workers"]["error"] == f"no worker {never}"
    assert report["scheduler"]["error"] == f"no scheduler {never}"


def test_redis_away_is_degraded_not_an_error(client, with_redis):
    with_redis(FakeRedis(error=redis.ConnectionError("Error 111 connecting")))
    status, report = _health(client)
    assert status == 200 and report["status"] == "degraded"
    assert report["broker"] == {"status": "error", "error": "Error 111 connecting"}
    assert report["workers"]["status"] == report["scheduler"]["status"] == "unknown"
    assert len(report["problems"]) == 1 and report["problems"][0].startswith("broker: Error 111")


def test_a_redis_that_answers_but_takes_no_writes_is_degraded(client, with_redis):
    """Out of memory, its disk full (MISCONF) or a read-only replica after a fail-over: a
    PING is answered, but no task can be queued and no heartbeat kept. It used to be "ok"
    until the heartbeats went stale, then blamed on the workers."""
    now = time.time()
    refused = redis.exceptions.OutOfMemoryError(
        "command not allowed when used memory > 'maxmemory'."
    )
    beats = {"worker:celery@a": now, "scheduler:celerybeat@a": now}
    with_redis(FakeRedis(beats, write_error=refused))
    status, report = _health(client)
    assert status == 200 and report["status"] == "degraded", report
    assert report["broker"]["status"] == "error"
    assert "used memory > 'maxmemory'" in report["broker"]["error"]
    assert report["problems"][0].startswith("broker: command not allowed")


def test_the_check_asks_redis_even_in_the_cool_down_and_its_answer_ends_or_starts_it(
    client, with_redis
):
    from tournaments.caching.redis_cooldown import cooldown

    cooldown.failed("cache", redis.TimeoutError("Timeout reading from socket"))
    with_redis(FakeRedis({"worker:celery@a": time.time(), "scheduler:celerybeat@a": time.time()}))
    status, report = _health(client)
    assert report["status"] == "ok", report
    assert not cooldown.skip()  # Redis answered: the cache and the broker use it again
    with_redis(FakeRedis(error=redis.TimeoutError("Timeout reading from socket")))
    status, report = _health(client)
    assert report["broker"]["status"] == "error"
    assert cooldown.skip()  # the next request does not wait for Redis


def test_the_database_away_is_the_one_error(client, with_redis, monkeypatch):
    with_redis(FakeRedis({"worker:celery@a": time.time(), "scheduler:celerybeat@a": time.time()}))

    monkeypatch.setattr(health, "_database", lambda: {"status": "error", "error": "refused"})
    status, report = _health(client)
    assert status == 503 and report["status"] == "error"
    assert report["problems"] == ["database: refused: no page can be served"]


@pytest.fixture
def hanging_server():
    """A server that accepts connections and never answers, as a Redis whose connections
    hang; its address."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    accepted: list[socket.socket] = []

    def accept() -> None:
        with contextlib.suppress(OSError):
            while True:
                accepted.append(listener.accept()[0])

    threading.Thread(target=accept, daemon=True).start()
    yield f"redis://127.0.0.1:{listener.getsockname()[1]}/0"
    listener.close()
    for connection in accepted:
        connection.close()


def test_the_broker_s_connections_hanging_is_degraded_after_one_timeout(
    client, with_redis, hanging_server, monkeypatch
):
    """The heartbeats' Redis answers, but the connections tasks are queued on hang (a pooled
    connection a firewall forgot): /healthz said "ok" while every task queued waited for its
    timeout. It asks over those connections, as long as a request queueing a task waits."""
    from bob.celery import app as celery_app
    from tournaments.caching.redis_cooldown import cooldown

    broker = Connection(
        hanging_server,
        transport_options=celery_app.conf.broker_transport_options,
        connect_timeout=celery_app.conf.broker_connection_timeout,
    )
    monkeypatch.setattr(celery_app, "_pool", broker.Pool(limit=2))
    with_redis(FakeRedis({"worker:celery@a": time.time(), "scheduler:celerybeat@a": time.time()}))
    started = time.monotonic()
    status, report = _health(client)
    waited = time.monotonic() - started
    assert status == 200 and report["status"] == "degraded", report
    assert report["broker"] == {
        "status": "error",
        "error": "the task queue does not answer: Timeout reading from socket",
    }
    assert report["problems"][0].startswith("broker: the task queue does not answer")
    timeout = celery_app.conf.broker_transport_options["socket_timeout"]
    assert timeout <= waited < timeout * 1.75, waited
    assert cooldown.skip()  # the next request does not queue a task on it either
