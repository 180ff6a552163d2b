"""Benchmark: the public pages, served by the production server, against two references.

Prints, for tournaments of 243 and 2,187 players (``--players N[,M]`` or ``make bench
BENCH_PLAYERS="N M"`` for others) whose first stage has every result confirmed, the median time of
one request (milliseconds; one request at a time, a new connection each, from a load
client in its own process) to the production server (Gunicorn with ``gunicorn.conf.py``,
``WEB_CONCURRENCY`` worker processes, default 2) for:

* the trivial view (the whole Django stack, no work) and one raw SQL query returning the
  standings' rows (every seat with player, squad and latest confirmed result): the
  references;
* the standings page, its live poll (the ``standings/live/`` partial the page fetches
  every 15 s) on this tournament and on a copy created after it (newer rows: the poll
  must not cost more for an older tournament), the poll as a browser repeats it (sending
  back the ETag it got: ``304 Not Modified`` while nothing changed), the tournament's
  home, bracket and honours pages;

each **cache hit** (the production caches; the page asked for before) and **cache
missed** (a second server whose caches keep nothing: every page computed afresh), with
the ratios the goals of issue 17 are stated in. On ``DATABASE_URL`` / ``REDIS_URL`` when
given (PostgreSQL, Redis), otherwise on a throwaway SQLite file and file cache.

The database's statistics are refreshed (``ANALYZE``) once the tournaments are built, as a
live database's autovacuum would.

Run: ``.venv/bin/python benchmarks/public_pages.py [--players N[,M]]``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.support.environment import ROOT, configure, describe, player_counts  # noqa: E402

ENVIRONMENT = configure()

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402

from benchmarks.support.tournament_data import analyse, build, copy  # noqa: E402

WORKERS = os.environ.get("WEB_CONCURRENCY", "2")
COMPARE_ROOT = os.environ.get("BENCH_COMPARE_ROOT", "")
ROUNDS = 5


def per_round(players: int) -> int:
    """Requests per page and round: fewer for large tournaments, whose pages computed
    afresh take seconds each, so the run stays within minutes."""
    return 8 if players <= 243 else 2


def start_server(port: int, cache: str, root: Path = ROOT) -> subprocess.Popen:
    env = {
        **ENVIRONMENT,
        "DJANGO_SETTINGS_MODULE": "benchmarks.support.bench_settings",
        "BIND": f"127.0.0.1:{port}",
        "WEB_CONCURRENCY": WORKERS,
        "BOB_BENCH_CACHE": cache,
        # The other checkout's pages are cached apart from this code's.
        **({"CACHE_KEY_PREFIX": "bob-compare"} if root != ROOT else {}),
    }
    gunicorn = Path(sys.executable).parent / "gunicorn"
    server = subprocess.Popen(
        [
            str(gunicorn),
            "bob.wsgi",
            "--config",
            "gunicorn.conf.py",
            "--access-logfile",
            "/dev/null",
        ],
        cwd=root,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/bench/trivial/", timeout=2)
            return server
        except OSError:
            time.sleep(0.3)
    server.terminate()
    raise SystemExit("the server did not start")


def measure(targets: dict[str, str], requests: int) -> dict[str, float]:
    client = Path(__file__).resolve().parent / "support" / "load_client.py"
    output = subprocess.run(
        [
            sys.executable,
            str(client),
            str(ROUNDS),
            str(requests),
            *(f"{name}={target}" for name, target in targets.items()),
        ],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return json.loads(output)


def prepare_compared_checkout(root: Path) -> None:
    """What a checkout's server needs besides its code (its static files' manifest, its
    compiled translations), built in that checkout with its own code: a fresh clone or
    worktree has neither, and every page answered 500."""
    for command in (
        ["collectstatic", "--noinput", "--verbosity", "0"],
        ["compilemessages", "--ignore", ".venv", "--verbosity", "0"],
    ):
        subprocess.run(
            [sys.executable, "manage.py", *command], cwd=root, env=ENVIRONMENT, check=True
        )


def main() -> int:
    call_command("migrate", verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)
    if COMPARE_ROOT:
        prepare_compared_checkout(Path(COMPARE_ROOT))
    for players in player_counts():
        measure_size(players)
    return 0


def measure_size(players: int) -> None:
    """Every page at one tournament size, printed with the goals' verdicts."""
    started = time.perf_counter()
    older = build(f"bench-{players}", players)
    newer = copy(older, f"bench-{players}-newer")
    analyse()
    built = time.perf_counter() - started
    slug = older.slug
    paths = {
        "trivial view": "/bench/trivial/",
        "raw SQL standings rows": f"/bench/raw/{slug}/",
        "standings": f"/t/{slug}/standings/",
        "live poll": f"/t/{slug}/standings/live/",
        "live poll, newer tournament": f"/t/{newer.slug}/standings/live/",
        "live poll, browser revalidating": f"~/t/{slug}/standings/live/",
        "home": f"/t/{slug}/",
        "bracket": f"/t/{slug}/bracket/",
        "honours": f"/t/{slug}/honours/",
    }
    ports = {"hit": 8931, "miss": 8932}
    servers = [start_server(ports["hit"], "on"), start_server(ports["miss"], "off")]
    if COMPARE_ROOT:
        ports.update({"before hit": 8933, "before miss": 8934})
        servers += [
            start_server(ports["before hit"], "on", Path(COMPARE_ROOT)),
            start_server(ports["before miss"], "off", Path(COMPARE_ROOT)),
        ]
    try:
        times = measure(
            {
                f"{kind} {name}": f"~{port}{path[1:]}" if path.startswith("~") else f"{port}{path}"
                for name, path in paths.items()
                for kind, port in ports.items()
            },
            per_round(players),
        )
    finally:
        for server in servers:
            server.terminate()
            server.wait(timeout=30)
    hit = {name: times[f"hit {name}"] for name in paths}
    miss = {name: times[f"miss {name}"] for name in paths}
    trivial, raw = hit["trivial view"], miss["raw SQL standings rows"]
    print(f"public pages, {players} players ({describe()}; data ready in {built:.1f} s)")
    print(
        f"servers: two Gunicorns (caches on / caches keeping nothing), {WORKERS} worker "
        f"processes each; client: its own process, one request at a time, every page of "
        f"both servers in turn, {ROUNDS} rounds of {per_round(players)}; median ms per request"
    )
    print(
        f"{'page':32} {'cache hit':>10} {'missed':>10} {'hit/trivial':>12} {'missed/raw SQL':>15}"
    )
    for name in paths:
        print(
            f"{name:32} {hit[name]:10.2f} {miss[name]:10.2f} {trivial / hit[name]:12.0%} "
            f"{miss[name] / raw:14.1f}x"
        )
    goals = [
        ("uncached standings within 2x raw SQL", miss["standings"] <= 2 * raw),
        (
            "live poll >= 25% of the trivial view (both tournaments, cache hit)",
            min(trivial / hit["live poll"], trivial / hit["live poll, newer tournament"]) >= 0.25,
        ),
        (
            "live poll as a browser repeats it >= 25% of the trivial view (cache hit)",
            trivial / hit["live poll, browser revalidating"] >= 0.25,
        ),
        ("cached standings >= 50% of the trivial view", trivial / hit["standings"] >= 0.5),
        (
            "home, bracket, honours as fast as the standings (cache missed, within 10%)",
            all(miss[page] <= 1.1 * miss["standings"] for page in ("home", "bracket", "honours")),
        ),
    ]
    for goal, met in goals:
        print(f"goal: {goal}: {'met' if met else 'NOT met'}")
    if COMPARE_ROOT:
        print_before(times, list(paths))


def print_before(times: dict[str, float], names: list[str]) -> None:
    """The other checkout's figures (``BENCH_COMPARE_ROOT``) beside this code's."""
    print(f"before: the code at {COMPARE_ROOT}, same rounds; each over its own trivial view")
    print(
        f"{'page':32} {'before hit':>11} {'before missed':>14} {'hit/trivial':>12} "
        f"{'missed/raw SQL':>15}"
    )
    trivial, raw = times["before hit trivial view"], times["before miss raw SQL standings rows"]
    for name in names:
        hit, miss = times[f"before hit {name}"], times[f"before miss {name}"]
        print(f"{name:32} {hit:11.2f} {miss:14.2f} {trivial / hit:12.0%} {miss / raw:14.1f}x")


if __name__ == "__main__":
    sys.exit(main())
