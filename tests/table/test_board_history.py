"""The board page lists the game's history a page at a time, newest first."""

from __future__ import annotations

import pytest

from table.actions import latest_snapshot
from table.models import Snapshot
from table.views import HISTORY_PAGE_SIZE
from tests.table.conftest import client_for, url

pytestmark = pytest.mark.django_db


def _add_snapshots(game, count: int) -> None:
    first = latest_snapshot(game)
    Snapshot.objects.bulk_create(
        Snapshot(
            game=game,
            number=first.number + n,
            kind=first.kind,
            summary=f"step {first.number + n}",
            state=first.state,
        )
        for n in range(1, count + 1)
    )


def _numbers(page) -> list[int]:
    return [step.number for step in page.context["history"]]


def test_the_history_is_shown_a_page_at_a_time_newest_first(game, table):
    _add_snapshots(game, HISTORY_PAGE_SIZE + 4)  # one setup snapshot + 29 more: 30 steps
    judge = client_for(table.judge)
    first = judge.get(url("board", game))
    assert first.status_code == 200
    assert _numbers(first) == list(range(30, 30 - HISTORY_PAGE_SIZE, -1))
    assert "?history=2#history" in first.content.decode()
    second = judge.get(url("board", game), {"history": 2})
    assert _numbers(second) == list(range(30 - HISTORY_PAGE_SIZE, 0, -1))
    assert "?history=1#history" in second.content.decode()
    # A page past the end, or not a number, shows the nearest page rather than failing.
    assert _numbers(judge.get(url("board", game), {"history": 99})) == _numbers(second)
    assert _numbers(judge.get(url("board", game), {"history": "x"})) == _numbers(first)


def test_a_short_history_has_no_pages(game, table):
    page = client_for(table.judge).get(url("board", game))
    assert _numbers(page) == [1]
    assert "?history=" not in page.content.decode()


def test_the_judge_reads_an_earlier_steps_whole_log_again(game, table):
    """Once later steps replace it, an Alien turn's log is not lost to the judge: its line
    in the history opens it again, every step and die, and the page says it is an earlier
    one, with the way back to the latest."""
    from tests.table.conftest import rearrange

    rearrange(game, aliens=[("ork-1", "ork", (5, 2))])
    judge = client_for(table.judge)
    turn = judge.post(
        url("alien_turn", game), {"turn-policy": "bob", "turn-mode": "app", "turn-version": 2}
    )
    assert turn.status_code == 302
    alien_turn = latest_snapshot(game).number
    judge.post(
        url("remove", game),
        {
            "remove-figure": "p3-m1",
            "remove-why": "dead",
            "remove-reason": "fell",
            "remove-version": alien_turn,
        },
    )
    latest = judge.get(url("board", game)).content.decode()
    assert "End of the Alien turn." not in latest
    assert f'href="?step={alien_turn}#log-card"' in latest
    again = judge.get(url("board", game), {"step": alien_turn})
    page = again.content.decode()
    assert "End of the Alien turn." in page and "Alien turn (round 1), policy BoB." in page
    assert "Dice rolled" in page and "Dice rolled" not in latest.split('id="history"')[0]
    assert f"the board shows the position after step {alien_turn + 1}" in page
    assert "Show the latest step" in page
    assert f'href="?step={alien_turn}#log-card" aria-current="step"' in page
    # The board itself, and every form, stay on the latest position.
    assert again.context["snapshot"].number == alien_turn + 1
    # The latest step, a step not in the game or not a number: the latest step's log.
    for asked in (str(alien_turn + 1), "99", "x", "-1"):
        shown = judge.get(url("board", game), {"step": asked}).content.decode()
        assert "Show the latest step" not in shown and "End of the Alien turn." not in shown
