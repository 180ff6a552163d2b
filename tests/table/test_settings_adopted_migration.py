"""Table migration 0007: a step that adopted the session's settings, stored as text in
either language, keeps its summary as the ``settings_adopted`` part; other steps stay."""

from __future__ import annotations

import pytest

from tests.migration_steps import migrate_to, migrate_to_latest

TOURNAMENTS = ("tournaments", "0022_stored_texts_as_codes")
BEFORE = [("rules", "0006_alienturnrequest_event_card"), TOURNAMENTS]
AFTER = [("rules", "0007_settings_adopted_as_parts"), TOURNAMENTS]


@pytest.mark.django_db(transaction=True)
def test_adopted_settings_steps_in_both_languages_become_parts():
    old = migrate_to(BEFORE)
    tournament = old.get_model("tournaments", "Tournament").objects.create(name="T", slug="t")
    stage = old.get_model("tournaments", "Stage").objects.create(
        tournament=tournament, number=1, kind="preliminary"
    )
    session = old.get_model("tournaments", "Session").objects.create(stage=stage, number=1)
    game = old.get_model("rules", "Game").objects.create(session=session, number=1, map_name="m")
    rows = [
        (
            "La partita ora usa le impostazioni attuali della sessione.",
            "Impostazioni riprese dalla sessione (stipulazione, materiale degli alieni, "
            "dati delle regole).",
        ),
        (
            "The game now plays the session's current settings.",
            "Settings adopted from the session (stipulation, aliens' material, rules data).",
        ),
        ("Marine p1-1 tolto dal tabellone.", "ucciso da un colpo"),
    ]
    snapshots = old.get_model("rules", "Snapshot")
    for number, (summary, reason) in enumerate(rows, start=1):
        snapshots.objects.create(
            game=game, number=number, kind="judge_edit", summary=summary, reason=reason, state={}
        )

    new = migrate_to(AFTER)
    stored = new.get_model("rules", "Snapshot").objects.order_by("number")
    assert [(s.summary_parts, s.reason) for s in stored] == [
        ([["settings_adopted", {}]], ""),
        ([["settings_adopted", {}]], ""),
        ([], "ucciso da un colpo"),
    ]
    migrate_to_latest()
