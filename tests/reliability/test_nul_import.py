"""`import_tournament` on PostgreSQL (which stores no NUL character): a document with
``\\u0000`` in any text is refused with the text's JSON path and exit status 2, no
traceback, nothing written."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.interchange.factories import rich_tournament
from tests.reliability.stack import ROOT
from tournaments.interchange.export import export_tournament
from tournaments.models import Tournament

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def test_a_nul_in_a_document_is_a_clean_problem(stack_env, tmp_path):
    document = export_tournament(rich_tournament())
    document["tournament"]["slug"] = "with-nul"
    document["players"][2]["name"] = "Mario\u0000Rossi"
    document["games"][0]["snapshots"][0]["summary"] = "\u0000"
    path = tmp_path / "nul.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "manage.py", "import_tournament", str(path)],
        cwd=ROOT,
        env=stack_env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr
    lines = result.stderr.splitlines()
    assert any(line.startswith("$.players[2].name: the text contains the NUL") for line in lines)
    assert any(line.startswith("$.games[0].snapshots[0].summary: the text") for line in lines)
    assert not Tournament.objects.filter(slug="with-nul").exists()
