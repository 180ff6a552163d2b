"""The dashboard's "Seat the first stage" form lists the physical dice the random seating
needs, in order, once physical dice are chosen (as the advance form does): as the organiser
types (htmx) and again on a refused submit."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import TournamentFactory, UserFactory, register_players
from tournaments.models import SeatingMethod

pytestmark = pytest.mark.django_db


@pytest.fixture
def tournament():
    tournament = TournamentFactory(slug="inizio", seating_method=SeatingMethod.RANDOM)
    register_players(tournament, 6)
    return tournament


@pytest.fixture
def organiser(tournament) -> Client:
    user = UserFactory(username="boss")
    user.save()
    tournament.organisers.add(user)
    client = Client()
    client.force_login(user)
    return client


def check(client: Client, tournament, mode: str, dice: str = "") -> str:
    response = client.post(
        reverse("tournaments:organiser_start_dice", args=[tournament.slug]),
        {"start-mode": mode, "start-dice": dice, "start-version": 0},
        headers={"HX-Request": "true"},
    )
    assert response.status_code == 200
    return response.content.decode()


def test_choosing_physical_dice_lists_the_seating_dice(organiser, tournament):
    page = organiser.get(reverse("tournaments:organiser_dashboard", args=[tournament.slug]))
    html = page.content.decode()
    assert 'id="start-need"' in html
    assert reverse("tournaments:organiser_start_dice", args=[tournament.slug]) in html

    assert check(organiser, tournament, "app").strip() == ""
    listed = check(organiser, tournament, "physical")
    assert "roll these together and type them in this order:" in listed
    assert "d6</strong>" in listed
    assert "the close" not in listed and "closes the stage" not in listed
    assert "cannot show" in check(organiser, tournament, "physical", "6,9")


def test_a_refused_start_lists_the_dice_again(organiser, tournament):
    response = organiser.post(
        reverse("tournaments:organiser_start", args=[tournament.slug]),
        {"start-mode": "physical", "start-dice": "", "start-version": 0},
    )
    assert response.status_code == 400
    assert "roll these together and type them in this order:" in response.content.decode()
    assert not tournament.stages.filter(sessions__isnull=False).exists()


def test_registration_order_seating_says_no_dice_are_needed(organiser, tournament):
    tournament.seating_method = SeatingMethod.SEEDED
    tournament.save()
    assert "Seating the first stage needs no dice" in check(organiser, tournament, "physical")
