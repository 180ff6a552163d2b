"""A board's step refused or reopened is no dead end: the 405 page of a step's address (it
takes only a POST) links to the game's board, and a refused step's answer carries the
board's address for the page to put back in the address bar."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils.html import escape

from table.actions import latest_snapshot
from tests.table.conftest import client_for, url
from tests.table.test_split_fire_board import split_gunner

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("step", ["attack", "move", "alien_turn_again", "reroll"])
def test_reopening_a_steps_address_links_to_the_games_board(game, table, step):
    client = client_for(table.judge)
    client.cookies["django_language"] = "it"
    response = client.get(url(step, game))
    assert response.status_code == 405
    html = response.content.decode()
    assert f'<a class="button" href="{url("board", game)}" data-testid="back-to-board">' in html
    assert "Torna al tabellone della partita" in html
    assert "Torna ai tornei" in html


def test_the_boards_own_405_has_no_board_link(game, table):
    response = client_for(table.judge).post(url("board", game))
    assert response.status_code == 405
    assert "back-to-board" not in response.content.decode()


def test_a_405_elsewhere_has_no_board_link(client, table):
    client.force_login(table.organiser)
    slug = table.tournament.slug
    response = client.get(reverse("tournaments:organiser_start", args=[slug]))
    assert response.status_code == 405
    assert "back-to-board" not in response.content.decode()


def test_a_refused_step_carries_the_boards_address_and_what_was_typed(game, table):
    split_gunner(game, {"p2-m1": (4, 5), "p2-m2": (4, 6)})
    client = client_for(table.judge)
    version = latest_snapshot(game).number
    response = client.post(
        url("attack", game),
        {
            "attack-figure": "p1-m4",
            "attack-choice": "0",
            "attack-version": version,
            "attack-mode": "physical",
            "attack-dice": "sette",
        },
    )
    assert response.status_code == 400
    html = response.content.decode()
    assert f'data-board-address="{escape(url("board", game))}"' in html
    assert 'value="sette"' in html  # the dice typed, with the form's error


def test_the_board_itself_carries_no_address_to_put_back(game, table):
    html = client_for(table.judge).get(url("board", game)).content.decode()
    assert "data-board-address" not in html
