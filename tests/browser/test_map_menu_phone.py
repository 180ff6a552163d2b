"""The map menus on a phone (390×844, Italian, touch): the organiser's stage page and a
session's settings page, and the judge's new-game form. A map's name as the menus show it
is long ("Stazione ripetitrice (Cattura la Bandiera) (flag-relay)", wider than a phone's
menu): the chosen one is read whole, wrapping onto more lines, and the page never scrolls
sideways; on a desktop (1280×800, English) it fits on one line."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.browser.conftest import log_in, screenshot
from tests.browser.test_flows import account, seated_tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: How the chosen option's text fits the menu: its width as the menu's font draws it, the
#: lines that width needs in the menu's content box (less the arrow), and the lines the
#: menu has room for; and whether the menu, and the page, stay within the window.
FIT = """
el => {
  const style = getComputedStyle(el);
  const context = document.createElement('canvas').getContext('2d');
  context.font = style.font;
  const text = el.options[el.selectedIndex].text;
  const width = context.measureText(text).width;
  const inner = el.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  const arrow = 1.5 * parseFloat(style.fontSize);
  const lineHeight = 1.15 * parseFloat(style.fontSize);
  const height = el.clientHeight - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom);
  const root = document.documentElement;
  return {
    text,
    lines_needed: Math.ceil(width / (inner - arrow)),
    lines_shown: Math.floor(height / lineHeight),
    within_window: el.getBoundingClientRect().right <= root.clientWidth + 1,
    page_scrolls_sideways: root.scrollWidth > root.clientWidth + 1,
  };
}
"""

LONGEST = "flag-relay"


@pytest.fixture
def menus():
    """The addresses of the three pages with a map menu (the organiser's two, the judge's
    new-game form), the tournament's organiser and judge being able to open them all."""
    organiser = account("capo")
    judge = account("giudice")
    tournament = seated_tournament(judge)
    tournament.organisers.add(organiser)
    session = tournament.stages.get(number=1).sessions.get(number=1)
    slug = tournament.slug
    return {
        "stage": reverse("tournaments:organiser_stage", args=[slug, 1]),
        "session": reverse("tournaments:organiser_session_settings", args=[slug, session.pk]),
        "new-game": reverse("table:games", args=[session.pk]),
    }


@pytest.mark.parametrize(
    ("phone", "locale", "viewport"),
    [(True, "it-IT", (390, 844)), (False, "en-GB", (1280, 800))],
    ids=["phone", "desktop"],
)
def test_the_chosen_map_is_read_whole(new_page, menus, phone, locale, viewport):
    page = new_page(locale=locale, width=viewport[0], height=viewport[1], touch=phone)
    log_in(page, "capo")
    for name, url in menus.items():
        page.goto(url)
        menu = page.locator("select.map-menu")
        assert menu.count() == 1, name
        menu.select_option(LONGEST)
        fit = menu.evaluate(FIT)
        assert LONGEST in fit["text"], name
        if phone:
            assert fit["lines_needed"] > 1, f"{name}: the name fits anyway: {fit}"
        assert fit["lines_shown"] >= fit["lines_needed"], f"{name}: the name is cut: {fit}"
        assert fit["within_window"] and not fit["page_scrolls_sideways"], f"{name}: {fit}"
        menu.scroll_into_view_if_needed()
        screenshot(page, f"map-menu-{name}-{'phone' if phone else 'desktop'}")
