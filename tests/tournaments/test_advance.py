"""The tournament path through the DB services and the ``advance`` command."""

import json
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from tests.factories import TournamentFactory, confirm_stage, register_players
from tournaments.models import (
    DiceRoll,
    Honour,
    Seat,
    SquadRank,
    StageKind,
    StageStatus,
)
from tournaments.queries.standings import compute_standings

pytestmark = pytest.mark.django_db


def run_advance(slug: str, *args: str) -> dict:
    out = StringIO()
    call_command("advance", slug, *args, stdout=out)
    return json.loads(out.getvalue())


def by_pk(seat: Seat) -> int:
    return seat.player_id


@pytest.mark.parametrize("seating", ["random", "seeded"])
def test_nine_players_from_registration_to_podium(seating):
    tournament = TournamentFactory(seating_method=seating)
    players = register_players(tournament, 9)

    started = run_advance(tournament.slug, "--seed", "11")
    assert started["action"] == "started"
    stage1 = tournament.stages.get(number=1)
    assert stage1.kind == StageKind.PRELIMINARY
    assert [s.seats.count() for s in stage1.sessions.order_by("number")] == [3, 3, 3]
    # §3: every session has three distinct squads, all drawn.
    for session in stage1.sessions.all():
        assert session.seats.filter(squad__isnull=False).count() == 3
    # Random seating rolls (recorded); seeded keeps registration order and, with distinct
    # first choices in each session, needs no dice at all.
    rolled = DiceRoll.objects.filter(tournament=tournament, stage=stage1).exists()
    assert rolled == (seating == "random")

    confirm_stage(stage1, by_pk)
    semis = run_advance(tournament.slug, "--seed", "12")
    assert semis["action"] == "advanced"
    assert semis["closed_stage"]["qualifier_count"] == 6
    stage1.refresh_from_db()
    assert stage1.status == StageStatus.CLOSED
    assert len(stage1.qualifiers) == 6
    stage2 = tournament.stages.get(number=2)
    assert stage2.kind == StageKind.SEMIFINAL
    assert [s.seats.count() for s in stage2.sessions.order_by("number")] == [3, 3]
    # No two players from the same preliminary session meet in a semifinal.
    prelim_seats = Seat.objects.filter(session__stage=stage1)
    origin = {seat.player_id: seat.session_id for seat in prelim_seats}
    for session in stage2.sessions.all():
        sources = [origin[pid] for pid in session.seats.values_list("player_id", flat=True)]
        assert len(set(sources)) == 3
    # Three session winners earned an honour and Elite rank.
    assert Honour.objects.filter(tournament=tournament).count() == 3
    assert SquadRank.objects.filter(tournament=tournament, rank=1).count() == 3

    confirm_stage(stage2, by_pk)
    final = run_advance(tournament.slug, "--seed", "13")
    assert final["closed_stage"]["qualifier_count"] == 3
    stage3 = tournament.stages.get(number=3)
    assert stage3.kind == StageKind.FINAL
    finalists = sorted(stage3.sessions.get().seats.values_list("player_id", flat=True))
    # Both semifinal winners plus the best runner-up by points.
    semifinal_seats = [
        sorted(s.seats.values_list("player_id", flat=True), reverse=True)
        for s in stage2.sessions.all()
    ]
    winners = [seats[0] for seats in semifinal_seats]
    runner_up = max(seats[1] for seats in semifinal_seats)
    assert finalists == sorted([*winners, runner_up])

    confirm_stage(stage3, by_pk)
    done = run_advance(tournament.slug, "--seed", "14")
    assert done["action"] == "finished"
    expected = sorted(finalists, reverse=True)
    assert [place["player_id"] for place in done["podium"]] == expected
    standings = compute_standings(tournament)
    assert standings["tournament"]["status"] == "finished"
    assert [row["player_id"] for row in standings["players"][:3]] == expected
    assert [p["player_id"] for p in standings["podium"]] == expected
    assert sum(1 for row in standings["players"] if row["eliminated_in_stage"] == 2) == 3
    assert {p.pk for p in players} >= set(expected)

    with pytest.raises(CommandError) as error:
        call_command("advance", tournament.slug, stdout=StringIO())
    assert error.value.returncode == 2
    assert "finished" in str(error.value)


@pytest.mark.parametrize(
    ("count", "stage_sizes"),
    [
        (3, [[3]]),
        (4, [[2, 2], [3]]),
        (5, [[3, 2], [3]]),
        (10, [[3, 3, 2, 2], [3, 3], [3]]),
        (12, [[3, 3, 3, 3], [3, 3], [3]]),
        (18, [[3, 3, 3, 3, 3, 3], [3, 3, 3], [3, 3], [3]]),
        (27, [[3] * 9, [3, 3, 3, 3], [3, 3], [3]]),
    ],
)
def test_stage_progression(count, stage_sizes):
    tournament = TournamentFactory()
    register_players(tournament, count)
    run_advance(tournament.slug, "--seed", "1")
    seen = []
    for number in range(1, len(stage_sizes) + 1):
        stage = tournament.stages.get(number=number)
        seen.append([s.seats.count() for s in stage.sessions.order_by("number")])
        assert stage.kind == (
            StageKind.FINAL
            if number == len(stage_sizes)
            else StageKind.PRELIMINARY
            if number == 1
            else StageKind.SEMIFINAL
            if number == len(stage_sizes) - 1
            else StageKind.INTERMEDIATE
        )
        confirm_stage(stage, by_pk)
        report = run_advance(tournament.slug, "--seed", str(number + 1))
        # Every session of every stage holds distinct squads.
        for session in stage.sessions.all():
            squads = list(session.seats.values_list("squad_id", flat=True))
            assert None not in squads and len(set(squads)) == len(squads)
    assert seen == stage_sizes
    assert report["action"] == "finished"
    assert len(report["podium"]) == min(3, stage_sizes[-1][0])


@pytest.mark.parametrize("seating", ["seeded", "random"])
def test_all_tied_tournament_is_settled_by_recorded_dice(seating):
    tournament = TournamentFactory(seating_method=seating)
    register_players(tournament, 9)
    run_advance(tournament.slug, "--seed", "21")
    for number in (1, 2, 3):
        stage = tournament.stages.get(number=number)
        confirm_stage(stage, lambda seat: 10)
        for session in stage.sessions.all():
            # The session ranking's three-way tie was rolled off when the result was entered.
            assert DiceRoll.objects.filter(session=session, purpose__contains="tie").exists()
        report = run_advance(tournament.slug, "--seed", str(30 + number))
        rolls = DiceRoll.objects.filter(tournament=tournament, seed=str(30 + number))
        assert rolls.count() == len(report["dice"]["rolls"])
        seating_rolls = [r for r in rolls if r.purpose_code in ("seeding_tie", "random_seating")]
        if number == 1:
            # Tied qualifiers are seeded (or seated at random) by a recorded roll-off.
            assert seating_rolls
        elif number == 2:
            # The final's one table is seated by seed, ties in registration order, no die
            # (decision 21).
            assert not seating_rolls
            final = tournament.stages.get(number=3).sessions.get()
            seated = list(final.seats.order_by("seat_order").values_list("player_id", flat=True))
            numbers = dict(tournament.registrations.values_list("player_id", "number"))
            winners = seated[:2]  # the semifinals' winners, then the best runner-up
            assert winners == sorted(winners, key=numbers.get)
    assert report["action"] == "finished"
    assert [place["position"] for place in report["podium"]] == [1, 2, 3]
