"""A stage's or session's map must be one the tournament can play: a map BoB ships or one
of the document's own maps (or none chosen yet). Older documents, written when the map was
free text, keep theirs."""

from __future__ import annotations

import copy

import pytest

from tests.web.test_organiser_maps import CLUB
from tournaments.interchange.importer import check_document, import_document
from tournaments.interchange.problems import InterchangeError
from tournaments.models import Tournament

SHIPPED = "flag-relay, hunt-derelict, reference, tpk-ring"


def fresh(document: dict) -> dict:
    doc = copy.deepcopy(document)
    doc["tournament"]["slug"] = "maps-copy"
    return doc


def found(document: dict) -> dict[str, str]:
    return {problem.path: problem.message for problem in check_document(document)}


def test_an_unknown_stage_map_is_refused_naming_the_known_ones(document):
    doc = fresh(document)
    doc["stages"][0]["map_name"] = "nonexistent-map"
    doc["stages"][0]["sessions"][1]["map_name"] = "Deck 3"
    problems = found(doc)
    assert problems == {
        "$.stages[0].map_name": 'there is no map called "nonexistent-map": use one BoB ships '
        f'({SHIPPED}), one of the document\'s own maps in $.maps (it has none), or "" for '
        "no map chosen yet",
        "$.stages[0].sessions[1].map_name": 'there is no map called "Deck 3": use one BoB '
        f"ships ({SHIPPED}), one of the document's own maps in $.maps (it has none), or "
        '"" for no map chosen yet',
    }
    with pytest.raises(InterchangeError):
        import_document(doc)
    assert not Tournament.objects.filter(slug="maps-copy").exists()


def test_the_documents_own_maps_and_no_map_are_accepted(document):
    doc = fresh(document)
    doc["maps"] = [{"name": "circolo-arena", "drawing": CLUB}]
    doc["stages"][0]["map_name"] = "circolo-arena"
    doc["stages"][0]["sessions"][0]["map_name"] = "circolo-arena"
    doc["stages"][1]["map_name"] = ""
    assert check_document(doc) == []
    doc["stages"][1]["map_name"] = "circolo"
    assert "own maps in $.maps (circolo-arena)" in found(doc)["$.stages[1].map_name"]


def test_an_older_document_keeps_its_free_text_map_names(document):
    """Before version 8 a stage's map was typed freely: such a document still reads."""
    old = fresh(document)
    old["format_version"] = 7
    del old["maps"]
    old["stages"][0]["map_name"] = "Deck 3"
    old["stages"][0]["sessions"][0]["map_name"] = "Deck 3"
    assert check_document(old) == []
    imported = import_document(old).tournament
    assert imported.stages.get(number=1).map_name == "Deck 3"
