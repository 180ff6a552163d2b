"""Migration 0022: the app's texts already stored in a result become codes; typed text stays."""

from __future__ import annotations

import pytest

from tests.migration_steps import migrate_to, migrate_to_latest

BEFORE = [("tournaments", "0021_resultversion_reason_code")]
AFTER = [("tournaments", "0022_stored_texts_as_codes")]


def _objectives(*labels: str) -> list[dict]:
    return [{"seat": "1", "objectives": [{"label": label, "points": 5} for label in labels]}]


@pytest.mark.django_db(transaction=True)
def test_known_texts_in_both_languages_become_codes_and_typed_text_stays():
    old = migrate_to(BEFORE)
    tournament = old.get_model("tournaments", "Tournament").objects.create(name="t", slug="t")
    stage = old.get_model("tournaments", "Stage").objects.create(
        tournament=tournament, number=1, kind="preliminary"
    )
    Version = old.get_model("tournaments", "ResultVersion")
    rows = {
        "italian": ("Versione 1 confermata.", ["Bandiera riportata all'artiglio d'attracco"]),
        "english": ("Confirmed version 1.", ["Flag brought home", "Obiettivo"]),
        "typed": ("Versione 1 confermata dal giudice", ["Bandiera nemica", "Objective"]),
        "wrong number": ("Confirmed version 7.", []),
    }
    made = {}
    for number, (name, (reason, labels)) in enumerate(rows.items(), start=1):
        session = old.get_model("tournaments", "Session").objects.create(stage=stage, number=number)
        result = old.get_model("tournaments", "Result").objects.create(session=session)
        made[name] = Version.objects.create(
            result=result,
            tournament=tournament,
            number=2,
            reason=reason,
            breakdown=_objectives(*labels),
        ).pk

    new = migrate_to(AFTER)
    stored = {
        version.pk: version
        for version in new.get_model("tournaments", "ResultVersion").objects.all()
    }

    def seen(name):
        version = stored[made[name]]
        labels = [o["label"] for seat in version.breakdown for o in seat["objectives"]]
        return version.reason, version.reason_code, labels

    assert seen("italian") == ("", "confirmed_previous", ["Flag brought home"])
    assert seen("english") == ("", "confirmed_previous", ["Flag brought home", "Objective"])
    assert seen("typed") == (
        "Versione 1 confermata dal giudice",
        "",
        ["Bandiera nemica", "Objective"],
    )
    assert seen("wrong number") == ("Confirmed version 7.", "", [])
    migrate_to_latest()
