"""Project-wide test fixtures.

Celery runs tasks in-process for every test unless the test is marked ``celery_worker``
(those talk to a real worker through Redis). The caches are emptied before each test so
rate limits and cached standings never leak between tests; without Redis the file cache is
a fresh directory of this test run, never the demo's ``var/cache`` nor another run's.

Under pytest-xdist (``make test`` runs ``-n auto``) each worker process is a run of its own:
pytest-django gives it its own test database (``test_postgres_gw1``; SQLite's is in memory),
the file cache directory above is made per process, and with Redis each worker moves the
cache, the Celery broker and the results to a Redis database of its own (see
``worker_redis_url``), so that a cache clear (``FLUSHDB``), a cached page of the same slug or a
task sent to a real worker never reaches another worker. Hypothesis keeps no example
database, so that workers never share one on disk.
"""

import os
import shutil
import tempfile
from urllib.parse import urlsplit, urlunsplit

import pytest
from django.conf import settings
from django.test.utils import override_settings
from hypothesis import settings as hypothesis_settings

from bob.settings import file_cache
from tests.browser import accessibility_report

# Tests read messages in English; a test about Italian activates it explicitly. Set before
# settings load so management-command subprocesses inherit it too.
os.environ["BOB_LANGUAGE"] = "en"

from bob.celery import app as celery_app  # noqa: E402

#: Redis has 16 numbered databases unless configured otherwise.
REDIS_DATABASES = 16

hypothesis_settings.register_profile("bob", database=None)
hypothesis_settings.load_profile("bob")


def worker_redis_url(url: str, worker: str) -> str:
    """The Redis URL of xdist worker ``worker`` (``gw0``, ``gw1``...; empty without xdist):
    ``gw0`` and a run without xdist keep the database of ``url``, each further worker takes
    the next one down (``/15`` gives 15, 14, 13...), so a shared Redis's low databases, the
    usual ones of development servers, are the last to be used."""
    index = int(worker.removeprefix("gw") or 0)
    if not url or index == 0:
        return url
    workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", index + 1))
    if workers > REDIS_DATABASES:
        raise pytest.UsageError(
            f"{workers} xdist workers but Redis has {REDIS_DATABASES} databases, one per "
            f"worker: run with -n {REDIS_DATABASES} or fewer"
        )
    parts = urlsplit(url)
    base = int(parts.path.strip("/") or 0)
    return urlunsplit(parts._replace(path=f"/{(base - index) % REDIS_DATABASES}"))


# Settings are loaded before this file, so the directory and the Redis URL are both set for
# this process and exported for the management commands the tests run in subprocesses.
_RUN_CACHE_DIR = "" if settings.REDIS_URL else tempfile.mkdtemp(prefix="bob-test-cache-")
if _RUN_CACHE_DIR:
    os.environ["BOB_CACHE_DIR"] = _RUN_CACHE_DIR
    override_settings(CACHES={**settings.CACHES, "default": file_cache(_RUN_CACHE_DIR)}).enable()
_WORKER_REDIS_URL = worker_redis_url(settings.REDIS_URL, os.environ.get("PYTEST_XDIST_WORKER", ""))
if settings.REDIS_URL and _WORKER_REDIS_URL != settings.REDIS_URL:
    os.environ["REDIS_URL"] = _WORKER_REDIS_URL
    override_settings(
        REDIS_URL=_WORKER_REDIS_URL,
        CELERY_BROKER_URL=_WORKER_REDIS_URL,
        CELERY_RESULT_BACKEND=_WORKER_REDIS_URL,
        CACHES={
            **settings.CACHES,
            "default": {**settings.CACHES["default"], "LOCATION": _WORKER_REDIS_URL},
        },
    ).enable()
    celery_app.conf.update(broker_url=_WORKER_REDIS_URL, result_backend=_WORKER_REDIS_URL)


_ACCESSIBILITY_FINDINGS: list[dict] = []


def pytest_runtest_logreport(report):
    if report.when == "call":
        _ACCESSIBILITY_FINDINGS.extend(accessibility_report.findings_of(report))


def pytest_sessionfinish(session):
    """Write the accessibility report of the run, once: not on an xdist worker, whose
    findings reach the controller with its test reports."""
    if _ACCESSIBILITY_FINDINGS and not hasattr(session.config, "workerinput"):
        accessibility_report.write(_ACCESSIBILITY_FINDINGS)


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
def _redis_tried_afresh():
    """No test starts in, or leaves behind, the cool-down after a Redis or a mail server
    failure."""
    from tournaments.actions.mail_server import mail_server
    from tournaments.caching.redis_cooldown import cooldown

    cooldown.reset()
    mail_server.reset()
    yield
    cooldown.reset()
    mail_server.reset()


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
