"""Basic accessibility checks on the main pages in a real browser: every form control has
a label, one h1 per page, the language is declared, the skip link comes first on Tab, and
the layout fits a phone without sideways scrolling of the page itself."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .conftest import log_in
from .test_flows import account, seated_tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

UNLABELLED = """
() => Array.from(document.querySelectorAll('input, select, textarea'))
  .filter(el => el.type !== 'hidden' && el.offsetParent !== null)
  .filter(el => !(el.labels && el.labels.length) && !el.getAttribute('aria-label')
                && !el.getAttribute('aria-labelledby'))
  .map(el => el.outerHTML.slice(0, 120))
"""


def check_page(page, url: str) -> None:
    page.goto(url)
    assert page.evaluate(UNLABELLED) == [], url
    expect(page.locator("h1")).to_have_count(1)
    assert page.locator("html").get_attribute("lang") in {"en", "it"}
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 1, f"{url} scrolls sideways by {overflow}px on a phone"


def test_main_pages_are_labelled_and_fit_a_phone(new_page):
    judge = account("giudice")
    organiser = account("capo")
    tournament = seated_tournament(judge)
    tournament.organisers.add(organiser)
    session = tournament.stages.get(number=1).sessions.get(number=1)
    player = session.seats.first().player

    page = new_page(width=390, height=844)
    for url in [
        "/",
        f"/t/{tournament.slug}/",
        f"/t/{tournament.slug}/standings/",
        f"/t/{tournament.slug}/schedule/",
        f"/t/{tournament.slug}/bracket/",
        f"/t/{tournament.slug}/honours/",
        f"/t/{tournament.slug}/sessions/{session.pk}/",
        "/accounts/login/",
    ]:
        check_page(page, url)

    page.goto(f"/p/{player.access_token}/")
    check_page(page, "/me/")
    check_page(page, f"/me/{tournament.slug}/preferences/")

    staff = new_page(width=390, height=844)
    log_in(staff, "giudice")
    check_page(staff, f"/judge/sessions/{session.pk}/")
    check_page(staff, f"/judge/sessions/{session.pk}/result/")

    boss = new_page(width=390, height=844)
    log_in(boss, "capo")
    for url in [
        "/organise/new/",
        f"/organise/{tournament.slug}/",
        f"/organise/{tournament.slug}/players/",
        f"/organise/{tournament.slug}/schedule/",
    ]:
        check_page(boss, url)


def test_skip_link_is_the_first_tab_stop(new_page):
    tournament = seated_tournament()
    page = new_page()
    page.goto(f"/t/{tournament.slug}/")
    page.keyboard.press("Tab")
    focused = page.evaluate("document.activeElement.getAttribute('href')")
    assert focused == "#content"
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.id") == "content"
