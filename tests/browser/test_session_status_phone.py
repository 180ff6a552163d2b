"""What a session awaits, on a phone (390×844, Italian, touch) and a desktop (1280×800,
English): the public schedule, the organiser's schedule and the judge's list name it
("In attesa di orario, tavolo e giudice"), the longest of the labels wrapping within the
page, which never scrolls sideways."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.browser.conftest import log_in, screenshot
from tests.browser.test_flows import account, seated_tournament
from tournaments.models import Session

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIDEWAYS = "() => document.documentElement.scrollWidth > document.documentElement.clientWidth + 1"


@pytest.mark.parametrize(
    ("phone", "locale", "viewport", "awaiting"),
    [
        (True, "it-IT", (390, 844), "In attesa di orario, tavolo e giudice"),
        (False, "en-GB", (1280, 800), "Awaiting a time, a table and a judge"),
    ],
    ids=["phone", "desktop"],
)
def test_the_schedules_name_what_a_session_awaits(new_page, phone, locale, viewport, awaiting):
    organiser = account("capo")
    judge = account("giudice")
    tournament = seated_tournament(judge)
    tournament.organisers.add(organiser)
    # Session 1 has its judge only; the others have nothing yet.
    assert Session.objects.filter(stage__tournament=tournament, judge__isnull=False).count() == 1
    page = new_page(locale=locale, width=viewport[0], height=viewport[1], touch=phone)
    log_in(page, "capo")
    pages = {
        "public": reverse("tournaments:schedule", args=[tournament.slug]),
        "organiser": reverse("tournaments:organiser_schedule", args=[tournament.slug]),
    }
    for name, url in pages.items():
        page.goto(url)
        assert page.get_by_text(awaiting).count() >= 1, name
        assert not page.evaluate(SIDEWAYS), f"{name}: the page scrolls sideways"
        screenshot(page, f"session-status-{name}-{'phone' if phone else 'desktop'}")
    context = page.context
    context.clear_cookies()
    log_in(page, "giudice")
    page.goto(reverse("tournaments:judge_home"))
    awaits_time_and_table = (
        "In attesa di orario e tavolo" if phone else "Awaiting a time and a table"
    )
    assert page.get_by_text(awaits_time_and_table).count() == 1
    assert not page.evaluate(SIDEWAYS)
