"""The organiser's dashboard before stage 1 is seated counts the registrations once: the
header's count (withdrawn players too) and the plan's (players still in) are read together
(queries.stage_plan.tournament_plan), not by one query each."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.factories import TournamentFactory, UserFactory, register_players
from tournaments.actions.people import withdraw_player
from tournaments.queries.stage_plan import tournament_plan

pytestmark = pytest.mark.django_db


@pytest.fixture
def open_tournament():
    """Nine players registered, one of them withdrawn; no stage seated."""
    tournament = TournamentFactory(slug="open")
    players = register_players(tournament, 9)
    withdraw_player(tournament, players[0], reason="Ill", actor=None)
    return tournament


def test_the_plan_counts_the_registrations_in_one_query(open_tournament, django_assert_num_queries):
    with django_assert_num_queries(2):  # the stages, the registrations
        planned = tournament_plan(open_tournament)
    assert planned.registered == 9  # the header: every registration
    assert planned.plan[0].players == 8  # the plan: the players still in


def test_the_dashboard_counts_the_registrations_once(client, open_tournament):
    organiser = UserFactory(username="organiser")
    organiser.save()
    open_tournament.organisers.add(organiser)
    client.force_login(organiser)
    url = reverse("tournaments:organiser_dashboard", args=[open_tournament.slug])
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200
    counted = [
        query["sql"]
        for query in queries.captured_queries
        if "COUNT(" in query["sql"].upper() and "tournaments_registration" in query["sql"]
    ]
    assert len(counted) == 1, counted
