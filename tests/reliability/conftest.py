"""Fixtures of the fault tests: real PostgreSQL and Redis (skipped without them, except
under ``make test``, where they must run), the static files collected once, a directory
for the worker's markers and the mailbox."""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection

from tests.conftest import services_required
from tests.reliability.stack import collect_static, environment


def require_services() -> None:
    missing = []
    if connection.vendor != "postgresql":
        missing.append("PostgreSQL (DATABASE_URL)")
    if not settings.REDIS_URL:
        missing.append("Redis (REDIS_URL)")
    if not missing:
        return
    message = "the fault tests need " + " and ".join(missing)
    if services_required():
        pytest.fail(message + ": `make test` provides them")
    pytest.skip(message + "; they run under `make test`")


@pytest.fixture(scope="session")
def static_root(tmp_path_factory, django_db_setup, django_db_blocker) -> Path:
    """The static files, collected once as `make serve` does (hashed, compressed)."""
    require_services()
    root = tmp_path_factory.mktemp("static") / "static"
    with django_db_blocker.unblock():
        collect_static(environment(settings.REDIS_URL, root))
    return root


@pytest.fixture
def stack_env(static_root, tmp_path) -> dict[str, str]:
    """The processes' environment: this test's database and the Redis of the run, mails
    written as files into ``BOB_TEST_MAILBOX``, cache keys and heartbeats of this test's own
    (a worker of an earlier test is not one of this test's)."""
    mailbox = tmp_path / "mailbox"
    mailbox.mkdir()
    return environment(
        settings.REDIS_URL,
        static_root,
        EMAIL_BACKEND="tests.reliability.mailbox.FileMailbox",
        BOB_TEST_MAILBOX=str(mailbox),
        CACHE_KEY_PREFIX=f"bob-reliability-{uuid.uuid4().hex[:12]}",
    )
