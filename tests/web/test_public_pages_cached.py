"""The tournament's home, schedule, bracket, honours, projector and Dice pages are cached whole
for anonymous visitors like the standings, and show any committed change on the next request; the
standings' data stamp is its own tournament's, however many newer rows other tournaments
have, and the live poll's table follows it."""

import re

import pytest
from django.db.models import Max
from django.test import Client
from django.urls import reverse

from rules.engine.dice import SeededDice
from tests.factories import TournamentFactory, register_players
from tests.web.test_page_cache import _give_result, rename_quietly
from tournaments.actions.result_entry import record_result
from tournaments.actions.seed_announcements import announce_seed, close_announcement
from tournaments.actions.stage_advance import start_tournament
from tournaments.caching import generations
from tournaments.models import ActivityLog, ResultVersion, SeedAnnouncement
from tournaments.queries.standings import data_stamp

pytestmark = pytest.mark.django_db

PAGES = ("tournament", "schedule", "bracket", "honours", "projector")


def page(name: str, tournament) -> str:
    """The page a new anonymous visitor gets, without the visitor's own CSRF token."""
    response = Client().get(reverse(f"tournaments:{name}", args=[tournament.slug]))
    assert response.status_code == 200
    return re.sub(r"[A-Za-z0-9]{64}", "<token>", response.content.decode())


def cached_then_renamed_quietly(world, name: str, on_commit) -> tuple[str, object]:
    """Page ``name`` cached once the first seat's player has a result, and that player,
    renamed since without a signal (the cached page stays: checked)."""
    ranked = world.session.seats.order_by("seat_order").first().player
    with on_commit(execute=True):
        record_result(world.session, confirmed=True, **_give_result(world.session, 70))
    first = page(name, world.tournament)
    rename_quietly(ranked, "Quiet Rename")
    assert page(name, world.tournament) == first
    return first, ranked


@pytest.mark.parametrize("name", PAGES)
def test_a_public_page_is_cached_until_the_tournament_changes(
    world, name, django_capture_on_commit_callbacks
):
    first, ranked = cached_then_renamed_quietly(world, name, django_capture_on_commit_callbacks)
    with django_capture_on_commit_callbacks(execute=True):
        ranked.nickname = "Loud Rename"
        ranked.save()
    assert page(name, world.tournament) != first


def test_the_dice_page_is_cached_until_a_seed_is_announced_or_used(
    world, django_capture_on_commit_callbacks
):
    """An announced seed is on the page at once (its hash must be public before the roll),
    and gone from the announced ones once rolled with (an update, told explicitly)."""
    first = page("dice", world.tournament)
    start, advance = "seating the first stage", "closing the current stage and seating the next"
    assert start not in first and advance not in first
    quiet = SeedAnnouncement(
        tournament=world.tournament, purpose="advance", seed="1", commitment="c" * 64
    )
    SeedAnnouncement.objects.bulk_create([quiet])  # no signal: the cached page stays
    assert page("dice", world.tournament) == first
    with django_capture_on_commit_callbacks(execute=True):
        announce_seed(world.tournament, "start")
    shown = page("dice", world.tournament)
    assert start in shown and advance in shown
    with django_capture_on_commit_callbacks(execute=True):
        close_announcement(world.tournament, "start")
    shown = page("dice", world.tournament)
    assert start not in shown and advance in shown


def test_the_data_stamp_is_the_tournaments_own_latest_rows(
    world, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        record_result(world.session, confirmed=True, **_give_result(world.session, 70))
    ours = data_stamp(world.tournament)
    with django_capture_on_commit_callbacks(execute=True):
        other = TournamentFactory(slug="newer")
        register_players(other, 3)
        start_tournament(other, SeededDice(seed=3), draw_squads=False)
        session = other.stages.get().sessions.get()
        record_result(session, confirmed=True, **_give_result(session, 50))
    assert data_stamp(world.tournament) == ours
    assert ours[:2] == [
        ActivityLog.objects.filter(tournament=world.tournament).aggregate(m=Max("pk"))["m"],
        ResultVersion.objects.filter(result__session__stage__tournament=world.tournament).aggregate(
            m=Max("pk")
        )["m"],
    ]
    assert ours[2] == generations.current(world.tournament.slug)


def test_the_live_poll_shows_a_new_result_at_once(world, django_capture_on_commit_callbacks):
    url = reverse("tournaments:standings_partial", args=[world.tournament.slug])
    before = Client().get(url).content.decode()
    assert Client().get(url).content.decode() == before
    with django_capture_on_commit_callbacks(execute=True):
        record_result(world.session, confirmed=True, **_give_result(world.session, 40))
    after = Client().get(url).content.decode()
    assert after != before and ">41<" in after


def test_the_live_poll_is_not_sent_again_while_nothing_changed(
    world, django_capture_on_commit_callbacks
):
    url = reverse("tournaments:standings_partial", args=[world.tournament.slug])
    browser = Client()
    first = browser.get(url)
    assert first.status_code == 200 and first["Cache-Control"] == "no-cache"
    again = browser.get(url, headers={"If-None-Match": first["ETag"]})
    assert again.status_code == 304 and not again.content
    with django_capture_on_commit_callbacks(execute=True):
        record_result(world.session, confirmed=True, **_give_result(world.session, 40))
    changed = browser.get(url, headers={"If-None-Match": first["ETag"]})
    assert changed.status_code == 200 and ">41<" in changed.content.decode()
    assert changed["ETag"] != first["ETag"]


def test_the_projectors_panels_are_cached_apart_from_its_page(world):
    """The panels every open projector asks for each minute (htmx) and the whole page share
    a path, not a cached copy."""
    url = reverse("tournaments:projector", args=[world.tournament.slug])
    whole = Client().get(url).content.decode()
    panels = Client().get(url, HTTP_HX_REQUEST="true").content.decode()
    assert "<h1>" in whole and 'data-panel="tables"' in whole
    assert "<h1>" not in panels and 'data-panel="tables"' in panels
    assert Client().get(url).content.decode().count("<h1>") == 1
