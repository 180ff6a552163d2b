"""Benchmark: where the standings page computed afresh spends its time, part by part.

For a tournament of 243 players (``--players N[,M]`` or ``BENCH_PLAYERS`` for others; the
tournament of ``public_pages.py``, built the same way and reused), in one process: Django's
WSGI handler with the production settings, DEBUG off, a kept database connection and every
cache keeping nothing (``BOB_BENCH_CACHE=off``, as the "cache missed" server of
``public_pages.py``). It prints the median time of one request to the standings page as it
is, and with one part at a time taken away: replaced by its result, computed once before
the timing, so the rest of the page does the same work on the same values.

* the page around the table: ``standings.html`` and the base it extends, with their context;
* the table's template: ``partials/standings_body.html``, its 100 rows included;
* the assembly: ``compute_standings`` building the standings from its rows (its four
  statements still run);
* the four statements of the standings and the decoding of their rows;
* the squads' statement;
* the tournament with its data stamp;
* both templates and the assembly together;

beside the two references of ``public_pages.py``: the raw SQL view and the trivial view.
The variants take turns in a new order every round, so a change in the machine's speed
falls on all of them alike. What a request pays outside the process (Gunicorn, the
network) is not here: ``public_pages.py`` measures the page whole and checks the goal.

Run: ``.venv/bin/python benchmarks/standings_parts.py [--players N] [--rounds R]``.
"""

from __future__ import annotations

import argparse
import io
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path
from typing import Any
from unittest import mock

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

os.environ["BOB_BENCH_CACHE"] = "off"

from benchmarks.support.environment import configure, describe, player_counts  # noqa: E402

configure("benchmarks.support.bench_settings")

import django  # noqa: E402

django.setup()

from django.core.handlers.wsgi import WSGIHandler  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.http import HttpResponse  # noqa: E402

from benchmarks.support.tournament_data import analyse, build  # noqa: E402
from tournaments.queries import standings, standings_reads  # noqa: E402
from tournaments.views import public  # noqa: E402

#: Requests of each variant per round (after as many untimed ones).
PER_ROUND = 10

HANDLER = WSGIHandler()


def request(path: str) -> float:
    """One GET of ``path`` through Django's WSGI handler: seconds, the body read whole."""
    environ = {
        "REQUEST_METHOD": "GET",
        "PATH_INFO": path,
        "QUERY_STRING": "",
        "SERVER_NAME": "127.0.0.1",
        "SERVER_PORT": "80",
        "HTTP_HOST": "127.0.0.1",
        "wsgi.input": io.BytesIO(),
        "wsgi.url_scheme": "http",
        "wsgi.errors": sys.stderr,
    }
    statuses: list[str] = []

    def start_response(
        status: str, headers: list[tuple[str, str]], exc_info: Any = None
    ) -> Callable[[bytes], object]:
        statuses.append(status)
        return lambda data: None

    started = time.perf_counter()
    response = HANDLER(environ, start_response)
    b"".join(response)
    response.close()
    elapsed = time.perf_counter() - started
    if not statuses[0].startswith("200"):
        raise SystemExit(f"{path}: {statuses[0]}")
    return elapsed


Patch = tuple[object, str, object]  # where, which name, its stand-in


def variants(slug: str) -> dict[str, tuple[Patch, ...]]:
    """Each variant of the page, as the names it replaces and their stand-ins: results
    computed here, before any timing."""
    tournament = standings.read_tournament(slug, stamped=True)
    assert tournament is not None
    rows = standings_reads.standings_rows(tournament.pk)
    computed = standings.compute_standings(tournament)
    squads = standings_reads.squads_of(tournament.pk)

    def around_table(request: object, template: str, context: dict) -> HttpResponse:
        return HttpResponse(context["standings_html"])

    def assembled(found: object) -> dict:
        standings_reads.standings_rows(tournament.pk)
        return computed

    without_template: Patch = (public, "render_to_string", lambda *args: "")
    return {
        "the page as it is": (),
        "the page around the table taken away": ((public, "render", around_table),),
        "the table's template taken away": (without_template,),
        "the assembly taken away": ((standings, "compute_standings", assembled),),
        "the four statements taken away": ((standings_reads, "standings_rows", lambda pk: rows),),
        "the squads' statement taken away": ((public, "squads_of", lambda pk: squads),),
        "the tournament and its stamp taken away": (
            (public, "read_tournament", lambda slug, stamped=False: tournament),
        ),
        "both templates and the assembly taken away": (
            (public, "render", around_table),
            without_template,
            (standings, "compute_standings", assembled),
        ),
    }


def measure(players: int, rounds: int) -> None:
    slug = f"bench-{players}"
    build(slug, players)
    analyse()
    page = f"/t/{slug}/standings/"
    patched = variants(slug)
    targets: dict[str, tuple[str, tuple[Patch, ...]]] = {
        **{name: (page, patches) for name, patches in patched.items()},
        "raw SQL view": (f"/bench/raw/{slug}/", ()),
        "trivial view": ("/bench/trivial/", ()),
    }
    times: dict[str, list[float]] = {name: [] for name in targets}
    order = list(targets)
    for number in range(rounds):
        random.Random(number).shuffle(order)
        for name in order:
            path, patches = targets[name]
            with ExitStack() as stack:
                for where, attribute, stand_in in patches:
                    stack.enter_context(mock.patch.object(where, attribute, stand_in))
                for _ in range(PER_ROUND):
                    request(path)
                for _ in range(PER_ROUND):
                    times[name].append(request(path))
    median = {name: statistics.median(values) * 1000 for name, values in times.items()}
    whole, raw = median["the page as it is"], median["raw SQL view"]
    print(f"the standings page by parts, {players} players ({describe(shared_cache=False)})")
    print(
        f"one process (Django's WSGI handler, DEBUG off); {rounds} rounds of "
        f"{PER_ROUND} requests a variant, the variants in a new order every round; "
        "median ms per request; a part taken away is replaced by its result computed before"
    )
    print(f"{'variant':46} {'ms':>7} {'saves':>7} {'/raw SQL':>9}")
    for name in targets:
        saves = f"{whole - median[name]:7.2f}" if name in patched else " " * 7
        print(f"{name:46} {median[name]:7.2f} {saves} {median[name] / raw:8.1f}x")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", help="tournament sizes (default 243)")
    parser.add_argument("--rounds", type=int, default=20, help="rounds (default 20)")
    args = parser.parse_args()
    call_command("migrate", verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)
    for players in player_counts(default=(243,)):
        measure(players, args.rounds)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
