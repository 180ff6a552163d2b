"""Migration 0008: each distinct table text of a tournament becomes one of its tables, and a
session "scheduled" without a table or a judge goes back to "planned"."""

from __future__ import annotations

import pytest

from tests.migration_steps import migrate_to, migrate_to_latest

BEFORE = [("tournaments", "0007_13_chapter_card_details")]
AFTER = [("tournaments", "0008_15_venue_tables")]


@pytest.mark.django_db(transaction=True)
def test_table_texts_become_the_tournaments_tables():
    old = migrate_to(BEFORE)
    tournament = old.get_model("tournaments", "Tournament").objects.create(name="T", slug="t")
    stage = old.get_model("tournaments", "Stage").objects.create(
        tournament=tournament, number=1, kind="preliminary"
    )
    user = old.get_model("auth", "User").objects.create(username="judge")
    session_model = old.get_model("tournaments", "Session")
    rows = [("Sala A", user, "scheduled"), ("Sala A", None, "scheduled"), ("", user, "scheduled")]
    for number, (table, judge, status) in enumerate(rows, start=1):
        session_model.objects.create(
            stage=stage, number=number, table=table, judge=judge, status=status
        )

    new = migrate_to(AFTER)
    tables = new.get_model("tournaments", "VenueTable").objects.filter(tournament_id=tournament.pk)
    assert list(tables.values_list("name", flat=True)) == ["Sala A"]
    sessions = new.get_model("tournaments", "Session").objects.order_by("number")
    assert [(s.table_id, s.status) for s in sessions] == [
        (tables.get().pk, "scheduled"),
        (tables.get().pk, "planned"),  # no judge
        (None, "planned"),  # no table
    ]
    migrate_to_latest()
