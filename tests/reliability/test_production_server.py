"""BoB as `make serve` runs it: DEBUG off, Gunicorn serving every page whole (its CSS and
htmx from hashed, compressed, long-cached files), the security headers, /healthz; and
`make serve` itself starting every part and stopping them all on Ctrl-C."""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.reliability.stack import ROOT, free_port, get, wait_until, web_server
from tests.web.conftest import build_world

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

YEAR = 365 * 24 * 3600
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

        status, _headers, body = get(base + "/healthz")  # plain HTTP: the load balancer
        assert status == 200
        health = json.loads(body)
        assert health["status"] == "ok"
        assert health["database"]["status"] == "ok" and health["broker"]["status"] == "ok"
        status, headers, _ = get(base + "/t/coppa/")  # plain HTTP elsewhere: to HTTPS
        assert status == 301 and headers["Location"].startswith("https://")


def test_healthz_says_503_when_the_broker_is_away(stack_env):
    env = {**stack_env, "REDIS_URL": f"redis://127.0.0.1:{free_port()}/0"}
    with web_server(env, workers=1) as base:
        status, _headers, body = get(base + "/healthz")
    assert status == 503
    health = json.loads(body)
    assert health["database"]["status"] == "ok"
    assert health["broker"]["status"] == "error" and health["broker"]["error"]


def test_make_serve_runs_every_part_and_ctrl_c_stops_them_all(stack_env, tmp_path):
    port = free_port()
    log = tmp_path / "serve.log"
    with open(log, "wb") as output:
        serve = subprocess.Popen(
            [sys.executable, "scripts/serve.py"],
            cwd=ROOT,
            env={**stack_env, "BIND": f"127.0.0.1:{port}", "WEB_CONCURRENCY": "1"},
            stdout=output,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def text() -> str:
        return log.read_text(errors="replace")

    def started() -> bool:
        return all(mark in text() for mark in ("ready.", "beat: Starting", "Booting worker"))

    try:
        wait_until(started, timeout=90, what="the web server, the worker and the scheduler")
        assert get(f"http://127.0.0.1:{port}/healthz")[0] == 200
        parts = subprocess.run(
            ["pgrep", "-P", str(serve.pid)], capture_output=True, text=True
        ).stdout.split()
        assert len(parts) == 3, parts  # Gunicorn, the worker, the scheduler
        serve.send_signal(signal.SIGINT)  # Ctrl-C
        assert serve.wait(60) == 0
    finally:
        if serve.poll() is None:
            serve.kill()
    for pid in parts:
        assert not Path(f"/proc/{pid}").exists(), f"process {pid} still runs: {text()}"
    assert "stopping the web server, the worker and the scheduler" in text()
