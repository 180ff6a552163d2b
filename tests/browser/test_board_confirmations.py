"""What cannot simply be taken back asks first on the judge's board, by touch as by mouse,
and still works without JavaScript: the undo of the last step, and a marine's move into a
docking claw (it leaves play there), tapped or typed. Each question looks alike (its "Yes"
the dangerous choice), keeps a keyboard's focus, asks alone and sends once. A blast's own
figures in the way are outlined on their squares before the judge chooses the attack."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from table.actions import latest_snapshot, move_marine, snapshot_state
from tests.browser.conftest import log_in, screenshot
from tests.browser.test_judge_table import DESKTOP, PHONE
from tests.browser.test_touch_board import board_url, figure, light, place, tap
from tests.browser.test_touch_board import game as game  # noqa: F401 - the fixture

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: p1's figures out of docking claw 1 (4,0 and 5,0), which every p1 marine then reaches.
OUT_OF_THE_CLAW = {"p1-cmd": (6, 1), "p1-m1": (7, 1)}
DANGER = re.compile(r"\bdanger\b")
SECONDARY = re.compile(r"\bsecondary\b")
UNDO_ASKS = (
    "Sure? The last step is taken back, with whatever its dice did"
    " (the history below can bring it back)."
)


@pytest.fixture
def judge_page(new_page):
    """The session judge's page: a phone with a touch screen, or a desktop."""

    def make(viewport: str, **options):
        size = PHONE if viewport == "phone" else DESKTOP
        page = new_page(width=size["width"], height=size["height"], touch=viewport == "phone")
        log_in(page, "arbitro")
        return page

    return make


def on_board(game, figure_id: str) -> bool:
    state = snapshot_state(latest_snapshot(game))
    return state.has_figure(figure_id) and state.figure(figure_id).on_board


@pytest.mark.parametrize("viewport", ["phone", "desktop"])
def test_the_undo_asks_first_and_goes_only_when_confirmed(game, judge_page, viewport):  # noqa: F811
    move_marine(game, "p1-m2", (5, 4), expected_number=1)
    page = judge_page(viewport)
    page.goto(board_url(game))
    undo = page.locator(".undo-last button[type=submit]")
    tap(page, undo, viewport == "phone")
    ask = page.locator(".undo-last .confirm-ask")
    expect(ask).to_have_text(
        "Sure? The last step is taken back, with whatever its dice did"
        " (the history below can bring it back)."
    )
    expect(undo).to_have_text("Yes, undo the last step")
    screenshot(page, f"table-undo-asks-{viewport}")
    assert latest_snapshot(game).number == 2  # nothing sent yet
    page.get_by_role("button", name="No, keep it").click()
    expect(ask).to_have_count(0)
    expect(undo).to_have_text("Undo the last step")
    assert latest_snapshot(game).number == 2

    tap(page, undo, viewport == "phone")
    expect(undo).to_be_enabled()  # after a moment: a double tap does not confirm at once
    tap(page, undo, viewport == "phone")
    expect(figure(page, "p1-m2")).not_to_have_attribute("data-square", "5,4")
    assert latest_snapshot(game).restored_from == 1


def test_going_back_to_an_earlier_step_asks_first(game, judge_page):  # noqa: F811
    move_marine(game, "p1-m2", (5, 4), expected_number=1)
    page = judge_page("desktop")
    page.goto(board_url(game))
    back = page.get_by_role("button", name="Back to step 1")
    back.click()
    expect(
        page.get_by_text("Sure? The board goes back to the position after step 1")
    ).to_be_visible()
    assert latest_snapshot(game).number == 2  # nothing sent yet
    confirm = page.get_by_role("button", name="Yes, back to step 1")
    expect(confirm).to_be_enabled()
    confirm.click()
    expect(figure(page, "p1-m2")).not_to_have_attribute("data-square", "5,4")
    assert latest_snapshot(game).restored_from == 1


