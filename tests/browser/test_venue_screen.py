"""The venue screen in a real browser: two projector screens show the next round's tables
with squads and colours, and follow the round timer the organiser starts and pauses."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from rules.engine.dice import SeededDice
from tests.browser.conftest import log_in, screenshot
from tests.browser.test_flows import account, seated_tournament
from tests.factories import VenueTableFactory
from tournaments.actions.session_setup import draw_squads
from tournaments.models import Session

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: A screen reads the timer's state every 5 seconds; allow two reads.
FOLLOW_MS = 12_000


def test_projectors_show_the_tables_and_follow_the_organisers_timer(new_page):
    tournament = seated_tournament()
    organiser = account("venue-org")
    tournament.organisers.add(organiser)
    session = Session.objects.get(stage__tournament=tournament, number=1)
    Session.objects.filter(pk=session.pk).update(
        table=VenueTableFactory(tournament=tournament, name="A")
    )
    session.refresh_from_db()
    draw_squads(session, SeededDice(seed=3), expected_version=session.version)
    seats = list(session.seats.select_related("player", "squad").order_by("seat_order"))

    screens = [new_page(width=1920, height=1080) for _ in range(2)]
    for screen in screens:
        screen.goto(f"/t/{tournament.slug}/projector/")
        tables = screen.locator("#projector-panels .panel[data-panel=tables]")
        expect(tables).to_be_visible()
        first = tables.locator(".table-assignment", has_text="Table A")
        expect(first.get_by_role("heading")).to_have_text("Table A · session 1")
        for seat in seats:
            line = first.locator("li", has_text=seat.player.display_name)
            expect(line).to_contain_text(seat.squad.name)
            expect(line).to_contain_text(seat.squad.get_colour_display())
            expect(line.locator(f".swatch-{seat.squad.colour}")).to_have_count(1)
        expect(screen.get_by_test_id("round-timer-clock")).to_have_text("3:00:00")
        expect(screen.locator(".round-timer-state")).to_have_text("paused")
    screenshot(screens[0], "projector-tables")

    control = new_page()
    log_in(control, "venue-org")
    control.goto(f"/organise/{tournament.slug}/venue/")
    control.get_by_label("Round duration (minutes)").fill("90")
    control.get_by_role("button", name="Set a new round").click()
    expect(control.get_by_text("The round timer is set to a new round.")).to_be_visible()
    control.get_by_role("button", name="Start the timer").click()
    expect(control.get_by_text("The round timer is running.")).to_be_visible()
    screenshot(control, "organiser-venue")

    for screen in screens:
        expect(screen.locator(".round-timer-state")).to_have_text("running", timeout=FOLLOW_MS)
        expect(screen.get_by_test_id("round-timer-clock")).to_have_text(
            re.compile(r"^1:29:[0-5]\d$"), timeout=FOLLOW_MS
        )
    screenshot(screens[1], "projector-timer-running")

    control.get_by_role("button", name="Pause the timer").click()
    expect(control.get_by_text("The round timer is paused.")).to_be_visible()
    for screen in screens:
        expect(screen.locator(".round-timer-state")).to_have_text("paused", timeout=FOLLOW_MS)
    stopped = screens[0].get_by_test_id("round-timer-clock").text_content()
    screens[0].wait_for_timeout(2_000)
    expect(screens[0].get_by_test_id("round-timer-clock")).to_have_text(stopped)
    expect(screens[1].get_by_test_id("round-timer-clock")).to_have_text(stopped)
