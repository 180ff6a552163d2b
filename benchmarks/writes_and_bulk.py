"""Benchmark: what a write and the bulk operations cost as the database grows.

Prints, for tournaments of 243 and 2,187 players (``--players N[,M]`` or ``make bench
BENCH_PLAYERS="N M"`` for others), in one process on ``DATABASE_URL`` / ``REDIS_URL`` when given
(PostgreSQL, Redis), otherwise on a throwaway SQLite file and file cache:

* a write (a player's nickname; a session's schedule), committed with its cache bump, and
  the cache bump alone (finding the written tournament and giving it a new generation),
  median of 31 after 5 untimed, with 1 other tournament of that size in the database and then with
  ``--others`` (default 20): the goal is the same cost, and under 50 ms for the bump;
* export and import of the tournament (stage 1 seated, every result confirmed) and the
  start of a new tournament of that size (seating and drawing its first stage), each in a
  process of its own: seconds, peak resident memory (Django's own ~60-80 MiB included) and
  queries. Goals at 2,187 players: import <= 20 s, export <= 5 s, each under 300 MiB;
  the start <= 5 s.

Run: ``.venv/bin/python benchmarks/writes_and_bulk.py [--players N] [--others K]
[--writes-only]``.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.support.environment import configure, describe, player_counts  # noqa: E402

ENVIRONMENT = configure()

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402
from django.db import transaction  # noqa: E402
from django.utils import timezone  # noqa: E402

from benchmarks.support.tournament_data import analyse, build, copy  # noqa: E402
from tournaments.caching import generations  # noqa: E402
from tournaments.models import Session, Tournament  # noqa: E402

REPEATS = 31
#: Untimed runs first: PostgreSQL's statements are prepared once a connection has run them
#: five times (``DATABASE_PREPARED_STATEMENTS``), so the first figures measured the planning
#: the later ones no longer pay.
WARM_UP = 5


def others_option(default: int = 20) -> int:
    if "--others" in sys.argv:
        return int(sys.argv[sys.argv.index("--others") + 1])
    return default


def median_ms(action) -> float:
    for n in range(WARM_UP):
        action(-1 - n)
    times = []
    for n in range(REPEATS):
        started = time.perf_counter()
        action(n)
        times.append(time.perf_counter() - started)
    return statistics.median(times) * 1000


def write_costs(tournament: Tournament) -> dict[str, float]:
    player = tournament.players.order_by("pk")[0]
    session = Session.objects.filter(stage__tournament=tournament).order_by("pk")[0]

    def nickname(n: int) -> None:
        with transaction.atomic():
            player.nickname = f"renamed-{n}"
            player.save(update_fields=["nickname"])

    def schedule(n: int) -> None:
        with transaction.atomic():
            session.scheduled_at = timezone.now()
            session.save(update_fields=["scheduled_at"])

    def bump(n: int) -> None:
        pending = generations._Pending()
        pending.lookups = {
            "registrations__player": {player.pk},
            "stages__sessions__seats__player": {player.pk},
        }
        generations.bump(*pending.slugs_to_bump())

    return {
        "nickname write": median_ms(nickname),
        "schedule write": median_ms(schedule),
        "cache bump alone": median_ms(bump),
    }


def measured(*args: str) -> dict[str, float]:
    helper = Path(__file__).resolve().parent / "support" / "measure_op.py"
    output = subprocess.run(
        [sys.executable, str(helper), *args],
        check=True,
        capture_output=True,
        text=True,
        env=ENVIRONMENT,
    ).stdout
    return json.loads(output.strip().splitlines()[-1])


def main() -> int:
    call_command("migrate", verbosity=0)
    for players in player_counts():
        measure_size(players, others_option())
    return 0


def measure_size(players: int, others: int) -> None:
    """The writes and bulk operations at one tournament size, with the goals' verdicts."""
    tournament = build(f"bench-{players}", players)
    copy(tournament, f"bench-{players}-newer")
    analyse()
    print(f"writes and bulk operations, {players} players ({describe()}; one process)")
    # Counted, not assumed: a database used before may hold more tournaments already.
    before = Tournament.objects.count() - 1
    few = write_costs(tournament)
    for n in range(1, others):
        copy(tournament, f"bench-{players}-other-{n}")
    analyse()
    count = Tournament.objects.count() - 1
    many = write_costs(tournament)
    print(
        f"{'write (median ms of ' + str(REPEATS) + ')':34} "
        f"{f'{before} others':>10} {f'{count} others':>11}"
    )
    for name in few:
        print(f"{name:34} {few[name]:10.2f} {many[name]:11.2f}")
    goals = [
        (f"the cache bump under 50 ms ({count} others)", many["cache bump alone"] < 50),
        (
            f"a write costs the same with {before} or {count} others (within 1.5x)",
            all(many[name] <= 1.5 * few[name] for name in few),
        ),
    ]
    if "--writes-only" not in sys.argv:
        goals += bulk_operations(tournament, players)
    for goal, met in goals:
        print(f"goal: {goal}: {'met' if met else 'NOT met'}")


def bulk_operations(tournament: Tournament, players: int) -> list[tuple[str, bool]]:
    """Export, import and start, each in its own process, printed; the goals (stated at
    2,187 players) for a tournament at least that large."""
    with tempfile.TemporaryDirectory() as folder:
        document = str(Path(folder) / "export.json")
        rows = {
            "export": measured("export", tournament.slug, document),
            "import": measured("import", document, f"bench-{players}-import"),
            "start (seat stage 1)": measured("advance", str(players)),
        }
    print(f"{'operation':24} {'seconds':>8} {'peak MiB':>9} {'queries':>8}")
    for name, row in rows.items():
        print(f"{name:24} {row['seconds']:8.2f} {row['peak_mib']:9.0f} {row['queries']:8d}")
    if players < 2187:
        return []
    export, imported, start = rows.values()
    return [
        ("export <= 5 s, under 300 MiB", export["seconds"] <= 5 and export["peak_mib"] < 300),
        (
            "import <= 20 s, under 300 MiB",
            imported["seconds"] <= 20 and imported["peak_mib"] < 300,
        ),
        ("start (seat and draw stage 1) <= 5 s", start["seconds"] <= 5),
    ]


if __name__ == "__main__":
    sys.exit(main())
