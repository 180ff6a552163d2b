#!/usr/bin/env python3
"""Run BoB for an event: ``make serve`` (every part), or one part (compose.yaml, or a
machine of a larger set-up: README, "Run an event").

    python scripts/serve.py            prepare, then web + worker + scheduler, each started
                                       again whenever it stops; Ctrl-C stops all
    python scripts/serve.py prepare    migrate the database and collect the static files
    python scripts/serve.py web        the web server (Gunicorn, gunicorn.conf.py)
    python scripts/serve.py worker     a Celery worker (as many as you like, on any machine)
    python scripts/serve.py scheduler  Celery beat: sends the notices left pending (run one)

Every part reads DATABASE_URL and REDIS_URL, SECRET_KEY and ALLOWED_HOSTS from the
environment; unless set there, DEBUG is off and database connections are kept (DEFAULTS).
Only the standard library is used here, so the checks below answer before Django starts.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: What every part runs with unless the environment sets it: DEBUG off, and each process
#: keeping its database connection between requests for up to ten minutes
#: (CONN_MAX_AGE; each is checked before use, so one the server closed is replaced): a
#: Gunicorn worker serves one at a time, so it holds one connection, and no request pays
#: for opening one (the benchmarks' server runs with these too). Celery closes a worker's
#: connection after each task whatever this says (docs/operations.md).
DEFAULTS = {"DEBUG": "0", "CONN_MAX_AGE": "600"}

#: Each part's commands; programs are looked up beside this Python (the virtualenv's bin/,
#: or the image's). compose.yaml runs the same (tests/test_compose.py checks it).
COMMANDS: dict[str, list[list[str]]] = {
    "prepare": [
        ["python", "manage.py", "migrate", "--no-input"],
        ["python", "manage.py", "collectstatic", "--no-input", "--verbosity", "0"],
    ],
    "web": [["gunicorn", "bob.wsgi", "--config", "gunicorn.conf.py"]],
    "worker": [["celery", "--app", "bob", "worker", "--loglevel", "INFO"]],
    "scheduler": [
        ["celery", "--app", "bob", "beat", "--loglevel", "INFO", "--schedule", "var/beat-schedule"]
    ],
}
#: The long-running parts ``make serve`` starts after ``prepare``, with their names in words.
SERVICES = ("web", "worker", "scheduler")
LABELS = {"web": "web server", "worker": "worker", "scheduler": "scheduler"}
#: Seconds the parts get to finish their work after Ctrl-C before they are killed.
STOP_SECONDS = 30
#: A part that stopped is started again after RESTART_SECONDS. One that stops again within
#: STABLE_SECONDS of starting waits twice as long each time, up to MAX_RESTART_SECONDS.
RESTART_SECONDS = 1.0
STABLE_SECONDS = 30.0
MAX_RESTART_SECONDS = 60.0
#: Seconds between two looks at the parts.
POLL_SECONDS = 0.2


def executable(command: list[str]) -> list[str]:
    """The command with its program taken from this Python's bin/ when it is there."""
    program = Path(sys.executable).parent / command[0]
    if command[0] == "python":
        return [sys.executable, *command[1:]]
    return [str(program) if program.exists() else command[0], *command[1:]]


def environment_problems(environ: dict[str, str]) -> list[str]:
    """What is missing from the environment for a real event, each with how to fix it."""
    problems = []
    if not environ.get("DATABASE_URL"):
        problems.append(
            "DATABASE_URL is not set: give the PostgreSQL database, "
            "e.g. DATABASE_URL=postgres://bob@127.0.0.1:5432/bob"
        )
    if not environ.get("REDIS_URL"):
        problems.append(
            "REDIS_URL is not set: give the Redis server the workers use, "
            "e.g. REDIS_URL=redis://127.0.0.1:6379/0"
        )
    debug = environ.get("DEBUG", "0").strip().lower() in {"1", "true", "yes", "on"}
    if not debug and not environ.get("SECRET_KEY"):
        problems.append(
            "SECRET_KEY is not set: use a long random text, the same on every machine, e.g. "
            "SECRET_KEY=$(python3 -c 'import secrets; print(secrets.token_urlsafe(50))')"
        )
    if not debug and not environ.get("ALLOWED_HOSTS"):
        problems.append(
            "ALLOWED_HOSTS is not set: list the names and addresses the players type, "
            "comma-separated, e.g. ALLOWED_HOSTS=bob.example.org,192.168.1.10"
        )
    return problems


