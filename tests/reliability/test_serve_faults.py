"""`make serve` when a part fails: the rest goes on and the part comes back by itself.

* The Celery worker's main process killed (``kill -9``): the web server answers all along,
  scripts/serve.py starts a new worker, whose heartbeat /healthz hears.
* Gunicorn's master process killed: its worker processes go with it (they would hold the
  port), a new web server starts and answers.
* Redis stopped and started again: pages answer all along, /healthz says "degraded" (not
  503) meanwhile, and once Redis is back the worker and the scheduler work again (their
  heartbeats come back), without anyone restarting anything.
"""

from __future__ import annotations

import os
import signal
import time

import pytest

from tests.reliability.stack import RedisServer, Serve, get, health, wait_until

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

#: Heartbeats every second: a part is missed after 3 s.
FAST_HEARTBEATS = {"BOB_HEARTBEAT_SECONDS": "1"}


def _all_ok(base: str) -> bool:
    status, report = health(base)
    return status == 200 and report["status"] == "ok"


class Watch:
    """Asks for a page and /healthz again and again, keeping every status seen."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.pages: list[int] = []
        self.health: list[int] = []

    def look(self) -> None:
        self.pages.append(get(self.base + "/", timeout=10)[0])
        self.health.append(health(self.base)[0])


def test_a_killed_worker_is_started_again_and_the_site_stays_up(stack_env, tmp_path):
    serve = Serve({**stack_env, **FAST_HEARTBEATS}, tmp_path).start()
    try:
        wait_until(lambda: _all_ok(serve.base), timeout=30, what="/healthz to say ok")
        killed = serve.parts()["worker"]
        os.kill(killed, signal.SIGKILL)  # the worker's main process, as the QA pass did
        watch = Watch(serve.base)

        def worker_back() -> bool:
            watch.look()
            return serve.text().count("ready.") == 2

        wait_until(worker_back, timeout=60, what="a new worker")
        parts = serve.parts()
        assert set(parts) == {"web", "worker", "scheduler"}, parts
        assert parts["worker"] != killed
        wait_until(lambda: _all_ok(serve.base), timeout=30, what="the new worker's heartbeat")
        assert set(watch.pages) == {200} and set(watch.health) == {200}, watch.__dict__
        log = serve.text()
        assert "the worker stopped (killed by SIGKILL)" in log
        assert f"the worker started again (process {parts['worker']})" in log
        assert "stopping" not in log
    finally:
        serve.stop()


def test_a_killed_web_server_is_started_again(stack_env, tmp_path):
    serve = Serve(stack_env, tmp_path).start()
    try:
        assert get(serve.base + "/")[0] == 200
        killed = serve.parts()["web"]
        os.kill(killed, signal.SIGKILL)

        def answers() -> bool:
            try:
                return get(serve.base + "/", timeout=5)[0] == 200
            except OSError:
                return False

        wait_until(
            lambda: "the web server started again" in serve.text(), timeout=30, what="a restart"
        )
        wait_until(answers, timeout=60, what="the new web server to answer")
        assert serve.parts()["web"] != killed
        assert "the web server stopped (killed by SIGKILL)" in serve.text()
    finally:
        serve.stop()


def test_redis_going_away_and_coming_back_needs_no_one(stack_env, tmp_path):
    redis = RedisServer(tmp_path).start()
    serve = None
    try:
        serve = Serve({**stack_env, **FAST_HEARTBEATS, "REDIS_URL": redis.url}, tmp_path).start()
        wait_until(lambda: _all_ok(serve.base), timeout=30, what="/healthz to say ok")
        redis.stop()
        watch = Watch(serve.base)
        away_until = time.monotonic() + 10
        while time.monotonic() < away_until:
            watch.look()
        status, report = health(serve.base)
        assert status == 200 and report["status"] == "degraded"
        assert report["broker"]["status"] == "error"
        redis.start()

        def back() -> bool:
            watch.look()
            return _all_ok(serve.base)

        wait_until(back, timeout=90, what="the worker and the scheduler to be heard again")
        assert set(watch.pages) == {200} and set(watch.health) == {200}, watch.__dict__
    finally:
        if serve is not None:
            serve.stop()
        redis.stop()
