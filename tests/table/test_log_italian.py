"""The judge's board page shows the Alien turn's steps, its dice and the sight tool in the
page's language: nothing English is left in Italian."""

from __future__ import annotations

import re

import pytest
from django.utils import translation

from table.actions import check_sight, latest_snapshot, snapshot_state
from table.step_log import dice_lines
from tests.engine.test_ai_log_italian import english_in
from tests.table.conftest import rearrange
from tests.table.test_views import HTMX, client_for, url

pytestmark = pytest.mark.django_db


def test_dice_lines_translate_purpose_codes():
    rolls = [
        {
            "purpose": "hand_to_hand_attack",
            "params": {"attacker": "ork-1", "defender": "p1-m1"},
            "kind": "white",
            "values": [0, 2],
            "source": "seeded",
        },
        {"purpose": "initiative roll-off", "kind": "d6", "values": [4], "source": "seeded"},
    ]
    assert dice_lines(rolls, "it") == [
        "corpo a corpo: ork-1 attacca p1-m1: bianchi [0, 2]",
        "initiative roll-off: d6 [4]",
    ]
    assert dice_lines(rolls, "en")[0] == "hand-to-hand: ork-1 attacks p1-m1: white [0, 2]"


def _items(html: str) -> list[str]:
    return [
        re.sub(r"<[^>]+>", "", item).strip() for item in re.findall(r"<li[^>]*>(.*?)</li>", html)
    ]


def test_alien_turn_log_and_dice_read_in_italian(game, table):
    state = snapshot_state(latest_snapshot(game))
    board = state.board
    beside = next(
        sq
        for marine in state.figures
        if marine.side == "marine" and marine.on_board
        for sq in (
            (marine.square[0] + dx, marine.square[1] + dy)
            for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))
        )
        if board.in_bounds(sq)
        and not board.is_solid(sq)
        and not board.claw_of(sq)
        and state.figure_at(sq) is None
        and state.edge_open(marine.square, sq)
    )
    rearrange(game, aliens=[("ork-1", "ork", beside)])
    client = client_for(table.judge)
    client.post(
        url("alien_turn", game), {"turn-policy": "bob", "turn-mode": "app", "turn-version": 2}
    )
    client.cookies["django_language"] = "it"
    log = client.get(url("step_log", game), HTTP_ACCEPT_LANGUAGE="it", **HTMX).content.decode()
    items = _items(log)
    assert "Fine del turno alieno." in items
    assert any(item.startswith("corpo a corpo: Or1 · ork-1 attacca") for item in items), items
    for item in items:
        assert not english_in(item), item


def test_sight_tool_explains_in_the_page_language(game, table):
    state = snapshot_state(latest_snapshot(game))
    marine = next(f for f in state.figures if f.side == "marine" and f.on_board)
    x, y = marine.square
    check = check_sight(state, marine.id, f"{x},{y}", for_firing=True)
    with translation.override("it"):
        assert check.reason == "stessa casella"
    with translation.override("en"):
        assert check.reason == "same square"
    client = client_for(table.judge)
    client.cookies["django_language"] = "it"
    query = {"los-a": marine.id, "los-b": f"{x},{y}", "los-for_firing": "on"}
    page = client.get(url("sight", game), query, HTTP_ACCEPT_LANGUAGE="it", **HTMX)
    assert "stessa casella" in page.content.decode()
