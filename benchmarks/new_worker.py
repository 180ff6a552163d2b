"""Benchmark: a new worker of the production server, from the moment the old one died.

Gunicorn starts a worker at start-up and again whenever one stops: renewed after its
``max_requests`` (2,000 requests: every few minutes while many phones poll the standings)
or killed. This script serves the 243-player tournament of ``public_pages.py`` (built the
same way and reused; ``--players N`` for another size) from two servers of one worker
each, in turn, one request at a time from this process:

* **the master prepares**: ``gunicorn.conf.py`` as it is: the app loaded once in the
  master, prepared there (``bob/warm_up.py``: templates compiled, catalogues read, URL
  tables, the code's release, the bundled maps' boards) and every worker forked from it;
* **each worker loads the app**: the same settings with the app loaded by each worker
  itself, nothing prepared before its first request (``preload_app`` off,
  ``benchmarks/support/gunicorn_own_load.py``: the server as it was before).

For each, every round kills the worker (``SIGKILL``) and times: until the new worker
answers the trivial view (the worker's start), then the first request of one public page
(the production caches: what a visitor meets), the median of its next 5 requests, and the
median of 5 more after 100 (a forked worker copies the master's memory pages it writes to,
most of them in its first requests). Each page is asked first of a new worker in turn, over
``--rounds`` rounds. Last, each server's worker memory after its requests: private (its own) and
proportional (shared pages counted by share), from ``/proc/PID/smaps_rollup``.

Run: ``.venv/bin/python benchmarks/new_worker.py [--players N] [--rounds R]``.
"""

from __future__ import annotations

import argparse
import os
import signal
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.support.environment import ROOT, configure, describe  # noqa: E402

ENVIRONMENT = configure()

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402

from benchmarks.support.load_client import request  # noqa: E402
from benchmarks.support.tournament_data import build  # noqa: E402

SERVERS = {
    "the master prepares": "gunicorn.conf.py",
    "each worker loads the app": "benchmarks/support/gunicorn_own_load.py",
}
#: The requests timed after a new worker's first, and the requests before the last ones.
NEXT_REQUESTS = 5
SETTLING_REQUESTS = 100


def _children(pid: int) -> list[int]:
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found


def _memory_kib(pid: int) -> tuple[int, int]:
    """The process's private and proportional resident memory, KiB."""
    values = {}
    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines()[1:]:
        name, amount, *_unit = line.split()
        values[name.rstrip(":")] = int(amount)
    return values["Private_Clean"] + values["Private_Dirty"], values["Pss"]


class Server:
    """One Gunicorn of one worker on ``port`` with the config file ``config``."""

    def __init__(self, config: str, port: int) -> None:
        self.port = port
        self.process = subprocess.Popen(
            [str(Path(sys.executable).parent / "gunicorn"), "bob.wsgi", "--config", config],
            cwd=ROOT,
            env={
                **ENVIRONMENT,
                "DJANGO_SETTINGS_MODULE": "benchmarks.support.bench_settings",
                "BIND": f"127.0.0.1:{port}",
                "WEB_CONCURRENCY": "1",
            },
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        self.worker = self._new_worker(set())

    def _new_worker(self, gone: set[int]) -> int:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            workers = [pid for pid in _children(self.process.pid) if pid not in gone]
            if workers:
                return workers[0]
            time.sleep(0.001)
        raise SystemExit("no worker started")

    def replace_worker(self) -> float:
        """Kill the worker; seconds until its replacement answered the trivial view."""
        old = self.worker
        started = time.perf_counter()
        os.kill(old, signal.SIGKILL)
        self.worker = self._new_worker({old})
        while True:
            try:
                request(f"{self.port}/bench/trivial/")
                return time.perf_counter() - started
            except OSError:
                time.sleep(0.001)

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=30)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=243)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    call_command("migrate", verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)
    slug = build(f"bench-{args.players}", args.players).slug
    pages = {
        "standings": f"/t/{slug}/standings/",
        "home": f"/t/{slug}/",
        "bracket": f"/t/{slug}/bracket/",
        "honours": f"/t/{slug}/honours/",
        "dice": f"/t/{slug}/dice/",
    }
    starts: dict[str, list[float]] = {name: [] for name in SERVERS}
    first: dict[tuple[str, str], list[float]] = {}
    following: dict[tuple[str, str], list[float]] = {}
    settled: dict[tuple[str, str], list[float]] = {}
    memory: dict[str, tuple[int, int]] = {}
    for number, (name, config) in enumerate(SERVERS.items()):
        server = Server(config, 8941 + number)
        try:
            for _round in range(args.rounds):
                for page, path in pages.items():
                    starts[name].append(server.replace_worker())
                    target = f"{server.port}{path}"
                    first.setdefault((name, page), []).append(request(target))
                    following.setdefault((name, page), []).extend(
                        request(target) for _ in range(NEXT_REQUESTS)
                    )
                    for _ in range(SETTLING_REQUESTS):
                        request(target)
                    settled.setdefault((name, page), []).extend(
                        request(target) for _ in range(NEXT_REQUESTS)
                    )
            memory[name] = _memory_kib(server.worker)
        finally:
            server.stop()

    print(f"a new worker, {args.players} players ({describe()})")
    print(
        "servers: Gunicorn, one worker, in turn; client: this process, one request at a "
        f"time; per page {args.rounds} new workers; median ms of the first request / the "
        f"next {NEXT_REQUESTS} / {NEXT_REQUESTS} after {SETTLING_REQUESTS} more"
    )
    names = list(SERVERS)
    timed = (first, following, settled)
    print(f"{'':34}" + "".join(f"{n:>28}" for n in names))
    print(
        f"{'new worker answers (from the kill)':34}"
        + "".join(f"{statistics.median(starts[n]) * 1000:28.1f}" for n in names)
    )
    for page in pages:
        cells = (
            " / ".join(f"{statistics.median(t[n, page]) * 1000:.1f}" for t in timed) for n in names
        )
        print(f"{page + ' page':34}" + "".join(f"{cell:>28}" for cell in cells))
    print(
        f"{'worker memory, private / PSS MiB':34}"
        + "".join(f"{f'{memory[n][0] / 1024:.0f} / {memory[n][1] / 1024:.0f}':>28}" for n in names)
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
