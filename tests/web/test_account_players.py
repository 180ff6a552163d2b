"""One account, one player per tournament: log-in opens the player of the most recent
tournament, and the player pages switch between the account's players."""

from datetime import date, datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from tests.factories import (
    PlayerFactory,
    RegistrationFactory,
    SessionFactory,
    StageFactory,
    TournamentFactory,
    UserFactory,
)
from tests.web.conftest import PASSWORD
from tournaments.actions.player_accounts import link_account, link_problem
from tournaments.queries.roles import account_players
from tournaments.web.permissions import PLAYER_SESSION_KEY

pytestmark = pytest.mark.django_db


@pytest.fixture
def account(db):
    user = UserFactory(username="marta")
    user.save()
    return user


def player_in(tournament, user=None, **player):
    player = PlayerFactory(user=user, **player)
    RegistrationFactory(player=player, tournament=tournament)
    return player


def scheduled(tournament, when: datetime) -> None:
    stage = StageFactory(tournament=tournament)
    SessionFactory(stage=stage, scheduled_at=timezone.make_aware(when))


def log_in(client):
    return client.post(reverse("tournaments:login"), {"username": "marta", "password": PASSWORD})


def test_same_account_linked_in_two_tournaments(world, account):
    autumn = TournamentFactory(name="Autumn Cup")
    elsewhere = player_in(autumn)
    link_account(autumn, elsewhere, account)
    assert link_problem(world.tournament, world.player, account) is None
    link_account(world.tournament, world.player, account)
    assert {p.pk for p in account.players.all()} == {elsewhere.pk, world.player.pk}


def test_second_player_of_the_same_tournament_is_still_refused(world, account):
    link_account(world.tournament, world.player, account)
    neighbour = world.tournament.players.exclude(pk=world.player.pk).first()
    assert "another player of this tournament" in link_problem(world.tournament, neighbour, account)


def test_recency_by_latest_session_then_start_date(account):
    old = TournamentFactory(name="Old", starts_on=date(2025, 3, 1))
    scheduled(old, datetime(2025, 3, 2, 15))
    dated = TournamentFactory(name="Dated", starts_on=date(2026, 5, 1))
    undated = TournamentFactory(name="Undated", starts_on=None)
    # A session scheduled later than the other tournaments' dates wins, start date or not.
    late = TournamentFactory(name="Late", starts_on=date(2024, 1, 1))
    scheduled(late, datetime(2026, 9, 1, 10))
    players = {t.name: player_in(t, account) for t in (old, dated, undated, late)}
    order = [entry.player for entry in account_players(account)]
    assert order == [players["Late"], players["Dated"], players["Old"], players["Undated"]]
    assert [t.name for t in account_players(account)[0].tournaments] == ["Late"]


def test_login_lands_on_the_player_of_the_most_recent_tournament(client, account):
    old = TournamentFactory(name="Old Cup", starts_on=date(2025, 3, 1))
    new = TournamentFactory(name="New Cup", starts_on=date(2026, 3, 1))
    player_in(new, account, name="Marta 2026")
    player_in(old, account, name="Marta 2025")  # a lower pk would not decide any more
    response = log_in(client)
    assert response["Location"] == reverse("tournaments:player_home")
    home = client.get(response["Location"])
    assert home.context["player"].name == "Marta 2026"
    page = home.content.decode()
    assert reverse("tournaments:player_switch") in page and "Old Cup" in page
    assert [e.player.name for e in home.context["other_players"]] == ["Marta 2025"]


def test_switching_to_another_tournament_of_the_account(client, account):
    old = TournamentFactory(name="Old Cup", starts_on=date(2025, 3, 1))
    new = TournamentFactory(name="New Cup", starts_on=date(2026, 3, 1))
    current = player_in(new, account)
    earlier = player_in(old, account)
    log_in(client)
    response = client.post(reverse("tournaments:player_switch"), {"player": earlier.pk})
    assert response.status_code == 302
    assert client.session[PLAYER_SESSION_KEY] == earlier.pk
    home = client.get(reverse("tournaments:player_home"))
    assert home.context["player"] == earlier
    assert [e.player for e in home.context["other_players"]] == [current]
    # Each player's own pages keep working: preferences of the earlier tournament.
    prefs = client.get(reverse("tournaments:player_preferences", args=[old.slug]))
    assert prefs.status_code == 200
    assert client.get(reverse("tournaments:player_preferences", args=[new.slug])).status_code == 404


def test_switching_to_a_player_of_another_account_is_refused(client, account):
    mine = player_in(TournamentFactory(starts_on=date(2026, 3, 1)), account)
    player_in(TournamentFactory(starts_on=date(2025, 3, 1)), account)
    stranger = player_in(TournamentFactory(), UserFactory(username="luca"))
    log_in(client)
    response = client.post(
        reverse("tournaments:player_switch"), {"player": stranger.pk}, follow=True
    )
    assert response.context["player"] == mine
    assert client.session[PLAYER_SESSION_KEY] == mine.pk
    assert "choose one from the list" in response.content.decode()


def test_private_link_browser_cannot_switch(client, account):
    """A browser speaking for a player through the link alone has no account to switch in."""
    linked = player_in(TournamentFactory(), account)
    other = player_in(TournamentFactory(), account)
    client.get(reverse("tournaments:player_link", args=[linked.access_token]))
    assert client.get(reverse("tournaments:player_home")).context["other_players"] == []
    client.post(reverse("tournaments:player_switch"), {"player": other.pk})
    assert client.session[PLAYER_SESSION_KEY] == linked.pk


def test_switch_needs_a_player_and_a_post(client):
    url = reverse("tournaments:player_switch")
    assert client.post(url, {"player": 1}).status_code == 403
    stranger = player_in(TournamentFactory())
    client.get(reverse("tournaments:player_link", args=[stranger.access_token]))
    assert client.get(url).status_code == 405


def test_calendar_feed_stays_per_player(client, account):
    one = player_in(TournamentFactory(), account)
    two = player_in(TournamentFactory(), account)
    for player in (one, two):
        feed = client.get(reverse("tournaments:player_calendar", args=[player.access_token]))
        assert feed.status_code == 200 and feed["Content-Type"].startswith("text/calendar")


def test_switch_checks_the_csrf_token(account):
    from django.test import Client

    client = Client(enforce_csrf_checks=True)
    player_in(TournamentFactory(starts_on=date(2026, 3, 1)), account)
    earlier = player_in(TournamentFactory(starts_on=date(2025, 3, 1)), account)
    client.force_login(account)
    client.get(reverse("tournaments:player_home"))
    response = client.post(reverse("tournaments:player_switch"), {"player": earlier.pk})
    assert response.status_code == 403
    assert client.session.get(PLAYER_SESSION_KEY) != earlier.pk
    assert client.get(reverse("tournaments:player_home")).context["player"] != earlier
