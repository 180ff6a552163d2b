"""The export reads the rows that point at a stage or session (dice rolls, honours, score
bonuses, activity) without loading the stage again for each row (a stage carries its
qualifiers list, as long as the field: loaded per roll, the export's memory grew faster
than the tournament); its query count does not grow with them, and the references it
writes stay the same."""

import uuid

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tournaments.interchange.export import export_tournament
from tournaments.models import DiceRoll, Session, Stage

pytestmark = pytest.mark.django_db


def _queries(tournament) -> int:
    with CaptureQueriesContext(connection) as queries:
        export_tournament(tournament)
    return len(queries)


def _roll_more(tournament, count: int) -> None:
    session = Session.objects.filter(stage__tournament=tournament).order_by("pk").first()
    batch = uuid.uuid4()
    DiceRoll.objects.bulk_create(
        DiceRoll(
            tournament=tournament,
            stage=session.stage,
            session=session,
            batch=batch,
            sequence=sequence,
            purpose="test",
            kind="d6",
            values=[3],
            source="seeded",
        )
        for sequence in range(count)
    )


def test_more_dice_rolls_cost_no_more_queries(tournament):
    before = _queries(tournament)
    _roll_more(tournament, 25)
    assert _queries(tournament) == before


def test_only_the_stages_listing_reads_the_qualifiers(tournament):
    _roll_more(tournament, 5)
    with CaptureQueriesContext(connection) as queries:
        export_tournament(tournament)
    reading = [query["sql"] for query in queries.captured_queries if "qualifiers" in query["sql"]]
    assert len(reading) == 1
    assert "dice" not in reading[0]


def test_rolls_name_their_stage_and_session(tournament):
    _roll_more(tournament, 3)
    session = Session.objects.filter(stage__tournament=tournament).order_by("pk").first()
    stage = Stage.objects.get(pk=session.stage_id)
    rolls = [
        roll for roll in export_tournament(tournament)["dice_rolls"] if roll["purpose"] == "test"
    ]
    assert len(rolls) == 3
    assert {roll["stage"] for roll in rolls} == {stage.number}
    assert {tuple(roll["session"].items()) for roll in rolls} == {
        (("stage", stage.number), ("session", session.number))
    }
