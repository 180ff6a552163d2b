"""BoB as `make serve` runs it: DEBUG off, Gunicorn serving every page whole (its CSS and
htmx from hashed, compressed, long-cached files), the security headers; /healthz in each of
its states (ok, degraded while Redis, the workers or the scheduler are away, 503 only
without the database); and `make serve` itself starting every part and stopping them all on
Ctrl-C. What `make serve` does when a part fails: test_serve_faults.py."""

from __future__ import annotations

import contextlib
import os
import re
import signal
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from tests.reliability.stack import (
    Serve,
    Worker,
    database_url,
    free_port,
    get,
    health,
    wait_until,
    web_server,
)
from tests.web.conftest import build_world

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

YEAR = 365 * 24 * 3600


def says_ok(base: str) -> bool:
    status, report = health(base)
    return status == 200 and report["status"] == "ok"


PROXIED = {"X-Forwarded-Proto": "https"}


def test_pages_css_and_htmx_are_served_with_debug_off(stack_env):
    build_world()
    env = {**stack_env, "BOB_HTTPS": "1"}  # behind a TLS proxy, as in production
    with web_server(env) as base:
        status, headers, body = get(base + "/t/coppa/", headers=PROXIED)
        assert status == 200, body[:500]
        html = body.decode()
        policy = headers["Content-Security-Policy"]
        directives = dict(part.strip().split(" ", 1) for part in policy.split(";"))
        assert directives["script-src"] == "'self'"
        assert directives["style-src"] == "'self'"
        assert directives["default-src"] == "'self'"
        assert "unsafe-inline" not in policy and "unsafe-eval" not in policy
        assert headers["Referrer-Policy"] == "same-origin"
        assert headers["X-Content-Type-Options"] == "nosniff"
        assert headers["X-Frame-Options"] == "DENY"
        assert "max-age=" in headers["Strict-Transport-Security"]
        assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html), "an inline script"
        assert " style=" not in html

        css = re.search(r'href="(/static/css/bob\.[0-9a-f]{12}\.css)"', html).group(1)
        htmx = re.search(r'src="(/static/vendor/htmx\.min\.[0-9a-f]{12}\.js)"', html).group(1)
        for asset, kind in ((css, "text/css"), (htmx, "javascript")):
            status, headers, body = get(
                base + asset, headers={**PROXIED, "Accept-Encoding": "gzip, br"}
            )
            assert status == 200, asset
            assert kind in headers["Content-Type"]
            assert headers["Content-Encoding"] in ("gzip", "br")
            assert f"max-age={10 * YEAR}" in headers["Cache-Control"] or (
                int(re.search(r"max-age=(\d+)", headers["Cache-Control"]).group(1)) >= YEAR
            )
            assert "immutable" in headers["Cache-Control"]
            assert body

        status, report = health(base)  # plain HTTP: the load balancer
        assert status == 200
        assert report["database"]["status"] == "ok" and report["broker"]["status"] == "ok"
        status, headers, _ = get(base + "/t/coppa/")  # plain HTTP elsewhere: to HTTPS
        assert status == 301 and headers["Location"].startswith("https://")


def _database_sockets(pid: int) -> int:
    """How many TCP connections to PostgreSQL's port the process ``pid`` holds open."""
    port = f":{urlsplit(database_url()).port or 5432:04X}"
    inodes = set()
    for row in (
        Path("/proc/net/tcp").read_text().splitlines()[1:]
        + Path("/proc/net/tcp6").read_text().splitlines()[1:]
    ):
        fields = row.split()
        if fields[2].endswith(port):
            inodes.add(fields[9])
    held = 0
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        with contextlib.suppress(OSError):
            target = os.readlink(fd)
            held += target.startswith("socket:[") and target[8:-1] in inodes
    return held


def test_a_killed_web_worker_is_replaced_by_a_fork_of_the_prepared_master(stack_env):
    """Gunicorn's master loads and prepares the app once (bob/warm_up.py) and forks every
    worker from it, a replacement too; it holds no database connection its workers would
    share, while they answer from their own."""
    build_world()
    with web_server(stack_env, workers=1) as base:
        log = Path(stack_env["STATIC_ROOT"]).parent / f"web-{urlsplit(base).port}.log"
        text = log.read_text()
        master = int(re.search(r"Listening at: \S+ \((\d+)\)", text).group(1))
        (first,) = map(int, re.findall(r"Booting worker with pid: (\d+)", text))
        assert get(base + "/t/coppa/standings/")[0] == 200
        os.kill(first, signal.SIGKILL)
        replacement = wait_until(
            lambda: [
                int(p)
                for p in re.findall(r"Booting worker with pid: (\d+)", log.read_text())
                if int(p) != first
            ],
            timeout=30,
            what="a new worker",
        )
        for path in ("/t/coppa/standings/", "/t/coppa/", "/t/coppa/bracket/"):
            status, _headers, body = get(base + path)
            assert status == 200, body[:500]
        assert _database_sockets(replacement[0]) >= 1
        assert _database_sockets(master) == 0
        assert log.read_text().count("Master prepared in ") == 1


