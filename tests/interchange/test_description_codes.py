"""Activity entries travel with their description code and params (format version 3);
version 2 documents, which have neither, still import and show their stored text."""

import copy

import pytest
from django.utils import translation

from tests.interchange.test_roundtrip import empty_database
from tournaments.actions.activity_log import describe, log_activity
from tournaments.interchange.document import FORMAT_VERSION, dumps
from tournaments.interchange.export import export_tournament
from tournaments.interchange.importer import check_document, import_document
from tournaments.models import ActivityLog, ActivityVerb
from tournaments.queries.activity_descriptions import entry_description

pytestmark = pytest.mark.django_db


@pytest.fixture
def coded(tournament):
    """The rich tournament with entries written through the services' descriptions."""
    session = tournament.stages.get(number=1).sessions.get(number=1)
    with translation.override("it"):
        log_activity(
            tournament,
            ActivityVerb.UPDATED,
            describe("threshold_added", points=30, session=session),
            session=session.pk,
            threshold=30,
        )
        log_activity(tournament, ActivityVerb.CLOSED_STAGE, describe("stage", stage=session.stage))
    return export_tournament(tournament)


def version_2(document: dict) -> dict:
    """``document`` as BoB wrote it before the description codes."""
    old = copy.deepcopy(document)
    old["format_version"] = 2
    for entry in old["activity"]:
        del entry["description_code"], entry["description_params"]
    return old


def test_export_writes_description_codes_and_the_round_trip_keeps_them(coded):
    assert coded["format_version"] == FORMAT_VERSION == 12
    *_earlier, threshold, stage = coded["activity"]
    assert threshold["description_code"] == "threshold_added"
    preliminary = {"tournament": "BoB Milano 2025", "kind": "preliminary", "number": 1}
    assert threshold["description_params"] == {
        "points": 30,
        "session": {"stage": preliminary, "number": 1},
    }
    assert threshold["object_description"] == (
        "score threshold 30 added to BoB Milano 2025 – Preliminary (1) – session 1"
    )
    assert (stage["description_code"], stage["description_params"]) == (
        "stage",
        {"stage": preliminary},
    )
    assert coded["activity"][0]["description_code"] == ""
    before = dumps(coded)

    empty_database()
    imported = import_document(coded).tournament
    assert dumps(export_tournament(imported)) == before
    entry = ActivityLog.objects.get(tournament=imported, description_code="threshold_added")
    with translation.override("it"):
        assert entry_description(entry) == (
            "soglia di punteggio 30 aggiunta a BoB Milano 2025 – Fase Preliminare (1) – sessione 1"
        )


def test_a_version_2_document_imports_with_its_descriptions_as_text(coded):
    old = version_2(coded)
    before = dumps(old)
    assert check_document(old, slug="bob-old") == []
    tournament = import_document(old, slug="bob-old").tournament
    assert dumps(old) == before  # the caller's document is left as it was
    stored = ActivityLog.objects.filter(tournament=tournament).order_by("created_at", "pk")
    assert all(entry.description_code == "" and entry.description_params == {} for entry in stored)
    with translation.override("it"):
        assert [entry_description(entry) for entry in stored] == [
            entry["object_description"] for entry in old["activity"]
        ]
    assert export_tournament(tournament)["format_version"] == FORMAT_VERSION


def test_an_unknown_code_or_params_that_do_not_fit_import_and_show_the_text(coded):
    coded["activity"][-2]["description_params"]["points"] = "thirty"
    coded["activity"][-1]["description_code"] = "stage_renamed"
    assert check_document(coded, slug="bob-odd") == []
    tournament = import_document(coded, slug="bob-odd").tournament
    *_earlier, threshold, stage = ActivityLog.objects.filter(tournament=tournament).order_by(
        "created_at", "pk"
    )
    assert entry_description(threshold) == threshold.object_description
    assert (stage.description_code, entry_description(stage)) == (
        "stage_renamed",
        stage.object_description,
    )


def test_description_fields_are_checked_by_the_schema(coded):
    coded["activity"][0]["description_code"] = "Threshold Added!"
    coded["activity"][1]["description_params"] = ["points", 30]
    del coded["activity"][2]["description_code"]
    paths = [problem.path for problem in check_document(coded, check_slug=False)]
    assert paths == [
        "$.activity[0].description_code",
        "$.activity[1].description_params",
        "$.activity[2]",
    ]
