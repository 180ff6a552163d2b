"""BoB's production processes started for a test: Gunicorn (through ``scripts/serve.py``),
Celery workers, and ``make serve`` whole, on the test's PostgreSQL database and a Redis,
each stopped at the end.

Every process gets the same environment (:func:`environment`): the test database the
pytest process writes into (tests using these run with ``transaction=True`` so their
rows are committed and seen), ``DEBUG=0`` with its production settings, short timeouts
(a dead worker's task comes back within seconds, not a minute and a half).
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from django.db import connection

ROOT = Path(__file__).resolve().parent.parent.parent
SECRET_KEY = "reliability-tests-only-" + "k" * 40
#: Seconds after which a task of a dead worker is handed out again (production: 90).
VISIBILITY_TIMEOUT = 4


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def database_url() -> str:
    """The URL of the test database this pytest process uses."""
    settings = connection.settings_dict
    user = settings["USER"] or "postgres"
    password = f":{settings['PASSWORD']}" if settings["PASSWORD"] else ""
    host = settings["HOST"] or "127.0.0.1"
    port = settings["PORT"] or 5432
    return f"postgres://{user}{password}@{host}:{port}/{settings['NAME']}"


def environment(redis_url: str, static_root: Path, **extra: str) -> dict[str, str]:
    leave_out = {"DJANGO_SETTINGS_MODULE", "DJANGO_ALLOW_ASYNC_UNSAFE", "BOB_CACHE_DIR"}
    env = {key: value for key, value in os.environ.items() if key not in leave_out}
    env.update(
        DATABASE_URL=database_url(),
        REDIS_URL=redis_url,
        DEBUG="0",
        SECRET_KEY=SECRET_KEY,
        ALLOWED_HOSTS="127.0.0.1,localhost",
        BOB_HTTPS="0",
        BOB_LANGUAGE="en",
        STATIC_ROOT=str(static_root),
        CELERY_VISIBILITY_TIMEOUT=str(VISIBILITY_TIMEOUT),
        REDIS_TIMEOUT_SECONDS="0.5",
        CACHE_KEY_PREFIX=f"bob-reliability-{os.getpid()}",
        PYTHONUNBUFFERED="1",
    )
    env.update(extra)
    return env


def collect_static(env: dict[str, str]) -> None:
    subprocess.run(
        [sys.executable, "scripts/serve.py", "prepare"],
        cwd=ROOT,
        env={**env, "DATABASE_URL": env["DATABASE_URL"]},
        check=True,
        capture_output=True,
        timeout=300,
    )


def _stop(process: subprocess.Popen, sig: int = signal.SIGTERM, timeout: float = 30) -> None:
    if process.poll() is None:
        try:
            os.killpg(process.pid, sig)
        except ProcessLookupError:
            return
        try:
            process.wait(timeout)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(10)


class _NoRedirects(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):  # a redirect is an answer to check
        return None


_OPENER = urllib.request.build_opener(_NoRedirects)


def get(url: str, *, timeout: float = 20, headers: dict[str, str] | None = None):
    """(status, headers, body) of a GET, redirects not followed; an HTTP error status is
    returned, not raised."""
    request = urllib.request.Request(url, headers=headers or {})
    try:
        with _OPENER.open(request, timeout=timeout) as response:
            return response.status, response.headers, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read()


def health(base: str) -> tuple[int, dict]:
    """The status and the JSON of ``/healthz``."""
    status, _headers, body = get(base + "/healthz", timeout=10)
    return status, json.loads(body)


def wait_until(check, *, timeout: float, what: str, interval: float = 0.2):
    """Poll ``check()`` until it returns something true; fail after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        result = check()
        if result:
            return result
        time.sleep(interval)
    raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what}")


@contextmanager
def web_server(env: dict[str, str], *, workers: int = 2) -> Iterator[str]:
    """The production web server (Gunicorn through scripts/serve.py); yields its base URL."""
    port = free_port()
    log = open(Path(env["STATIC_ROOT"]).parent / f"web-{port}.log", "wb")  # noqa: SIM115
    process = subprocess.Popen(
        [sys.executable, "scripts/serve.py", "web"],
        cwd=ROOT,
        env={**env, "BIND": f"127.0.0.1:{port}", "WEB_CONCURRENCY": str(workers)},
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    base = f"http://127.0.0.1:{port}"
    try:

        def answers():
            if process.poll() is not None:
                raise AssertionError(f"the web server stopped: see {log.name}")
            try:
                return get(base + "/healthz", timeout=5)[0] in (200, 503)
            except OSError:
                return False

        wait_until(answers, timeout=60, what="the web server")
        yield base
    finally:
        _stop(process)
        log.close()


class Worker:
    """A Celery worker process (prefork, one pool process) of ``tests.reliability.worker_app``."""

    def __init__(self, env: dict[str, str], markers: Path, name: str) -> None:
        self.env = {**env, "BOB_TEST_MARKERS": str(markers)}
        self.markers = markers
        self.name = name
        self.log_path = markers / f"worker-{name}.log"
        self.process: subprocess.Popen | None = None

    def start(self) -> Worker:
        log = open(self.log_path, "ab")  # noqa: SIM115
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "--app",
                "tests.reliability.worker_app",
                "worker",
                "--pool",
                "prefork",
                "--concurrency",
                "1",
                "--loglevel",
                "INFO",
                "--hostname",
                f"{self.name}@reliability",
                "--without-mingle",
                "--without-gossip",
            ],
            cwd=ROOT,
            env=self.env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        log.close()
        wait_until(
            lambda: b"ready." in self.log_path.read_bytes() or self._died(),
            timeout=60,
            what=f"worker {self.name} to be ready",
        )
        return self

    def _died(self) -> bool:
        if self.process is not None and self.process.poll() is not None:
            raise AssertionError(f"worker {self.name} stopped: {self.log_path.read_text()}")
        return False

    def kill(self) -> None:
        """SIGKILL the whole worker (main process and pool), as a machine dying would."""
        if self.process is not None:
            _stop(self.process, signal.SIGKILL)

    def stop(self) -> None:
        if self.process is not None:
            _stop(self.process)


