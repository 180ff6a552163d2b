"""Migration 0020: the result versions already written get their session's tournament."""

from __future__ import annotations

import pytest

from tests.migration_steps import migrate_to, migrate_to_latest

BEFORE = [("tournaments", "0019_session_status_awaiting_time")]
AFTER = [("tournaments", "0020_resultversion_tournament")]


@pytest.mark.django_db(transaction=True)
def test_each_version_gets_its_sessions_tournament():
    old = migrate_to(BEFORE)
    versions = []
    for slug in ("first", "second"):
        tournament = old.get_model("tournaments", "Tournament").objects.create(name=slug, slug=slug)
        stage = old.get_model("tournaments", "Stage").objects.create(
            tournament=tournament, number=1, kind="preliminary"
        )
        session = old.get_model("tournaments", "Session").objects.create(stage=stage, number=1)
        result = old.get_model("tournaments", "Result").objects.create(session=session)
        for number in (1, 2):
            version = old.get_model("tournaments", "ResultVersion").objects.create(
                result=result, number=number
            )
            versions.append((version.pk, tournament.pk))

    new = migrate_to(AFTER)
    stored = dict(
        new.get_model("tournaments", "ResultVersion").objects.values_list("pk", "tournament_id")
    )
    assert stored == dict(versions)
    migrate_to_latest()
