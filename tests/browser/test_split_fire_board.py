"""On a phone, the assault cannon's split lights every figure it covers, each with its own
odds, and its button gives each target's odds; a refused attack leaves the address bar on
the board, not on the step's address (which takes only a POST)."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from playwright.sync_api import expect

from table.actions import latest_snapshot, snapshot_state, upload_state
from table.models import Game
from tests.browser.conftest import log_in
from tests.browser.test_judge_table import PHONE
from tests.browser.test_touch_board import board_url, figure, game, light, open_page, tap

__all__ = ["game", "open_page"]  # the fixtures these tests use

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def split_gunner(game: Game) -> None:
    """p1-m4 with an assault cannon, p2-m1 and p2-m2 in its sight on 4,5 and 4,6."""
    state = snapshot_state(latest_snapshot(game))
    for fid, sq in {"p2-m1": (4, 5), "p2-m2": (4, 6)}.items():
        state = state.with_figure(state.figure(fid).moved_to((sq,)))
    gunner = replace(state.figure("p1-m4"), unit="heavy_weapon_marine", weapons=("assault_cannon",))
    state = state.with_figure(gunner)
    upload_state(game, json.dumps(state.to_json()), expected_number=latest_snapshot(game).number)


def choose_the_split(page) -> None:
    tap(page, figure(page, "p1-m4"), True)
    page.get_by_role("button", name="Attack", exact=True).click()


def board_with_the_split_chosen(game, open_page):
    """The judge's board on a phone, the assault-cannon marine chosen to attack."""
    split_gunner(game)
    page = open_page(PHONE, touch=True)
    log_in(page, "arbitro")
    page.goto(board_url(game))
    choose_the_split(page)
    return page


def test_a_split_lights_every_target_with_its_own_odds(game, open_page):
    page = board_with_the_split_chosen(game, open_page)
    first, second = light(page, "4,5", "target"), light(page, "4,6", "target")
    expect(first).to_have_count(1)
    expect(second).to_have_count(1)
    tap(page, second, True)
    split = page.locator("#play-options button", has_text="assault cannon")
    expect(split).to_have_count(1)
    expect(split).to_contain_text("p2-m2 (Marine): destroyed with probability")
    expect(split).to_contain_text("p2-m1 (Marine): destroyed with probability")
    text = split.text_content() or ""
    assert text.index("p2-m2 (Marine): destroyed") < text.index("p2-m1 (Marine): destroyed")


def test_a_refused_attack_leaves_the_address_on_the_board(game, open_page):
    page = board_with_the_split_chosen(game, open_page)
    tap(page, light(page, "4,5", "target"), True)
    page.locator("#play-options button", has_text="assault cannon").click()
    page.locator("#odds input[name='attack-mode'][value='physical']").check()
    page.locator("#odds input[name='attack-dice']").fill("sette")
    page.get_by_role("button", name="Resolve the attack").click()
    expect(page.locator("#odds input[name='attack-dice']")).to_have_value("sette")
    expect(page.locator("#odds .errorlist")).not_to_have_count(0)
    assert page.url.endswith(board_url(game)), page.url
    page.reload()
    expect(page.locator("#play")).to_be_visible()
    expect(page.get_by_role("heading", name="Not possible here")).to_have_count(0)
