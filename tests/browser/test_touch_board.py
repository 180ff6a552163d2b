"""The judge plays the board by touch and by keyboard, and every open view follows: tap a
marine, its reachable squares light up, tap one and it moves; Attack lights the targets
with their exact odds; the line of sight by two taps; undo by two (the second confirms);
a second judge and a spectator see the move without reloading. On a phone (390×844,
touch) and a desktop."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import expect

from rules.engine.board import DoorState
from table.actions import create_game, latest_snapshot, snapshot_state, upload_state
from table.models import Game
from tests.browser.conftest import log_in, screenshot
from tests.browser.test_accessibility import CLIPPED_TABLES
from tests.browser.test_flows import account
from tests.browser.test_judge_table import DESKTOP, PHONE, drawn_session
from tests.table.test_open_door import at_a_door

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def game() -> Game:
    judge = account("arbitro")
    session = drawn_session(judge)
    session.stage.tournament.organisers.add(account("capo"))
    return create_game(session, "hunt-derelict", "bob", label="Tavolo 1", actor=judge)


@pytest.fixture
def open_page(new_page):
    """A page of a fresh context at ``size``, with a touch screen when ``touch``."""

    def make(size: dict, *, touch: bool = False):
        return new_page(width=size["width"], height=size["height"], touch=touch)

    return make


def board_url(game: Game, tail: str = "") -> str:
    return f"/table/sessions/{game.session_id}/games/{game.number}/{tail}"


def tap(page, locator, touch: bool) -> None:
    """Tap (or click) the middle of ``locator``, even a light the taps go through."""
    locator.scroll_into_view_if_needed()
    box = locator.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    if touch:
        page.touchscreen.tap(x, y)
    else:
        page.mouse.click(x, y)


def figure(page, figure_id: str):
    return page.locator(f'#board-panel g.figure[data-figure="{figure_id}"]')


def light(page, square: str, kind: str = "reach"):
    return page.locator(f'#board-panel [data-mark="{square}"].mark-{kind}')


def place(game: Game, squares: dict[str, tuple[int, int]]) -> None:
    """Move figures as an uploaded state would (a position to attack from)."""
    state = snapshot_state(latest_snapshot(game))
    for fid, sq in squares.items():
        state = state.with_figure(state.figure(fid).moved_to((sq,)))
    upload_state(game, json.dumps(state.to_json()), expected_number=latest_snapshot(game).number)


@pytest.mark.parametrize("viewport", ["phone", "desktop"])
def test_a_judge_moves_a_marine_by_tapping(game, open_page, viewport):
    touch = viewport == "phone"
    page = open_page(PHONE if touch else DESKTOP, touch=touch)
    log_in(page, "arbitro")
    page.goto(board_url(game))
    if touch:  # on a phone the log and the forms wait in the closed drawer
        expect(page.locator("#drawer")).not_to_have_attribute("open", "")
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    expect(page.locator("#step-outcome")).to_have_text(
        "Step 1: Squads placed at their docking claws on the map Derelict (Alien Hunt)."
    )
    expect(page.locator("#play-status")).to_have_text("Tap a marine to see where it may move.")

    tap(page, figure(page, "p1-m2"), touch)
    # Named in full, as the refusals and the questions name it (the id ends the name).
    name = figure(page, "p1-m2").get_attribute("data-name")
    assert name.endswith("p1-m2") and name != "p1-m2"
    expect(page.locator("#play-status")).to_contain_text(f"{name} selected")
    expect(light(page, "5,4")).to_have_count(1)
    lit = page.locator("#board-panel .mark-reach").count()
    assert lit > 5
    expect(page.locator(".play-moves")).to_be_visible()
    if touch:  # a phone starts zoomed in, the board panned inside its box
        scroller = page.locator(".board-scroll")
        expect(scroller).to_have_attribute("data-zoom", "2")
        assert page.locator(".board-scroll svg").bounding_box()["width"] > 1.8 * PHONE["width"]
        assert scroller.bounding_box()["height"] < PHONE["height"] * 0.65
        page.get_by_role("button", name="Zoom out").tap()
        expect(scroller).to_have_attribute("data-zoom", "1")
        assert page.locator(".board-scroll svg").bounding_box()["width"] > PHONE["width"]
    screenshot(page, f"table-touch-reachable-{viewport}")

    tap(page, light(page, "5,4"), touch)
    expect(page.locator("#log")).to_contain_text("p1-m2 moved 3 squares")
    expect(page.locator("#step-outcome")).to_contain_text(
        re.compile(r"Step 2: .+'s laser rifle marine · p1-m2 moved to 5,4\.")
    )
    expect(figure(page, "p1-m2")).to_have_attribute("data-square", "5,4")
    assert latest_snapshot(game).number == 2
    screenshot(page, f"table-touch-moved-{viewport}")

    # Undo by a tap, and a second to confirm it.
    page.get_by_role("button", name="Undo the last step").click()
    page.get_by_role("button", name="Yes, undo the last step").click()
    expect(figure(page, "p1-m2")).not_to_have_attribute("data-square", "5,4")
    assert latest_snapshot(game).restored_from == 1


@pytest.mark.parametrize("locale", ["it-IT", "en-GB"])
def test_the_board_tables_fit_a_phone_in_both_languages(game, new_page, locale):
    """The play order (players with their squads, figures and scores; the claws are the
    rows' order, their column is for wider screens) shows every column on a phone, in
    Italian too, whose headings are longer."""
    page = new_page(locale=locale, width=PHONE["width"], height=PHONE["height"], touch=True)
    log_in(page, "arbitro")
    page.goto(board_url(game))
    expect(page.locator("html")).to_have_attribute("lang", locale[:2])
    expect(page.locator("#board-facts table").last).to_be_visible()
    assert page.evaluate(CLIPPED_TABLES) == []


def test_a_second_judge_and_a_spectator_follow_without_reloading(game, open_page):
    judge = open_page(DESKTOP)
    log_in(judge, "arbitro")
    judge.goto(board_url(game))
    second = open_page(DESKTOP)
    log_in(second, "capo")
    second.goto(board_url(game))
    projector = open_page(PHONE, touch=True)
    projector.goto(board_url(game, "watch/"))
    for page in (second, projector):
        page.evaluate("window.stayed = true")

    tap(judge, figure(judge, "p1-m2"), False)
    tap(judge, light(judge, "5,4"), False)
    expect(judge.locator("#log")).to_contain_text("p1-m2 moved 3 squares")

    expect(second.locator("#log")).to_contain_text("p1-m2 moved 3 squares")
    expect(figure(second, "p1-m2")).to_have_attribute("data-square", "5,4")
    expect(second.locator("#board-facts")).to_contain_text("Round 1 · step 2")
    expect(second.locator("#move input[name='move-version']")).to_have_value("2")
    expect(projector.locator("#watch-panel")).to_contain_text("p1-m2 moved 3 squares")
    expect(projector.locator('g.figure[data-figure="p1-m2"]')).to_have_attribute(
        "data-square", "5,4"
    )
    assert second.evaluate("window.stayed") and projector.evaluate("window.stayed")
    screenshot(projector, "table-watch-phone")

    # The second judge plays on from the refreshed board: its version is the new one.
    tap(second, figure(second, "p1-m3"), False)
    expect(second.locator("#board-panel .mark-reach").first).to_be_attached()
    square = second.locator("#board-panel .mark-reach").first.get_attribute("data-mark")
    tap(second, light(second, square), False)
    expect(second.locator("#log")).to_contain_text("p1-m3 moved")
    expect(judge.locator("#log")).to_contain_text("p1-m3 moved")


@pytest.mark.parametrize("viewport", ["phone", "desktop"])
def test_attack_lights_the_targets_with_their_odds(game, open_page, viewport):
    place(game, {"p2-m1": (4, 5)})
    touch = viewport == "phone"
    page = open_page(PHONE if touch else DESKTOP, touch=touch)
    log_in(page, "arbitro")
    page.goto(board_url(game))
    tap(page, figure(page, "p1-m4"), touch)
    expect(page.locator("#play-status")).to_contain_text("p1-m4 selected")
    page.get_by_role("button", name="Attack", exact=True).click()
    target = light(page, "4,5", "target")
    expect(target).to_have_count(1)
    expect(page.locator("#board-panel .mark-label-target").first).to_contain_text("%")
    screenshot(page, f"table-touch-targets-{viewport}")

    tap(page, target, touch)
    option = page.locator("#play-options button").first
    expect(option).to_contain_text("p2-m1 (Marine): destroyed with probability")
    option.click()
    chosen = page.locator("#odds input[name='attack-choice']:checked")
    expect(chosen).to_be_focused()
    expect(page.locator("#drawer")).to_have_attribute("open", "")
    page.get_by_role("button", name="Resolve the attack").click()
    expect(page.locator("#log")).to_contain_text("p1-m4 fires")
    assert latest_snapshot(game).kind == "marine_attack"


def test_the_board_plays_by_keyboard(game, open_page):
    page = open_page(DESKTOP)
    log_in(page, "arbitro")
    page.goto(board_url(game))
    start = figure(page, "p1-m2").get_attribute("data-square")
    x, y = (int(n) for n in start.split(","))
    page.locator(".board-scroll").focus()
    for key, times in (("ArrowRight", x), ("ArrowDown", y)):
        for _press in range(times):
            page.keyboard.press(key)
    expect(page.locator("#play-status")).to_have_text(re.compile(rf"^{start} · .+ · p1-m2$"))
    page.keyboard.press("Enter")
    expect(page.locator("#play-status")).to_contain_text("p1-m2 selected")
    for _press in range(5 - x):
        page.keyboard.press("ArrowRight")
    for _press in range(4 - y):
        page.keyboard.press("ArrowDown")
    expect(page.locator("#play-status")).to_contain_text("5,4 · steps to reach it: 3")
    page.keyboard.press("Enter")
    expect(page.locator("#log")).to_contain_text("p1-m2 moved 3 squares")


@pytest.mark.parametrize("how", ["tap", "keyboard"])
def test_a_marine_next_to_a_closed_door_opens_it_by_a_tap(game, open_page, how):
    marine, a, b = at_a_door(game)
    touch = how == "tap"
    page = open_page(PHONE if touch else DESKTOP, touch=touch)
    log_in(page, "arbitro")
    page.goto(board_url(game))
    opened = page.locator("#board-panel line.door-open").count()
    tap(page, figure(page, marine), touch)
    expect(page.locator("#play-status")).to_contain_text("A lit door opens with a tap")
    door = page.locator(f'#board-panel [data-door="{a[0]},{a[1]} {b[0]},{b[1]}"]')
    expect(door).to_have_count(1)
    if touch:
        screenshot(page, "table-touch-door-lit-phone")
        box = door.bounding_box()  # a fingertip's target, not the 17 px wide bar alone
        assert min(box["width"], box["height"]) >= 24, box
        tap(page, door, touch)
    else:
        door.focus()
        page.keyboard.press("Enter")
    expect(page.locator("#step-outcome")).to_contain_text(f"{marine} opened the door between")
    expect(page.locator("#board-panel line.door-open")).to_have_count(opened + 1)
    expect(figure(page, marine)).to_have_attribute("data-square", f"{a[0]},{a[1]}")
    assert snapshot_state(latest_snapshot(game)).door_state(a, b) is DoorState.OPEN
    if touch:
        screenshot(page, "table-touch-door-opened-phone")


def test_line_of_sight_by_two_taps(game, open_page):
    page = open_page(PHONE, touch=True)
    log_in(page, "arbitro")
    page.goto(board_url(game))
    page.get_by_role("button", name="Line of sight").tap()
    expect(page.locator("#play-status")).to_contain_text("tap the figure or square")
    tap(page, figure(page, "p1-m2"), True)
    expect(page.locator("#play-status")).to_contain_text("Line of sight from p1-m2")
    tap(page, figure(page, "p1-m3"), True)
    expect(page.locator("#play-status")).to_contain_text("p1-m2 → p1-m3")


@pytest.fixture
def worker_at_once():
    """A worker takes every queued task at once (in the live server's process), whether
    or not the tests run with a broker."""
    from bob.celery import app

    eager = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = eager


def test_a_whole_round_by_tapping_on_a_phone_and_the_projector_follows(
    game, open_page, worker_at_once
):
    projector = open_page(DESKTOP)
    projector.goto(board_url(game, "watch/"))
    page = open_page(PHONE, touch=True)
    log_in(page, "arbitro")
    page.goto(board_url(game))
    for marine, square in (("p1-m2", "5,4"), ("p1-m3", "6,4")):
        tap(page, figure(page, marine), True)
        tap(page, light(page, square), True)
        expect(figure(page, marine)).to_have_attribute("data-square", square)
    expect(projector.locator('g.figure[data-figure="p1-m3"]')).to_have_attribute(
        "data-square", "6,4"
    )
    page.get_by_role("link", name="Alien turn").tap()
    run = page.get_by_role("button", name="Run the Alien turn")
    expect(run).to_be_in_viewport()
    run.tap()
    expect(page.locator("#log")).to_contain_text("Step 4: Alien turn")
    expect(projector.locator("#watch-panel")).to_contain_text("Step 4: Alien turn")
    screenshot(page, "table-touch-alien-turn-phone")
    screenshot(projector, "table-watch-desktop")


def test_without_javascript_the_forms_still_play(game, browser, live_server):
    context = browser.new_context(
        base_url=live_server.url, locale="en-GB", viewport=PHONE, java_script_enabled=False
    )
    try:
        page = context.new_page()
        log_in(page, "arbitro")
        page.goto(board_url(game))
        expect(page.get_by_role("toolbar", name="Board tools")).to_be_hidden()
        expect(page.locator("#drawer")).to_have_attribute("open", "")
        page.locator("#id_move-figure").select_option("p1-m2")
        page.locator("#id_move-square").fill("5,4")
        page.get_by_role("button", name="Move", exact=True).click()
        expect(page.locator("#log")).to_contain_text("p1-m2 moved 3 squares")
        page.get_by_role("button", name="Undo the last step").click()
        expect(page.locator("#log")).to_contain_text("Back to step 1")
    finally:
        context.close()


def test_a_tap_through_another_players_figures_asks_for_their_permission(game, open_page):
    place(game, {"p2-m1": (4, 3), "p2-m2": (5, 3)})
    page = open_page(PHONE, touch=True)
    log_in(page, "arbitro")
    page.goto(board_url(game))
    tap(page, figure(page, "p1-m1"), True)
    expect(page.locator("#play-status")).to_contain_text("with their permission")
    tap(page, light(page, "5,4", "permit"), True)
    expect(page.locator("#play-status")).to_contain_text("only by passing through the figures")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    screenshot(page, "table-touch-permission-phone")
    assert latest_snapshot(game).number == 2  # nothing moved before the players say yes
    page.locator("[data-permit]").tap()
    expect(figure(page, "p1-m1")).to_have_attribute("data-square", "5,4")
    assert snapshot_state(latest_snapshot(game)).figure("p1-m1").square == (5, 4)


def test_a_marine_the_turn_does_not_let_move_says_why_and_what_to_do_instead(game, open_page):
    page = open_page(PHONE, touch=True)
    log_in(page, "arbitro")
    page.goto(board_url(game))
    tap(page, figure(page, "p1-m2"), True)
    tap(page, light(page, "5,4"), True)
    expect(figure(page, "p1-m2")).to_have_attribute("data-square", "5,4")
    tap(page, figure(page, "p2-m1"), True)  # p1's turn: p2's marine waits
    status = page.locator("#play-status")
    expect(status).to_contain_text("Choose another marine, or Attack if this one may still")
