"""Every environment variable the settings read is in the README's configuration table, so
whoever runs an event finds each one (README, "Configuration")."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

READ = re.compile(r'(?:env_bool|env_list|env_number|environ\.get)\(\s*"([A-Z][A-Z0-9_]+)"')
#: Read by libraries rather than by a call of our own: dj_database_url, Gunicorn.
READ_ELSEWHERE = {"DATABASE_URL", "FORWARDED_ALLOW_IPS"}


def _read() -> set[str]:
    names = set(READ_ELSEWHERE)
    for path in ("bob/settings.py", "gunicorn.conf.py"):
        names |= set(READ.findall((ROOT / path).read_text(encoding="utf-8")))
    return names


def _documented() -> set[str]:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    table = readme.split("## Configuration (environment variables)", 1)[1].split("\n## ", 1)[0]
    rows = [line.split("|")[1] for line in table.splitlines() if line.startswith("| `")]
    return {name for row in rows for name in re.findall(r"`([A-Z][A-Z0-9_]+)`", row)}


def test_every_variable_the_settings_read_is_documented():
    read = _read()
    assert {"EMAIL_HOST", "CONN_MAX_AGE", "WEB_TIMEOUT", "BOB_HTTPS"} <= read  # the regex works
    assert sorted(read - _documented()) == []


def test_nothing_documented_is_not_read():
    assert sorted(_documented() - _read() - {"PORT"}) == []  # PORT: compose.yaml's
