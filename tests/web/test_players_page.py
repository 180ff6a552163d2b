"""The organiser's list of players at a large tournament: a page of 100 at a time, a search
by name, nickname, email or number, and a player's row reached on its own page after a
registration, an account linked or a link refused."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import TournamentFactory, UserFactory, register_players
from tournaments.models import Registration
from tournaments.queries.player_list import PLAYERS_PAGE_SIZE

pytestmark = pytest.mark.django_db


@pytest.fixture
def large():
    """A tournament of 230 players (numbers 1 to 230), not started, and its organiser."""
    tournament = TournamentFactory()
    players = register_players(tournament, 2 * PLAYERS_PAGE_SIZE + 30, preferences=False)
    organiser = UserFactory(username="big-organiser")
    organiser.save()
    tournament.organisers.add(organiser)
    client = Client()
    client.force_login(organiser)
    return tournament, players, client


def url(tournament, query: str = "") -> str:
    return reverse("tournaments:organiser_players", args=[tournament.slug]) + query


def numbers(html: str) -> list[int]:
    """The registration numbers of the rows a page lists, in order."""
    return [int(n) for n in re.findall(r'<tr id="player-\d+"><td class="num">(\d+)</td>', html)]


def test_a_large_list_is_read_a_page_at_a_time(large):
    tournament, _players, client = large
    first = client.get(url(tournament)).content.decode()
    assert "230 players" in first
    assert numbers(first) == list(range(1, 101))
    assert '<a href="?page=2#players" rel="next">Next players</a>' in first
    assert "Page 1 of 3" in first and "Previous players" not in first
    last = client.get(url(tournament, "?page=3")).content.decode()
    assert numbers(last) == list(range(201, 231))
    assert '<a href="?page=2#players" rel="prev">Previous players</a>' in last


def test_a_player_is_found_by_name_nickname_email_or_number(large):
    tournament, players, client = large
    target = players[150]  # number 151
    for search in (target.name, target.nickname.upper(), target.email, "151"):
        html = client.get(url(tournament, f"?q={search}")).content.decode()
        assert 151 in numbers(html), search
        assert f'value="{search}"' in html
    html = client.get(url(tournament, "?q=nobody-at-all")).content.decode()
    assert numbers(html) == []
    assert "No player matches: try a shorter part of the name." in html
    assert "0 players found for “nobody-at-all”." in html
    assert '<a href="?#players">Every player</a>' in html


def test_a_search_keeps_its_words_from_page_to_page(large):
    tournament, _players, client = large
    html = client.get(url(tournament, "?q=player")).content.decode()  # every email holds it
    assert '<a href="?q=player&amp;page=2#players" rel="next">Next players</a>' in html


def test_a_new_player_and_a_linked_account_are_shown_on_their_own_page(large):
    tournament, players, client = large
    registered = client.post(url(tournament), {"name": "Newcomer Nuovo"})
    newcomer = Registration.objects.get(tournament=tournament, player__name="Newcomer Nuovo")
    assert registered["Location"] == url(tournament, f"?page=3#player-{newcomer.player_id}")
    account = UserFactory(username="late-account")
    account.save()
    player = players[120]  # on page 2
    link = reverse("tournaments:organiser_player_link", args=[tournament.slug, player.pk])
    linked = client.post(link, {f"link{player.pk}-account": "late-account"})
    assert linked["Location"] == url(tournament, f"?page=2#player-{player.pk}")


def test_a_refused_link_shows_the_page_holding_its_row_and_its_error(large):
    tournament, players, client = large
    player = players[220]  # on page 3
    link = reverse("tournaments:organiser_player_link", args=[tournament.slug, player.pk])
    refused = client.post(link, {f"link{player.pk}-account": "no-such-account"})
    assert refused.status_code == 400
    html = refused.content.decode()
    assert 221 in numbers(html) and "Page 3 of 3" in html
    row = html.split(f'<tr id="player-{player.pk}">', 1)[1].split("</tr>", 1)[0]
    assert 'class="errorlist"' in row


def test_a_small_tournament_lists_everyone_without_a_search(world, role_client):
    html = role_client("organiser").get(url(world.tournament)).content.decode()
    assert len(numbers(html)) == 9
    assert 'role="search"' not in html and 'class="pager"' not in html
