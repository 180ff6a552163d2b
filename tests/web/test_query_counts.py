"""The public standings, bracket, honours and session pages cost the same number of SQL
queries for 9 players as for 243: nothing is fetched per player, session or seat."""

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from rules.engine.dice import SeededDice
from tests.factories import TournamentFactory, confirm_stage, register_players
from tournaments.actions.stage_advance import start_tournament

pytestmark = pytest.mark.django_db


def played_tournament(slug: str, players: int):
    """A tournament whose first stage is seated, drawn and fully played."""
    tournament = TournamentFactory(slug=slug)
    register_players(tournament, players)
    start_tournament(tournament, SeededDice(seed=players))
    stage = tournament.stages.get(number=1)
    confirm_stage(stage, lambda seat: seat.seat_order * 5 + seat.player_id % 7)
    return tournament, stage.sessions.order_by("number").first()


def page_queries(tournament, session) -> dict[str, int]:
    client = Client()
    urls = {
        "standings (cold cache)": reverse("tournaments:standings", args=[tournament.slug]),
        "standings (cached)": reverse("tournaments:standings", args=[tournament.slug]),
        "standings partial": reverse("tournaments:standings_partial", args=[tournament.slug]),
        "bracket": reverse("tournaments:bracket", args=[tournament.slug]),
        "bracket svg": reverse("tournaments:bracket_svg", args=[tournament.slug]),
        "honours": reverse("tournaments:honours", args=[tournament.slug]),
        "session": reverse("tournaments:session", args=[tournament.slug, session.pk]),
    }
    counts = {}
    for label, url in urls.items():
        if label == "standings (cold cache)":
            cache.clear()
        with CaptureQueriesContext(connection) as queries:
            response = client.get(url)
        assert response.status_code == 200, label
        counts[label] = len(queries)
    return counts


def test_query_counts_do_not_grow_with_players():
    small = played_tournament("nine", 9)
    large = played_tournament("many", 243)
    assert large[0].registrations.count() == 243
    small_counts = page_queries(*small)
    large_counts = page_queries(*large)
    assert small_counts == large_counts
    assert small_counts["standings (cached)"] <= 4
