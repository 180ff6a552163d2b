#!/usr/bin/env python3
"""Run BoB for an event: ``make serve`` (every part), or one part (compose.yaml, or a
machine of a larger set-up: README, "Run an event").

    python scripts/serve.py            prepare, then web + worker + scheduler; Ctrl-C stops all
    python scripts/serve.py prepare    migrate the database and collect the static files
    python scripts/serve.py web        the web server (Gunicorn, gunicorn.conf.py)
    python scripts/serve.py worker     a Celery worker (as many as you like, on any machine)
    python scripts/serve.py scheduler  Celery beat: sends the notices left pending (run one)

Every part reads DATABASE_URL and REDIS_URL, SECRET_KEY and ALLOWED_HOSTS from the
environment; DEBUG is off unless set. Only the standard library is used here, so the
checks below answer before Django starts.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

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
#: The long-running parts ``make serve`` starts after ``prepare``.
SERVICES = ("web", "worker", "scheduler")
#: Seconds the parts get to finish their work after Ctrl-C before they are killed.
STOP_SECONDS = 30


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


def run_part(part: str) -> int:
    """Run one part in the foreground; its exit status."""
    for command in COMMANDS[part]:
        if part == "scheduler":
            (ROOT / "var").mkdir(exist_ok=True)
        status = subprocess.call(executable(command), cwd=ROOT)
        if status:
            return status
    return 0


def serve_all() -> int:
    """``make serve``: prepare, then every service until Ctrl-C (or one of them stops)."""
    status = run_part("prepare")
    if status:
        return status
    (ROOT / "var").mkdir(exist_ok=True)
    processes = {
        part: subprocess.Popen(executable(COMMANDS[part][0]), cwd=ROOT, start_new_session=True)
        for part in SERVICES
    }
    stopping = False

    def stop(signum: int, frame: object) -> None:
        nonlocal stopping
        if stopping:
            return
        stopping = True
        print("serve: stopping the web server, the worker and the scheduler…", flush=True)
        for process in processes.values():
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)

    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)
    exit_status = 0
    while any(process.poll() is None for process in processes.values()):
        for part, process in processes.items():
            if process.poll() is not None and not stopping:
                print(f"serve: the {part} stopped (status {process.returncode})", flush=True)
                exit_status = process.returncode or 1
                stop(signal.SIGTERM, None)
        time.sleep(0.2)
        if stopping:
            deadline = time.monotonic() + STOP_SECONDS
            while time.monotonic() < deadline and any(
                process.poll() is None for process in processes.values()
            ):
                time.sleep(0.2)
            for process in processes.values():
                if process.poll() is None:
                    process.kill()
                    process.wait()
    return exit_status


def main(argv: list[str]) -> int:
    part = argv[1] if len(argv) > 1 else "all"
    if part not in {"all", *COMMANDS}:
        print(
            f"serve: unknown part {part!r}; use one of: all, {', '.join(COMMANDS)}",
            file=sys.stderr,
        )
        return 2
    os.environ.setdefault("DEBUG", "0")
    problems = environment_problems(dict(os.environ))
    if problems:
        for problem in problems:
            print(f"serve: {problem}", file=sys.stderr)
        return 2
    return serve_all() if part == "all" else run_part(part)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
