"""The catalogue in a real browser: the organiser edits a chapter card and a token value on
the Catalogue page, and the judge's "points each" takes that value when an alien is chosen
(static/js/result-form.js)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import log_in
from tests.browser.test_flows import account, seated_tournament
from tournaments.models import ChapterCard, Session

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_organiser_edits_the_catalogue_and_the_judge_gets_its_token_value(new_page):
    organiser = account("org")
    judge = account("arbitro")
    tournament = seated_tournament(judge)
    tournament.organisers.add(organiser)

    page = new_page()
    log_in(page, "org")
    page.goto(f"/organise/{tournament.slug}/")
    page.get_by_role("link", name="Catalogue").click()
    page.get_by_role("link", name="Bio-Scanner").click()
    page.get_by_label("Italian name").fill("Bioscanner")
    page.get_by_role("button", name="Save").click()
    expect(page.get_by_text("Bio-Scanner saved.")).to_be_visible()
    card = ChapterCard.objects.get(squad__tournament=tournament, slug="bio-scanner")
    assert card.name_it == "Bioscanner"
    page.get_by_label("Ork").fill("3")
    page.get_by_role("button", name="Save the token values").click()
    expect(page.get_by_text("Token values saved.")).to_be_visible()

    session = Session.objects.get(stage__tournament=tournament, number=1)
    judge_page = new_page()
    log_in(judge_page, "arbitro")
    judge_page.goto(f"/judge/sessions/{session.pk}/result/")
    block = judge_page.locator("fieldset.seat-block").nth(0)
    block.locator("summary").click()
    row = block.locator(".result-row").first
    row.get_by_label("alien type").select_option("ork")
    expect(row.get_by_label("points each")).to_have_value("3")
    row.get_by_label("alien type").select_option("gretchin")
    expect(row.get_by_label("points each")).to_have_value("1")
    row.get_by_label("points each").fill("7")
    row.get_by_label("alien type").select_option("android")
    expect(row.get_by_label("points each")).to_have_value("7")