def test_a_double_tap_on_undo_only_asks(game, judge_page):  # noqa: F811
    move_marine(game, "p1-m2", (5, 4), expected_number=1)
    page = judge_page("phone")
    page.goto(board_url(game))
    undo = page.locator(".undo-last button[type=submit]")
    undo.scroll_into_view_if_needed()
    box = undo.bounding_box()
    for _tap in range(2):
        page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    expect(page.locator(".undo-last .confirm-ask")).to_be_visible()
    page.wait_for_timeout(800)
    assert latest_snapshot(game).number == 2


def test_by_keyboard_the_question_keeps_the_focus_and_describes_its_button(game, judge_page):  # noqa: F811
    """QA: the pause before the confirmation disabled it, which dropped the keyboard's
    focus; "No, keep it" removed the focused button, leaving the focus on the page."""
    move_marine(game, "p1-m2", (5, 4), expected_number=1)
    page = judge_page("desktop")
    page.goto(board_url(game))
    undo = page.locator(".undo-last button[type=submit]")
    undo.focus()
    page.keyboard.press("Enter")
    expect(undo).to_have_text("Yes, undo the last step")
    expect(undo).to_have_attribute("aria-disabled", "true")  # the pause: it takes no Enter
    page.keyboard.press("Enter")
    expect(undo).to_be_focused()
    expect(undo).to_have_accessible_description(UNDO_ASKS)
    expect(undo).to_have_class(DANGER)
    keep = page.get_by_role("button", name="No, keep it")
    expect(keep).to_have_class(SECONDARY)
    expect(undo).not_to_have_attribute("aria-disabled", "true")
    assert latest_snapshot(game).number == 2  # the Enter during the pause sent nothing
    keep.focus()
    page.keyboard.press("Enter")
    expect(undo).to_have_text("Undo the last step")
    expect(undo).to_be_focused()
    expect(undo).not_to_have_class(DANGER)
    expect(undo).to_have_class(SECONDARY)


def test_one_question_at_a_time_its_answers_side_by_side_or_aligned(game, judge_page):  # noqa: F811
    """Asking to go back to an earlier step puts the undo's question away; the two
    answers sit in a row with a gap, or one under the other, not indented."""
    move_marine(game, "p1-m2", (5, 4), expected_number=1)
    move_marine(game, "p1-m2", (5, 5), expected_number=2)
    page = judge_page("desktop")
    page.goto(board_url(game))
    undo = page.locator(".undo-last button[type=submit]")
    undo.click()
    expect(page.locator(".undo-last .confirm-ask")).to_be_visible()
    page.get_by_role("button", name="Back to step 1").click()
    expect(page.locator(".confirm-ask")).to_have_count(1)
    expect(undo).to_have_text("Undo the last step")
    confirm = page.get_by_role("button", name="Yes, back to step 1")
    keep = page.locator("#history").get_by_role("button", name="No, keep it")
    yes, no = confirm.bounding_box(), keep.bounding_box()
    if no["y"] >= yes["y"] + yes["height"]:  # one under the other
        assert no["x"] == yes["x"]
    else:
        assert no["x"] >= yes["x"] + yes["width"]
    screenshot(page, "table-history-asks-desktop")


def test_a_confirmed_undo_is_sent_once(game, judge_page):  # noqa: F811
    """A second tap on the confirmation, while the page waits for the answer, sends
    nothing more: its buttons are disabled once it is sent."""
    move_marine(game, "p1-m2", (5, 4), expected_number=1)
    page = judge_page("desktop")
    page.goto(board_url(game))
    sent = []
    page.on("request", lambda request: request.method == "POST" and sent.append(request.url))
    undo = page.locator(".undo-last button[type=submit]")
    undo.click()
    expect(undo).to_be_enabled()  # the pause is over
    with page.expect_navigation():
        undo.evaluate("button => { button.click(); setTimeout(() => button.click(), 30); }")
    expect(figure(page, "p1-m2")).not_to_have_attribute("data-square", "5,4")
    assert len([url for url in sent if url.endswith("/undo/")]) == 1
    assert latest_snapshot(game).restored_from == 1


