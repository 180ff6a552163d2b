"""Saving a row of the organiser's schedule (an htmx swap) logs no error in the browser's
console (QA: "Applying inline style violates the Content-Security-Policy"): htmx no longer
copies the style attribute a browser extension or a test tool left on a field."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import log_in
from tests.browser.test_flows import account, seated_tournament
from tournaments.models import Session

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: What an extension does to a field it decorates, through the CSSOM the policy allows: a
#: style set and taken away again leaves an empty style attribute behind.
LEAVE_EMPTY_STYLES = """() => document.querySelectorAll("input, select").forEach(field => {
    field.style.caretColor = "transparent";
    field.style.removeProperty("caret-color");
})"""


def test_saving_a_schedule_row_logs_no_console_error(new_page):
    organiser = account("capo")
    tournament = seated_tournament()
    tournament.organisers.add(organiser)
    session = Session.objects.get(stage__tournament=tournament, number=1)

    page = new_page()
    errors: list[str] = []
    page.on("console", lambda message: message.type == "error" and errors.append(message.text))
    log_in(page, "capo")
    page.goto(f"/organise/{tournament.slug}/schedule/")
    page.evaluate(LEAVE_EMPTY_STYLES)
    card = page.locator(f"#schedule-{session.pk}")
    card.get_by_label("Date and time").fill("2030-05-04T15:00")
    card.get_by_role("button", name="Save schedule").click()
    expect(page.locator(f"#schedule-{session.pk} [role=status]")).to_have_text("saved")
    assert Session.objects.get(pk=session.pk).scheduled_at is not None
    assert errors == []
