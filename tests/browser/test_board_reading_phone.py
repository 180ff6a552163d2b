"""The board as a judge holds it on a phone (390×844, Italian): the board starts in the
first screen, the Alien turn's form right under the turn, nothing scrolls sideways, the
history's buttons on one line, a lit door a fingertip's target, the tool that drops a
choice named apart from the undo, and a "No" to a typed move into a docking claw giving
the focus back to the square typed; on a desktop the Alien turn's form sits beside the
board, under the turn."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from table.actions import move_marine
from tests.browser.conftest import log_in, screenshot
from tests.browser.test_board_confirmations import OUT_OF_THE_CLAW
from tests.browser.test_judge_table import DESKTOP, PHONE
from tests.browser.test_touch_board import board_url, figure, place, tap
from tests.browser.test_touch_board import game as game  # noqa: F401 - the fixture
from tests.table.test_open_door import at_a_door

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: A fingertip's comfortable target (WCAG 2.5.5), in CSS pixels.
FINGERTIP = 44


@pytest.fixture
def judge_on(new_page):
    def make(size: dict, locale: str = "it-IT", touch: bool = True):
        page = new_page(locale=locale, width=size["width"], height=size["height"], touch=touch)
        log_in(page, "arbitro")
        return page

    return make


def test_on_a_phone_the_board_starts_in_the_first_screen(game, judge_on):  # noqa: F811
    page = judge_on(PHONE)
    page.goto(board_url(game))
    board = page.locator("#play .board-scroll").bounding_box()
    assert board["y"] < PHONE["height"] * 0.65, board  # most of it below, in sight
    assert page.evaluate("document.documentElement.scrollWidth - innerWidth") == 0
    # The Alien turn's form follows the turn, before the folded log and forms.
    turn = page.locator("#turn").bounding_box()
    alien = page.locator("#alien-turn").bounding_box()
    drawer = page.locator("#drawer").bounding_box()
    assert turn["y"] < alien["y"] < drawer["y"]
    expect(page.locator("#drawer")).not_to_have_attribute("open", "")
    # Dropping a choice and undoing a step are two words, not one.
    expect(page.locator('[data-play="cancel"]')).to_have_text("Deseleziona")
    expect(page.locator(".undo-last button")).to_have_count(0)  # no step to undo yet
    screenshot(page, "table-board-reading-phone-it")


def test_on_a_phone_the_history_buttons_keep_to_one_line(game, judge_on):  # noqa: F811
    move_marine(game, "p1-m2", (5, 4), expected_number=1)
    page = judge_on(PHONE)
    page.goto(board_url(game))
    page.locator("#drawer").evaluate("drawer => drawer.open = true")
    back = page.locator("#history button", has_text="Torna al passo").first
    expect(back).to_be_visible()
    assert back.bounding_box()["height"] < 52  # one line, 44 px high at least
    expect(page.locator(".undo-last button")).to_have_text("Annulla l'ultimo passo")
    assert page.evaluate("document.documentElement.scrollWidth - innerWidth") == 0


def test_a_lit_door_is_a_fingertips_target_on_a_phone(game, judge_on):  # noqa: F811
    marine, a, b = at_a_door(game)
    page = judge_on(PHONE)
    page.goto(board_url(game))
    tap(page, figure(page, marine), True)
    target = page.locator(f'[data-door="{a[0]},{a[1]} {b[0]},{b[1]}"] .mark-door-target')
    expect(target).to_have_count(1)
    box = target.bounding_box()
    assert box["width"] >= FINGERTIP - 1 and box["height"] >= FINGERTIP - 1, box
    # Named as the log names the marine, the door by its two squares.
    label = page.locator(f'[data-door="{a[0]},{a[1]} {b[0]},{b[1]}"]').get_attribute("aria-label")
    assert label == f"Apri la porta tra {a[0]},{a[1]} e {b[0]},{b[1]}"


def test_no_to_a_typed_move_into_a_claw_gives_the_focus_to_the_square(game, judge_on):  # noqa: F811
    place(game, OUT_OF_THE_CLAW)
    page = judge_on(DESKTOP, "en-GB", touch=False)
    page.goto(board_url(game))
    form = page.locator("#move")
    form.locator("#id_move-figure").select_option("p1-m3")
    form.locator("#id_move-square").fill("4,0")
    form.get_by_role("button", name="Move", exact=True).click()
    expect(form.locator(".confirm-ask")).to_contain_text("· p1-m3 would end its move on 4,0")
    form.get_by_role("button", name="No, it stays on the board").click()
    expect(form.locator("#id_move-square")).to_be_focused()


def test_on_a_desktop_the_alien_turn_sits_beside_the_board(game, judge_on):  # noqa: F811
    page = judge_on(DESKTOP, "en-GB", touch=False)
    page.goto(board_url(game))
    board = page.locator("#play").bounding_box()
    alien = page.locator("#alien-turn").bounding_box()
    assert alien["x"] > board["x"] + board["width"]  # the right-hand column
    assert alien["y"] < board["y"] + board["height"]  # beside the board, not under it
    assert page.evaluate("document.documentElement.scrollWidth - innerWidth") == 0
