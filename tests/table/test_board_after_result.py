"""A saved result closes the session's board (decision 56): the board and the games page say
so at the top, with a link to the result, and every step, new game or Alien turn is refused
with a message that says why, in the action layer and through the pages."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from rules.engine.dice import SeededDice
from table.actions import (
    ResultSavedError,
    create_game,
    latest_snapshot,
    move_marine,
    request_alien_turn,
    undo_to,
)
from tests.table.conftest import client_for, url
from tournaments.actions.result_entry import record_result

pytestmark = pytest.mark.django_db

REFUSAL = "The result of this session is saved (version 1), so its games take no more steps"


def save_result(table) -> None:
    seats = table.session.seats.values_list("player_id", flat=True)
    record_result(
        table.session, [{"seat": str(p)} for p in seats], actor=table.judge, confirmed=True
    )


def test_the_board_takes_steps_until_the_result_is_saved(game, table):
    move_marine(game, "p1-m2", (5, 4), expected_number=1, actor=table.judge)
    save_result(table)
    with pytest.raises(ResultSavedError, match=re.escape(REFUSAL)):
        move_marine(game, "p1-m3", (4, 4), expected_number=2, actor=table.judge)
    with pytest.raises(ResultSavedError, match=re.escape(REFUSAL)):
        undo_to(game, 1, expected_number=2, actor=table.judge)
    with pytest.raises(ResultSavedError, match=re.escape(REFUSAL)):
        request_alien_turn(game, "bob", SeededDice(seed=1), expected_number=2, actor=table.judge)
    with pytest.raises(ResultSavedError, match=re.escape(REFUSAL)):
        create_game(table.session, "hunt-derelict", "bob", actor=table.judge)
    assert latest_snapshot(game).number == 2
    assert table.session.games.count() == 1


def test_a_step_posted_after_the_result_is_refused_saying_why(game, table):
    client = client_for(table.judge)
    save_result(table)
    data = {"move-figure": "p1-m2", "move-square": "5,4", "move-version": 1}
    refused = client.post(url("move", game), data)
    assert refused.status_code == 400
    said = refused.content.decode().split('data-testid="step-refused"', 1)[1].split("</ul>")[0]
    assert REFUSAL in said  # beside the notice: the move form is no longer on the page
    undo = client.post(url("undo", game), {"number": 1, "version": 1})
    assert latest_snapshot(game).number == 1, undo.status_code
    games = reverse("table:games", args=[table.session.pk])
    new = client.post(games, {"map_name": "hunt-derelict", "policy": "bob", "label": ""})
    assert new.status_code in (200, 400)
    assert table.session.games.count() == 1


def test_the_board_and_the_games_page_say_the_result_is_saved(game, table):
    client = client_for(table.judge)
    games = reverse("table:games", args=[table.session.pk])
    before = client.get(url("board", game)).content.decode()
    assert 'data-testid="result-saved"' not in before
    assert 'name="map_name"' in client.get(games).content.decode()
    save_result(table)
    result = reverse("tournaments:session", args=[table.tournament.slug, table.session.pk])
    for page in (url("board", game), games):
        html = client.get(page).content.decode()
        notice = html.split('data-testid="result-saved"', 1)[1].split("</div>", 1)[0]
        assert "The result of this session is saved (version 1)" in notice, page
        assert f'href="{result}"' in notice, page
        assert reverse("tournaments:judge_result", args=[table.session.pk]) in notice
        assert 'data-testid="stage-closed"' not in html
    # No new game is offered once the result is saved.
    assert 'name="map_name"' not in client.get(games).content.decode()
    client.cookies["django_language"] = "it"
    italian = client.get(url("board", game), HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert "Il risultato di questa sessione è salvato (versione 1)" in italian


def test_after_the_result_the_board_offers_no_step_only_what_reads_it(game, table):
    """The board's controls would all be refused once the result is saved: the page leaves
    them out (a tap board that only follows, no forms, no way back in the history) and keeps
    what reads the game: the board, its log, the line of sight, the state's download, the
    way to propose a new version of the result from it."""
    move_marine(game, "p1-m2", (5, 4), expected_number=1, actor=table.judge)
    client = client_for(table.judge)
    steps = (
        'id="move"',
        'id="open-door"',
        'id="equipment"',
        'id="attack"',
        'id="remove"',
        'id="life-points"',
        'id="alien-turn"',
        'class="play-tools"',
        "undo-last",
        'id="id_upload-file"',
        "End the turn",
        ">Back to step 1<",
    )
    before = client.get(url("board", game)).content.decode()
    assert [control for control in steps if control not in before] == []
    save_result(table)
    after = client.get(url("board", game)).content.decode()
    assert [control for control in steps if control in after] == []
    assert 'id="play" aria-labelledby="board-heading" data-closed' in after
    for kept in (
        'id="log-card"',
        'id="los"',
        'id="history"',
        "state.json",
        'data-testid="propose-result-now"',
    ):
        assert kept in after, kept
