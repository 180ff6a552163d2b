"""The bracket and the plain standings on a phone (390×844, touch) and a desktop: the page
never scrolls sideways; the bracket keeps its own size on a phone (its words legible),
scrolling inside its box with a hint saying so, and reaches the final planned but not
seated yet; the plain standings fit by leaving the less important columns to wide screens,
a row's squad and rank shown under the player's name instead."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from rules.engine.dice import SeededDice
from tests.browser.conftest import screenshot
from tests.browser.test_accessibility import check_page
from tests.factories import TournamentFactory, confirm_stage, register_players
from tournaments.actions.stage_advance import advance
from tournaments.models import Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
#: The seat names' font size in the bracket's drawing (bracket_svg.SEAT_NAME).
SEAT_FONT = 13


@pytest.fixture
def tournament() -> Tournament:
    """Nine players: the preliminary played, the semifinals seated, the final planned."""
    tournament = TournamentFactory(name="Coppa del Lago", slug="coppa-lago")
    register_players(tournament, 9)
    advance(tournament, SeededDice(seed=1))
    confirm_stage(tournament.stages.get(number=1), lambda seat: 10 * seat.seat_order)
    advance(tournament, SeededDice(seed=2))
    return tournament


def page_width(page) -> int:
    return page.evaluate("document.documentElement.scrollWidth")


def drawn_scale(page) -> float:
    """The bracket's size on screen over its own size."""
    svg = page.locator("svg.bracket")
    return svg.bounding_box()["width"] / float(svg.get_attribute("width"))


def test_the_bracket_is_legible_on_a_phone_and_fits_a_desktop(new_page, tournament):
    url = f"/t/{tournament.slug}/bracket/"
    page = new_page(width=PHONE["width"], height=PHONE["height"], touch=True)
    page.goto(url)
    assert page_width(page) <= PHONE["width"]
    assert SEAT_FONT * drawn_scale(page) >= 12.5  # was 4.7px, shrunk to the phone's width
    box = page.locator(".bracket-scroll")
    assert box.evaluate("box => box.scrollWidth > box.clientWidth + 100")
    expect(page.locator(".bracket-hint")).to_be_visible()
    expect(box).to_have_attribute("role", "region")  # a keyboard can scroll it too
    final = page.locator("svg.bracket").get_by_text("not seated yet", exact=True)
    expect(final).to_have_count(1)
    box.evaluate("box => { box.scrollLeft = box.scrollWidth; }")
    expect(final).to_be_in_viewport()
    screenshot(page, "public-bracket-phone")
    check_page(page, url)

    page.set_viewport_size(DESKTOP)
    page.goto(url)
    assert page_width(page) <= DESKTOP["width"]
    assert box.evaluate("box => box.scrollWidth <= box.clientWidth")
    assert drawn_scale(page) > 0.99  # three columns fit a desktop at their own size
    expect(page.locator(".bracket-hint")).to_be_hidden()
    expect(final).to_be_in_viewport()


def test_the_plain_standings_fit_a_phone(new_page, tournament):
    url = f"/t/{tournament.slug}/standings/plain/"
    page = new_page(width=PHONE["width"], height=PHONE["height"], touch=True)
    page.goto(url)
    assert page_width(page) <= PHONE["width"]
    expect(page.get_by_role("columnheader", name="Squad")).to_be_hidden()
    expect(page.get_by_role("columnheader", name="Points")).to_be_visible()
    leader = page.locator("tbody tr").first.get_by_role("rowheader")
    expect(leader).to_contain_text(" · ")  # the squad and the rank under the name
    screenshot(page, "public-standings-plain-phone")
    check_page(page, url)

    page.set_viewport_size(DESKTOP)
    expect(page.get_by_role("columnheader", name="Squad")).to_be_visible()
    expect(leader.locator(".show-small")).to_be_hidden()
