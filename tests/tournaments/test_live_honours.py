"""Honours show at once as pending until the stage closes; the final shows its podium."""

import pytest

from rules.engine.dice import SeededDice
from tests.factories import TournamentFactory, confirm_session, confirm_stage, register_players
from tournaments.actions.stage_advance import advance, start_tournament
from tournaments.models import Honour, Rank
from tournaments.queries.live_honours import pending_counts, pending_honours
from tournaments.queries.pages import final_podium, tournament_sessions
from tournaments.queries.standings import compute_standings

pytestmark = pytest.mark.django_db


def by_seat_order(seat) -> int:
    return 10 * seat.seat_order


@pytest.fixture
def nine_players():
    tournament = TournamentFactory()
    register_players(tournament, 9)
    start_tournament(tournament, SeededDice(seed=3))
    return tournament


def test_a_confirmed_session_winner_holds_a_pending_honour_and_rank(nine_players):
    session = nine_players.stages.get().sessions.order_by("number").first()
    winner = session.seats.order_by("-seat_order").first()
    assert pending_honours(nine_players) == []
    confirm_session(session, by_seat_order)
    pending = pending_honours(nine_players)
    assert [(p.session, p.player, p.squad) for p in pending] == [
        (session, winner.player, winner.squad)
    ]
    assert pending[0].rank == Rank.ELITE_SQUAD
    assert pending[0].rank_label == "Elite Squad"
    assert pending_counts(pending) == {winner.player_id: 1}
    assert not Honour.objects.exists()


def test_the_stage_close_turns_pending_honours_into_honours(nine_players):
    stage = nine_players.stages.get()
    confirm_stage(stage, by_seat_order)
    assert len(pending_honours(nine_players)) == 3
    advance(nine_players, SeededDice(seed=4))
    assert pending_honours(nine_players) == []
    assert Honour.objects.filter(tournament=nine_players).count() == 3


def test_the_final_shows_a_podium_not_three_qualifiers(final_session):
    tournament = final_session.stage.tournament
    assert final_podium(tournament_sessions(tournament)) == []
    confirm_stage(final_session.stage, by_seat_order)
    sessions = tournament_sessions(tournament)
    podium = final_podium(sessions)
    expected = list(final_session.seats.order_by("-seat_order").values_list("player", flat=True))
    assert [line.seat.player_id for line in podium] == expected
    assert [line.podium for line in podium] == [1, 2, 3]
    assert not any(line.qualified for entry in sessions for line in entry.seats)
    advance(tournament, SeededDice(seed=1))
    standings = compute_standings(tournament)
    final_seats = standings["stages"][-1]["sessions"][0]["seats"]
    assert not any(seat["qualified"] for seat in final_seats)
    assert [place["player_id"] for place in standings["podium"]] == expected
