"""The production settings: `check --deploy` finds nothing with DEBUG off, and no template
holds an inline script, inline style or event-handler attribute (the Content-Security-Policy
allows none: scripts and styles are files under static/)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)[^>]*>", re.IGNORECASE)
INLINE_STYLE = re.compile(r"<style\b|\sstyle=", re.IGNORECASE)
EVENT_HANDLER = re.compile(r"\son[a-z]+=|hx-on|javascript:", re.IGNORECASE)


def test_check_deploy_is_clean_with_debug_off():
    env = {
        **os.environ,
        "DEBUG": "0",
        "SECRET_KEY": "a-production-like-secret-key-" + "x" * 40,
        "ALLOWED_HOSTS": "bob.example.org",
    }
    for variable in ("DJANGO_SETTINGS_MODULE", "DJANGO_ALLOW_ASYNC_UNSAFE"):  # test-only
        env.pop(variable, None)
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_no_template_has_inline_script_or_style():
    found = []
    for path in sorted((ROOT / "templates").rglob("*.html")):
        text = path.read_text(encoding="utf-8")
        for pattern in (INLINE_SCRIPT, INLINE_STYLE, EVENT_HANDLER):
            found += [f"{path.relative_to(ROOT)}: {match}" for match in pattern.findall(text)]
    assert not found, "move these into static/ files:\n" + "\n".join(found)