def test_a_tap_into_a_docking_claw_asks_before_the_marine_leaves_play(game, judge_page):  # noqa: F811
    place(game, OUT_OF_THE_CLAW)
    page = judge_page("phone")
    page.goto(board_url(game))
    tap(page, figure(page, "p1-m2"), True)
    tap(page, light(page, "4,0"), True)
    status = page.locator("#play-status")
    # The marine as the log names it: its player's name and kind, then its id.
    expect(status).to_have_text(
        re.compile(
            r"^Sure\? .+ · p1-m2 would end its move on 4,0, in docking claw 1: it leaves play "
            r"there and never comes back\.$"
        )
    )
    leave = page.get_by_role("button", name="Yes, p1-m2 leaves play through claw 1")
    expect(leave).to_be_visible()
    stay = page.get_by_role("button", name="No, it stays on the board")
    expect(leave).to_have_class(DANGER)  # as the undo's question looks
    expect(stay).to_have_class(SECONDARY)
    screenshot(page, "table-claw-asks-phone")
    stay.tap()
    expect(leave).to_have_count(0)
    expect(status).to_contain_text("p1-m2 selected")
    # The focus goes back to the board the judge tapped, not to the page.
    expect(page.locator("#play .board-scroll")).to_be_focused()
    assert on_board(game, "p1-m2")

    tap(page, light(page, "5,0"), True)
    leave = page.get_by_role("button", name="Yes, p1-m2 leaves play through claw 1")
    leave.tap()
    expect(page.locator("#step-outcome")).to_contain_text("It left play through its docking claw.")
    assert not on_board(game, "p1-m2")


def cursor_to(page, start: str, goal: str) -> None:
    """Move the board's keyboard cursor from square ``start`` to square ``goal``."""
    (x, y), (gx, gy) = ([int(n) for n in sq.split(",")] for sq in (start, goal))
    for key, times in (
        ("ArrowRight" if gx >= x else "ArrowLeft", abs(gx - x)),
        ("ArrowDown" if gy >= y else "ArrowUp", abs(gy - y)),
    ):
        for _press in range(times):
            page.keyboard.press(key)


def test_by_keyboard_no_to_the_claw_gives_the_focus_back_to_the_board(game, judge_page):  # noqa: F811
    """QA: "No, it stays on the board" removed the focused button and left the focus on
    the page; it goes back to the board, its cursor still on the square asked about."""
    place(game, OUT_OF_THE_CLAW)
    page = judge_page("desktop")
    page.goto(board_url(game))
    board = page.locator("#play .board-scroll")
    start = figure(page, "p1-m2").get_attribute("data-square")
    board.focus()
    cursor_to(page, "0,0", start)
    page.keyboard.press("Enter")
    status = page.locator("#play-status")
    expect(status).to_contain_text("p1-m2 selected")
    cursor_to(page, start, "4,0")
    page.keyboard.press("Enter")
    stay = page.get_by_role("button", name="No, it stays on the board")
    expect(stay).to_be_focused()
    page.keyboard.press("Enter")
    expect(stay).to_have_count(0)
    expect(status).to_contain_text("p1-m2 selected")
    expect(board).to_be_focused()
    assert page.evaluate("document.activeElement !== document.body")
    page.keyboard.press("Enter")  # the cursor is still on 4,0: it asks again
    expect(status).to_contain_text("p1-m2 would end its move on 4,0, in docking claw 1")
    assert on_board(game, "p1-m2")


def test_a_tap_elsewhere_moves_at_once(game, judge_page):  # noqa: F811
    place(game, OUT_OF_THE_CLAW)
    page = judge_page("phone")
    page.goto(board_url(game))
    tap(page, figure(page, "p1-m2"), True)
    tap(page, light(page, "5,4"), True)
    expect(figure(page, "p1-m2")).to_have_attribute("data-square", "5,4")


