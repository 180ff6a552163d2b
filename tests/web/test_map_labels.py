"""Messages and badges name a map by its title in the reader's language, with its name in
brackets as the map menus do (QA: "Mappa hunt-derelict-copy aggiunta." after adding a map,
and "mappa propria: hunt-derelict" on the schedule page)."""

from __future__ import annotations

import html

import pytest
from django.urls import reverse

from demo.management.commands.load_demo import CLUB_MAP
from tournaments.actions.map_edits import save_map
from tournaments.models import Session

pytestmark = pytest.mark.django_db

CLUB = CLUB_MAP.read_text(encoding="utf-8")
CLUB_LABEL = "Club arena (demo) (circolo-arena)"


@pytest.fixture
def organiser(world, role_client):
    return role_client("organiser")


def shown(response) -> list[str]:
    return [str(message) for message in response.context["messages"]]


def test_adding_saving_and_removing_a_map_name_it_by_its_title(organiser, world):
    maps = reverse("tournaments:organiser_maps", args=[world.tournament.slug])
    added = organiser.post(maps, {"drawing": CLUB}, follow=True, HTTP_ACCEPT_LANGUAGE="en")
    assert shown(added) == [f"Map {CLUB_LABEL} added."]
    one = reverse("tournaments:organiser_map", args=[world.tournament.slug, "circolo-arena"])
    saved = organiser.post(one, {"drawing": CLUB}, follow=True, HTTP_ACCEPT_LANGUAGE="en")
    assert f"Map {CLUB_LABEL} saved." in shown(saved)
    remove = reverse(
        "tournaments:organiser_map_remove", args=[world.tournament.slug, "circolo-arena"]
    )
    removed = organiser.post(remove, follow=True, HTTP_ACCEPT_LANGUAGE="en")
    assert shown(removed) == [f"Map {CLUB_LABEL} removed."]


def test_the_schedule_badge_names_a_sessions_own_map_by_its_title(organiser, world):
    save_map(world.tournament, CLUB)
    Session.objects.filter(pk=world.session.pk).update(map_name="circolo-arena")
    url = reverse("tournaments:organiser_schedule", args=[world.tournament.slug])
    page = html.unescape(organiser.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode())
    assert f"own map: {CLUB_LABEL}" in page
    assert "own map: circolo-arena<" not in page
