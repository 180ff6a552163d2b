"""A request sent without leaving the page (an htmx save, the board's own panels) that gets
no answer or a server error is said at the foot of the screen, in the reader's language;
what was typed stays, and the next request that succeeds takes the notice away. Before, a
tap at the venue on a failing connection did nothing visible."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import log_in, screenshot
from tests.browser.test_flows import account, seated_tournament
from tests.browser.test_judge_table import PHONE
from tests.browser.test_touch_board import board_url, figure, game, tap  # noqa: F401
from tournaments.models import Session

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def schedule_card(new_page):
    """The organiser's schedule open on ``locale``'s phone, and the first session's card."""
    organiser = account("capo")
    tournament = seated_tournament()
    tournament.organisers.add(organiser)
    session = Session.objects.get(stage__tournament=tournament, number=1)

    def open_card(locale: str = "en-GB"):
        page = new_page(locale=locale, width=PHONE["width"], height=PHONE["height"])
        log_in(page, "capo")
        page.goto(f"/organise/{tournament.slug}/schedule/")
        return page, page.locator(f"#schedule-{session.pk}"), session

    return open_card


def test_a_save_without_an_answer_says_so_and_keeps_what_was_typed(schedule_card):
    page, card, session = schedule_card()
    notice = page.locator("#request-failed")
    expect(notice).to_be_hidden()
    page.route("**/schedule/**", lambda route: route.abort("internetdisconnected"))
    card.get_by_label("Date and time").fill("2030-05-04T15:00")
    card.get_by_role("button", name="Save schedule").click()
    expect(notice).to_be_visible()
    expect(notice).to_contain_text("No answer from the server")
    expect(card.get_by_label("Date and time")).to_have_value("2030-05-04T15:00")
    assert Session.objects.get(pk=session.pk).scheduled_at is None
    screenshot(page, "request-failed-offline-phone")

    page.unroute("**/schedule/**")
    card.get_by_role("button", name="Save schedule").click()
    expect(page.locator(f"#schedule-{session.pk} [role=status]")).to_have_text("saved")
    expect(notice).to_be_hidden()
    assert Session.objects.get(pk=session.pk).scheduled_at is not None


def test_a_server_error_is_said_with_its_code_in_italian_and_can_be_closed(schedule_card):
    page, card, session = schedule_card("it-IT")
    page.route(
        "**/schedule/**",
        lambda route: route.fulfill(status=500, body="<h1>Server Error (500)</h1>"),
    )
    card.get_by_label("Data e ora").fill("2030-05-04T15:00")
    card.get_by_role("button", name="Salva data, tavolo e giudice").click()
    notice = page.locator("#request-failed")
    expect(notice).to_contain_text("errore 500")
    expect(notice).to_contain_text("Riprova")
    assert Session.objects.get(pk=session.pk).scheduled_at is None
    notice.get_by_role("button", name="Chiudi").click()
    expect(notice).to_be_hidden()


def test_a_refused_request_says_to_reload(schedule_card):
    page, card, _session = schedule_card()
    page.route("**/schedule/**", lambda route: route.fulfill(status=403, body="Forbidden"))
    card.get_by_role("button", name="Save schedule").click()
    expect(page.locator("#request-failed")).to_contain_text("error 403")
    expect(page.locator("#request-failed")).to_contain_text("Reload the page")


def test_the_boards_own_panel_without_an_answer_says_so(game, new_page):  # noqa: F811
    page = new_page(width=PHONE["width"], height=PHONE["height"], touch=True)
    log_in(page, "arbitro")
    page.goto(board_url(game))
    page.route("**/sight/**", lambda route: route.abort("internetdisconnected"))
    page.get_by_role("button", name="Line of sight").tap()
    tap(page, figure(page, "p1-m2"), True)
    tap(page, figure(page, "p1-m3"), True)
    notice = page.locator("#request-failed")
    expect(notice).to_contain_text("No answer from the server")

    page.unroute("**/sight/**")
    page.get_by_role("button", name="Line of sight").tap()
    tap(page, figure(page, "p1-m2"), True)
    tap(page, figure(page, "p1-m3"), True)
    expect(page.locator("#play-status")).to_contain_text("p1-m2 → p1-m3")
    expect(notice).to_be_hidden()


def test_a_standings_page_polled_without_an_answer_says_it_may_be_out_of_date(new_page):
    tournament = seated_tournament()
    page = new_page(width=PHONE["width"], height=PHONE["height"])
    page.clock.install()
    page.goto(f"/t/{tournament.slug}/standings/")
    notice = page.locator("#request-failed")
    page.route("**/standings/live/**", lambda route: route.abort("internetdisconnected"))
    page.clock.run_for(16_000)
    expect(notice).to_contain_text("may be out of date")
    expect(notice).not_to_contain_text("What you typed")

    page.unroute("**/standings/live/**")
    page.clock.run_for(16_000)
    expect(notice).to_be_hidden()