def test_a_move_typed_into_a_claw_asks_at_the_forms_button(game, judge_page):  # noqa: F811
    place(game, OUT_OF_THE_CLAW)
    page = judge_page("desktop")
    page.goto(board_url(game))
    form = page.locator("#move")
    form.locator("#id_move-figure").select_option("p1-m3")
    form.locator("#id_move-square").fill("04, 0")  # the server reads it as 4,0
    send = form.get_by_role("button", name="Move", exact=True)
    send.click()
    expect(form.locator(".confirm-ask")).to_contain_text(
        "p1-m3 would end its move on 4,0, in docking claw 1"
    )
    button = form.locator("button[type=submit]")
    expect(button).to_have_text("Yes, p1-m3 leaves play through claw 1")
    expect(button).to_have_class(DANGER)
    screenshot(page, "table-claw-typed-asks-desktop")
    form.get_by_role("button", name="No, it stays on the board").click()
    expect(form.locator(".confirm-ask")).to_have_count(0)
    # The square typed, to be typed again (QA: the focus went to the Move button).
    expect(form.locator("#id_move-square")).to_be_focused()
    assert on_board(game, "p1-m3")
    send.click()
    expect(form.locator(".confirm-ask")).to_have_count(1)
    form.locator("#id_move-square").fill("5,3")  # changed: it asks again, not for 4,0
    expect(form.locator(".confirm-ask")).to_have_count(0)
    form.locator("#id_move-square").fill("4,0")
    send.click()
    button.click()
    expect(page.locator("#step-outcome")).to_contain_text("It left play through its docking claw.")
    assert not on_board(game, "p1-m3")


def test_without_javascript_the_undo_and_a_move_into_a_claw_go_at_once(game, browser, live_server):  # noqa: F811
    place(game, OUT_OF_THE_CLAW)
    context = browser.new_context(
        base_url=live_server.url, locale="en-GB", viewport=PHONE, java_script_enabled=False
    )
    try:
        page = context.new_page()
        log_in(page, "arbitro")
        page.goto(board_url(game))
        page.locator("#id_move-figure").select_option("p1-m2")
        page.locator("#id_move-square").fill("4,0")
        page.get_by_role("button", name="Move", exact=True).click()
        expect(page.locator("#step-outcome")).to_contain_text("It left play")
        assert not on_board(game, "p1-m2")
        page.get_by_role("button", name="Undo the last step").click()
        expect(page.locator("#step-outcome")).to_contain_text("Back to step")
        assert on_board(game, "p1-m2")
    finally:
        context.close()


@pytest.mark.parametrize("viewport", ["phone", "desktop"])
def test_own_figures_in_a_blast_are_outlined_on_their_squares(game, judge_page, viewport):  # noqa: F811
    """p1-m4's missile launcher may aim at p2-m1 (4,5) or around it: a blast there may
    catch p1's own p1-m2 (5,5); one aimed at 3,5 cannot."""
    place(game, {"p2-m1": (4, 5), "p1-m2": (5, 5)})
    touch = viewport == "phone"
    page = judge_page(viewport)
    page.goto(board_url(game))
    tap(page, figure(page, "p1-m4"), touch)
    page.get_by_role("button", name="Attack", exact=True).click()
    own = page.locator("#board-panel .mark-friendly")
    expect(own).to_have_count(1)
    expect(own).to_have_attribute("data-mark", "5,5")
    expect(page.locator("#play-status")).to_contain_text(
        "Own figures an attack may hit are outlined with a dashed line."
    )
    screenshot(page, f"table-friendly-fire-{viewport}")

    tap(page, light(page, "4,5", "target"), touch)
    choice = page.locator("#play-options button").first
    expect(choice).to_contain_text("may hit own figures: p1-m2")
    expect(own).to_have_attribute("data-mark", "5,5")

    tap(page, light(page, "3,5", "aim"), touch)  # a blast there reaches no own figure
    expect(page.locator("#play-options button").first).not_to_contain_text("own figures")
    expect(own).to_have_count(0)
