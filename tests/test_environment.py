"""The project's own set-up: settings from the environment, services, deploy checks."""

import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection

from tests.conftest import services_required

ROOT = Path(__file__).resolve().parent.parent


def run_manage(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess:
    # A production process inherits nothing of the test run's own switches.
    leave_out = {"DATABASE_URL", "REDIS_URL", "DJANGO_ALLOW_ASYNC_UNSAFE", "BOB_LANGUAGE"}
    base = {k: v for k, v in os.environ.items() if k not in leave_out}
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env={**base, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_production_configuration_passes_check_deploy():
    result = run_manage(
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        env={
            "DEBUG": "0",
            "SECRET_KEY": secrets.token_urlsafe(60),
            "ALLOWED_HOSTS": "bob.example.org",
            "DATABASE_URL": "postgres://bob@db.example.org/bob",
            "REDIS_URL": "redis://cache.example.org:6379/0",
        },
    )
    assert result.returncode == 0, result.stderr + result.stdout
    assert "no issues" in result.stdout


def test_production_without_secret_key_refuses_to_start():
    result = run_manage("check", env={"DEBUG": "0", "SECRET_KEY": ""})
    assert result.returncode != 0
    assert "SECRET_KEY must be set" in result.stderr


def test_embedded_default_is_sqlite_with_in_process_tasks():
    code = (
        "import django, os; os.environ['DJANGO_SETTINGS_MODULE']='bob.settings'; django.setup();"
        "from django.conf import settings as s;"
        "print(s.DATABASES['default']['ENGINE'], s.CELERY_TASK_ALWAYS_EAGER,"
        " s.CACHES['default']['BACKEND'])"
    )
    base = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=base, capture_output=True, text=True
    )
    assert out.returncode == 0, out.stderr
    engine, eager, cache = out.stdout.split()
    assert engine == "django.db.backends.sqlite3"
    assert eager == "True"
    assert cache.endswith("FileBasedCache")


def test_redis_url_switches_celery_and_cache_to_redis():
    code = (
        "import django, os; os.environ['DJANGO_SETTINGS_MODULE']='bob.settings'; django.setup();"
        "from django.conf import settings as s;"
        "print(s.CELERY_BROKER_URL, s.CELERY_TASK_ALWAYS_EAGER, s.CACHES['default']['BACKEND'])"
    )
    env = {**os.environ, "REDIS_URL": "redis://127.0.0.1:1/3"}
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert out.returncode == 0, out.stderr
    broker, eager, cache = out.stdout.split()
    assert broker == "redis://127.0.0.1:1/3"
    assert eager == "False"
    assert cache.endswith("RedisCache")


@pytest.mark.services
@pytest.mark.django_db
def test_services_are_really_there_under_make_test():
    """Under `make test` the PostgreSQL and Redis tests run for real: never skipped."""
    if not services_required():
        pytest.skip("outside `make test` (BOB_REQUIRE_SERVICES unset)")
    assert connection.vendor == "postgresql"
    assert settings.REDIS_URL
    from django.core.cache import cache

    cache.set("bob-ping", "pong", 5)
    assert cache.get("bob-ping") == "pong"
