"""Dice purposes travel with their code and params (format version 2); version 1 documents,
which have neither, still import and show their stored purpose text."""

import copy

import pytest

from tournaments.domain.roll_purposes import roll_purpose_label
from tournaments.interchange.document import FORMAT_VERSION, dumps
from tournaments.interchange.export import export_tournament
from tournaments.interchange.importer import check_document, import_document
from tournaments.models import DiceRoll

pytestmark = pytest.mark.django_db


def version_1(document: dict) -> dict:
    """``document`` as BoB wrote it before the purpose codes."""
    old = copy.deepcopy(document)
    old["format_version"] = 1
    for roll in old["dice_rolls"]:
        del roll["purpose_code"], roll["purpose_params"]
    for entry in old["activity"]:
        del entry["description_code"], entry["description_params"]
    return old


def test_export_writes_purpose_codes_and_import_keeps_them(document):
    assert document["format_version"] == FORMAT_VERSION
    rolls = document["dice_rolls"]
    assert (rolls[0]["purpose_code"], rolls[0]["purpose_params"]) == (
        "squad_choice",
        {"choice": 1, "squad": "blood-angels"},
    )
    assert rolls[4]["purpose_code"] == "shot"
    assert (rolls[5]["purpose_code"], rolls[5]["purpose_params"]) == ("", {})
    imported = import_document(document, slug="bob-copy").tournament
    stored = DiceRoll.objects.filter(tournament=imported)
    shot = stored.get(purpose_code="shot")
    assert shot.purpose_params == {"attacker": "figure-7", "weapon": "lascannon", "target": "a1"}
    assert roll_purpose_label(shot) == "figure-7 fires the lascannon at a1"
    exported = export_tournament(imported)
    assert [
        (roll["purpose"], roll["purpose_code"], roll["purpose_params"])
        for roll in exported["dice_rolls"]
    ] == [(roll["purpose"], roll["purpose_code"], roll["purpose_params"]) for roll in rolls]


def test_a_version_1_document_imports_with_its_purposes_as_text(document):
    old = version_1(document)
    before = dumps(old)
    assert check_document(old, slug="bob-old") == []
    tournament = import_document(old, slug="bob-old").tournament
    assert dumps(old) == before  # the caller's document is left as it was
    stored = DiceRoll.objects.filter(tournament=tournament).order_by("created_at", "sequence")
    assert all(roll.purpose_code == "" and roll.purpose_params == {} for roll in stored)
    assert [roll_purpose_label(roll) for roll in stored] == [
        roll["purpose"] for roll in old["dice_rolls"]
    ]
    # Exported again, it is a document of the current version.
    assert export_tournament(tournament)["format_version"] == FORMAT_VERSION


def test_purpose_fields_are_checked_by_the_schema(document):
    document["dice_rolls"][0]["purpose_code"] = "Squad Choice!"
    document["dice_rolls"][2]["purpose_params"] = "choice 1"
    del document["dice_rolls"][3]["purpose_code"]
    paths = [problem.path for problem in check_document(document, check_slug=False)]
    assert paths == [
        "$.dice_rolls[0].purpose_code",
        "$.dice_rolls[2].purpose_params",
        "$.dice_rolls[3]",
    ]
