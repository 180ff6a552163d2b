"""The environment every database benchmark runs in, and the one line saying what it is.

With ``DATABASE_URL`` / ``REDIS_URL`` given (``make bench DATABASE_URL=... REDIS_URL=...``)
the benchmarks use that PostgreSQL database and Redis; otherwise the embedded default: a
throwaway SQLite file and file cache in a temporary directory. The database is only ever
the one given: the benchmarks add their own tournaments (slugs ``bench-...``) to it.
"""

from __future__ import annotations

import importlib.util
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
_WORKDIR: tempfile.TemporaryDirectory | None = None


def _production_defaults() -> dict[str, str]:
    """What ``make serve`` runs every part with unless set (``scripts/serve.py``), so the
    benchmarks' server is the production one."""
    spec = importlib.util.spec_from_file_location("serve", ROOT / "scripts" / "serve.py")
    assert spec is not None and spec.loader is not None
    serve = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(serve)
    return serve.DEFAULTS


def configure(settings_module: str = "bob.settings") -> dict[str, str]:
    """Set the process's environment for Django (before ``django.setup()``); returns the
    environment a server or helper process started from here should get too."""
    global _WORKDIR
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    if not os.environ.get("DATABASE_URL"):
        if "BOB_BENCH_DIR" not in os.environ:
            _WORKDIR = tempfile.TemporaryDirectory(prefix="bob-bench-")
            os.environ["BOB_BENCH_DIR"] = _WORKDIR.name
        workdir = Path(os.environ["BOB_BENCH_DIR"])
        os.environ["DATABASE_URL"] = f"sqlite:///{workdir / 'bench.sqlite3'}"
        os.environ["BOB_CACHE_DIR"] = str(workdir / "cache")
        os.environ["REDIS_URL"] = ""
    os.environ.update(
        {
            "DJANGO_SETTINGS_MODULE": settings_module,
            "DEBUG": "0",
            "SECRET_KEY": "benchmark-only-secret-key-not-for-production-use-0123456789",
            "ALLOWED_HOSTS": "127.0.0.1",
            "SECURE_SSL_REDIRECT": "0",
            "CONN_MAX_AGE": _production_defaults()["CONN_MAX_AGE"],
        }
    )
    return dict(os.environ)


def describe(shared_cache: bool = True) -> str:
    """Which database and cache, for the benchmark's first line of output (``shared_cache``
    False: the database only, for a benchmark whose caches keep nothing)."""
    url = os.environ.get("DATABASE_URL", "")
    database = "PostgreSQL" if url.startswith("postgres") else "SQLite (embedded default)"
    if not shared_cache:
        return f"database: {database}; every cache keeping nothing"
    redis = os.environ.get("REDIS_URL")
    cache = (
        f"Redis ({redis.rsplit('/', 1)[-1] and 'db ' + redis.rsplit('/', 1)[-1]})"
        if redis
        else ("file cache (embedded default)")
    )
    return f"database: {database}; shared cache: {cache}"


def player_counts(default: tuple[int, ...] = (243, 2187)) -> list[int]:
    """The tournament sizes to measure, in order: ``--players N[,M...]`` or
    ``BENCH_PLAYERS`` (``make bench BENCH_PLAYERS=243``, sizes separated by spaces or
    commas), else ``default``: the two sizes the goals of issue 17 are stated at."""
    given = ""
    for index, arg in enumerate(sys.argv):
        if arg == "--players" and index + 1 < len(sys.argv):
            given = sys.argv[index + 1]
    given = given or os.environ.get("BENCH_PLAYERS", "")
    counts = [int(part) for part in given.replace(",", " ").split()]
    return counts or list(default)
