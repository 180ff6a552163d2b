"""A leaked private link: the organiser gives the player a new one from the player's page;
the old link, and every browser that opened it, no longer speak for the player."""

import pytest
from django.test import Client
from django.urls import reverse

from tournaments.models import ActivityLog

pytestmark = pytest.mark.django_db


def _renew(organiser: Client, world) -> str:
    url = reverse(
        "tournaments:organiser_player_private_link", args=[world.tournament.slug, world.player.pk]
    )
    response = organiser.post(url, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 302
    return response["Location"]


def test_a_new_private_link_replaces_the_old_one_in_every_browser(world, role_client):
    old = world.player.access_token
    browser = Client()
    assert browser.get(reverse("tournaments:player_link", args=[old])).status_code == 302
    home = reverse("tournaments:player_home")
    assert browser.get(home).status_code == 200  # the browser speaks for the player

    location = _renew(role_client("organiser"), world)
    world.player.refresh_from_db()
    assert world.player.access_token != old
    assert location.endswith(f"/players/{world.player.pk}/#private-link")

    refused = browser.get(home, HTTP_ACCEPT_LANGUAGE="en")
    assert refused.status_code == 403  # the link it opened is no longer the player's
    gone = browser.get(reverse("tournaments:player_link", args=[old]), HTTP_ACCEPT_LANGUAGE="en")
    assert gone.status_code == 404
    assert "replaced by a newer one" in gone.content.decode()

    fresh = Client()
    fresh.get(reverse("tournaments:player_link", args=[world.player.access_token]))
    assert fresh.get(home).status_code == 200
    entry = ActivityLog.objects.filter(tournament=world.tournament).latest("pk")
    assert entry.description_code == "private_link_renewed"


def test_the_organisers_page_shows_the_link_and_says_what_a_new_one_does(world, role_client):
    organiser = role_client("organiser")
    url = reverse("tournaments:organiser_player", args=[world.tournament.slug, world.player.pk])
    page = organiser.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert f"/p/{world.player.access_token}/" in page
    assert "the old link stops working at once" in page
    assert "<summary>Give a new private link</summary>" in page  # a second step asks first
    _renew(organiser, world)
    world.player.refresh_from_db()
    page = organiser.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert f"/p/{world.player.access_token}/" in page
    assert "has a new private link; the old one no longer works" in page


def test_a_browser_logged_in_with_the_players_account_still_speaks_for_them(
    world, role_client, django_user_model
):
    account = django_user_model.objects.create_user("tempesta", password="x-Strong-pass-1")
    world.player.user = account
    world.player.save(update_fields=["user"])
    browser = Client()
    browser.force_login(account)
    home = reverse("tournaments:player_home")
    assert browser.get(home).status_code == 200
    _renew(role_client("organiser"), world)
    assert browser.get(home).status_code == 200


@pytest.mark.parametrize("role", ["anonymous", "player", "judge"])
def test_only_the_organiser_gives_a_new_link(world, role_client, role):
    old = world.player.access_token
    url = reverse(
        "tournaments:organiser_player_private_link", args=[world.tournament.slug, world.player.pk]
    )
    assert role_client(role).post(url).status_code in {302, 403}
    world.player.refresh_from_db()
    assert world.player.access_token == old
