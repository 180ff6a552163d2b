"""Project-wide test fixtures.

Celery runs tasks in-process for every test unless the test is marked ``celery_worker``
(those talk to a real worker through Redis). The cache is emptied before each test so
rate limits and cached standings never leak between tests.
"""

import os

import pytest

# Tests read messages in English; a test about Italian activates it explicitly. Set before
# settings load so management-command subprocesses inherit it too.
os.environ["BOB_LANGUAGE"] = "en"

from bob.celery import app as celery_app  # noqa: E402


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
        from django.core.cache import cache

        cache.clear()
    yield
