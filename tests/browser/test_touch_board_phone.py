"""The touch board on a phone (390×844, touch), as a judge who played whole games on one
found it: the coordinate rulers stay in sight as the zoomed board scrolls, no zoom step
has squares too small to tap, a tap out of the selected marine's reach says why and keeps
it selected, the attack form names the attacker chosen by taps, the banner says what the
attack did, and the judge may decline a re-roll with a button of its own."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from rules.engine.board import DoorState
from table.actions import latest_snapshot, snapshot_state
from tests.browser.conftest import SCREENSHOTS, log_in, screenshot
from tests.browser.test_card_reroll import fire_the_launcher, targeter_on_the_missile_launcher
from tests.browser.test_judge_table import PHONE
from tests.browser.test_touch_board import board_url, figure, light, tap
from tests.browser.test_touch_board import game as game  # noqa: F401 - the fixture
from tests.table.test_open_door import at_a_door

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: A fingertip's minimum target (WCAG 2.5.8), in CSS pixels.
MIN_TARGET = 24


def apart(a: dict, b: dict) -> float:
    """How far apart two boxes are (0 when they touch or overlap)."""
    across = max(0, b["x"] - (a["x"] + a["width"]), a["x"] - (b["x"] + b["width"]))
    down = max(0, b["y"] - (a["y"] + a["height"]), a["y"] - (b["y"] + b["height"]))
    return max(across, down)


@pytest.fixture
def phone(new_page):
    """A phone's page, logged in as the session's judge; ``locale`` its language."""

    def make(locale: str = "en-GB"):
        page = new_page(locale=locale, width=PHONE["width"], height=PHONE["height"], touch=True)
        log_in(page, "arbitro")
        return page

    return make


@pytest.mark.parametrize("locale", ["it-IT", "en-GB"])
def test_the_rulers_stay_in_sight_as_the_zoomed_board_scrolls(game, phone, locale):  # noqa: F811
    page = phone(locale)
    page.goto(board_url(game))
    scroller = page.locator(".board-scroll")
    expect(scroller).to_have_attribute("data-zoom", "2")
    scroller.scroll_into_view_if_needed()
    scroller.evaluate("box => { box.scrollTop = 240; box.scrollLeft = 200; }")
    page.wait_for_function(
        "document.querySelector('svg.board g.ruler-columns').getAttribute('transform')"
    )
    view = scroller.bounding_box()
    columns = page.locator("svg.board g.ruler-columns").bounding_box()
    rows = page.locator("svg.board g.ruler-rows").bounding_box()
    assert abs(columns["y"] - view["y"]) <= 3, (columns, view)
    assert abs(rows["x"] - view["x"]) <= 3, (rows, view)
    # The rulers name the squares in sight: the first column number shown is not 0.
    shown = page.evaluate(
        """() => {
          const box = document.querySelector('.board-scroll').getBoundingClientRect();
          const texts = [...document.querySelectorAll('svg.board g.ruler-columns text')];
          return texts.filter(t => t.getBoundingClientRect().left > box.left + 20)
            .map(t => t.textContent)[0];
        }"""
    )
    assert int(shown) > 0
    # What the phone shows (a whole-page picture would lay the board out again, unscrolled).
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"table-touch-rulers-{locale}.png"))


def test_no_zoom_step_has_squares_too_small_to_tap(game, phone):  # noqa: F811
    page = phone()
    page.goto(board_url(game))
    zoom_out = page.get_by_role("button", name="Zoom out")
    for _tap in range(4):
        if zoom_out.is_enabled():
            zoom_out.tap()
    expect(zoom_out).to_be_disabled()
    square = page.locator("#board-panel rect.cell").first.bounding_box()
    assert square["width"] >= MIN_TARGET, square
    assert page.locator(".board-scroll").get_attribute("data-zoom") != "0"


def test_a_tap_out_of_reach_says_why_and_keeps_the_marine(game, phone):  # noqa: F811
    page = phone("it-IT")
    page.goto(board_url(game))
    tap(page, figure(page, "p1-m2"), True)
    expect(page.locator("#board-panel .mark-selected")).to_have_count(1)
    far = page.locator('#board-panel rect.cell[data-square="15,15"]')
    tap(page, far, True)
    status = page.locator("#play-status")
    expect(status).to_contain_text("p1-m2")
    expect(status).to_contain_text("15,15")
    expect(page.locator("#board-panel .mark-selected")).to_have_count(1)  # still selected
    tap(page, light(page, "5,4"), True)  # and it still moves with a tap
    expect(figure(page, "p1-m2")).to_have_attribute("data-square", "5,4")


def test_an_attack_chosen_by_taps_names_its_attacker_and_says_its_outcome(game, phone):  # noqa: F811
    targeter_on_the_missile_launcher(game)
    page = phone()
    page.goto(board_url(game))
    tap(page, figure(page, "p1-m4"), True)
    page.get_by_role("button", name="Attack", exact=True).tap()
    tap(page, light(page, "4,5", "target"), True)
    choice = page.locator("#play-options button").first
    expect(choice).to_contain_text("%")
    expect(choice).not_to_contain_text("/")  # the exact fraction is its tooltip
    assert choice.get_attribute("title").startswith("Exact probability: ")
    choice.tap()
    expect(page.locator("#attacker-select")).to_have_value("p1-m4")
    fire = page.get_by_role("button", name="Resolve the attack")
    page.locator("#odds input[name='attack-mode'][value='physical']").check()
    page.locator("#odds input[name='attack-dice']").fill("3, 3")
    fire.tap()
    outcome = page.locator("#step-outcome")
    expect(outcome).to_contain_text("p1-m4 fires the missile launcher")
    assert outcome.locator("strong").inner_text() == f"Step {latest_snapshot(game).number}:"
    expect(outcome.locator("li").first).to_contain_text("3, 3 = 6")  # the dice
    expect(outcome).to_contain_text("p2-m1 is destroyed")
    name = game.session.seats.get(seat_order=1).player.display_name
    expect(outcome).to_contain_text(f"Player {name} gains 5 points (")
    expect(outcome).to_contain_text("· p2-m1 killed).")
    screenshot(page, "table-touch-attack-outcome-phone")


def test_the_judge_declines_a_reroll_with_its_own_button(game, phone):  # noqa: F811
    targeter_on_the_missile_launcher(game)
    page = phone()
    page.goto(board_url(game))
    fire_the_launcher(page)
    decline = page.locator("#reroll [data-reroll-decline]")
    expect(decline).to_be_visible()
    buttons = page.locator("#reroll .reroll-dice button:visible")
    boxes = [buttons.nth(i).bounding_box() for i in range(buttons.count())]
    assert len(boxes) >= 2 and all(b["height"] >= 44 for b in boxes), boxes
    assert min(apart(a, b) for i, a in enumerate(boxes) for b in boxes[i + 1 :]) >= 8, boxes
    screenshot(page, "table-touch-reroll-decline-phone")
    decline.tap()
    expect(page.locator("#reroll")).to_be_hidden()
    expect(page.locator("#play-status")).to_contain_text("No die rolled again")
    page.reload()
    expect(page.locator("#reroll")).to_be_hidden()


def finger_tap(page, x: float, y: float, radius: float = 12) -> None:
    """A fingertip's tap at (x, y): a touch with a contact area, which Chromium's touch
    adjustment may snap to a nearby tap target (Playwright's own tap is a point)."""
    cdp = page.context.new_cdp_session(page)
    point = {"x": x, "y": y, "radiusX": radius, "radiusY": radius, "force": 1}
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [point]})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    cdp.detach()


def test_a_tap_on_the_lit_square_past_a_door_moves_the_marine_through_it(game, phone):  # noqa: F811
    marine, a, b = at_a_door(game)
    page = phone("it-IT")
    page.goto(board_url(game))
    tap(page, figure(page, marine), True)
    beyond = light(page, f"{b[0]},{b[1]}")
    expect(beyond).to_have_count(1)
    door = page.locator(f'#board-panel [data-door="{a[0]},{a[1]} {b[0]},{b[1]}"]')
    expect(door).to_have_count(1)
    beyond.scroll_into_view_if_needed()
    box = beyond.bounding_box()
    finger_tap(page, box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    expect(figure(page, marine)).to_have_attribute("data-square", f"{b[0]},{b[1]}")
    state = snapshot_state(latest_snapshot(game))
    assert state.door_state(a, b) is DoorState.OPEN  # opened on the way, as the engine does
    assert state.figure(marine).squares == (b,)
    screenshot(page, "table-touch-through-door-phone")
