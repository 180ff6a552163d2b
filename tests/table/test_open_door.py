"""A marine opens a closed door it stands in front of without moving (RULES "Doors"):
the action through the engine's door and turn checks, and the board's no-JS form."""

from __future__ import annotations

import json

import pytest

from rules.engine.board import DoorState
from rules.engine.geometry import Square
from rules.engine.movement import can_stop_at
from rules.engine.state import MARINE, Blip, GameState
from table.actions import (
    GameError,
    latest_snapshot,
    open_door_by,
    snapshot_state,
    upload_state,
)
from table.models import Game, SnapshotKind
from tests.table.conftest import client_for, rearrange, url

pytestmark = pytest.mark.django_db


def current(game: Game) -> GameState:
    return snapshot_state(latest_snapshot(game))


def marine_of(state: GameState, player: str) -> str:
    return next(f.id for f in state.figures if f.side == MARINE and f.player == player)


def a_closed_door(state: GameState, marine: str) -> tuple[Square, Square]:
    """A closed door with a square in front of it where ``marine`` may stand (first)."""
    return next(
        (a, b)
        for (a, b), door in sorted(state.doors.items())
        if door is DoorState.CLOSED and can_stop_at(state, marine, a)
    )


def at_a_door(game: Game) -> tuple[str, Square, Square]:
    """The active player's first marine placed in front of a closed door."""
    state = current(game)
    marine = marine_of(state, state.active_player or state.initiative[0])
    a, b = a_closed_door(state, marine)
    rearrange(game, {marine: a})
    return marine, a, b


def test_a_marine_in_front_of_a_closed_door_opens_it_without_moving(game):
    marine, a, b = at_a_door(game)
    before = latest_snapshot(game).number
    snapshot = open_door_by(game, marine, b, a, expected_number=before)
    state = snapshot_state(snapshot)
    assert snapshot.number == before + 1 and snapshot.kind == SnapshotKind.MARINE_MOVE
    assert state.door_state(a, b) is DoorState.OPEN
    assert state.figure(marine).squares == (a,)
    assert state.turn.of(marine).moved == 0  # opening spends no squares
    assert snapshot.events[0]["kind"] == "door_opened"
    assert f"{marine} opened the door between" in snapshot.summary


def test_a_marine_away_from_the_door_cannot_open_it(game):
    marine, a, b = at_a_door(game)
    state = current(game)
    board = state.board
    far = next(
        (x, y)
        for y in range(board.height)
        for x in range(board.width)
        if can_stop_at(state, marine, (x, y)) and abs(x - a[0]) + abs(y - a[1]) > 3
    )
    rearrange(game, {marine: far})
    with pytest.raises(
        GameError, match=r"must stand in front of the door .*\(rule: a figure opens a closed door"
    ):
        open_door_by(game, marine, a, b, expected_number=latest_snapshot(game).number)
    assert current(game).door_state(a, b) is DoorState.CLOSED


def test_a_marine_of_a_player_who_is_not_playing_cannot_open_a_door(game):
    state = current(game)
    waiting = marine_of(state, state.initiative[1])
    a, b = a_closed_door(state, waiting)
    rearrange(game, {waiting: a})
    with pytest.raises(GameError, match=r"turn, not .*rule: players act in initiative order"):
        open_door_by(game, waiting, a, b, expected_number=latest_snapshot(game).number)
    assert current(game).door_state(a, b) is DoorState.CLOSED


def test_the_board_form_opens_a_door_and_shows_a_refusal(game, table):
    marine, a, b = at_a_door(game)
    judge = client_for(table.judge)
    door = f"{a[0]},{a[1]} {b[0]},{b[1]}"
    version = latest_snapshot(game).number
    page = judge.get(url("board", game)).content.decode()
    assert 'action="' + url("open_door", game) + '"' in page
    wrong = judge.post(
        url("open_door", game), {"door-figure": marine, "door-door": "5,4", "door-version": version}
    )
    assert wrong.status_code == 400 and "the two squares either side" in wrong.content.decode()
    done = judge.post(
        url("open_door", game), {"door-figure": marine, "door-door": door, "door-version": version}
    )
    assert done.status_code == 302
    assert current(game).door_state(a, b) is DoorState.OPEN
    again = judge.post(
        url("open_door", game),
        {"door-figure": marine, "door-door": door, "door-version": version + 1},
    )
    assert again.status_code == 400 and "not closed" in again.content.decode()


def test_the_touch_board_lights_the_doors_a_marine_may_open(game, table):
    marine, a, b = at_a_door(game)
    data = client_for(table.judge).get(url("reachable", game), {"figure": marine}).json()
    assert {"between": [list(a), list(b)]} in data["doors"]


def test_opening_a_door_reveals_the_blip_the_marine_now_sees(game):
    """QA found a blip behind a door left hidden after the door opened: the open door
    shows the marines what lies behind it, as a move does."""
    marine, a, b = at_a_door(game)
    state = current(game)
    assert state.figure_at(b) is None
    upload_state(
        game,
        json.dumps(state.replace(blips=(Blip("blip-9", b, "ork"),)).to_json()),
        expected_number=latest_snapshot(game).number,
    )
    snapshot = open_door_by(game, marine, a, b, expected_number=latest_snapshot(game).number)
    after = snapshot_state(snapshot)
    assert "blip-9" not in [blip.id for blip in after.blips]
    assert [f.unit for f in after.figures if f.squares == (b,)] == ["ork"]
    assert "blip_revealed" in [step["code"] for step in snapshot.steps]
