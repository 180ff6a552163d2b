"""Seating a stage costs the same number of queries whatever the number of players: the
sessions, seats and squad ranks are written in bulk and the seating report reads the ranks
and seats once for the whole stage, not once per session."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from rules.engine.dice import SeededDice
from tests.factories import TournamentFactory, register_players
from tournaments.actions.stage_advance import start_tournament
from tournaments.models import Seat, SquadRank

pytestmark = pytest.mark.django_db


def _seat(players: int) -> tuple[int, dict, object]:
    tournament = TournamentFactory()
    register_players(tournament, players)
    with CaptureQueriesContext(connection) as queries:
        report = start_tournament(tournament, SeededDice(seed=4), draw_squads=False)
    return len(queries), report, tournament


def test_seating_the_first_stage_costs_the_same_queries_for_more_players():
    small, _report, _tournament = _seat(9)
    large, _report, _tournament = _seat(45)
    # SQLite splits a long bulk insert (the seating dice) into batches: a query or two more.
    assert large <= small + 2


def test_the_seating_report_lists_every_seat_in_order_with_its_rank():
    _count, report, tournament = _seat(12)
    assert SquadRank.objects.filter(tournament=tournament).count() == 12
    for entry in report["sessions"]:
        seats = Seat.objects.filter(
            session__stage__tournament=tournament, session__number=entry["number"]
        ).order_by("seat_order")
        assert [player["player_id"] for player in entry["players"]] == [
            seat.player_id for seat in seats
        ]
        assert all(player["rank"] == 0 for player in entry["players"])
        assert all(player["squad"] is None for player in entry["players"])
