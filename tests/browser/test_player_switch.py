"""A person who played two tournaments with one account: log-in opens the newer one, and
the switcher on the player pages opens the other."""

from __future__ import annotations

from datetime import date

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import log_in
from tests.browser.test_accessibility import check_page
from tests.browser.test_flows import account, seated_tournament
from tests.factories import PlayerFactory, RegistrationFactory, TournamentFactory
from tournaments.models import Session, Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_player_switches_between_the_accounts_tournaments(new_page):
    marta = account("marta")
    current = seated_tournament()
    Tournament.objects.filter(pk=current.pk).update(starts_on=date(2026, 10, 1))
    player = Session.objects.get(stage__tournament=current, number=1).seats.first().player
    player.user = marta
    player.save()
    last_year = TournamentFactory(name="Coppa 2025", starts_on=date(2025, 10, 1))
    earlier = PlayerFactory(user=marta, name="Marta Rossi", nickname="")
    RegistrationFactory(player=earlier, tournament=last_year, number=1)

    page = new_page()
    log_in(page, "marta")
    page.wait_for_url("**/me/")
    expect(page.get_by_role("heading", level=1)).to_contain_text(player.display_name)
    page.get_by_label("Your account also plays in:").select_option(label="Coppa 2025")
    page.get_by_role("button", name="Switch tournament").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Marta Rossi")
    expect(page.get_by_label("Your account also plays in:")).to_contain_text("Coppa del Nord")

    phone = new_page(width=390, height=844)
    log_in(phone, "marta")
    check_page(phone, "/me/")
