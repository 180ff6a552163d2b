"""A session played while its stage had no map keeps having none when the organiser sets
one on the stage later (decision 54, amended): its result was checked against no map, and
a blank map would otherwise read as "the stage's" and follow the new one. The sessions
without a result follow the stage's new map; a document carries the mark."""

from __future__ import annotations

import pytest
from django.urls import reverse

from table.forms import planned_map
from tests.factories import confirm_session
from tests.web.page_forms import form_on
from tournaments.actions.tournament_setup import save_stage
from tournaments.interchange.export import export_tournament
from tournaments.interchange.importer import import_document
from tournaments.models import Session, Stage
from tournaments.queries.playable_maps import map_title
from tournaments.queries.session_stipulation import result_limits, session_map_name

pytestmark = pytest.mark.django_db

NEW_MAP, LATER_MAP = "hunt-derelict", "reference"


def stage_url(world) -> str:
    return reverse("tournaments:organiser_stage", args=[world.tournament.slug, 1])


def public_page(client, world, session: Session) -> str:
    url = reverse("tournaments:session", args=[world.tournament.slug, session.pk])
    return client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()


def map_shown(page: str) -> str:
    return page.split("<dt>Map</dt><dd>")[1].split("</dd>")[0]


@pytest.fixture
def played(world) -> list[Session]:
    """Stage 1 without a map; session 1 has a confirmed result (played on no map), the
    others none."""
    stage = Stage.objects.get(pk=world.stage.pk)
    assert stage.map_name == ""
    sessions = list(Session.objects.filter(stage=stage).order_by("number"))
    assert all(session.map_name == "" for session in sessions)
    confirm_session(sessions[0], lambda seat: seat.seat_order * 10)
    return sessions


def set_stage_map(world, name: str):
    stage = Stage.objects.get(pk=world.stage.pk)
    stage.map_name = name
    return save_stage(stage, [], actor=None)


def test_the_organiser_sets_a_map_and_the_played_session_keeps_none(
    world, played, role_client, client
):
    assert map_shown(public_page(client, world, played[0])) == "–"
    organiser = role_client("organiser")
    typed = form_on(organiser.get(stage_url(world)).content.decode(), "thresholds")
    saved = organiser.post(
        stage_url(world), {**typed, "map_name": [NEW_MAP]}, HTTP_ACCEPT_LANGUAGE="en", follow=True
    )
    page = saved.content.decode()
    assert "Stage saved." in page
    assert "Session 1 already has a result, so it keeps the stipulation and map" in page
    first = Session.objects.get(pk=played[0].pk)
    assert first.without_map and session_map_name(first) == ""
    assert map_shown(public_page(client, world, first)) == "–"
    # The sessions without a result follow the stage's new map.
    other = Session.objects.get(pk=played[1].pk)
    assert not other.without_map and session_map_name(other) == NEW_MAP
    assert map_shown(public_page(client, world, other)) == map_title(world.tournament, NEW_MAP)


def test_a_later_map_change_leaves_it_without_a_map(world, played):
    assert set_stage_map(world, NEW_MAP).kept == (1,)
    # Already kept: not named again.
    assert set_stage_map(world, LATER_MAP).kept == ()
    first = Session.objects.select_related("stage").get(pk=played[0].pk)
    assert session_map_name(first) == ""
    assert planned_map(first) is None
    assert result_limits(first).aliens.markers is None  # no map: no markers to count against
    assert session_map_name(Session.objects.get(pk=played[1].pk)) == LATER_MAP


def test_its_settings_page_says_it_keeps_no_map(world, played, role_client):
    set_stage_map(world, NEW_MAP)
    url = reverse(
        "tournaments:organiser_session_settings", args=[world.tournament.slug, played[0].pk]
    )
    organiser = role_client("organiser")
    page = organiser.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "This session was played without a map and keeps none" in page
    schedule = reverse("tournaments:organiser_schedule", args=[world.tournament.slug])
    page = organiser.get(schedule, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert page.count("played without a map: keeps none") == 1


def test_a_session_played_on_its_own_map_keeps_it_unmarked(world, played):
    Session.objects.filter(pk=played[0].pk).update(map_name=LATER_MAP)
    assert set_stage_map(world, NEW_MAP).kept == ()
    first = Session.objects.get(pk=played[0].pk)
    assert not first.without_map and session_map_name(first) == LATER_MAP


def test_the_mark_survives_export_and_import(world, played, client):
    set_stage_map(world, NEW_MAP)
    document = export_tournament(world.tournament)
    exported = document["stages"][0]["sessions"][0]
    assert exported["without_map"] is True
    copy = import_document(document, slug="coppa-copia", organiser=world.organiser).tournament
    session = copy.stages.get(number=1).sessions.get(number=1)
    assert session.without_map and session_map_name(session) == ""
    others = copy.stages.get(number=1).sessions.exclude(number=1)
    assert all(not s.without_map and session_map_name(s) == NEW_MAP for s in others)


def test_an_older_document_follows_the_stage(world, played):
    set_stage_map(world, NEW_MAP)
    document = export_tournament(world.tournament)
    document["format_version"] = 8
    for stage in document["stages"]:
        for session in stage["sessions"]:
            del session["without_map"]
    copy = import_document(document, slug="coppa-vecchia", organiser=world.organiser).tournament
    assert not copy.stages.get(number=1).sessions.filter(without_map=True).exists()
