"""In a real browser: the organiser withdraws a player (the session plays short) and sees
the stage's checklist instead of a close button that would fail."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import log_in, screenshot
from tests.browser.test_flows import account, seated_tournament
from tournaments.models import Forfeit, Registration, Seat

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_organiser_withdraws_a_player_and_sees_the_checklist(new_page):
    organiser = account("org")
    tournament = seated_tournament()
    tournament.organisers.add(organiser)
    seat = Seat.objects.filter(session__stage__tournament=tournament).order_by("pk").first()
    player = seat.player
    page = new_page()
    log_in(page, "org")

    page.goto(f"/organise/{tournament.slug}/players/")
    expect(page.get_by_text("late registration is closed")).to_be_visible()
    page.get_by_role("link", name=f"Edit or withdraw {player.name}").click()
    page.get_by_role("button", name="Withdraw the player").click()
    expect(page.locator("#withdraw-form [aria-invalid=true]")).to_be_visible()
    page.get_by_label("Reason").fill("Called away by work")
    page.get_by_role("button", name="Withdraw the player").click()
    expect(page.get_by_text(f"{player.display_name} withdrew and forfeits")).to_be_visible()
    registration = Registration.objects.get(tournament=tournament, player=player)
    assert registration.withdrawn_at is not None
    seat.refresh_from_db()
    assert seat.forfeit == Forfeit.WITHDRAWN_UNPLAYED  # the session had not started

    page.goto(f"/organise/{tournament.slug}/stages/1/")
    checklist = page.get_by_role("region", name="Checklist of stage 1")
    expect(checklist).to_contain_text("Sessions 1, 2, 3 have no confirmed result.")
    expect(checklist).to_contain_text("Sessions 1, 2, 3 have no judge.")
    expect(page.get_by_role("button", name="Close the stage and seat the next")).to_have_count(0)
    screenshot(page, "organiser-stage-checklist")

    page.goto(f"/t/{tournament.slug}/players/{player.pk}/")
    expect(page.get_by_role("heading", name=player.display_name)).to_be_visible()
    expect(page.get_by_text("Withdrew").first).to_be_visible()
