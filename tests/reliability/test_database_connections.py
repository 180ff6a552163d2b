"""Kept database connections (CONN_MAX_AGE above 0) that the server closed meanwhile
(PostgreSQL restarted, a connection terminated) are replaced before a request uses them:
the next requests answer, none with a 500 (they did without CONN_HEALTH_CHECKS). So with
PostgreSQL itself restarted under a running server."""

from __future__ import annotations

import subprocess
import sys

import pytest
from django.db import connection

from tests.reliability.stack import ROOT, PostgresServer, get, health, web_server

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def _terminate_the_servers_connections() -> int:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
        return cursor.fetchone()[0]


def test_kept_connections_closed_by_the_server_are_replaced(stack_env):
    env = {**stack_env, "CONN_MAX_AGE": "60"}
    with web_server(env, workers=1) as base:
        assert get(base + "/")[0] == 200  # the web process now keeps a connection
        assert _terminate_the_servers_connections() >= 1
        statuses = [get(base + "/")[0] for _ in range(5)]
    assert statuses == [200] * 5


def test_a_postgresql_restarted_under_the_server_fails_no_request_after(stack_env):
    """/healthz reads the database on every request and is never cached: the server kept
    its connection across the restart and must replace it, not answer 503 (or a page 500)."""
    postgres = PostgresServer().start()
    try:
        env = {**stack_env, "DATABASE_URL": postgres.url, "CONN_MAX_AGE": "600"}
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "--no-input", "-v", "0"],
            cwd=ROOT,
            env=env,
            check=True,
            capture_output=True,
            timeout=300,
        )
        with web_server(env, workers=1) as base:
            assert health(base)[1]["database"]["status"] == "ok"
            postgres.restart()
            after = [health(base) for _ in range(5)]
            pages = [get(base + "/accounts/login/")[0] for _ in range(3)]
    finally:
        postgres.stop()
    assert [status for status, _report in after] == [200] * 5, after
    assert {report["database"]["status"] for _status, report in after} == {"ok"}
    assert pages == [200] * 3
