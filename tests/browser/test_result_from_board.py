"""The judge ends a short TPK final on the board and confirms the result it proposes: the
stall breaker ends it after round 2, the result page comes filled (the stall-breaker
rows included), one click confirms it, and the session's page links the result to the
game. On a phone in Italian and on a desktop in English."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from table.actions import create_game
from tests.browser.conftest import log_in, screenshot
from tests.browser.test_flows import account
from tests.browser.test_judge_table import DESKTOP, PHONE, drawn_session
from tournaments.models import Result, StipulationKind

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SETUPS = {"phone-it": (PHONE, "it-IT"), "desktop-en": (DESKTOP, "en-GB")}


@pytest.mark.parametrize("setup", SETUPS)
def test_the_judge_ends_a_game_and_confirms_its_result(new_page, setup):
    size, locale = SETUPS[setup]
    judge = account("arbitro")
    session = drawn_session(judge)
    stage = session.stage
    stage.stipulation_kind = StipulationKind.TPK
    stage.stipulation_params = {
        "stall_breaker": {"from_round": 1, "points": 5, "growth": 0, "max_extra_rounds": 1}
    }
    stage.map_name = "tpk-ring"
    stage.save()
    game = create_game(session, "tpk-ring", "bob", label="Tavolo 1", actor=judge)
    page = new_page(locale=locale, width=size["width"], height=size["height"])
    log_in(page, "arbitro")
    board = f"/table/sessions/{session.pk}/games/{game.number}/"
    page.goto(board)
    end_turn = page.locator('form[action$="/end-turn/"] button')
    next_round = page.locator('form[action$="/next-round/"] button')
    for _round in range(2):
        for _player in range(3):
            end_turn.click()
            page.wait_for_load_state()
        next_round.click()
        page.wait_for_load_state()
    propose = page.get_by_test_id("propose-result")
    expect(propose).to_be_visible()
    screenshot(page, f"result-from-board-over-{setup}")
    propose.click()
    page.wait_for_url(f"**{board}result/")
    expect(page.get_by_test_id("from-game-end")).to_be_visible()
    # The stall breaker's rows are filled: nobody closed in, so every squad lost 5.
    stall = page.locator('input[name$="-stall-0-points"]')
    expect(stall).to_have_count(3)
    for index in range(3):
        expect(stall.nth(index)).to_have_value("-5")
    screenshot(page, f"result-from-board-form-{setup}")
    page.locator('#result-form p.actions button[type="submit"]').click()
    page.wait_for_url(f"**/judge/sessions/{session.pk}/")
    screenshot(page, f"result-from-board-saved-{setup}")
    link = page.get_by_test_id("result-from-board")
    expect(link).to_be_visible()
    screenshot(page, f"result-from-board-saved-{setup}")
    version = Result.objects.get(session=session).latest_version()
    assert version is not None and version.confirmed
    assert version.game_number == game.number and version.game_step == game.latest().number
    link.click()
    page.wait_for_url(f"**{board}")