def environment_warnings(environ: dict[str, str]) -> list[str]:
    """What a real event most likely wants set, though BoB runs without it."""
    warnings = []
    if not environ.get("EMAIL_HOST") and not environ.get("EMAIL_BACKEND"):
        warnings.append(
            "EMAIL_HOST is not set: the players' notices are only written to the log, not "
            "mailed (the schedule page says so). To mail them set EMAIL_HOST, EMAIL_PORT, "
            "EMAIL_HOST_USER, EMAIL_HOST_PASSWORD, EMAIL_USE_TLS=1 and DEFAULT_FROM_EMAIL"
        )
    elif not environ.get("BOB_SITE_URL"):
        warnings.append(
            "BOB_SITE_URL is not set: the players' mails carry no link to their session or "
            "to their own page; set it to the address the players open, e.g. "
            "BOB_SITE_URL=https://bob.example.org"
        )
    if not environ.get("BOB_HTTPS"):
        warnings.append(
            "BOB_HTTPS is not set: every page is redirected to https://, for a proxy with a "
            "certificate in front; to serve plain http (a try on this machine, a venue's own "
            "network) set BOB_HTTPS=0"
        )
    return warnings


def run_part(part: str) -> int:
    """Run one part in the foreground; its exit status."""
    for command in COMMANDS[part]:
        if part == "scheduler":
            (ROOT / "var").mkdir(exist_ok=True)
        status = subprocess.call(executable(command), cwd=ROOT)
        if status:
            return status
    return 0


def say(message: str) -> None:
    print(f"serve: {time.strftime('%H:%M:%S')} {message}", flush=True)


def describe_exit(status: int) -> str:
    """A process's exit status in words: ``status 1``, ``killed by SIGKILL``."""
    if status >= 0:
        return f"status {status}"
    try:
        return f"killed by {signal.Signals(-status).name}"
    except ValueError:
        return f"killed by signal {-status}"


def restart_delay(quick_deaths: int) -> float:
    """Seconds before a part that stopped starts again, after ``quick_deaths`` stops in a
    row each soon after it started (0: it had run a while)."""
    return min(RESTART_SECONDS * 2 ** max(quick_deaths - 1, 0), MAX_RESTART_SECONDS)


def signal_group(group: int, sig: int) -> None:
    """Send ``sig`` to what is left of a process group (a part runs in its own)."""
    try:
        os.killpg(group, sig)
    except (ProcessLookupError, PermissionError):
        pass


