"""Project-wide test fixtures.

Celery runs tasks in-process for every test unless the test is marked ``celery_worker``
(those talk to a real worker through Redis). The caches are emptied before each test so
rate limits and cached standings never leak between tests; without Redis the file cache is
a fresh directory of this test run, never the demo's ``var/cache`` nor another run's.
"""

import os
import shutil
import tempfile

import pytest
from django.conf import settings
from django.test.utils import override_settings

from bob.settings import file_cache

# Tests read messages in English; a test about Italian activates it explicitly. Set before
# settings load so management-command subprocesses inherit it too.
os.environ["BOB_LANGUAGE"] = "en"

from bob.celery import app as celery_app  # noqa: E402

# Settings are loaded before this file, so the directory is both set for this process and
# exported for the management commands the tests run in subprocesses.
_RUN_CACHE_DIR = "" if settings.REDIS_URL else tempfile.mkdtemp(prefix="bob-test-cache-")
if _RUN_CACHE_DIR:
    os.environ["BOB_CACHE_DIR"] = _RUN_CACHE_DIR
    override_settings(CACHES={**settings.CACHES, "default": file_cache(_RUN_CACHE_DIR)}).enable()


def pytest_unconfigure(config):
    if _RUN_CACHE_DIR:
        shutil.rmtree(_RUN_CACHE_DIR, ignore_errors=True)


def services_required() -> bool:
    """True under `make test`: PostgreSQL and Redis must be there, never skipped."""
    return bool(os.environ.get("BOB_REQUIRE_SERVICES"))


@pytest.fixture(autouse=True)
def _english_by_default(settings):
    settings.LANGUAGE_CODE = "en"
    from django.utils import translation

    with translation.override("en"):
        yield


@pytest.fixture(autouse=True)
def _celery_in_process(request):
    if request.node.get_closest_marker("celery_worker"):
        yield
        return
    saved = (celery_app.conf.task_always_eager, celery_app.conf.task_eager_propagates)
    celery_app.conf.task_always_eager = True
    celery_app.conf.task_eager_propagates = True
    yield
    celery_app.conf.task_always_eager, celery_app.conf.task_eager_propagates = saved


@pytest.fixture(autouse=True)
def _empty_cache(request):
    if "django_db_setup" in request.fixturenames or request.node.get_closest_marker("django_db"):
        from django.core.cache import caches

        for alias in settings.CACHES:
            caches[alias].clear()
    yield


@pytest.fixture
def commits_at_once(monkeypatch):
    """``on_commit`` callbacks run at once while the only open transaction is the test's
    own, as they do in production where a view runs in autocommit (a task queued after
    commit then runs in-process before the view answers)."""
    import logging

    from django.db.backends.base.base import BaseDatabaseWrapper

    queue = BaseDatabaseWrapper.on_commit

    def on_commit(self, func, robust=False):
        if not all(getattr(block, "_from_testcase", False) for block in self.atomic_blocks):
            return queue(self, func, robust)
        try:
            func()
        except Exception:
            if not robust:
                raise
            logging.getLogger("tests").exception("on_commit callback failed")

    monkeypatch.setattr(BaseDatabaseWrapper, "on_commit", on_commit)
