"""Catch the Flag on the board: each flag drawn where it lies (a hidden one for the judge
only), a carried one on its carrier (marked, and named in its title), the map's bare flag
spots only before any flag is placed; a carrier the judge takes off as having left play in
its own claw scores the flag, one taken off as dead drops it."""

from __future__ import annotations

import json
import re

import pytest

from rules.engine.state import Flag
from table.actions import (
    create_game,
    latest_snapshot,
    remove_figure,
    snapshot_state,
    upload_state,
)
from table.board_svg import board_svg

pytestmark = pytest.mark.django_db


def flag_game(table, hidden: bool):
    stage = table.session.stage
    stage.stipulation_kind = "catch_the_flag"
    stage.stipulation_params = {"flag_value": 30, "flags": "one_for_all", "hidden_flags": hidden}
    stage.save(update_fields=["stipulation_kind", "stipulation_params"])
    game = create_game(table.session, "flag-relay", "bob", actor=table.judge)
    return snapshot_state(latest_snapshot(game))


def flags_drawn(svg: str) -> list[str]:
    return re.findall(r'<g class="flag" data-square="([^"]+)">', svg)


def test_a_flag_is_drawn_where_it_lies_and_on_its_carrier_once_picked_up(table):
    state = flag_game(table, hidden=False)
    (flag,) = state.flags
    assert flags_drawn(board_svg(state)) == [f"{flag.square[0]},{flag.square[1]}"]
    assert board_svg(state).count("⚑") == 1  # not the map's spot as well

    carrier = next(f for f in state.figures if f.id == "p1-m1")
    carried = state.replace(flags=(Flag(flag.id, None, carrier.id, False),))
    svg = board_svg(carried)
    assert flags_drawn(svg) == []
    group = re.search(r'<g class="figure" data-figure="p1-m1".*?</g>', svg, re.S).group(0)
    assert "carries flag-1" in group and "⚑" in group


def test_a_hidden_flag_is_the_judges_to_see(table):
    state = flag_game(table, hidden=True)
    assert len(flags_drawn(board_svg(state))) == 1
    assert flags_drawn(board_svg(state, show_blip_types=False)) == []


def _carrying_in_own_claw(table, game_state):
    """p1-m1 carrying the flag, standing in p1's docking claw (uploaded as the judge would)."""
    (flag,) = game_state.flags
    claw = game_state.board.claw(game_state.player("p1").claw)
    marine = game_state.figure("p1-m1")
    square = next(sq for sq in claw.squares if game_state.figure_at(sq) in (None, marine))
    state = game_state.with_figure(marine.moved_to((square,))).replace(
        flags=(Flag(flag.id, None, "p1-m1", False),)
    )
    game = table.session.games.get()
    upload_state(game, json.dumps(state.to_json()), expected_number=latest_snapshot(game).number)
    return game


def test_a_carrier_the_judge_takes_off_as_left_in_its_claw_scores_the_flag(table):
    game = _carrying_in_own_claw(table, flag_game(table, hidden=False))
    before = snapshot_state(latest_snapshot(game)).player("p1").score
    snapshot = remove_figure(
        game, "p1-m1", "left", "home", expected_number=latest_snapshot(game).number
    )
    after = snapshot_state(snapshot)
    assert after.flags == () and after.player("p1").score == before + 30
    assert [left.id for left in after.progress.left_play] == ["p1-m1"]
    assert [step["code"] for step in snapshot.steps][:2] == ["flag_scored", "left_play"]


def test_a_carrier_the_judge_takes_off_as_dead_drops_the_flag(table):
    game = _carrying_in_own_claw(table, flag_game(table, hidden=False))
    where = snapshot_state(latest_snapshot(game)).figure("p1-m1").squares[0]
    snapshot = remove_figure(
        game, "p1-m1", "dead", "shot", expected_number=latest_snapshot(game).number
    )
    (flag,) = snapshot_state(snapshot).flags
    assert flag.square == where and flag.carried_by is None
    assert "flag_dropped" in [step["code"] for step in snapshot.steps]
