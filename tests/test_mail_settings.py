"""Mail is set up from the environment (bob/settings.py): an SMTP server when EMAIL_HOST is
set, with its port, account and TLS or SSL; the console (mails only logged) otherwise; a
clear refusal of TLS and SSL together."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

READ = """
import json, django
django.setup()
from django.conf import settings as s
from django.core.mail import get_connection
connection = get_connection()
print(json.dumps({
    "backend": s.EMAIL_BACKEND,
    "host": getattr(connection, "host", None),
    "port": getattr(connection, "port", None),
    "user": getattr(connection, "username", None),
    "password": getattr(connection, "password", None),
    "tls": getattr(connection, "use_tls", None),
    "ssl": getattr(connection, "use_ssl", None),
    "timeout": getattr(connection, "timeout", None),
    "from": s.DEFAULT_FROM_EMAIL,
    "site": s.BOB_SITE_URL,
}))
"""

MAIL_VARIABLES = {
    "EMAIL_BACKEND",
    "EMAIL_HOST",
    "EMAIL_PORT",
    "EMAIL_HOST_USER",
    "EMAIL_HOST_PASSWORD",
    "EMAIL_USE_TLS",
    "EMAIL_USE_SSL",
    "EMAIL_TIMEOUT",
    "DEFAULT_FROM_EMAIL",
    "BOB_SITE_URL",
}


def _settings(**variables: str) -> subprocess.CompletedProcess:
    leave_out = {"DATABASE_URL", "REDIS_URL", "DJANGO_ALLOW_ASYNC_UNSAFE", *MAIL_VARIABLES}
    env = {key: value for key, value in os.environ.items() if key not in leave_out}
    env.update(DJANGO_SETTINGS_MODULE="bob.settings", **variables)
    return subprocess.run(
        [sys.executable, "-c", READ], cwd=ROOT, env=env, capture_output=True, text=True
    )


def test_without_email_host_mails_are_only_logged():
    result = _settings()
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["backend"].endswith("console.EmailBackend")


def test_email_host_and_the_rest_make_an_smtp_connection():
    result = _settings(
        EMAIL_HOST="smtp.example.org",
        EMAIL_PORT="587",
        EMAIL_HOST_USER="bob@example.org",
        EMAIL_HOST_PASSWORD="s3cret",
        EMAIL_USE_TLS="1",
        DEFAULT_FROM_EMAIL="BoB <bob@example.org>",
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == {
        "backend": "django.core.mail.backends.smtp.EmailBackend",
        "host": "smtp.example.org",
        "port": 587,
        "user": "bob@example.org",
        "password": "s3cret",
        "tls": True,
        "ssl": False,
        "timeout": 10,
        "from": "BoB <bob@example.org>",
        "site": "",
    }


def test_an_explicit_backend_wins():
    result = _settings(
        EMAIL_HOST="smtp.example.org", EMAIL_BACKEND="django.core.mail.backends.dummy.EmailBackend"
    )
    assert json.loads(result.stdout)["backend"].endswith("dummy.EmailBackend")


def test_tls_and_ssl_together_are_refused_with_what_to_do():
    result = _settings(EMAIL_HOST="smtp.example.org", EMAIL_USE_TLS="1", EMAIL_USE_SSL="1")
    assert result.returncode != 0
    assert "EMAIL_USE_TLS and EMAIL_USE_SSL are both on: set one of them" in result.stderr


def test_a_port_that_is_not_a_number_is_named():
    result = _settings(EMAIL_HOST="smtp.example.org", EMAIL_PORT="submission")
    assert result.returncode != 0
    assert "EMAIL_PORT must be a whole number, not 'submission'" in result.stderr


def test_the_site_address_of_the_mails_links_is_kept_without_its_final_slash():
    assert json.loads(_settings().stdout)["site"] == ""
    result = _settings(BOB_SITE_URL="https://bob.example.org/ ")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["site"] == "https://bob.example.org"


def test_a_site_address_without_its_scheme_is_refused_saying_what_to_write():
    result = _settings(BOB_SITE_URL="bob.example.org")
    assert result.returncode != 0
    assert "BOB_SITE_URL must be the address the players open" in result.stderr
    assert "https://bob.example.org" in result.stderr
