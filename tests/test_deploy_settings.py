"""The production settings: `check --deploy` finds nothing with DEBUG off, and no template
holds an inline script, inline style or event-handler attribute (the Content-Security-Policy
allows none: scripts and styles are files under static/), nor does htmx write one."""

from __future__ import annotations

import json
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


def test_htmx_copies_no_style_attribute_when_it_swaps():
    """htmx's settle step copies the listed attributes of an element it replaces onto the new
    one with the same id; a ``style`` (an empty one left on a field by a browser extension or
    a test tool's screenshot) would be refused by the policy, an error in the console (QA:
    saving a row of the organiser's schedule)."""
    base = (ROOT / "templates" / "base.html").read_text(encoding="utf-8")
    meta = re.search(r"<meta name=\"htmx-config\" content='([^']*)'>", base)
    assert meta, "base.html sets htmx's configuration in a meta element"
    config = json.loads(meta.group(1))
    assert config["includeIndicatorStyles"] is False and config["allowEval"] is False
    settled = config.get("attributesToSettle")
    assert settled is not None, "htmx's default settles style: list the attributes"
    assert "style" not in settled and "class" in settled
