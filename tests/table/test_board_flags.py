"""Catch the Flag on the board picture: each flag where it lies (a hidden one for the judge
only), a carried one on its carrier (marked, and named in its title), the map's bare flag
spots only before any flag is placed."""

from __future__ import annotations

import re

import pytest

from rules.engine.state import Flag
from table.actions import create_game, latest_snapshot, snapshot_state
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
