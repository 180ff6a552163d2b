"""With DEBUG off a page that fails is logged, with its traceback, on the server's stderr
(bob/settings.py, LOGGING): the person running the event sees why, where before Gunicorn's
log showed only the access line. A page not found is not (the access log has it)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: A process with the production settings asks for a page that raises, then for one that
#: does not exist; it prints their statuses.
REQUESTS = """
import types
import django
django.setup()
from django.test import Client
from django.test.utils import override_settings
from django.urls import path

def fails(request):
    raise RuntimeError("the dice tower fell over")

import bob.urls

urls = types.ModuleType("failing_urls")
urls.urlpatterns = [path("fails/", fails), *bob.urls.urlpatterns]
# The error page's static files as a checkout has them (no collectstatic run: a clean
# clone), so the page renders whether or not the manifest exists.
plain_static = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
with override_settings(ROOT_URLCONF=urls, STORAGES=plain_static):
    client = Client(raise_request_exception=False)
    print(client.get("/fails/").status_code, client.get("/nowhere/").status_code)
"""


def _run(debug: str) -> subprocess.CompletedProcess:
    leave_out = {"DATABASE_URL", "REDIS_URL", "DJANGO_ALLOW_ASYNC_UNSAFE"}
    env = {key: value for key, value in os.environ.items() if key not in leave_out}
    env.update(
        DJANGO_SETTINGS_MODULE="bob.settings",
        DEBUG=debug,
        SECRET_KEY="error-logging-test-" + "s" * 40,
        ALLOWED_HOSTS="testserver",
        BOB_HTTPS="0",
    )
    return subprocess.run(
        [sys.executable, "-c", REQUESTS],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_a_failing_page_is_logged_with_its_traceback_when_debug_is_off():
    result = _run("0")
    assert result.stdout.split() == ["500", "404"], result.stderr
    log = result.stderr
    assert "ERROR django.request: Internal Server Error: /fails/" in log
    assert "Traceback (most recent call last):" in log
    assert ", in fails" in log  # the frame that raised
    assert "RuntimeError: the dice tower fell over" in log
    assert "/nowhere/" not in log


def test_with_debug_on_django_logs_the_failure_once():
    result = _run("1")
    assert result.stdout.split() == ["500", "404"], result.stderr
    assert result.stderr.count("RuntimeError: the dice tower fell over") == 1