def markers(directory: Path, phase: str) -> list[dict]:
    """The marker records the worker hooks wrote for ``phase`` (see worker_app)."""
    found = []
    for path in sorted(directory.glob(f"*.{phase}.json")):
        try:
            found.append(json.loads(path.read_text()))
        except json.JSONDecodeError:  # being written
            continue
    return found


def kill_pool_process(pid: int) -> None:
    os.kill(pid, signal.SIGKILL)


class Serve:
    """``make serve``: scripts/serve.py running every part, on port ``port``."""

    #: What each part writes once it runs.
    STARTED = ("Booting worker", "ready.", "beat: Starting")

    def __init__(self, env: dict[str, str], directory: Path) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.env = {**env, "BIND": f"127.0.0.1:{self.port}", "WEB_CONCURRENCY": "1"}
        self.log_path = directory / "serve.log"
        self.process: subprocess.Popen | None = None

    def start(self) -> Serve:
        with open(self.log_path, "wb") as log:
            self.process = subprocess.Popen(
                [sys.executable, "scripts/serve.py"],
                cwd=ROOT,
                env=self.env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        wait_until(
            lambda: all(mark in self.text() for mark in self.STARTED) or self._died(),
            timeout=90,
            what="the web server, the worker and the scheduler",
        )
        return self

    def _died(self) -> bool:
        if self.process is not None and self.process.poll() is not None:
            raise AssertionError(f"make serve stopped: {self.text()}")
        return False

    def text(self) -> str:
        return self.log_path.read_text(errors="replace")

    def parts(self) -> dict[str, int]:
        """The process id of each part running now (web, worker, scheduler)."""
        assert self.process is not None
        found = subprocess.run(
            ["pgrep", "-P", str(self.process.pid)], capture_output=True, text=True
        ).stdout.split()
        parts = {}
        for pid in found:
            command = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
            name = next((part for word, part in WORDS.items() if word in command), f"unknown {pid}")
            parts[name] = int(pid)
        return parts

    def stop(self) -> None:
        if self.process is not None:
            _stop(self.process, signal.SIGINT, timeout=60)


#: A word of each part's command line, and the part.
WORDS = {b"bob.wsgi": "web", b"worker": "worker", b"beat": "scheduler"}


class RedisServer:
    """A Redis of this test's own, on a port of its own, so that it can be stopped."""

    def __init__(self, directory: Path) -> None:
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.directory = directory

    def start(self) -> RedisServer:
        subprocess.run(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", ""]
            + ["--appendonly", "no", "--dir", str(self.directory), "--daemonize", "yes"],
            check=True,
            capture_output=True,
        )
        wait_until(lambda: self._cli("ping").stdout.strip() == b"PONG", timeout=10, what="Redis")
        return self

    def stop(self) -> None:
        self._cli("shutdown", "nosave")

    def pid(self) -> int:
        info = self._cli("info", "server").stdout.decode()
        return int(next(line for line in info.splitlines() if line.startswith("process_id:"))[11:])

    def _cli(self, *command: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            ["redis-cli", "-p", str(self.port), *command], capture_output=True, timeout=10
        )


class PostgresServer:
    """A PostgreSQL cluster of this test's own, on a port of its own, so that it can be
    restarted; its ``postgres`` database at :attr:`url`. Run as the ``postgres`` user when
    the tests run as root (PostgreSQL refuses root), as scripts/with-services.sh does."""

    def __init__(self) -> None:
        bins = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"))
        if not bins:
            raise FileNotFoundError("PostgreSQL's initdb is not installed")
        self.bin = bins[-1].parent
        self.port = free_port()
        self.url = f"postgres://postgres@127.0.0.1:{self.port}/postgres"
        self.directory = Path(tempfile.mkdtemp(prefix="bob-reliability-pg-"))
        self.directory.chmod(0o755)
        self.data = self.directory / "data"

    def _run(self, program: str, *args: str) -> None:
        command = [str(self.bin / program), *args]
        if os.geteuid() == 0:
            command = ["runuser", "-u", "postgres", "--", *command]
        subprocess.run(command, check=True, capture_output=True, timeout=120)

    def _pg_ctl(self, action: str) -> None:
        options = f"-p {self.port} -k {self.data} -c listen_addresses=127.0.0.1 -c fsync=off"
        log = str(self.directory / "log")
        data = str(self.data)
        self._run("pg_ctl", "-D", data, "-l", log, "-w", "-m", "fast", "-o", options, action)

    def start(self) -> PostgresServer:
        self.data.mkdir()
        if os.geteuid() == 0:
            shutil.chown(self.data, "postgres")
            shutil.chown(self.directory, "postgres")
        self._run("initdb", "-D", str(self.data), "-U", "postgres", "-A", "trust", "--no-sync")
        self._pg_ctl("start")
        return self

    def restart(self) -> None:
        self._pg_ctl("restart")

    def stop(self) -> None:
        try:
            self._pg_ctl("stop")
        finally:
            shutil.rmtree(self.directory, ignore_errors=True)
