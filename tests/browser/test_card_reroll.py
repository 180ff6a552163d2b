"""A re-roll by taps on a phone (RULES §5): a marine whose squad marked its missile launcher with a
Targeter shoots; the board says a die may be rolled again; one tap on the die rolls it
again and the attack is resolved again, in the log."""

from __future__ import annotations

import json
import re
from dataclasses import replace

import pytest
from playwright.sync_api import expect

from table.actions import latest_snapshot, snapshot_state, upload_state
from tests.browser.conftest import log_in, screenshot
from tests.browser.test_judge_table import DESKTOP, PHONE
from tests.browser.test_touch_board import board_url, figure, light, tap
from tests.browser.test_touch_board import game as game  # noqa: F401 - the fixture
from tests.browser.test_touch_board import open_page as open_page  # noqa: F401 - the fixture

#: The log's line of the die rolled again, the marine named as the log names it.
REROLLED = re.compile(r"Targeter: .+ · p1-m4 rolls die 1 again")

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def targeter_on_the_missile_launcher(game) -> None:  # noqa: F811 - the fixture's value
    """p2-m1 in p1-m4's sight; p1 holds a Targeter marking the missile launcher."""
    state = snapshot_state(latest_snapshot(game))
    state = state.with_figure(state.figure("p2-m1").moved_to(((4, 5),)))
    p1 = replace(state.player("p1"), cards=("targeter",), targeter_marks=("missile_launcher",))
    state = state.with_player(p1)
    upload_state(game, json.dumps(state.to_json()), expected_number=latest_snapshot(game).number)


def fire_the_launcher(page) -> None:
    """p1-m4 fires its missile launcher at p2-m1 by taps, and misses (physical dice 0 and
    0: a re-roll is offered only when it may help)."""
    tap(page, figure(page, "p1-m4"), True)
    page.get_by_role("button", name="Attack", exact=True).tap()
    tap(page, light(page, "4,5", "target"), True)
    page.locator("#play-options button").first.tap()
    page.locator("#odds input[name='attack-mode'][value='physical']").check()
    page.locator("#odds input[name='attack-dice']").fill("0, 0")
    page.get_by_role("button", name="Resolve the attack").tap()
    expect(page.locator("#play-status")).to_contain_text("A card lets the last attack roll")


def test_a_judge_rolls_a_die_again_by_tapping(game, open_page):  # noqa: F811
    targeter_on_the_missile_launcher(game)
    page = open_page(PHONE, touch=True)
    log_in(page, "arbitro")
    page.goto(board_url(game))
    fire_the_launcher(page)
    attacked = latest_snapshot(game)
    first = page.locator("#reroll [data-reroll-die='1']")
    expect(first).to_be_visible()
    first.scroll_into_view_if_needed()
    screenshot(page, "table-touch-reroll-phone")
    tap(page, first, True)
    expect(page.locator("#log")).to_contain_text(REROLLED)
    after = latest_snapshot(game)
    assert after.number == attacked.number + 1 and after.steps[0]["code"] == "reroll_done"
    expect(page.locator("#reroll")).to_have_count(0)


def test_another_view_of_the_board_shows_the_offer_and_its_end(game, open_page):  # noqa: F811
    """A second device on the same game (the judge's tablet beside the phone) shows the
    re-roll offer as soon as the attack is made, and takes it away once the die is rolled."""
    targeter_on_the_missile_launcher(game)
    other = open_page(DESKTOP)
    log_in(other, "arbitro")
    other.goto(board_url(game))
    expect(other.locator("#reroll-panel")).to_be_attached()
    expect(other.locator("#reroll")).to_have_count(0)
    page = open_page(PHONE, touch=True)
    log_in(page, "arbitro")
    page.goto(board_url(game))
    fire_the_launcher(page)
    offered = other.locator("#reroll [data-reroll-die='1']")
    expect(offered).to_be_visible(timeout=10_000)
    tap(page, page.locator("#reroll [data-reroll-die='1']"), True)
    expect(page.locator("#log")).to_contain_text(REROLLED)
    expect(other.locator("#reroll")).to_have_count(0, timeout=10_000)
    expect(other.locator("#log")).to_contain_text(REROLLED)
