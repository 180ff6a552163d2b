"""One bulk operation timed in a process of its own, so its peak memory is its own:
``python measure_op.py export SLUG FILE`` | ``import FILE SLUG`` | ``advance PLAYERS``.
Prints JSON: seconds, the process's peak resident memory (MiB, Django's own included) and
the number of database queries. The environment comes from the calling benchmark."""

from __future__ import annotations

import json
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent.parent))

import django  # noqa: E402

django.setup()

from django.db import connection  # noqa: E402

from rules.engine.dice import SeededDice  # noqa: E402
from tournaments.actions.stage_advance import advance  # noqa: E402
from tournaments.interchange.export import export_tournament  # noqa: E402
from tournaments.interchange.importer import import_document, read_document  # noqa: E402
from tournaments.models import Tournament  # noqa: E402


def main() -> None:
    operation, *args = sys.argv[1:]
    queries = 0

    def count(execute, sql, params, many, context):
        nonlocal queries
        queries += 1
        return execute(sql, params, many, context)

    if operation == "advance":
        from benchmarks.support.tournament_data import register

        tournament = register(f"bench-advance-{args[0]}", int(args[0]))
    elif operation == "import":
        Tournament.objects.filter(slug=args[1]).delete()
    with connection.execute_wrapper(count):
        started = time.perf_counter()
        if operation == "export":
            document = export_tournament(Tournament.objects.get(slug=args[0]))
            Path(args[1]).write_text(json.dumps(document), encoding="utf-8")
        elif operation == "import":
            import_document(read_document(args[0]), slug=args[1])
        elif operation == "advance":
            advance(tournament, SeededDice(seed=1))
        else:
            raise SystemExit(f"unknown operation {operation!r}")
        seconds = time.perf_counter() - started
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps({"seconds": seconds, "peak_mib": peak, "queries": queries}))


if __name__ == "__main__":
    main()
