"""A result filled from a board game keeps the game and step it came from through export
and import (format version 7); an older document's results come from no game."""

import copy
from io import StringIO

import pytest
from django.core.management import call_command

from demo.management.commands.load_demo import DEMO_SLUG
from tests.interchange.test_roundtrip import empty_database
from tournaments.interchange.document import dumps
from tournaments.interchange.export import export_tournament
from tournaments.interchange.importer import check_document, import_document
from tournaments.models import ResultVersion, Tournament

pytestmark = pytest.mark.django_db


def versions(document: dict) -> list[dict]:
    return [
        version
        for stage in document["stages"]
        for session in stage["sessions"]
        if session.get("result")
        for version in session["result"]["versions"]
    ]


@pytest.fixture
def demo_document() -> dict:
    call_command("load_demo", stdout=StringIO())
    return export_tournament(Tournament.objects.get(slug=DEMO_SLUG))


def test_the_game_link_travels_with_the_result(demo_document):
    linked = [v for v in versions(demo_document) if v["game_number"] is not None]
    assert linked and all(v["game_number"] == 1 and v["game_step"] > 1 for v in linked)
    empty_database()
    tournament = import_document(copy.deepcopy(demo_document)).tournament
    stored = ResultVersion.objects.filter(
        result__session__stage__tournament=tournament, game_number__isnull=False
    )
    assert [(v.game_number, v.game_step) for v in stored] == [
        (v["game_number"], v["game_step"]) for v in linked
    ]
    assert dumps(export_tournament(tournament)) == dumps(demo_document)


def test_a_version_6_document_has_results_from_no_game(demo_document):
    old = copy.deepcopy(demo_document)
    old["format_version"] = 6
    for version in versions(old):
        del version["game_number"], version["game_step"]
    empty_database()
    assert check_document(old) == []
    tournament = import_document(old).tournament
    assert not ResultVersion.objects.filter(
        result__session__stage__tournament=tournament, game_number__isnull=False
    ).exists()
