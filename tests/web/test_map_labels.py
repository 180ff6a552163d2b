"""Messages and badges name a map by its title in the reader's language, with its name in
brackets as the map menus do (QA: "Mappa hunt-derelict-copy aggiunta." after adding a map,
and "mappa propria: hunt-derelict" on the schedule page)."""

from __future__ import annotations

import html

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
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


def map_reads(queries: CaptureQueriesContext) -> int:
    return sum('FROM "tournaments_tournamentmap"' in q["sql"] for q in queries.captured_queries)


def test_the_schedule_reads_the_maps_once_for_every_row(organiser, world):
    """The review: each row naming its session's own map read the maps again (N+1)."""
    save_map(world.tournament, CLUB)
    sessions = Session.objects.filter(stage=world.stage)
    assert sessions.count() == 3
    url = reverse("tournaments:organiser_schedule", args=[world.tournament.slug])
    with CaptureQueriesContext(connection) as plain:  # no session has a map of its own
        organiser.get(url, HTTP_ACCEPT_LANGUAGE="en")
    sessions.update(map_name="circolo-arena")
    with CaptureQueriesContext(connection) as queries:
        page = organiser.get(url, HTTP_ACCEPT_LANGUAGE="en")
    assert html.unescape(page.content.decode()).count(f"own map: {CLUB_LABEL}") == 3
    assert map_reads(queries) == 1
    assert len(queries) == len(plain) + 1  # 3 rows: + 3 at the review


def test_the_session_settings_page_names_its_maps_from_one_read(organiser, world):
    """The review: the page read the maps once for each map it named (its own, the
    stage's in the text and in the menu's first choice) and once more for the menu."""
    save_map(world.tournament, CLUB)
    world.stage.map_name = "hunt-derelict"
    world.stage.save(update_fields=["map_name"])
    Session.objects.filter(pk=world.session.pk).update(map_name="circolo-arena")
    url = reverse(
        "tournaments:organiser_session_settings", args=[world.tournament.slug, world.session.pk]
    )
    with CaptureQueriesContext(connection) as queries:
        page = organiser.get(url, HTTP_ACCEPT_LANGUAGE="en")
    text = html.unescape(page.content.decode())
    derelict = "Derelict (Alien Hunt) (hunt-derelict)"
    assert f"This session plays on its own map: {CLUB_LABEL} (the stage's: {derelict})." in text
    assert f"The stage's map ({derelict})" in text
    # The menu's maps, and the board the stipulation is checked against (5 at the review).
    assert map_reads(queries) == 2
