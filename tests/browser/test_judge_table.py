"""The judge at the table, in a real browser, on a phone (390×844) and a desktop (1366×900):
a save that conflicts with someone else's shows the field comparison and cannot put their
value back by one more click; Tab never lands on a field the live points cover (WCAG
2.4.11); counts typed before the page's scripts run get their points; an impossible result
is refused next to its field; the header links only what the visitor can open and fits a
phone."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from rules.engine.dice import SeededDice
from tests.browser.conftest import log_in, screenshot
from tests.browser.test_flows import account, seated_tournament
from tournaments.actions.session_setup import draw_squads
from tournaments.models import Result, Session

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1366, "height": 900}
VIEWPORTS = {"phone": PHONE, "desktop": DESKTOP}

#: Where the focused element is, and every fixed or sticky element over it.
FOCUS_COVERED = """
() => {
  const el = document.activeElement;
  const box = el.getBoundingClientRect();
  const covers = [];
  for (const other of document.querySelectorAll('body *')) {
    const position = getComputedStyle(other).position;
    if ((position !== 'fixed' && position !== 'sticky') || other.contains(el)) continue;
    const r = other.getBoundingClientRect();
    if (r.width && r.height && r.top < box.bottom && r.bottom > box.top
        && r.left < box.right && r.right > box.left) {
      covers.push(other.id || other.className);
    }
  }
  return {
    html: el.outerHTML.slice(0, 90),
    covers: covers,
    inView: box.top >= -1 && box.bottom <= innerHeight + 1,  // a pixel of rounding
    inForm: !!el.closest("#result-form"),
  };
}
"""


def drawn_session(judge) -> Session:
    tournament = seated_tournament(judge)
    session = Session.objects.get(stage__tournament=tournament, number=1)
    draw_squads(session, SeededDice(seed=3), expected_version=session.version)
    return session


def open_result_form(new_page, size: dict) -> tuple[Any, Session]:
    """A drawn session's result form, open for its judge on a page of ``size``."""
    session = drawn_session(account("arbitro"))
    page = new_page(**size)
    log_in(page, "arbitro")
    page.goto(f"/judge/sessions/{session.pk}/result/")
    return page, session


def names(session) -> list[str]:
    return [
        s.player.display_name for s in session.seats.select_related("player").order_by("seat_order")
    ]


def kills_group(page, killer: int, victim: str):
    block = page.locator("fieldset.seat-block").nth(killer)
    return block.get_by_role("group", name=f"Marines of {victim} killed")


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_a_conflicting_save_shows_the_comparison_and_cannot_revert_silently(new_page, viewport):
    judge = account("arbitro")
    organiser = account("capo")
    session = drawn_session(judge)
    session.stage.tournament.organisers.add(organiser)
    first, second, _third = names(session)
    url = f"/judge/sessions/{session.pk}/result/"

    at_table = new_page(**VIEWPORTS[viewport])
    log_in(at_table, "arbitro")
    at_table.goto(url)
    office = new_page(**DESKTOP)
    log_in(office, "capo")
    office.goto(url)

    # The organiser records two heavy-weapon kills; the judge, still on the old page,
    # records an own-fire loss and leaves the kills empty.
    kills_group(office, 0, second).get_by_label("heavy weapon (10)").fill("2")
    office.get_by_role("button", name="Submit the result").click()
    expect(office.get_by_text("Result saved as version 1")).to_be_visible()
    own_fire = (
        at_table.locator("fieldset.seat-block")
        .nth(2)
        .get_by_role("group", name="Own marines lost to own fire")
    )
    own_fire.get_by_label("light or unarmed (5)").fill("1")
    at_table.get_by_role("button", name="Submit the result").click()

    conflict = at_table.get_by_test_id("conflict")
    expect(conflict).to_be_visible()
    expect(conflict).to_contain_text("capo saved version 1")
    change = conflict.get_by_role(
        "group", name=f"{first} · Marines of {second} killed: heavy weapon (10)"
    )
    expect(change).to_contain_text("Empty result: 0")
    expect(change.get_by_label("Yours (as in the form below): 0")).not_to_be_checked()
    expect(change.get_by_label("Version 1 (capo): 2")).to_be_checked()
    expect(kills_group(at_table, 0, second).get_by_label("heavy weapon (10)")).to_have_value("")
    assert Result.objects.get(session=session).versions.count() == 1
    screenshot(at_table, f"judge-result-conflict-{viewport}")

    # Version 1 is confirmed: saving over it is a correction, which says why (decision 50).
    at_table.get_by_label("Reason for the correction (kept on record)").fill(
        "The own-fire loss was missing"
    )
    # One more click saves the comparison as shown: the organiser's kills stay.
    at_table.get_by_role("button", name="Save with the values chosen above").click()
    expect(at_table.get_by_text("Result saved as version 2")).to_be_visible()
    latest = Result.objects.get(session=session).latest_version()
    by_seat = {entry["seat"]: entry for entry in latest.breakdown}
    seats = list(session.seats.order_by("seat_order"))
    assert by_seat[str(seats[0].player_id)]["kills"][0]["count"] == 2
    assert by_seat[str(seats[2].player_id)]["losses"][-1]["cause"] == "own_fire"
    assert latest.reason == "The own-fire loss was missing"


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_tab_never_lands_on_a_field_the_live_points_cover(new_page, viewport):
    page, session = open_result_form(new_page, VIEWPORTS[viewport])
    _first, second, _third = names(session)
    page.locator("#result-form details").evaluate_all("all => all.forEach(d => d.open = true)")
    field = kills_group(page, 0, second).get_by_label("heavy weapon (10)")
    field.fill("2")
    expect(page.get_by_test_id("live-total").first).to_have_text("20")
    sticky = page.locator("#live-bar").evaluate("bar => getComputedStyle(bar).position")
    assert sticky == ("sticky" if viewport == "desktop" else "static")
    field.focus()
    stops = []
    for _press in range(200):
        page.keyboard.press("Tab")
        stop = page.evaluate(FOCUS_COVERED)
        if not stop["inForm"]:
            break
        stops.append(stop)
    assert len(stops) > 40
    covered = [stop["html"] for stop in stops if stop["covers"] or not stop["inView"]]
    assert not covered, f"{len(covered)} of {len(stops)} focused controls hidden: {covered[:5]}"


