"""Honours show at once as pending until the stage closes; the final shows its podium."""

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from rules.engine.dice import SeededDice
from tests.factories import TournamentFactory, confirm_session, confirm_stage, register_players
from tournaments.actions.stage_advance import advance, start_tournament
from tournaments.models import Honour, Rank
from tournaments.queries.live_honours import (
    pending_counts,
    pending_honours,
)
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


def standings_pending(tournament) -> dict[int, int]:
    """The pending honours the standings count, by player id (players with any)."""
    return {
        row["player_id"]: row["pending_honours"]
        for row in compute_standings(tournament)["players"]
        if row["pending_honours"]
    }


def test_a_confirmed_session_winner_holds_a_pending_honour_and_rank(nine_players):
    session = nine_players.stages.get().sessions.order_by("number").first()
    winner = session.seats.order_by("-seat_order").first()
    assert pending_honours(nine_players) == []
    confirm_session(session, by_seat_order)
    pending = pending_honours(nine_players)
    assert [(p.session_id, p.session_number, p.player_id, p.squad) for p in pending] == [
        (session.pk, session.number, winner.player_id, winner.squad)
    ]
    assert pending[0].player_name == winner.player.display_name
    assert pending[0].stage_label == "Preliminary"
    assert pending[0].rank == Rank.ELITE_SQUAD
    assert pending[0].rank_label == "Elite Squad"
    assert pending_counts(pending) == {winner.player_id: 1}
    assert not Honour.objects.exists()


def test_the_stage_close_turns_pending_honours_into_honours(nine_players):
    stage = nine_players.stages.get()
    confirm_stage(stage, by_seat_order)
    assert len(pending_honours(nine_players)) == 3
    assert standings_pending(nine_players) == pending_counts(pending_honours(nine_players))
    advance(nine_players, SeededDice(seed=4))
    assert pending_honours(nine_players) == []
    assert standings_pending(nine_players) == {}
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


def honours_page(tournament) -> str:
    response = Client().get(reverse("tournaments:honours", args=[tournament.slug]))
    assert response.status_code == 200
    return response.content.decode()


def test_the_honours_page_lists_pending_then_awarded_honours_and_every_rank(nine_players):

    stage = nine_players.stages.get()
    session = stage.sessions.order_by("number").first()
    confirm_session(session, by_seat_order)
    winner = session.seats.order_by("-seat_order").first()
    assert standings_pending(nine_players) == {winner.player_id: 1}
    html = honours_page(nine_players)
    session_link = reverse("tournaments:session", args=[nine_players.slug, session.pk])
    player_link = reverse("tournaments:player", args=[nine_players.slug, winner.player_id])
    assert html.count('class="pending-honour-row"') == 1
    assert f'<a href="{session_link}">Preliminary · {session.number}</a>' in html
    assert f'<a href="{player_link}">{winner.player.display_name}</a>' in html
    winner_row = html[html.index(f'<tr><td><a href="{player_link}">') :]
    assert " → Elite Squad <span" in winner_row[: winner_row.index("</tr>")]
    assert html.count(" → ") == 1
    assert html.count("<tr><td><a href=") == 9  # every player's rank
    confirm_stage(stage, by_seat_order)
    advance(nine_players, SeededDice(seed=4))
    cache.clear()  # (the page's generation is bumped on commit, which a test never does)
    html = honours_page(nine_players)
    assert 'class="pending-honour-row"' not in html
    assert html.count(f'<a href="{player_link}">') == 2  # the honour and the rank


def test_the_public_player_page_shows_a_pending_honour_and_rank(nine_players):
    stage = nine_players.stages.get()
    session = stage.sessions.order_by("number").first()
    confirm_session(session, by_seat_order)
    winner = session.seats.order_by("-seat_order").first()
    loser = session.seats.order_by("seat_order").first()
    url = reverse("tournaments:player", args=[nine_players.slug, winner.player_id])
    html = Client().get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    session_link = reverse("tournaments:session", args=[nine_players.slug, session.pk])
    honours = html[html.index("<h3>Honours</h3>") :]
    assert f'<a href="{session_link}">Preliminary · {session.number}</a>' in honours
    assert "pending until the stage closes" in honours
    assert "No honour yet." not in honours
    assert "Marine Squad → Elite Squad" in html
    url = reverse("tournaments:player", args=[nine_players.slug, loser.player_id])
    html = Client().get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "pending until the stage closes" not in html
    assert "No honour yet." in html