class Part:
    """A long-running part of ``make serve``, started again whenever it stops."""

    def __init__(self, name: str, command: list[str]) -> None:
        self.name = name
        self.command = command
        self.process: subprocess.Popen | None = None
        self.started_at = 0.0
        #: Stops in a row, each within STABLE_SECONDS of starting.
        self.quick_deaths = 0
        #: When (monotonic time) to start it again while it is down.
        self.restart_at = 0.0

    @property
    def label(self) -> str:
        return LABELS.get(self.name, self.name)

    def start(self) -> None:
        again = self.process is None and self.started_at > 0
        # In a session of its own: Ctrl-C in the terminal reaches serve.py only, which
        # stops every part in order; the part's process group is what it leaves behind.
        self.process = subprocess.Popen(self.command, cwd=ROOT, start_new_session=True)
        self.started_at = time.monotonic()
        if again:
            say(f"the {self.label} started again (process {self.process.pid})")

    def look(self, now: float) -> None:
        """Start the part if it is down and its wait is over; note it if it just stopped."""
        if self.process is None:
            if now >= self.restart_at:
                self.start()
            return
        status = self.process.poll()
        if status is None:
            return
        # What the part leaves (a killed Celery worker's pool processes) goes with it.
        signal_group(self.process.pid, signal.SIGKILL)
        self.process = None
        ran = now - self.started_at
        self.quick_deaths = self.quick_deaths + 1 if ran < STABLE_SECONDS else 0
        delay = restart_delay(self.quick_deaths)
        self.restart_at = now + delay
        if self.quick_deaths < 2:
            say(
                f"the {self.label} stopped ({describe_exit(status)}) after {ran:.0f} s; "
                f"starting it again in {delay:g} s"
            )
            return
        say(
            f"ERROR: the {self.label} stopped ({describe_exit(status)}) {ran:.1f} s after it "
            f"started, {self.quick_deaths} times in a row. Something keeps it from running: "
            f"read its messages above (the database or Redis unreachable? a setting? the "
            f"port in use?). Starting it again in {delay:g} s, and more slowly each time "
            f"it stops at once."
        )

    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def terminate(self) -> None:
        """Ask the part to stop, finishing its work (Gunicorn its requests, Celery its tasks)."""
        if self.running():
            assert self.process is not None  # running() said so
            self.process.send_signal(signal.SIGTERM)

    def kill(self) -> None:
        """Kill whatever is left of the part."""
        if self.process is not None:
            signal_group(self.process.pid, signal.SIGKILL)
            self.process.wait()


class Supervisor:
    """Runs the parts until Ctrl-C or SIGTERM, starting each again whenever it stops."""

    def __init__(self, parts: list[Part]) -> None:
        self.parts = parts
        self.stopping = False

    def request_stop(self, signum: int, frame: object) -> None:
        if not self.stopping:
            self.stopping = True
            names = [part.label for part in self.parts]
            say(f"stopping the {', the '.join(names[:-1])} and the {names[-1]}…")

    def run(self) -> int:
        signal.signal(signal.SIGINT, self.request_stop)
        signal.signal(signal.SIGTERM, self.request_stop)
        for part in self.parts:
            part.start()
        while not self.stopping:
            now = time.monotonic()
            for part in self.parts:
                if not self.stopping:
                    part.look(now)
            time.sleep(POLL_SECONDS)
        self.stop()
        return 0

    def stop(self) -> None:
        for part in self.parts:
            part.terminate()
        deadline = time.monotonic() + STOP_SECONDS
        while time.monotonic() < deadline and any(part.running() for part in self.parts):
            time.sleep(POLL_SECONDS)
        for part in self.parts:
            part.kill()


def serve_all() -> int:
    """``make serve``: prepare, then every service, each started again whenever it stops,
    until Ctrl-C (SIGINT) or SIGTERM."""
    status = run_part("prepare")
    if status:
        return status
    (ROOT / "var").mkdir(exist_ok=True)
    parts = [Part(part, executable(COMMANDS[part][0])) for part in SERVICES]
    return Supervisor(parts).run()


def main(argv: list[str]) -> int:
    part = argv[1] if len(argv) > 1 else "all"
    if part not in {"all", *COMMANDS}:
        print(
            f"serve: unknown part {part!r}; use one of: all, {', '.join(COMMANDS)}",
            file=sys.stderr,
        )
        return 2
    for name, value in DEFAULTS.items():
        os.environ.setdefault(name, value)
    problems = environment_problems(dict(os.environ))
    if problems:
        for problem in problems:
            print(f"serve: {problem}", file=sys.stderr)
        return 2
    if part != "prepare":
        for warning in environment_warnings(dict(os.environ)):
            print(f"serve: note: {warning}", file=sys.stderr)
    return serve_all() if part == "all" else run_part(part)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