#: A count typed without scrolling to its field (as a judge's last count lands while they
#: reach for the save button), and the input event htmx listens for.
TYPE_IN_PLACE = """(field, count) => {
  field.value = count;
  field.dispatchEvent(new Event("input", {bubbles: true}));
}"""


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_the_save_button_stays_put_while_the_points_redraw(new_page, viewport):
    """The live preview above the save button grows with the first valid count and shrinks
    to a message for one not valid yet; a judge reaching for the button meanwhile finds it
    where it was (it stays at the foot of the screen)."""
    page, session = open_result_form(new_page, VIEWPORTS[viewport])
    _first, second, _third = names(session)
    field = kills_group(page, 0, second).get_by_label("heavy weapon (10)")
    save = page.get_by_role("button", name="Submit the result")
    totals = page.locator("#live-totals")
    field.fill("2")
    expect(totals).to_contain_text("20")
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    where = save.bounding_box()
    assert where and where["y"] + where["height"] <= VIEWPORTS[viewport]["height"]
    heights = set()
    for count, shown in (("50", "check the marked fields"), ("1", "10"), ("3", "30")):
        field.evaluate(TYPE_IN_PLACE, count)
        expect(totals).to_contain_text(shown)
        heights.add(page.locator("#score-preview").evaluate("preview => preview.offsetHeight"))
        box = save.bounding_box()
        assert box and abs(box["y"] - where["y"]) <= 1, (count, where["y"], box)
    assert len(heights) > 1, "the preview never changed its height: nothing was tested"


def test_counts_typed_while_the_page_still_loads_get_their_points(new_page):
    """A judge who types before the page's scripts have run (a slow connection at the
    venue) sees the points of what they typed once the scripts arrive."""
    judge = account("arbitro")
    session = drawn_session(judge)
    _first, second, _third = names(session)
    page = new_page(**PHONE)
    log_in(page, "arbitro")
    held = []
    page.route("**/htmx.min.js", lambda route: held.append(route))
    page.goto(f"/judge/sessions/{session.pk}/result/", wait_until="commit")
    kills_group(page, 0, second).get_by_label("heavy weapon (10)").fill("2")
    assert held, "the page asked for htmx before the field could be filled"
    held[0].continue_()
    expect(page.get_by_test_id("live-total").first).to_have_text("20")


def test_an_impossible_result_is_refused_next_to_its_field(new_page):
    page, session = open_result_form(new_page, PHONE)
    first, second, _third = names(session)
    field = kills_group(page, 0, second).get_by_label("light or unarmed (5)")
    field.fill("50")
    expect(page.locator("#live-totals")).to_contain_text("check the marked fields")
    expect(page.locator("#score-preview")).to_contain_text(
        f"{first} is recorded killing 50 figures of {second}"
    )
    page.get_by_role("button", name="Submit the result").click()
    field = kills_group(page, 0, second).get_by_label("light or unarmed (5)")
    expect(field).to_have_attribute("aria-invalid", "true")
    expect(field).to_have_value("50")
    error = page.locator(f"#{field.get_attribute('aria-describedby')}")
    expect(error).to_contain_text("but a squad has only 5 (its commander included)")
    assert not Result.objects.filter(session=session).exists()
    screenshot(page, "judge-result-impossible-phone")


#: Per role, the header's links and whether it has the log-out button.
HEADERS = {
    "arbitro": (["Tournaments", "My sessions to judge"], True),
    "capo": (["Tournaments", "My sessions to judge", "Organise"], True),
    None: (["Tournaments", "Log in"], False),
}


@pytest.mark.parametrize("who", HEADERS)
def test_the_header_shows_only_reachable_links_and_fits_a_phone(new_page, who):
    judge = account("arbitro")
    session = drawn_session(judge)
    account("capo")
    session.stage.tournament.organisers.add(*type(judge).objects.filter(username="capo"))
    page = new_page(**PHONE)
    if who:
        log_in(page, who)
    page.goto("/")
    nav = page.get_by_role("navigation", name="Main")
    links, logout = HEADERS[who]
    assert [
        link.get_attribute("aria-label") or link.inner_text()
        for link in nav.get_by_role("link").all()
    ] == links
    header = page.locator(".site-header").bounding_box()
    assert header["height"] <= 2 * 48 + 16, header
    targets = nav.locator("a:visible, button:visible").all()
    for target in targets:
        box = target.bounding_box()
        assert 0 <= box["x"] and box["x"] + box["width"] <= PHONE["width"], target.inner_html()
        assert box["y"] + box["height"] <= header["height"]
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    if logout:
        expect(nav.get_by_role("button", name="Log out")).to_be_in_viewport()
    for link in nav.get_by_role("link").all():
        response = page.request.get(link.get_attribute("href"))
        assert response.status == 200, link.get_attribute("href")
