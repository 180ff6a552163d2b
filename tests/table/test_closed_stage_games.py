"""QA: a judge played a whole game on a session whose stage was closed, then found the
result could not be saved; and a game without a round limit had no way to its result."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.table.conftest import client_for, url
from tests.table.test_result_from_game_view import fill_url
from tournaments.models import Stage, StageStatus

pytestmark = pytest.mark.django_db


def close(table) -> None:
    Stage.objects.filter(pk=table.session.stage_id).update(status=StageStatus.CLOSED)


def test_a_closed_stages_games_say_their_result_cannot_be_saved(game, table):
    judge = client_for(table.judge)
    assert 'data-testid="stage-closed"' not in judge.get(url("board", game)).content.decode()
    close(table)
    for page in (url("board", game), reverse("table:games", args=[game.session_id])):
        assert 'data-testid="stage-closed"' in judge.get(page).content.decode(), page
    proposed = judge.get(fill_url(game)).content.decode()
    assert "nothing on this page can be saved" in proposed
    assert 'name="reason"' not in proposed
    # Only the hidden button that catches Enter in a field is left (the server refuses).
    assert proposed.count("Submit the result</button>") == 1


def test_a_game_not_over_can_propose_its_result_from_the_position_now(game, table):
    board = client_for(table.judge).get(url("board", game)).content.decode()
    now = board.split('data-testid="propose-result-now"', 1)[1].split("</p>", 1)[0]
    assert f'href="{fill_url(game)}"' in now
