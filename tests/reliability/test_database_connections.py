"""Kept database connections (CONN_MAX_AGE above 0) that the server closed meanwhile
(PostgreSQL restarted, a connection terminated) are replaced before a request uses them:
the next requests answer, none with a 500 (they did without CONN_HEALTH_CHECKS)."""

from __future__ import annotations

import pytest
from django.db import connection

from tests.reliability.stack import get, web_server

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
