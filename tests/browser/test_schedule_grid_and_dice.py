"""In a real browser: the organiser lists the tables, schedules a stage on the grid by tap
and by drag and sees a clash warning before saving; anyone replays the seating dice in the
browser from the Dice page."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import log_in, screenshot
from tests.browser.test_accessibility import check_page
from tests.browser.test_flows import account, seated_tournament
from tournaments.models import Session

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_organiser_schedules_on_the_grid_and_sees_a_clash(new_page):
    organiser = account("capo")
    tournament = seated_tournament()
    tournament.organisers.add(organiser)
    sessions = {s.number: s for s in Session.objects.filter(stage__tournament=tournament)}

    page = new_page()
    log_in(page, "capo")
    page.goto(f"/organise/{tournament.slug}/schedule/")
    page.get_by_role("link", name="Tables of the venue").click()
    page.get_by_label("Number of tables").fill("2")
    page.get_by_role("button", name="Add the tables").click()
    expect(page.get_by_text("2 tables added.")).to_be_visible()

    page.goto(f"/organise/{tournament.slug}/schedule/")
    page.get_by_role("link", name="Tables × time grid: Preliminary").click()
    page.get_by_label("Add a start time").fill("2026-06-01T10:00")
    page.get_by_role("button", name="Add the row").click()

    # tap: pick session 1, then the cell of table 1
    page.get_by_role("link", name="Session 1", exact=True).click()
    page.get_by_role("button", name="Put session 1 at table 1").click()
    expect(page.get_by_text("Session 1 placed at table 1")).to_be_visible()

    # drag: session 3 onto table 2
    page.locator(f'[data-session="{sessions[3].pk}"]').drag_to(page.locator("td.grid-cell").nth(1))
    expect(page.get_by_text("Session 3 placed at table 2")).to_be_visible()

    # tap session 2 onto table 1, where session 1 plays: a warning, nothing saved
    page.get_by_role("link", name="Session 2", exact=True).click()
    page.get_by_role("button", name="Put session 2 at table 1").click()
    warning = page.locator("#clash-warnings")
    expect(warning).to_contain_text("would share table 1 at the same time")
    screenshot(page, "organiser-grid-clash")
    assert Session.objects.get(pk=sessions[2].pk).scheduled_at is None
    page.get_by_role("link", name="Do not save; fix it instead").click()
    expect(page.locator("#clash-warnings")).to_have_count(0)
    assert Session.objects.get(pk=sessions[1].pk).table.name == "1"
    assert Session.objects.get(pk=sessions[3].pk).table.name == "2"
    check_page(page, f"/organise/{tournament.slug}/stages/1/grid/")


def test_the_seating_dice_replay_in_the_browser(new_page):
    tournament = seated_tournament()  # seated by app dice with seed 5
    page = new_page()
    page.goto(f"/t/{tournament.slug}/dice/")
    expect(page.get_by_text("random seating").first).to_be_visible()
    page.get_by_role("link", name="Verify: roll these dice again from the seed").click()
    page.get_by_role("button", name="Replay in my browser").click()
    expect(page.locator("#verify-result")).to_have_text(
        "The hash matches and every die equals the recorded roll."
    )
    expect(page.locator("#verify-rolls tr.differs")).to_have_count(0)
    screenshot(page, "public-dice-verify")
    page.get_by_label("Seed").fill("6")
    page.get_by_role("button", name="Replay in my browser").click()
    expect(page.locator("#verify-result")).to_have_text(
        "This seed does not give the published hash."
    )
    expect(page.locator("#verify-rolls tr.differs").first).to_be_visible()
    check_page(page, page.url)
