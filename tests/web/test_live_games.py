"""A session being played is shown as such, not as the next one, and its game on the judge's
board is followed from the public pages: the session page, the tournament home and the
player's own page link the spectators' page, which links back to the session."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.test import Client, TestCase
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from rules.engine.dice import ScriptedDice
from table.actions import create_game
from tests.table.conftest import seat_squads
from tests.web.conftest import World, as_player, build_world
from tournaments.actions.session_setup import run_initiative
from tournaments.models import Session, SessionStatus
from tournaments.queries.home_page import home_sessions
from tournaments.queries.pages import (
    schedule_sessions,
    tournament_sessions,
    upcoming_sessions,
    with_live_games,
)
from tournaments.queries.player_overview import next_games

pytestmark = pytest.mark.django_db


@pytest.fixture
def world() -> World:
    """Every session of the first stage scheduled, the first one's squads drawn."""
    world = build_world()
    start = timezone.now() + timedelta(hours=1)
    for number, session in enumerate(world.stage.sessions.order_by("number")):
        Session.objects.filter(pk=session.pk).update(scheduled_at=start + timedelta(hours=number))
    world.session.refresh_from_db()
    seat_squads(world)
    return world


def started_on_the_board(world: World) -> int:
    """The first session's game begun on the board (twice: the latest is followed), the
    writes committed as in a request (the tournament's cache generation bumped: the home
    reads the standings, which are cached by it)."""
    with TestCase.captureOnCommitCallbacks(execute=True):
        create_game(world.session, "hunt-derelict", "bob", actor=world.judge)
        return create_game(world.session, "hunt-derelict", "bob", actor=world.judge).number


def watch_url(world: World, number: int) -> str:
    return reverse("table:watch", args=[world.session.pk, number])


def page(client: Client, name: str, *args) -> str:
    response = client.get(reverse(name, args=args))
    assert response.status_code == 200
    return response.content.decode()


def test_a_session_being_played_is_not_listed_as_upcoming(world):
    before = home_sessions(world.tournament, latest=3, upcoming=5)
    assert world.session.pk in [entry.session.pk for entry in before.upcoming]
    assert before.playing == [] and before.playing_count == 0
    number = started_on_the_board(world)
    home = home_sessions(world.tournament, latest=3, upcoming=5)
    assert world.session.pk not in [entry.session.pk for entry in home.upcoming]
    assert [(entry.session.pk, entry.live_game) for entry in home.playing] == [
        (world.session.pk, number)
    ]
    assert home.playing_count == 1
    whole = tournament_sessions(world.tournament)
    assert world.session.pk not in [entry.session.pk for entry in upcoming_sessions(whole)]
    with_live_games(whole)
    assert [entry.live_game for entry in whole if entry.session.pk == world.session.pk] == [number]


def test_only_the_pages_linking_the_game_read_the_board(world, role_client):
    """The schedules and the dispute page list sessions being played without their game:
    reading every session's sessions does not read the board's games."""
    started_on_the_board(world)

    def game_reads(read) -> int:
        with CaptureQueriesContext(connection) as queries:
            read()
        return sum('"rules_game"' in query["sql"] for query in queries.captured_queries)

    assert game_reads(lambda: tournament_sessions(world.tournament)) == 0
    assert game_reads(lambda: schedule_sessions(world.tournament)) == 0
    schedule = reverse("tournaments:organiser_schedule", args=[world.tournament.slug])
    organiser = role_client("organiser")
    assert game_reads(lambda: organiser.get(schedule)) == 0
    assert game_reads(lambda: home_sessions(world.tournament, latest=3, upcoming=5)) == 1


def test_a_session_started_without_a_board_game_is_in_progress_with_no_link(world):
    session = world.session
    run_initiative(
        session, ScriptedDice([6, 5, 4]), actor=world.judge, expected_version=session.version
    )
    [playing] = home_sessions(world.tournament, latest=3, upcoming=5).playing
    assert (playing.session.pk, playing.in_progress, playing.live_game) == (session.pk, True, None)
    html = page(Client(), "tournaments:tournament", world.tournament.slug)
    assert 'data-testid="sessions-playing"' in html
    assert 'data-testid="live-game"' not in html


def test_a_game_begun_after_the_initiative_shows_on_the_cached_home_at_once(
    world, django_capture_on_commit_callbacks
):
    """The initiative already put the session in play: each new game on the board still
    changes the tournament's cached pages, which link the latest game."""
    session = world.session
    with django_capture_on_commit_callbacks(execute=True):
        run_initiative(
            session, ScriptedDice([6, 5, 4]), actor=world.judge, expected_version=session.version
        )
    home = page(Client(), "tournaments:tournament", world.tournament.slug)
    assert 'data-testid="sessions-playing"' in home and 'data-testid="live-game"' not in home
    for number in (1, 2):
        with django_capture_on_commit_callbacks(execute=True):
            create_game(session, "hunt-derelict", "bob", actor=world.judge)
        home = page(Client(), "tournaments:tournament", world.tournament.slug)
        assert f'href="{watch_url(world, number)}"' in home
        assert "Follow the game live" in home


def test_the_public_pages_link_the_game_being_played(world, client):
    number = started_on_the_board(world)
    assert Session.objects.get(pk=world.session.pk).status == SessionStatus.IN_PROGRESS
    live = f'href="{watch_url(world, number)}"'
    session_page = page(client, "tournaments:session", world.tournament.slug, world.session.pk)
    assert live in session_page and "Follow the game live" in session_page
    assert 'data-testid="in-progress"' in session_page
    home = page(client, "tournaments:tournament", world.tournament.slug)
    playing = home[home.index('data-testid="sessions-playing"') :]
    playing, upcoming = playing.split("Next sessions", 1)
    session_path = reverse("tournaments:session", args=[world.tournament.slug, world.session.pk])
    assert live in playing and 'data-testid="in-progress"' in playing
    assert f'href="{session_path}"' in playing
    assert f'href="{session_path}"' not in upcoming
    # The spectators' page leads back to the session and the tournament.
    watch = client.get(watch_url(world, number)).content.decode()
    back = watch[watch.index('data-testid="watch-back"') :]
    back = back[: back.index("</p>")]
    assert f'href="{session_path}"' in back
    assert f'href="{reverse("tournaments:tournament", args=[world.tournament.slug])}"' in back


def test_the_players_page_says_their_game_is_in_progress_and_links_it(world, client):
    player = world.session.seats.order_by("seat_order").first().player
    as_player(client, player)
    assert "Your next game in Coppa BoB" in page(client, "tournaments:player_home")
    number = started_on_the_board(world)
    [game] = next_games(player)
    assert (game.in_progress, game.live_game) == (True, number)
    html = page(client, "tournaments:player_home")
    assert "Your game in progress in Coppa BoB" in html
    assert "Your next game in" not in html
    assert f'href="{watch_url(world, number)}"' in html
    assert 'data-testid="in-progress"' in html
