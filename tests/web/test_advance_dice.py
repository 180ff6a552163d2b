"""The dashboard's advance form lists the physical dice the close needs (QA: each submit
revealed only the next missing die): once physical dice are chosen (htmx, as the organiser
types) and on a refused submit, with kind, purpose and who rolls, in order."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from rules.engine.dice import SeededDice
from tests.factories import TournamentFactory, UserFactory, confirm_stage, register_players
from tournaments.actions.stage_advance import advance, advance_dice_ahead
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


def close_plays(queries: CaptureQueriesContext) -> int:
    """How many times the close was played, rolled back or not: each play awards the 4
    session winners their honour."""
    honours = 'INSERT INTO "tournaments_honour"'
    return sum(honours in query["sql"] for query in queries.captured_queries) // 4


def listed_values(tournament) -> list[int]:
    """Typed dice that close the stage: the listed ones, different faces in each round."""
    values: list[int] = []
    ahead = advance_dice_ahead(tournament, values)
    while not ahead.complete:
        values += [6 - (n % 6) for n in range(len(ahead.next))]
        ahead = advance_dice_ahead(tournament, values)
    return values


def post_advance(client: Client, tournament, dice: str) -> tuple[str, CaptureQueriesContext]:
    with CaptureQueriesContext(connection) as queries:
        response = client.post(
            reverse("tournaments:organiser_advance", args=[tournament.slug]),
            {"advance-mode": "physical", "advance-dice": dice, "advance-version": 0},
        )
    return response, queries


def test_right_typed_dice_play_the_close_once(organiser, tied):
    """The review: the close was played twice, a dry run to check the dice, then for real."""
    values = listed_values(tied)
    with CaptureQueriesContext(connection) as one_play:
        assert advance_dice_ahead(tied, values).complete  # the close played once, rolled back
    response, queries = post_advance(organiser, tied, ",".join(map(str, values)))
    assert response.status_code == 302
    assert tied.stages.get(number=1).status == StageStatus.CLOSED
    assert close_plays(queries) == 1
    # The request costs one play and a few queries of its own (82 + 10 at the review),
    # not two plays (174).
    assert len(queries) <= len(one_play) + 20, (len(queries), len(one_play))


def test_a_refused_close_plays_its_dry_run_once_for_the_message_and_the_list(organiser, tied):
    """The review: the refused close's page played the dry run again to list the dice."""
    with CaptureQueriesContext(connection) as dry_run:
        advance_dice_ahead(tied, [4])
    response, queries = post_advance(organiser, tied, "4")
    assert response.status_code == 400
    html = response.content.decode()
    assert "not enough dice: 1 value was given" in html
    assert "after the die typed, roll these together" in html
    # The close, played until the dice run out, then the dry run naming what they lack:
    # 349 + 86 queries at the review, where the page played the dry run again (736).
    assert close_plays(queries) == 1 + close_plays(dry_run)
    assert len(queries) <= len(dry_run) + 120, (len(queries), len(dry_run))
