"""The organiser's players table and stage grid on a phone (390×844, Italian, touch) and a
desktop (1280×800, English): each private link is read whole and copied with its button
(without JavaScript there is no button, and the link is still there to select); on a phone
each player is a block, the page never scrolling sideways; the grid's caption stays within
its box, wrapping, however far the grid is scrolled, and its cell buttons say what they do."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PASSWORD, screenshot
from tests.browser.test_accessibility import check_page
from tests.browser.test_flows import account, seated_tournament
from tests.factories import VenueTableFactory
from tournaments.models import Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}

#: Whether an element shows all its text: nothing cut at its right edge, nor at the
#: window's.
SHOWN_WHOLE = """
el => el.scrollWidth <= el.clientWidth + 1
      && el.getBoundingClientRect().right <= document.documentElement.clientWidth + 1
"""


@pytest.fixture
def tournament() -> Tournament:
    organiser = account("capo", first_name="Olga")
    tournament = seated_tournament()
    tournament.organisers.add(organiser)
    return tournament


def copying_context(browser, live_server, *, phone: bool, script: bool = True):
    """A browser context on a phone (Italian, touch) or a desktop (English), JavaScript on
    or off, that may write and read the clipboard."""
    context = browser.new_context(
        base_url=live_server.url,
        locale="it-IT" if phone else "en-GB",
        viewport=PHONE if phone else DESKTOP,
        has_touch=phone,
        is_mobile=phone,
        java_script_enabled=script,
    )
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server.url)
    context.set_default_timeout(10_000)
    return context


@pytest.fixture
def open_page(browser, live_server):
    """A logged-in organiser's page: ``phone`` (Italian, touch) or desktop (English);
    ``script``: whether JavaScript runs. The clipboard may be written and read."""
    contexts = []

    def make(*, phone: bool, script: bool = True):
        context = copying_context(browser, live_server, phone=phone, script=script)
        contexts.append(context)
        page = context.new_page()
        page.goto("/accounts/login/")
        page.locator("#id_username").fill("capo")
        page.locator("#id_password").fill(PASSWORD)
        page.locator("main form button[type=submit]").click()
        page.wait_for_url(lambda url: "/accounts/login/" not in url)
        return page

    yield make
    for context in contexts:
        context.close()


def first_player(tournament: Tournament):
    return tournament.registrations.select_related("player").order_by("number").first().player


def page_width(page) -> int:
    return page.evaluate("document.documentElement.scrollWidth")


@pytest.mark.parametrize("phone", [True, False], ids=["phone-it", "desktop-en"])
def test_each_private_link_is_read_whole_and_copied(open_page, live_server, tournament, phone):
    player = first_player(tournament)
    url = f"/organise/{tournament.slug}/players/"
    page = open_page(phone=phone)
    page.goto(url)
    width = PHONE["width"] if phone else DESKTOP["width"]
    assert page_width(page) <= width
    row = page.locator(f"#player-{player.pk}")
    link = row.locator(".private-link")
    expected = f"{live_server.url}/p/{player.access_token}/"
    expect(link).to_have_text(expected)
    expect(link).to_be_in_viewport()
    assert link.evaluate(SHOWN_WHOLE)
    assert link.bounding_box()["width"] >= 180  # not a sliver showing "http://"

    name = "Copia il link privato di" if phone else "Copy the private link of"
    copy = row.get_by_role("button", name=f"{name} {player.name}")
    expect(copy).to_be_visible()
    copy.click()
    expect(copy).to_have_text("Copiato" if phone else "Copied")
    expect(page.locator("#copy-status")).to_have_text("Copiato" if phone else "Copied")
    assert page.evaluate("navigator.clipboard.readText()") == expected

    label = row.locator(".account-link label")
    expect(label).to_have_text("Nome utente o email" if phone else "User name or email")
    status = row.locator("td").last
    expect(status.locator(".badge")).to_have_text("Iscritto" if phone else "Registered")
    edit = row.get_by_role(
        "link", name=f"{'Modifica o ritira' if phone else 'Edit or withdraw'} {player.name}"
    )
    expect(edit).to_be_visible()
    if phone:
        # A block per player: the link and the account's field take the row's width.
        assert link.bounding_box()["x"] < 100
        assert row.get_by_label("Nome utente o email").bounding_box()["width"] >= 200
    screenshot(page, f"organiser-players-{'phone-it' if phone else 'desktop-en'}")
    check_page(page, url)


def test_without_javascript_the_link_is_there_to_select(open_page, live_server, tournament):
    player = first_player(tournament)
    page = open_page(phone=True, script=False)
    page.goto(f"/organise/{tournament.slug}/players/")
    row = page.locator(f"#player-{player.pk}")
    link = row.locator(".private-link")
    expect(link).to_have_text(f"{live_server.url}/p/{player.access_token}/")
    expect(link).to_be_in_viewport()
    expect(link).to_have_css("user-select", "all")  # one tap selects it whole
    expect(row.locator("button[data-copy]")).to_be_hidden()  # no button that does nothing


def test_the_grid_caption_wraps_in_its_box_and_the_cell_button_says_what_it_does(
    open_page, tournament
):
    for name in ("1", "2", "3", "Sala grande"):
        VenueTableFactory(tournament=tournament, name=name)
    url = f"/organise/{tournament.slug}/stages/1/grid/?at=2026-06-01T10:00"
    page = open_page(phone=True)
    page.goto(url)
    assert page_width(page) <= PHONE["width"]
    box = page.locator(".table-wrap.scrolls")
    caption = box.locator("caption")
    expect(caption).to_have_text("Tavoli × orari d'inizio")
    assert box.evaluate("box => box.scrollWidth > box.clientWidth")  # the grid scrolls
    for left in (0, 10_000):
        box.evaluate("(box, left) => { box.scrollLeft = left; }", left)
        shown, frame = caption.bounding_box(), box.bounding_box()
        assert shown["x"] >= frame["x"] - 1
        assert shown["x"] + shown["width"] <= frame["x"] + frame["width"] + 1
    # A caption longer than the box wraps within it.
    caption.evaluate("caption => { caption.textContent += ' ' + caption.textContent.repeat(3); }")
    shown, frame = caption.bounding_box(), box.bounding_box()
    assert shown["x"] + shown["width"] <= frame["x"] + frame["width"] + 1
    assert shown["height"] > 40
    page.reload()

    button = page.get_by_role(
        "button", name="Metti qui la sessione scelta (tavolo Sala grande, 01/06/2026 10:00)"
    )
    page.get_by_label("Sessione per il tavolo Sala grande").select_option(label="Sessione 2")
    screenshot(page, "organiser-grid-phone-it")
    button.click()
    expect(page.get_by_text("Sessione 2 messa al tavolo Sala grande.")).to_be_visible()
    check_page(page, url)
