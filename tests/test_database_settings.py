"""The database settings a deployment gets from the environment: on PostgreSQL, statements a
process runs again and again are prepared (planned once per connection), unless
DATABASE_PREPARED_STATEMENTS=0 (a pooler in transaction mode); the embedded SQLite has none
of it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.db import connection

from tests.tournaments.test_concurrency import require_postgresql

ROOT = Path(__file__).resolve().parent.parent


def _options(**environ: str) -> dict:
    """The default database's OPTIONS as bob.settings builds them from ``environ``."""
    env = {**os.environ, "DEBUG": "1", **environ}
    env.pop("DJANGO_SETTINGS_MODULE", None)
    script = (
        "import json, os; os.environ['DJANGO_SETTINGS_MODULE'] = 'bob.settings'; "
        "from django.conf import settings; "
        "print(json.dumps(settings.DATABASES['default'].get('OPTIONS', {})))"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_postgresql_prepares_statements_unless_told_not_to():
    url = "postgres://bob@127.0.0.1:5432/bob"
    prepared = {"server_side_binding": True, "prepare_threshold": 5}
    assert prepared.items() <= _options(DATABASE_URL=url).items()
    assert _options(DATABASE_URL=url, DATABASE_PREPARED_STATEMENTS="0").keys().isdisjoint(prepared)
    assert _options(DATABASE_URL="sqlite:////tmp/bob.sqlite3").keys().isdisjoint(prepared)


@pytest.mark.services
@pytest.mark.django_db
def test_a_statement_run_five_times_is_prepared_on_its_connection():
    require_postgresql()
    statement = "SELECT count(*) FROM tournaments_tournament WHERE slug = %s"
    with connection.cursor() as cursor:
        for _ in range(6):
            cursor.execute(statement, ["nowhere"])
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        prepared = [row[0] for row in cursor.fetchall()]
    assert any("tournaments_tournament WHERE slug = $1" in text for text in prepared), prepared
