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
