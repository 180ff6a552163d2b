"""A tournament played through the real services (draw, results, stage closing) round-trips.

This guards the document against the formats the other services actually store: seat ids
in breakdowns, ranking and qualifier lists, dice subjects, honours and bonuses.
"""

from rules.engine.dice import SeededDice
from tests.factories import TournamentFactory, UserFactory, confirm_stage, register_players
from tests.interchange.test_roundtrip import empty_database
from tournaments.actions.stage_advance import advance, start_tournament
from tournaments.interchange.document import dumps, schema_problems
from tournaments.interchange.export import export_tournament
from tournaments.interchange.importer import check_document, import_document
from tournaments.models import ResultVersion, ScoreThreshold, Stage


def test_a_played_tournament_round_trips(db):
    organiser = UserFactory(username="org")
    tournament = TournamentFactory(slug="played")
    tournament.organisers.add(organiser)
    register_players(tournament, 9)
    start_tournament(tournament, SeededDice(seed=7), actor=organiser)
    stage = Stage.objects.get(tournament=tournament, number=1)
    ScoreThreshold.objects.create(stage=stage, points=25)
    confirm_stage(stage, lambda seat: 10 * seat.seat_order, actor=organiser)
    advance(tournament, SeededDice(seed=8), actor=organiser)

    document = export_tournament(tournament)
    assert schema_problems(document) == []
    assert check_document(document, check_slug=False) == []
    assert len(document["stages"]) == 2
    assert document["stages"][0]["qualifiers"]
    assert document["honours"] and document["dice_rolls"] and document["activity"]
    drew = next(entry for entry in document["activity"] if entry["verb"] == "drew_squads")
    assert drew["details"]["session"] == {"stage": 1, "session": 1}
    assert all(key.startswith("p") for key in drew["details"]["assignments"])
    closed = next(entry for entry in document["activity"] if entry["verb"] == "closed_stage")
    assert closed["details"]["qualifiers"] == document["stages"][0]["qualifiers"]
    before = dumps(document)

    empty_database()
    imported = import_document(document).tournament
    assert dumps(export_tournament(imported)) == before
    # The imported log points at the imported rows.
    entry = imported.activity.filter(verb="drew_squads").order_by("created_at", "pk").first()
    session = imported.stages.get(number=1).sessions.get(pk=entry.details["session"])
    assert session.number == 1
    seated = {str(pk) for pk in session.seats.values_list("player_id", flat=True)}
    assert set(entry.details["assignments"]) == seated
    # Each imported result version keeps its tournament (the data stamp reads it).
    versions = ResultVersion.objects.filter(result__session__stage__tournament=imported)
    assert versions.exists()
    assert set(versions.values_list("tournament_id", flat=True)) == {imported.pk}
