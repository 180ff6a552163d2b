"""Export, import into an empty database, export again: the same document, byte for byte."""

import json

import pytest
from django.contrib.auth import get_user_model
from jsonschema import Draft202012Validator

from tests.interchange.factories import without_unique_ids
from tournaments.domain.scoring import session_totals, totals_key
from tournaments.interchange.document import FORMAT_VERSION, dumps, schema, schema_problems
from tournaments.interchange.export import export_tournament
from tournaments.interchange.importer import check_document, import_document
from tournaments.models import (
    Honour,
    Player,
    ResultVersion,
    Session,
    SquadRank,
    Tournament,
)
from tournaments.queries.result_versions import scoring_values


def empty_database() -> None:
    """Remove every tournament, player and user (squads are protected: their users first)."""
    Honour.objects.all().delete()
    SquadRank.objects.all().delete()
    Session.objects.all().delete()
    Tournament.objects.all().delete()
    Player.objects.all().delete()
    get_user_model().objects.all().delete()


def test_schema_is_valid_draft_2020_12():
    Draft202012Validator.check_schema(schema())
    assert schema()["properties"]["format_version"] == {"const": FORMAT_VERSION}


def test_export_validates_against_the_schema(document):
    assert schema_problems(document) == []
    assert check_document(document, check_slug=False) == []
    Draft202012Validator(schema()).validate(document)


def test_export_has_no_database_ids_and_uses_document_player_ids(document, tournament):
    players = {player["id"]: player for player in document["players"]}
    assert list(players) == [f"p{n}" for n in range(1, 10)] + ["x1"]
    assert players["x1"]["number"] is None
    assert players["p1"]["user"] == "mario"
    prelim = document["stages"][0]
    assert prelim["qualifiers"] == ["p2", "p1", "p4", "p5", "p7", "p8"]
    versions = prelim["sessions"][0]["result"]["versions"]
    assert [version["number"] for version in versions] == [1, 2, 3]
    assert versions[2]["ranking"] == ["p2", "p1", "p3"]
    assert versions[0]["breakdown"][0]["seat"] == "p1"
    assert versions[0]["breakdown"][0]["kills"][0]["victim"] == "p2"
    assert versions[0]["breakdown"][0]["losses"][0]["killer"] == "p3"
    assert versions[0]["breakdown"][0]["losses"][1]["killer"] is None
    rolls = document["dice_rolls"]
    assert [roll["subject_player"] for roll in rolls[:3]] == ["p1", "p2", "p3"]
    assert rolls[3]["purpose"] == "best runner-up roll-off"
    assert rolls[4]["subject"] == "figure-7" and rolls[4]["subject_player"] is None
    assert document["tournament"]["judges"] == ["judge-anna", "judge.bruno"]
    # No primary key of any row appears as a value anywhere in the document.
    text = dumps(document)
    assert '"pk"' not in text and '"id": 1' not in text


def test_export_import_export_is_byte_identical(document):
    before = dumps(document)
    empty_database()
    outcome = import_document(json.loads(before))
    after = dumps(export_tournament(outcome.tournament))
    assert after == before


def test_import_creates_missing_users_without_usable_passwords(document):
    empty_database()
    existing = get_user_model().objects.create_user("organiser", password="kept-password-1")
    outcome = import_document(document)
    assert outcome.created_users == ["judge-anna", "judge.bruno", "mario"]
    users = {user.username: user for user in get_user_model().objects.all()}
    assert not users["judge-anna"].has_usable_password()
    assert not users["mario"].has_usable_password()
    assert users["organiser"].pk == existing.pk
    assert users["organiser"].check_password("kept-password-1")


def test_result_versions_survive_with_their_history(document):
    empty_database()
    tournament = import_document(document).tournament
    session = tournament.stages.get(number=1).sessions.get(number=1)
    versions = list(ResultVersion.objects.filter(result__session=session).order_by("number"))
    assert [(v.number, v.confirmed) for v in versions] == [(1, False), (2, True), (3, True)]
    seated = {seat.player.name: seat.player_id for seat in session.seats.all()}
    assert versions[2].ranking == [seated["Player 2"], seated["Player 1"], seated["Player 3"]]
    assert versions[2].breakdown[0]["seat"] == str(seated["Player 1"])
    # Each imported version carries its seats' totals, scored with the imported values.
    key = totals_key(scoring_values(tournament))
    assert {v.totals_key for v in versions} == {key}
    assert all(
        v.totals == session_totals(v.breakdown, scoring_values(tournament)) for v in versions
    )
    assert set(versions[2].totals) == {str(pk) for pk in seated.values()}


@pytest.mark.django_db
def test_import_under_another_slug_keeps_the_original(document):
    copy = import_document(document, slug="bob-copy").tournament
    assert Tournament.objects.filter(slug__in=["bob-2025", "bob-copy"]).count() == 2
    exported = export_tournament(copy)
    exported["tournament"]["slug"] = document["tournament"]["slug"]
    # The copy's dice batches get fresh ids (batch ids are unique in a database) but keep
    # their grouping; everything else is identical.
    old_batches = [roll["batch"] for roll in document["dice_rolls"]]
    new_batches = [roll["batch"] for roll in exported["dice_rolls"]]
    assert not set(old_batches) & set(new_batches)
    assert len(set(new_batches)) == len(set(old_batches))
    assert dumps(without_unique_ids(exported)) == dumps(without_unique_ids(document))
