"""The dashboard's advance form lists the physical dice the close needs (QA: each submit
revealed only the next missing die): once physical dice are chosen (htmx, as the organiser
types) and on a refused submit, with kind, purpose and who rolls, in order."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from rules.engine.dice import SeededDice
from tests.factories import TournamentFactory, UserFactory, confirm_stage, register_players
from tournaments.actions.stage_advance import advance
from tournaments.models import Seat, StageStatus

pytestmark = pytest.mark.django_db


@pytest.fixture
def tied():
    tournament = TournamentFactory(slug="pari")
    register_players(tournament, 12)
    advance(tournament, SeededDice(seed=5))
    points = {1: 10, 2: 5, 3: 1}
    confirm_stage(tournament.stages.get(number=1), lambda seat: points[seat.seat_order])
    return tournament


@pytest.fixture
def organiser(tied) -> Client:
    user = UserFactory(username="boss")
    user.save()  # the factory sets the password without saving it
    tied.organisers.add(user)
    client = Client()
    client.force_login(user)
    return client


def runners_up(tournament) -> list[str]:
    seats = Seat.objects.filter(session__stage__tournament=tournament, seat_order=2)
    return [seat.player.display_name for seat in seats]


def check(client: Client, tournament, mode: str, dice: str = "") -> str:
    response = client.post(
        reverse("tournaments:organiser_advance_dice", args=[tournament.slug]),
        {"advance-mode": mode, "advance-dice": dice, "advance-version": 0},
        headers={"HX-Request": "true"},
    )
    assert response.status_code == 200
    return response.content.decode()


def test_choosing_physical_dice_lists_the_roll_off_then_the_next_dice(organiser, tied):
    page = organiser.get(reverse("tournaments:organiser_dashboard", args=[tied.slug]))
    html = page.content.decode()
    assert 'id="advance-need"' in html
    assert reverse("tournaments:organiser_advance_dice", args=[tied.slug]) in html
    assert "best runners-up: tie on 5 points" not in html  # app dice: no list

    assert check(organiser, tied, "app").strip() == ""
    listed = check(organiser, tied, "physical")
    assert "With physical dice, roll these together and type them in this order:" in listed
    assert "dice 1–4:" in listed and "<strong>4 d6</strong>" in listed
    assert "best runners-up: tie on 5 points" in listed
    assert "Who rolls, one die each, in this order:" in listed
    for name in runners_up(tied):
        assert name in listed
    assert "a tie rolls again" in listed

    # Four different faces settle the roll-off: the list moves on past it.
    after = check(organiser, tied, "physical", "6,5,4,3")
    assert "after the 4 dice typed" in after
    assert "dice 1–4:" not in after and "dice 5" in after

    assert "cannot show" in check(organiser, tied, "physical", "6,9")


def test_a_refused_close_lists_every_die_known_and_stores_nothing(organiser, tied):
    response = organiser.post(
        reverse("tournaments:organiser_advance", args=[tied.slug]),
        {"advance-mode": "physical", "advance-dice": "4", "advance-version": 0},
    )
    assert response.status_code == 400
    html = response.content.decode()
    assert "not enough dice: 1 value was given" in html
    assert "dice 2–4 (3 d6): best runners-up: tie on 5 points, rolled by" in html
    assert "after the die typed, roll these together" in html  # the list under the field
    assert tied.stages.get(number=1).status == StageStatus.OPEN
    assert not tied.stages.filter(number=2).exists()


def test_the_checklist_names_the_tie_on_the_dashboard(organiser, tied):
    html = organiser.get(reverse("tournaments:organiser_dashboard", args=[tied.slug]))
    html = html.content.decode()
    assert 'data-check="roll_off"' in html
    assert "Everything is ready" not in html
