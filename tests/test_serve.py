"""``make serve`` supervises its parts (scripts/serve.py): a part that stops is started again
after a short wait, and what it left behind goes with it; a part that keeps stopping at once
is started again more and more slowly, with an error each time; only Ctrl-C or SIGTERM stops
everything. Here the parts are small stand-in programs, so no service is needed (the real
web server, worker and scheduler: tests/reliability/test_production_server.py)."""

from __future__ import annotations

import importlib.util
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

#: The supervisor of serve.py with short waits, over the parts given as JSON in argv[1].
SUPERVISE = """
import importlib.util, json, sys
spec = importlib.util.spec_from_file_location("serve", sys.argv[2])
serve = importlib.util.module_from_spec(spec)
spec.loader.exec_module(serve)
serve.RESTART_SECONDS = 0.2
serve.MAX_RESTART_SECONDS = 0.8
serve.STABLE_SECONDS = 2.0
serve.STOP_SECONDS = 5
parts = [serve.Part(name, command) for name, command in json.loads(sys.argv[1]).items()]
sys.exit(serve.Supervisor(parts).run())
"""

#: A part that runs until stopped, with a child process of its own (as a Celery worker has
#: its pool) whose id it writes into the file named by argv[1].
LONG_RUNNING = """
import subprocess, sys, time
child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)"])
open(sys.argv[1], "a").write(f"{child.pid}\\n")
time.sleep(300)
"""

FAILS_AT_ONCE = "import sys; sys.exit(3)"


def _serve():
    spec = importlib.util.spec_from_file_location("serve", ROOT / "scripts/serve.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _children(pid: int) -> list[int]:
    found = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True).stdout
    return sorted(int(child) for child in found.split())


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie (exited, not yet reaped by its parent) is no longer running.
    return "State:\tZ" not in Path(f"/proc/{pid}/status").read_text()


def _wait_for(check, what: str, timeout: float = 20):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        result = check()
        if result:
            return result
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


@pytest.fixture
def supervise(tmp_path):
    """Start the supervisor over ``parts`` ({name: command}); its output goes to a log."""
    started: list[subprocess.Popen] = []
    log = tmp_path / "serve.log"

    def start(parts: dict[str, list[str]]) -> subprocess.Popen:
        import json

        with open(log, "wb") as output:
            process = subprocess.Popen(
                [
                    sys.executable,
                    "-c",
                    SUPERVISE,
                    json.dumps(parts),
                    str(ROOT / "scripts/serve.py"),
                ],
                stdout=output,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        started.append(process)
        return process

    start.log = log  # type: ignore[attr-defined]
    yield start
    for process in started:
        if process.poll() is None:
            process.kill()
            process.wait()


def test_a_killed_part_is_started_again_and_its_orphans_go(supervise, tmp_path):
    pids = tmp_path / "children"
    serve = supervise(
        {
            "worker": [sys.executable, "-c", LONG_RUNNING, str(pids)],
            "web": [sys.executable, "-c", "import time; time.sleep(300)"],
        }
    )
    parts = _wait_for(lambda: len(_children(serve.pid)) == 2 and _children(serve.pid), "2 parts")
    first_pool = _wait_for(lambda: pids.exists() and pids.read_text().split(), "the pool")
    worker = next(pid for pid in parts if Path(f"/proc/{pid}/cmdline").read_bytes().count(b"Popen"))
    web = next(pid for pid in parts if pid != worker)

    os.kill(worker, signal.SIGKILL)
    log = supervise.log
    _wait_for(lambda: "the worker started again" in log.read_text(), "the worker's restart")
    now = _children(serve.pid)
    assert web in now and worker not in now and len(now) == 2
    assert "the worker stopped (killed by SIGKILL)" in log.read_text()
    assert "starting it again in 0.2 s" in log.read_text()  # a second in production
    assert not _alive(int(first_pool[0])), "the killed worker's pool process still runs"
    assert _alive(web)

    serve.send_signal(signal.SIGTERM)
    assert serve.wait(20) == 0
    assert "stopping the worker and the web server" in log.read_text()
    for pid in [*now, *map(int, pids.read_text().split())]:
        assert not _alive(pid), f"process {pid} still runs"


def test_a_part_that_keeps_stopping_at_once_is_started_ever_more_slowly(supervise):
    serve = supervise(
        {
            "scheduler": [sys.executable, "-c", FAILS_AT_ONCE],
            "web": [sys.executable, "-c", "import time; time.sleep(300)"],
        }
    )
    log = supervise.log
    _wait_for(lambda: log.read_text().count("ERROR: the scheduler stopped") >= 4, "4 errors", 30)
    serve.send_signal(signal.SIGINT)  # Ctrl-C
    assert serve.wait(20) == 0
    text = log.read_text()
    assert "the scheduler stopped (status 3)" in text
    errors = re.findall(r"ERROR: the scheduler stopped \(status 3\) .* (\d+) times in a row", text)
    assert [int(count) for count in errors[:3]] == [2, 3, 4]
    assert "read its messages above" in text
    # The web server ran all along: started once, never again.
    assert "the web server started again" not in text and "the web server stopped" not in text


def test_the_wait_doubles_after_each_quick_stop_up_to_the_most():
    serve = _serve()
    waits = [serve.restart_delay(n) for n in range(10)]
    assert waits[:4] == [1, 1, 2, 4]
    assert waits == sorted(waits) and max(waits) == serve.MAX_RESTART_SECONDS
    assert serve.describe_exit(-9) == "killed by SIGKILL"
    assert serve.describe_exit(1) == "status 1"


def test_serve_notes_what_an_event_most_likely_wants_set():
    serve = _serve()
    notes = serve.environment_warnings({})
    assert [note.split(" ")[0] for note in notes] == ["EMAIL_HOST", "BOB_HTTPS"]
    assert "set BOB_HTTPS=0" in notes[1]
    mailing = {"EMAIL_HOST": "smtp.example.org", "BOB_HTTPS": "0"}
    [no_links] = serve.environment_warnings(mailing)
    assert no_links.startswith("BOB_SITE_URL is not set: the players' mails carry no link")
    assert serve.environment_warnings({**mailing, "BOB_SITE_URL": "https://bob.example.org"}) == []


@pytest.mark.parametrize(
    ("given", "kept"), [({}, "600"), ({"CONN_MAX_AGE": "0"}, "0"), ({"CONN_MAX_AGE": "60"}, "60")]
)
def test_every_part_keeps_its_database_connection_unless_told_otherwise(monkeypatch, given, kept):
    """A Gunicorn or Celery worker keeps its connection between requests (each is checked
    before use): no request pays for opening one. CONN_MAX_AGE set by the event wins."""
    serve = _serve()
    environ = {
        "DATABASE_URL": "postgres://bob@127.0.0.1:5432/bob",
        "REDIS_URL": "redis://127.0.0.1:6379/0",
        "SECRET_KEY": "x" * 50,
        "ALLOWED_HOSTS": "bob.example.org",
        **given,
    }
    monkeypatch.setattr(os, "environ", environ)
    started = []
    monkeypatch.setattr(serve, "run_part", lambda part: started.append((part, dict(environ))) or 0)
    assert serve.main(["serve.py", "web"]) == 0
    [(part, seen)] = started
    assert (part, seen["CONN_MAX_AGE"], seen["DEBUG"]) == ("web", kept, "0")
