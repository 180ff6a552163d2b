"""Benchmark: the organiser's pages of a large tournament.

Prints, for tournaments of 243 and 2,187 players (``--players N[,M]`` or ``make bench
BENCH_PLAYERS="N M"`` for others; the tournaments of ``public_pages.py``: stage 1 seated,
every result confirmed), in one process through Django's request handling with the
production settings (DEBUG off), on ``DATABASE_URL`` / ``REDIS_URL`` when given (PostgreSQL,
Redis), otherwise on a throwaway SQLite file: for each page an organiser opens during the
event, logged in, the median time of one request (of 5, after 2 untimed), its queries and
its size. An organiser's pages are never cached, so each is computed afresh.

No goal is set for these pages; the figures say what a page costs an organiser at the
venue, and that it does not grow with the tournament where it need not (the lists are read
a page at a time: players, schedule, activity log).

Run: ``.venv/bin/python benchmarks/organiser_pages.py [--players N]``.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.support.environment import configure, describe, player_counts  # noqa: E402

configure()

import django  # noqa: E402

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

from benchmarks.support.tournament_data import analyse, build  # noqa: E402
from tournaments.models import Tournament  # noqa: E402

WARM_UP = 2
REPEATS = 5

#: The pages, by what the organiser calls them, as paths under ``/organise/<slug>/``.
PAGES = {
    "dashboard": "",
    "players": "players/",
    "players, a search": "players/?q=player+1",
    "schedule": "schedule/",
    "stage 1": "stages/1/",
    "activity log": "activity/",
    "activity log, one session": "activity/?stage=1&session=1",
    "judges": "judges/",
    "catalogue": "catalogue/",
    "venue": "venue/",
}


def organiser_client(tournament: Tournament) -> Client:
    """A client logged in as an organiser of ``tournament`` (an account kept for the
    benchmarks)."""
    user, _created = get_user_model().objects.get_or_create(username="bench-organiser")
    tournament.organisers.add(user)
    client = Client(HTTP_HOST="127.0.0.1")
    client.force_login(user)
    return client


def measure(client: Client, url: str) -> tuple[float, int, int]:
    """Median milliseconds, queries and bytes of one request of ``url``."""
    for _ in range(WARM_UP):
        client.get(url)
    times = []
    for _ in range(REPEATS):
        started = time.perf_counter()
        response = client.get(url)
        times.append(time.perf_counter() - started)
        if response.status_code != 200:
            raise SystemExit(f"{url}: HTTP {response.status_code}")
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    return statistics.median(times) * 1000, len(queries), len(response.content)


def main() -> int:
    call_command("migrate", verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)
    counts = player_counts()
    tournaments = {players: build(f"bench-{players}", players) for players in counts}
    analyse()
    print(f"the organiser's pages ({describe()})")
    print(
        "one process (Django's request handling, DEBUG off), logged in as an organiser; "
        f"median of {REPEATS} requests after {WARM_UP} untimed; organiser pages are never "
        "cached"
    )
    header = "".join(f"{f'{players} players':>28}" for players in counts)
    print(f"{'page':28}{header}")
    print(f"{'':28}" + "".join(f"{'ms':>10}{'queries':>9}{'KB':>9}" for _ in counts))
    clients = {players: organiser_client(t) for players, t in tournaments.items()}
    for name, path in PAGES.items():
        cells = []
        for players, tournament in tournaments.items():
            url = f"/organise/{tournament.slug}/{path}"
            ms, queries, size = measure(clients[players], url)
            cells.append(f"{ms:10.1f}{queries:9d}{size / 1024:9.0f}")
        print(f"{name:28}" + "".join(cells))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