def test_healthz_without_a_worker_or_scheduler_is_degraded_and_says_so(stack_env):
    with web_server(stack_env, workers=1) as base:
        status, report = health(base)
    assert status == 200 and report["status"] == "degraded"
    assert report["database"]["status"] == "ok" and report["broker"]["status"] == "ok"
    never = "has given a heartbeat in the last day"
    assert report["workers"] == {"status": "error", "error": f"no worker {never}"}
    assert report["scheduler"] == {"status": "error", "error": f"no scheduler {never}"}
    assert [problem.split(":")[0] for problem in report["problems"]] == ["workers", "scheduler"]
    assert "queued work waits" in report["problems"][0]


def test_healthz_is_degraded_not_503_when_redis_is_away(stack_env):
    """Every page still works without Redis (test_redis_down.py): a load balancer must keep
    the server."""
    env = {**stack_env, "REDIS_URL": f"redis://127.0.0.1:{free_port()}/0"}
    with web_server(env, workers=1) as base:
        status, report = health(base)
        assert get(base + "/")[0] == 200
    assert status == 200 and report["status"] == "degraded"
    assert report["database"]["status"] == "ok"
    assert report["broker"]["status"] == "error" and report["broker"]["error"]
    assert report["workers"]["status"] == report["scheduler"]["status"] == "unknown"
    assert len(report["problems"]) == 1
    assert report["problems"][0].startswith("broker: ")
    assert "Alien turns are played by the web server" in report["problems"][0]


def test_healthz_says_503_when_the_database_is_away(stack_env):
    env = {**stack_env, "DATABASE_URL": f"postgres://bob@127.0.0.1:{free_port()}/bob"}
    with web_server(env, workers=1) as base:
        status, report = health(base)
    assert status == 503 and report["status"] == "error"
    assert report["database"]["status"] == "error" and report["database"]["error"]
    assert report["broker"]["status"] == "ok"
    assert report["problems"][0].startswith("database: ")


def test_healthz_hears_a_worker_s_heartbeat_and_misses_it_once_it_stopped(stack_env, tmp_path):
    env = {**stack_env, "BOB_HEARTBEAT_SECONDS": "1"}  # missing after 3 s
    with web_server(env, workers=1) as base:
        worker = Worker(env, tmp_path, "beating").start()
        try:
            report = wait_until(
                lambda: (answer := health(base)[1])["workers"]["status"] == "ok" and answer,
                timeout=30,
                what="the worker's heartbeat",
            )
            assert report["workers"]["alive"] == ["beating@reliability"]
            assert report["status"] == "degraded"  # no scheduler runs
        finally:
            worker.kill()
        report = wait_until(
            lambda: (answer := health(base)[1])["workers"]["status"] == "error" and answer,
            timeout=30,
            what="the stopped worker to be missed",
        )
    assert report["workers"]["error"].startswith("no worker heard of for ")
    assert any(problem.startswith("workers: no worker heard of") for problem in report["problems"])


def test_make_serve_runs_every_part_and_ctrl_c_stops_them_all(stack_env, tmp_path):
    serve = Serve({**stack_env, "BOB_HEARTBEAT_SECONDS": "1"}, tmp_path).start()
    try:
        # Every part answers, the worker and the scheduler by their heartbeats.
        wait_until(lambda: says_ok(serve.base), timeout=30, what="/healthz to say ok")
        parts = serve.parts()
        assert set(parts) == {"web", "worker", "scheduler"}, parts
        serve.process.send_signal(signal.SIGINT)  # Ctrl-C
        assert serve.process.wait(60) == 0
    finally:
        serve.stop()
    for pid in parts.values():
        assert not Path(f"/proc/{pid}").exists(), f"process {pid} still runs: {serve.text()}"
    assert "stopping the web server, the worker and the scheduler" in serve.text()
