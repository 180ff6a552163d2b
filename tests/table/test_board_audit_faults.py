"""Faults an audit found on the judge's board: the Attacker list, the bulkhead attack that
cannot succeed, the re-roll panel naming every card, the touch board's move with another
player's permission."""

from __future__ import annotations

import re

import pytest

from table.actions import attack_choices
from tests.engine.combat_scenes import marine, scene
from tests.table.conftest import client_for, fresh_turn, url

pytestmark = pytest.mark.django_db


def attacker_options(body: str) -> list[str]:
    """The values of the board's Attacker list (the empty choice dropped)."""
    found = re.search(r'<select id="attacker-select".*?</select>', body, re.S)
    assert found, "the board has no Attacker list"
    return [v for v in re.findall(r'<option value="([^"]*)"', found.group(0)) if v]


def test_the_attacker_list_offers_only_the_marines_of_the_player_on_turn(game, table):
    state = fresh_turn(game, "p2")
    body = client_for(table.judge).get(url("board", game)).content.decode()
    listed = attacker_options(body)
    assert listed, "the player on turn has marines to attack with"
    assert all(state.figure(fid).player == "p2" for fid in listed)
    assert any(f.player == "p1" and f.on_board for f in state.figures)


def test_an_attack_that_cannot_break_a_bulkhead_is_not_offered():
    state = scene(
        """
+--+--+--+--+
|.  .MB.  . |
+--+--+--+--+
""",
        {"M": marine(weapons=["laser_rifle", "bolter"])},
    )
    doors = [o for o in attack_choices(state, "M") if o.door is not None]
    # 2 white dice (a fight or the laser rifle) never beat armour 4; the bolter's 2 red may.
    assert [o.weapon for o in doors] == ["bolter"]
