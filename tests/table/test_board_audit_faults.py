"""Faults an audit found on the judge's board: the Attacker list, the bulkhead attack that
cannot succeed, the re-roll panel naming every card, the touch board's move with another
player's permission."""

from __future__ import annotations

import re

import pytest

from table.actions import attack_choices, latest_snapshot
from tests.engine.combat_scenes import marine, scene
from tests.table.conftest import client_for, fresh_turn, rearrange, url
from tests.table.test_card_rerolls import attack, fight_choice, ork_next_to_commander, reroll

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


def test_the_reroll_panel_names_both_cards_and_the_judge_may_use_either(game, table):
    judge = client_for(table.judge)
    state = ork_next_to_commander(game, ("bionic_arm", "digital_weapons"))
    # The commander's white dice show 0 and 0, the ork's 2 and 0.
    assert attack(judge, game, fight_choice(state), "0,0,2,0").status_code == 302
    board = judge.get(url("board", game)).content.decode()
    assert "Bionic Arm or Digital Weapons: " in board
    assert 'value="2:bionic_arm"' in board and 'value="2:digital_weapons"' in board
    assert reroll(judge, game, "2:digital_weapons", "2").status_code == 302
    (done,) = [s for s in latest_snapshot(game).steps if s["code"] == "reroll_done"]
    assert done["params"]["chapter_card"] == "digital_weapons"
    # The other card is left for a second die.
    board = judge.get(url("board", game)).content.decode()
    assert 'name="reroll-number" value="1"' in board and "Bionic Arm: " in board


def test_a_reroll_with_a_card_the_figure_may_not_use_names_the_cards_it_may(game, table):
    judge = client_for(table.judge)
    state = ork_next_to_commander(game, ("bionic_arm", "digital_weapons"))
    assert attack(judge, game, fight_choice(state), "0,0,2,0").status_code == 302
    response = reroll(judge, game, "2:targeter", "2")
    assert response.status_code == 400
    assert "its cards for this attack: Bionic Arm, Digital Weapons." in response.content.decode()


def test_the_touch_board_lights_a_square_reached_only_with_another_players_permission(game, table):
    rearrange(game, {"p2-m1": (4, 3), "p2-m2": (5, 3)})
    judge = client_for(table.judge)
    data = judge.get(url("reachable", game), {"figure": "p1-m1"}).json()
    (through,) = [s for s in data["squares"] if s["square"] == [5, 4]]
    assert through["permission"]  # whose figures it passes, for the judge to ask
    assert all("permission" not in s for s in data["squares"] if s["square"] == [4, 3])
    # The board sends the move as the form's box would: the same engine call.
    board = judge.get(url("board", game)).content.decode()
    assert 'name="move-pass_through"' in board and "data-t-permit-ask=" in board
