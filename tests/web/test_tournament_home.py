"""The tournament's home reads only the sessions it shows (the latest results, the next
sessions, the final's podium), and shows them as the whole tournament's reading does:
same sessions, order, places, points and qualifier marks (best runner-up included)."""

from datetime import timedelta

import pytest
from django.db import connection
from django.db.models import Q
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from rules.engine.dice import SeededDice
from tests.factories import TournamentFactory, confirm_session, confirm_stage, register_players
from tournaments.actions.session_setup import mark_in_play
from tournaments.actions.stage_advance import advance
from tournaments.models import Session
from tournaments.queries.home_page import home_sessions
from tournaments.queries.pages import (
    HOME_PLAYING,
    SessionLines,
    final_podium,
    latest_results,
    playing_sessions,
    tournament_sessions,
    upcoming_sessions,
)
from tournaments.queries.standings import get_standings

pytestmark = pytest.mark.django_db


def points(seat) -> int:
    return 10 * seat.seat_order + seat.player_id % 5


def shown(lines: list[SessionLines]) -> list[tuple]:
    return [
        (entry.session.pk, line.player_id, line.place, line.points, line.qualified)
        + (line.best_runner_up, line.podium)
        for entry in lines
        for line in entry.seats
    ]


def assert_home_matches_the_whole(tournament, playing: int = HOME_PLAYING) -> None:
    whole = tournament_sessions(tournament)
    home = home_sessions(tournament, latest=3, upcoming=5, playing=playing)
    assert shown(home.latest) == shown(latest_results(whole)[:3])
    assert shown(home.playing) == shown(playing_sessions(whole)[:playing])
    assert home.playing_count == len(playing_sessions(whole))
    assert shown(home.upcoming) == shown(upcoming_sessions(whole)[:5])
    assert [line.player_id for line in home.podium] == [
        line.player_id for line in final_podium(whole)
    ]


def test_home_shows_the_latest_results_and_the_next_sessions():
    tournament = TournamentFactory(slug="casa")
    register_players(tournament, 27)
    advance(tournament, SeededDice(seed=4))
    sessions = list(tournament.stages.get(number=1).sessions.order_by("number"))
    start = timezone.now()
    for n, session in enumerate(sessions):  # the last session first
        Session.objects.filter(pk=session.pk).update(
            scheduled_at=start + timedelta(hours=len(sessions) - n)
        )
    for session in sessions[:4]:
        confirm_session(session, points)
    home = home_sessions(tournament, latest=3, upcoming=5)
    assert [entry.session.pk for entry in home.latest] == [s.pk for s in sessions[3:0:-1]]
    assert [entry.session.pk for entry in home.upcoming] == [s.pk for s in sessions[:3:-1]][:5]
    assert_home_matches_the_whole(tournament)


def test_home_lists_the_sessions_being_played_as_the_whole_tournament_does():
    tournament = TournamentFactory(slug="in-corso")
    register_players(tournament, 27)
    advance(tournament, SeededDice(seed=4))
    sessions = list(tournament.stages.get(number=1).sessions.order_by("number"))
    start = timezone.now()
    for n, session in enumerate(sessions[1:], start=1):  # the first one left unscheduled
        Session.objects.filter(pk=session.pk).update(
            scheduled_at=start + timedelta(hours=len(sessions) - n)
        )
    for session in sessions[:5]:
        mark_in_play(session)
    confirm_session(sessions[4], points)  # played: no longer being played
    home = home_sessions(tournament, latest=3, upcoming=5)
    # The soonest first, the unscheduled one last.
    assert [entry.session.pk for entry in home.playing] == [s.pk for s in sessions[3:0:-1]] + [
        sessions[0].pk
    ]
    assert home.playing_count == 4
    assert_home_matches_the_whole(tournament)
    assert_home_matches_the_whole(tournament, playing=2)
    assert home_sessions(tournament, latest=3, upcoming=5, playing=2).playing_count == 4


def test_home_marks_qualifiers_and_the_podium_as_the_whole_tournament_does():
    tournament = TournamentFactory(slug="finita")
    register_players(tournament, 9)
    advance(tournament, SeededDice(seed=1))
    for number in (1, 2):
        confirm_stage(tournament.stages.get(number=number), points)
        advance(tournament, SeededDice(seed=number + 1))
    assert_home_matches_the_whole(tournament)  # the semi-finals' best runner-up
    confirm_stage(tournament.stages.get(number=3), points)
    advance(tournament, SeededDice(seed=4))
    assert_home_matches_the_whole(tournament)
    assert len(home_sessions(tournament, latest=3, upcoming=5).podium) == 3


def test_one_session_read_alone_is_marked_as_among_all_its_stage():
    tournament = TournamentFactory(slug="sola")
    register_players(tournament, 9)
    advance(tournament, SeededDice(seed=1))
    for number in (1, 2):  # the semi-finals qualify a best runner-up
        confirm_stage(tournament.stages.get(number=number), points)
        advance(tournament, SeededDice(seed=number + 1))
    whole = tournament_sessions(tournament)
    assert any(line.best_runner_up for entry in whole for line in entry.seats)
    for entry in whole:
        alone = tournament_sessions(tournament, Q(pk=entry.session.pk))
        assert shown(alone) == shown([entry])


def test_the_current_stage_from_stages_read_is_the_one_the_database_gives():
    tournament = TournamentFactory()
    register_players(tournament, 9)
    advance(tournament, SeededDice(seed=1))
    for number in (1, 2, 3):
        stages = list(tournament.stages.order_by("number"))
        assert tournament.current_stage(stages) == tournament.current_stage()
        confirm_stage(tournament.stages.get(number=number), lambda seat: 10 * seat.seat_order)
        advance(tournament, SeededDice(seed=number + 1))
    stages = list(tournament.stages.order_by("number"))
    assert tournament.current_stage(stages) == tournament.current_stage()


def test_with_the_standings_cached_the_home_reads_no_session_seat_or_result():
    """The home lists its sessions from the standings: once they are cached (the task
    rebuilds them when a result is saved), it reads none of the sessions' rows again."""
    tournament = TournamentFactory(slug="dalla-classifica")
    register_players(tournament, 9)
    advance(tournament, SeededDice(seed=1))
    confirm_session(tournament.stages.get(number=1).sessions.first(), points)
    get_standings(tournament)
    with CaptureQueriesContext(connection) as queries:
        home = home_sessions(tournament, latest=3, upcoming=5)
    assert len(home.latest) == 1
    read = " ".join(query["sql"] for query in queries.captured_queries)
    for table in ("tournaments_seat", "tournaments_player"):
        assert f'"{table}"' not in read and f"{table} " not in read, table
    # The standings' data stamp (checking the cached ones are current) and the squads.
    assert len(queries.captured_queries) == 2
