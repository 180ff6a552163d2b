"""Organiser in a real browser: a session's own stipulation and thresholds from the schedule,
then linking a player's account and that player logging in to their page."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import log_in
from tests.browser.test_accessibility import check_page
from tests.browser.test_flows import account, seated_tournament
from tournaments.models import ScoreThreshold, Session, Stipulation

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_organiser_sets_a_sessions_stipulation_and_thresholds(new_page):
    organiser = account("capo")
    tournament = seated_tournament()
    tournament.organisers.add(organiser)
    session = Session.objects.get(stage__tournament=tournament, number=1)

    page = new_page()
    log_in(page, "capo")
    page.goto(f"/organise/{tournament.slug}/schedule/")
    card = page.locator(f"#schedule-{session.pk}")
    card.get_by_role("link", name="Stipulation and score thresholds of this session").click()
    expect(page.get_by_text("inherits from stage 1")).to_have_count(2)

    page.get_by_label("Stipulation type").select_option("catch_the_flag")
    expect(page.get_by_label("Rounds to reach the claws")).to_be_hidden()  # other groups hide
    page.get_by_role("button", name="Save the session's stipulation").click()
    expect(page.locator("#id_ctf_flag_value_error")).to_contain_text("Flag value (points)")
    page.get_by_label("Flag value (points)").fill("30")
    page.get_by_role("button", name="Save the session's stipulation").click()
    expect(page.get_by_text("The session's own stipulation is saved.")).to_be_visible()
    assert Stipulation.objects.get(session=session).params["flag_value"] == 30

    page.get_by_label("New threshold (points)").fill("0")
    page.get_by_role("button", name="Add the threshold").click()
    expect(page.locator("#id_points_error")).to_contain_text("at least 1 point")
    expect(page.get_by_label("New threshold (points)")).to_have_value("0")
    page.get_by_label("New threshold (points)").fill("40")
    page.get_by_role("button", name="Add the threshold").click()
    expect(page.get_by_text("Threshold of 40 points added.")).to_be_visible()
    points = ScoreThreshold.objects.filter(session=session).values_list("points", flat=True)
    assert list(points) == [40]
    phone = new_page(width=390, height=844)
    log_in(phone, "capo")
    check_page(phone, f"/organise/{tournament.slug}/sessions/{session.pk}/settings/")


def test_linked_account_opens_the_players_page(new_page):
    organiser = account("capo")
    account("marta", email="marta@example.org")
    tournament = seated_tournament()
    tournament.organisers.add(organiser)
    player = Session.objects.get(stage__tournament=tournament, number=1).seats.first().player

    page = new_page()
    log_in(page, "capo")
    page.goto(f"/organise/{tournament.slug}/players/")
    row = page.locator(f"#player-{player.pk}")
    row.get_by_label("User name or email").fill("nessuno")
    row.get_by_role("button", name=f"Link an account to {player.name}").click()
    row = page.locator(f"#player-{player.pk}")
    expect(row.locator(".errorlist")).to_contain_text("no account")
    row.get_by_label("User name or email").fill("marta@example.org")
    row.get_by_role("button", name=f"Link an account to {player.name}").click()
    expect(page.locator(f"#player-{player.pk}")).to_contain_text("marta")

    own = new_page()
    log_in(own, "marta")
    own.wait_for_url("**/me/")
    expect(own.get_by_role("heading", level=1)).to_contain_text(player.display_name)
