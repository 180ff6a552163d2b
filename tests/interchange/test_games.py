"""The board's games travel with the tournament document (format version 4), and a text the
database cannot store (NUL) is a problem with its path, never a crash."""

import copy
import json
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from table.models import AlienTurnRequest, Game, TurnStatus
from tests.interchange.test_roundtrip import empty_database
from tournaments.interchange.document import dumps
from tournaments.interchange.export import export_tournament
from tournaments.interchange.importer import check_document, import_document
from tournaments.interchange.problems import json_path


def test_the_export_holds_every_game_snapshot_and_turn_request(document):
    (game,) = document["games"]
    assert game["session"] == {"stage": 2, "session": 1}
    assert [snapshot["kind"] for snapshot in game["snapshots"]] == [
        "setup",
        "alien_turn",
        "alien_turn",
    ]
    statuses = [request["status"] for request in game["turn_requests"]]
    assert sorted(statuses) == ["done", "done", "failed", "pending"]
    done = [request for request in game["turn_requests"] if request["status"] == "done"]
    assert sorted(request["snapshot"] for request in done) == [2, 3]


def test_games_come_back_after_export_and_import(document):
    empty_database()
    tournament = import_document(copy.deepcopy(document)).tournament
    game = Game.objects.get(session__stage__tournament=tournament)
    assert game.snapshots.count() == 3
    assert game.latest().state == document["games"][0]["snapshots"][-1]["state"]
    requests = {str(request.pk): request for request in AlienTurnRequest.objects.all()}
    for data in document["games"][0]["turn_requests"]:
        request = requests[data["id"]]
        assert request.status == data["status"]
        assert (request.snapshot.number if request.snapshot else None) == data["snapshot"]
    pending = AlienTurnRequest.objects.get(status=TurnStatus.PENDING)
    assert pending.queued_at is not None
    assert dumps(export_tournament(tournament)) == dumps(document)


def test_a_version_3_document_imports_with_no_games(document):
    old = copy.deepcopy(document)
    old["format_version"] = 3
    del old["games"]
    empty_database()
    tournament = import_document(old).tournament
    assert export_tournament(tournament)["games"] == []


def test_game_problems_are_listed_with_their_paths(document):
    doc = copy.deepcopy(document)
    game = doc["games"][0]
    game["session"] = {"stage": 2, "session": 9}
    game["snapshots"][1]["number"] = 7
    game["snapshots"][2]["restored_from"] = 3
    del game["snapshots"][0]["state"]["figures"][0]["squares"]
    game["turn_requests"][0]["snapshot"] = 12
    doc["tournament"]["slug"] = "other"
    paths = {problem.path for problem in check_document(doc)}
    assert {
        "$.games[0].session.session",
        "$.games[0].snapshots[1].number",
        "$.games[0].snapshots[2].restored_from",
        "$.games[0].snapshots[0].state",
        "$.games[0].turn_requests[0].snapshot",
    } <= paths


@pytest.mark.parametrize(
    "place",
    [
        ("tournament", "name"),
        ("players", 0, "name"),
        ("activity", 0, "object_description"),
        ("games", 0, "snapshots", 0, "summary"),
        ("games", 0, "snapshots", 0, "state", "players", 0, "squad"),
    ],
)
def test_a_nul_anywhere_is_a_problem_with_its_path_and_exit_status_2(document, tmp_path, place):
    doc = copy.deepcopy(document)
    doc["tournament"]["slug"] = "copy"
    target = doc
    for part in place[:-1]:
        target = target[part]
    target[place[-1]] = "bad\u0000text"
    path = tmp_path / "nul.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    err = StringIO()
    with pytest.raises(CommandError) as error:
        call_command("import_tournament", str(path), stderr=err)
    assert error.value.returncode == 2
    assert f"{json_path(place)}: the text contains the NUL character" in err.getvalue()
    assert not Game.objects.filter(session__stage__tournament__slug="copy").exists()


def test_a_nul_in_a_key_is_reported_too(document):
    doc = copy.deepcopy(document)
    doc["tournament"]["data_overrides"] = {"units\u0000": {}}
    problems = check_document(doc, check_slug=False)
    assert any(
        problem.path == "$.tournament.data_overrides" and "NUL" in problem.message
        for problem in problems
    )
