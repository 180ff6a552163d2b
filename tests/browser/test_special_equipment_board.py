"""A judge crews an abandoned Tarantula by taps on the touch board and, next turn, moves it
by tapping where its front ends (RULES §10; docs/turns.md "Special equipment")."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from rules.engine.tarantula import tarantula_reach
from table.actions import latest_snapshot, snapshot_state
from tests.browser.conftest import log_in, screenshot
from tests.browser.test_judge_table import DESKTOP
from tests.browser.test_touch_board import board_url, figure, game, light, open_page, tap
from tests.table.conftest import abandoned_tarantula, fresh_turn

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

__all__ = ["game", "open_page"]  # fixtures shared with the touch board's tests


def test_a_judge_crews_a_tarantula_by_taps_and_moves_it(game, open_page):
    abandoned_tarantula(game, surveyed=True)

    page = open_page(DESKTOP)
    log_in(page, "arbitro")
    page.goto(board_url(game))
    tap(page, figure(page, "p1-m1"), False)
    expect(page.locator("#play-status")).to_contain_text("Special equipment")
    board_it = page.get_by_role("button", name="Board tarantula-1 (the whole turn)")
    expect(board_it).to_be_visible()
    screenshot(page, "table-touch-crew-tarantula")
    board_it.click()
    expect(page.locator("#log")).to_contain_text(
        "p1-m1 takes the controls of Tarantula Ta1 · tarantula-1"
    )
    expect(figure(page, "p1-m1")).to_have_attribute("data-square", "6,5")

    # The next turn: the Tarantula's lit squares are where its front may end.
    fresh_turn(game, "p1")
    page.goto(board_url(game))
    tap(page, figure(page, "tarantula-1"), False)
    expect(page.locator("#play-status")).to_contain_text("tarantula-1 selected")
    expect(light(page, "14,5")).to_have_count(1)  # six squares ahead, facing east only
    tap(page, light(page, "14,5"), False)
    expect(figure(page, "tarantula-1")).to_have_attribute("data-square", "14,5")
    expect(figure(page, "p1-m1")).to_have_attribute("data-square", "12,5")
    moved = snapshot_state(latest_snapshot(game))
    assert moved.figure("tarantula-1").squares == ((14, 5), (13, 5))

    # A square where it may face several ways asks which way.
    fresh_turn(game, "p1")
    reach = tarantula_reach(snapshot_state(latest_snapshot(game)), "tarantula-1", 6)
    front, facings = next((sq, fs) for sq, fs in sorted(reach.items()) if len(fs) > 1)
    square = f"{front[0]},{front[1]}"
    page.goto(board_url(game))
    tap(page, figure(page, "tarantula-1"), False)
    tap(page, light(page, square), False)
    expect(page.locator("#play-status")).to_contain_text("choose which way it faces")
    page.locator(f"#play-options [data-facing='{facings[-1].value}']").click()
    expect(page.locator("#log")).to_contain_text("tarantula-1")
    after = snapshot_state(latest_snapshot(game)).figure("tarantula-1")
    assert after.squares[0] == front and after.facing is facings[-1]
