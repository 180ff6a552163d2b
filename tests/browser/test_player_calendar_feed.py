"""A player's calendar feed on their games page: its address read whole on a phone
(390×844, Italian, touch) and on a desktop (1280×800, English) and copied with its button,
the copied address answering a calendar; without JavaScript there is no button, and the
address is still there to select (it used to be a one-line field cut after "http://12")."""

from __future__ import annotations

import urllib.request

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import screenshot
from tests.browser.test_accessibility import check_page
from tests.browser.test_flows import seated_tournament
from tests.browser.test_organiser_phone_fixes import (
    DESKTOP,
    PHONE,
    SHOWN_WHOLE,
    copying_context,
    page_width,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def player():
    tournament = seated_tournament()
    return tournament.registrations.select_related("player").order_by("number").first().player


@pytest.fixture
def open_games(browser, live_server):
    """The player's games page through their private link: ``phone`` (Italian, touch) or
    desktop (English); ``script``: whether JavaScript runs."""
    contexts = []

    def make(player, *, phone: bool, script: bool = True):
        context = copying_context(browser, live_server, phone=phone, script=script)
        contexts.append(context)
        page = context.new_page()
        page.goto(f"/p/{player.access_token}/")
        return page

    yield make
    for context in contexts:
        context.close()


@pytest.mark.parametrize("phone", [True, False], ids=["phone-it", "desktop-en"])
def test_the_feed_address_is_read_whole_and_copied(open_games, live_server, player, phone):
    page = open_games(player, phone=phone)
    width = PHONE["width"] if phone else DESKTOP["width"]
    assert page_width(page) <= width
    feed = page.locator("#calendar-feed")
    language = "it" if phone else "en"  # the feed is in the page's language
    expected = f"{live_server.url}/p/{player.access_token}/schedule.ics?lang={language}"
    expect(feed).to_have_text(expected)
    assert feed.evaluate(SHOWN_WHOLE)

    name = (
        "Copia l'indirizzo del feed del calendario" if phone else "Copy the calendar feed address"
    )
    copy = page.get_by_role("button", name=name)
    expect(copy).to_be_visible()
    copy.click()
    expect(copy).to_have_text("Copiato" if phone else "Copied")
    expect(page.locator("#copy-status")).to_have_text("Copiato" if phone else "Copied")
    copied = page.evaluate("navigator.clipboard.readText()")
    assert copied == expected
    with urllib.request.urlopen(copied, timeout=10) as answer:
        assert answer.headers["Content-Type"].startswith("text/calendar")
        assert b"BEGIN:VCALENDAR" in answer.read()
    screenshot(page, f"player-calendar-feed-{'phone-it' if phone else 'desktop-en'}")
    check_page(page, page.url)


def test_without_javascript_the_feed_address_is_there_to_select(open_games, live_server, player):
    page = open_games(player, phone=True, script=False)
    feed = page.locator("#calendar-feed")
    expect(feed).to_have_text(f"{live_server.url}/p/{player.access_token}/schedule.ics?lang=it")
    expect(feed).to_have_css("user-select", "all")  # one tap selects it whole
    expect(page.locator("button[data-copy]")).to_be_hidden()  # no button that does nothing
