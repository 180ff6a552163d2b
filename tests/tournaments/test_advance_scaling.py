"""Seating a stage costs the same number of queries whatever the number of players: the
sessions, seats and squad ranks are written in bulk and the seating report reads the ranks
and seats once for the whole stage, not once per session."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from rules.engine.dice import SeededDice
from tests.factories import TournamentFactory, register_players
from tournaments.actions.session_setup import draw_squads
from tournaments.actions.stage_advance import start_tournament
from tournaments.models import (
    ActivityLog,
    ActivityVerb,
    DiceRoll,
    Registration,
    Seat,
    Session,
    SquadRank,
)

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


def _started(players: int, seed: int):
    tournament = TournamentFactory()
    register_players(tournament, players)
    with CaptureQueriesContext(connection) as queries:
        start_tournament(tournament, SeededDice(seed=seed))
    return tournament, len(queries)


def test_drawing_the_first_stage_squads_costs_the_same_queries_for_more_players():
    _tournament, small = _started(9, 4)
    _tournament, large = _started(45, 4)
    # SQLite splits a long bulk insert (the seating and draw dice) into batches.
    assert large <= small + 4


def _drawn(tournament) -> list:
    return [
        (seat.session.number, seat.seat_order, seat.squad.slug)
        for seat in Seat.objects.filter(session__stage__tournament=tournament)
        .select_related("session", "squad")
        .order_by("session__number", "seat_order")
    ]


def _draw_records(tournament) -> tuple[list, list, list]:
    """The draw's dice, activity entries and squad ranks, players named by their
    registration number (the two tournaments' player ids differ)."""
    number = dict(
        Registration.objects.filter(tournament=tournament).values_list("player_id", "number")
    )
    sessions = dict(
        Session.objects.filter(stage__tournament=tournament).values_list("pk", "number")
    )

    def players(mapping: dict) -> dict:
        return {number[int(player)]: value for player, value in mapping.items()}

    rolls = [
        (sessions[roll.session_id], roll.sequence, roll.purpose, roll.values, roll.source)
        for roll in DiceRoll.objects.filter(tournament=tournament, session__isnull=False).order_by(
            "pk"
        )
    ]
    entries = [
        (
            sessions[entry.details["session"]],
            entry.description_code,
            players(entry.details["assignments"]),
            players(entry.details["ranks_before"]),
            [
                {**transfer, "player": number[int(transfer["player"])]}
                for transfer in entry.details["rank_transfers"]
            ],
        )
        for entry in ActivityLog.objects.filter(
            tournament=tournament, verb=ActivityVerb.DREW_SQUADS
        ).order_by("pk")
    ]
    ranks = sorted(
        (number[player], squad, rank)
        for player, squad, rank in SquadRank.objects.filter(tournament=tournament).values_list(
            "player_id", "squad__slug", "rank"
        )
    )
    return rolls, entries, ranks


def test_the_bulk_stage_draw_stores_what_the_draw_session_by_session_stores():
    bulk, _count = _started(23, 7)
    single = TournamentFactory()
    register_players(single, 23)
    dice = SeededDice(seed=7)
    start_tournament(single, dice, draw_squads=False)
    for session in Session.objects.filter(stage__tournament=single).order_by("number"):
        draw_squads(session, dice, all_dice_used=False)
    assert _drawn(bulk) == _drawn(single)
    bulk_records, single_records = _draw_records(bulk), _draw_records(single)
    assert bulk_records == single_records
    rolls, entries, ranks = bulk_records
    assert rolls and len(ranks) == 23
    assert len(entries) == Session.objects.filter(stage__tournament=bulk).count()
    assert all(len(entry[3]) == len(entry[2]) for entry in entries)
    versions = [
        list(Session.objects.filter(stage__tournament=t).order_by("number").values_list("version"))
        for t in (bulk, single)
    ]
    assert versions[0] == versions[1]
