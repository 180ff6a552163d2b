"""What a judge playing whole games by touch on a phone found wrong on the board, fixed: the
assault cannon lights another player's marines, the spectators never see the map's alien
markers, the banner says what each step did (dice, damage, kills, points) and the status
line never repeats it, the own-figures warning only when another of the player's figures
may be hit, each figure's dice numbered on their own in the re-roll panel and no re-roll
offered that cannot help, the odds as percentages, the Italian singular of a move one
square too far, no Blind Grenades in a game without aliens."""

from __future__ import annotations

import json
import re
from dataclasses import replace

import pytest
from django.test import Client
from django.utils import translation
from django.utils.html import escape

from rules.engine.combat import attack_options
from rules.engine.dice import ScriptedDice
from rules.engine.narration_errors import error_text
from rules.engine.state import Figure, GameState, Player, build_state
from rules.engine.units import load_rules_data
from table.actions import (
    attack_choices,
    latest_snapshot,
    marine_attack,
    remove_figure,
    snapshot_state,
    upload_state,
)
from table.board_svg import MARKER_INK
from table.step_outcome import MOST_LINES, outcome_lines, step_outcome
from table.touch_data import attack_targets, chance_text
from table.turn_actions import playable_cards
from tests.table.conftest import client_for, figure_name, rearrange, url
from tests.table.test_board_flags import _carrying_in_own_claw, flag_game
from tests.table.test_card_rerolls import attack, fight_choice, ork_next_to_commander
from tests.table.test_no_aliens import flag_game as deck_flag_game
from tests.table.test_no_aliens import players_end_their_turns

pytestmark = pytest.mark.django_db

RULES = load_rules_data()


def current(game) -> GameState:
    return snapshot_state(latest_snapshot(game))


def upload(game, state: GameState) -> GameState:
    upload_state(game, json.dumps(state.to_json()), expected_number=latest_snapshot(game).number)
    return current(game)


def banner(body: str) -> str:
    """The text of the board's banner (what the last step did), tags dropped."""
    found = re.search(r'<div id="step-outcome".*?</div>', body, re.S)
    assert found, "the board has no step banner"
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", found.group(0))).strip()


# --- 1. the assault cannon at another player's marines ---------------------------------------


def test_the_assault_cannon_lights_another_players_marine_to_tap(game, table):
    state = rearrange(game, {"p2-m1": (4, 5)})
    gunner = replace(state.figure("p1-m4"), unit="heavy_weapon_marine", weapons=("assault_cannon",))
    upload(game, state.with_figure(gunner))
    data = client_for(table.judge).get(url("targets", game), {"attacker": "p1-m4"}).json()
    cannon = next(o for o in data["options"] if "assault cannon" in o["description"])
    assert cannon["square"] == [4, 5]
    (target,) = (t for t in cannon["targets"] if t["key"] == "p2-m1")
    assert target["friendly"] is False and cannon["friendly"] is False


# --- 2. the spectators never see the map's alien markers -------------------------------------


def test_the_watch_view_never_draws_the_maps_alien_markers(game, table):
    assert current(game).board.markers  # the Derelict has markers in unexplored sections
    marker = f'fill="{MARKER_INK}"'
    judge = client_for(table.judge).get(url("board", game)).content.decode()
    assert marker in judge  # the judge's board may show them
    for path in ("watch", "watch_panel"):
        body = Client().get(url(path, game)).content.decode()
        assert 'data-square="' in body and marker not in body


# --- 3. the banner says what the step did ----------------------------------------------------


def test_a_fight_says_its_dice_damage_kill_and_points(game, table):
    judge = client_for(table.judge)
    state = ork_next_to_commander(game, ())
    upload(game, state.replace(tokens=()))
    assert attack(judge, game, fight_choice(state), "2,2,0,0").status_code == 302
    assert not current(game).has_figure("o1")
    shown = banner(judge.get(url("board", game)).content.decode())
    # The ork the step killed keeps its label (read from the state before the step).
    step = latest_snapshot(game).number
    commander = escape(figure_name(game, "p1-cmd"))  # its player's commander, with its id
    assert shown.startswith(f"Step {step}: {commander} fights Or1 · o1 hand-to-hand")
    assert f"{commander} attacks Or1 · o1: 2, 2 = 4" in shown  # the dice
    assert "o1 loses 1 life point, 0 left" in shown and "o1 is destroyed" in shown
    with translation.override("it"):
        italian = step_outcome(latest_snapshot(game))
    assert any("è eliminato" in line for line in italian)


def test_a_kill_says_the_points_it_moves(game, table):
    rearrange(game, {"p2-m1": (4, 5)})
    options = attack_choices(current(game), "p1-m4")
    index = next(i for i, o in enumerate(options) if o.target == "p2-m1")
    number = latest_snapshot(game).number
    marine_attack(game, "p1-m4", index, ScriptedDice(values=[3, 3]), expected_number=number)
    shown = banner(client_for(table.judge).get(url("board", game)).content.decode())
    names = {s.seat_order: s.player.display_name for s in game.session.seats.all()}
    killed = escape(figure_name(game, "p2-m1"))
    assert f"Player {names[2]} loses 5 points ({killed} killed)." in shown
    assert f"Player {names[1]} gains 5 points ({killed} killed)." in shown


def test_delivering_the_flag_says_its_points(table):
    game = _carrying_in_own_claw(table, flag_game(table, hidden=False))
    remove_figure(game, "p1-m1", "left", "home", expected_number=latest_snapshot(game).number)
    shown = banner(client_for(table.judge).get(url("board", game)).content.decode())
    name = game.session.seats.get(seat_order=1).player.display_name
    assert f"Flag flag-1 is brought home: 30 points to {name}." in shown


def test_the_alien_turn_says_what_the_aliens_did_not_how_they_chose():
    steps = [
        {"code": "turn_start", "params": {"round": 1, "policy": "bob"}},
        {"code": "activation", "params": {"figure": "ork-1", "unit": "ork", "criterion": "x"}},
        {"code": "dice", "params": {"figure": "ork-1", "kind": "white", "values": [2, 0]}},
        {"code": "damage", "params": {"target": "p1-m2", "amount": 1, "left": 0}},
        {"code": "killed", "params": {"target": "p1-m2"}},
        {"code": "score_lost", "params": {"player": "p1", "points": 5, "target": "p1-m2"}},
        {"code": "turn_end", "params": {}},
        {"code": "round_starts", "params": {"round": 2, "player": "p1"}},
    ]
    assert outcome_lines([], steps) == [
        "p1-m2 loses 1 life point (0 left).",
        "p1-m2 is killed.",
        "Player p1 loses 5 points (p1-m2 killed).",
        "Round 2 begins: p1 plays first.",
    ]
    many = [{"code": "killed", "params": {"target": f"ork-{n}"}} for n in range(12)]

    class Step:  # a snapshot's stored log is all the banner reads
        events: list = []

    Step.steps = many
    lines = step_outcome(Step)
    assert len(lines) == MOST_LINES and lines[-1] == "…and 5 more lines in the log."


# --- 7. the status line never repeats the step -----------------------------------------------


def test_the_status_hint_never_repeats_the_steps_summary(table):
    game = deck_flag_game(table, aliens=False)
    players_end_their_turns(game)
    body = client_for(table.judge).get(url("board", game)).content.decode()
    shown = banner(body)
    assert shown.endswith("Every player has played: start the next round.")
    hint = re.search(r'<div id="step-outcome"[^>]*data-hint="([^"]*)"', body, re.S).group(1)
    assert hint == "Next: start the next round (its button is under the board)."
    assert "Every player has played" not in hint and "data-t-hint" not in body


# --- 4. the own-figures warning --------------------------------------------------------------

LANE = """
+--+--+--+--+--+--+
|.  .  .  .  .  . |
+  +  +  +  +  +  +
|.  .  .  .  .  . |
+--+--+--+--+--+--+
"""


def lane() -> GameState:
    """p1's plasma gunner at 0,0 with its own marine at 2,0 and an ork at 4,0 on the same
    row; another ork beside the gunner at 0,1."""
    figures = (
        Figure(
            "p1-hw", "marine", "p1", "heavy_weapon_marine", ((0, 0),), 2, weapons=("plasma_gun",)
        ),
        Figure("p1-m1", "marine", "p1", "marine", ((2, 0),), 1, weapons=("bolter",)),
        Figure("o1", "alien", None, "ork", ((4, 0),), 1, weapons=("ork_weapon",)),
        Figure("o2", "alien", None, "ork", ((0, 1),), 1, weapons=("ork_weapon",)),
    )
    return build_state(LANE, figures, players=(Player("p1"),), active_player="p1")


def test_only_another_own_figure_in_the_way_warns_not_the_fighter_itself():
    state = lane()
    options = attack_options(state, "p1-hw", data=RULES)
    fight_index, fight = next(
        (i, o) for i, o in enumerate(options) if o.kind == "hand_to_hand" and o.target == "o2"
    )
    assert "p1-hw" in fight.target_keys and fight.odds.touches_friendly()
    line_index = next(
        i for i, o in enumerate(options) if o.kind == "shoot" and "p1-m1" in o.target_keys
    )
    friendly = {o["index"]: o["friendly"] for o in attack_targets(state, "p1-hw")["options"]}
    assert friendly[fight_index] is False  # only the fighter itself may lose life points
    assert friendly[line_index] is True


#: p1's heavy weapon marine with a missile launcher (a blast weapon), at 0,0.
MISSILE_LAUNCHER = Figure(
    "p1-hw", "marine", "p1", "heavy_weapon_marine", ((0, 0),), 2, weapons=("missile_launcher",)
)


def test_a_blast_beside_an_own_marine_warns_one_beside_no_own_figure_does_not():
    """p1's missile launcher at 0,0; an ork at 5,0 beside p1's own marine at 5,1, and
    another ork at 2,1 with nobody beside it."""
    figures = (
        MISSILE_LAUNCHER,
        Figure("p1-m1", "marine", "p1", "marine", ((5, 1),), 1, weapons=("bolter",)),
        Figure("o1", "alien", None, "ork", ((5, 0),), 1, weapons=("ork_weapon",)),
        Figure("o2", "alien", None, "ork", ((2, 1),), 1, weapons=("ork_weapon",)),
    )
    state = build_state(LANE, figures, players=(Player("p1"),), active_player="p1")
    options = attack_targets(state, "p1-hw")["options"]
    at_o1 = [o for o in options if {t["key"] for t in o["targets"]} >= {"o1", "p1-m1"}]
    at_o2 = [o for o in options if {t["key"] for t in o["targets"]} == {"o2"}]
    assert at_o1 and all(o["friendly"] for o in at_o1)
    assert at_o2 and not any(o["friendly"] for o in at_o2)


def test_a_blast_that_reaches_the_firer_itself_warns():
    """An ork right beside p1's missile launcher: the blast on it reaches the firer too
    (only a hand-to-hand fight leaves the fighter itself out of the warning)."""
    figures = (
        MISSILE_LAUNCHER,
        Figure("o1", "alien", None, "ork", ((1, 0),), 1, weapons=("ork_weapon",)),
    )
    state = build_state(LANE, figures, players=(Player("p1"),), active_player="p1")
    shots = {
        i for i, o in enumerate(attack_options(state, "p1-hw", data=RULES)) if o.kind == "shoot"
    }
    friendly = {o["index"]: o["friendly"] for o in attack_targets(state, "p1-hw")["options"]}
    assert shots and all(friendly[i] for i in shots)
    assert not all(friendly.values())  # the fight beside it does not warn


def test_the_board_warns_of_own_figures_only_when_they_may_be_hit(game, table):
    ork_next_to_commander(game, ())
    judge = client_for(table.judge)
    data = judge.get(url("targets", game), {"attacker": "p1-cmd"}).json()
    fight = next(o for o in data["options"] if "· p1-cmd fights Or1 · o1" in o["description"])
    assert fight["friendly"] is False
    panel = judge.get(
        url("attack_panel", game), {"attacker": "p1-cmd"}, HTTP_HX_REQUEST="true"
    ).content.decode()
    assert "may hit own figures" not in panel


# --- 8. the odds as percentages --------------------------------------------------------------


def test_the_odds_show_a_percentage_with_the_exact_fraction_as_a_tooltip(game, table):
    rearrange(game, {"p2-m1": (4, 5)})
    judge = client_for(table.judge)
    data = judge.get(url("targets", game), {"attacker": "p1-m4"}).json()
    target = next(t for o in data["options"] for t in o["targets"] if t["key"] == "p2-m1")
    assert target["chance"].endswith("%") and "/" not in target["chance"]
    panel = judge.get(
        url("attack_panel", game), {"attacker": "p1-m4"}, HTTP_HX_REQUEST="true"
    ).content.decode()
    assert f'title="Exact probability: {target["kill"]}"' in panel
    assert f"destroyed with probability {target['chance']}" in panel
    assert "(≈" not in panel
    assert [chance_text(p) for p in (0, 0.04, 37.5, 50.0, 99.97, 100)] == [
        "0%",
        "<0.1%",
        "37.5%",
        "50%",
        ">99.9%",
        "100%",
    ]
    with translation.override("it"):
        assert chance_text(37.5) == "37,5%"


# --- 6. the re-roll panel --------------------------------------------------------------------


def test_a_reroll_that_cannot_help_is_not_offered(game, table):
    judge = client_for(table.judge)
    state = ork_next_to_commander(game, ("bionic_arm",))
    attack(judge, game, fight_choice(state), "2,2,0,0")  # the ork is killed outright
    assert not current(game).has_figure("o1")
    body = judge.get(url("board", game)).content.decode()
    assert "Roll a die again" not in body and "reroll_offer" not in json.dumps(
        latest_snapshot(game).steps
    )


def test_the_panel_numbers_each_figures_own_dice_and_lets_the_judge_decline(game, table):
    judge = client_for(table.judge)
    state = ork_next_to_commander(game, ("bionic_arm",))
    attack(judge, game, fight_choice(state), "0,2,2,0")  # 0 + 2 against 2 + 0: a tie
    body = judge.get(url("reroll_panel", game)).content.decode()
    # The commander's die 2 already shows a white die's best: only die 1 may help.
    assert re.findall(r'name="reroll-number" value="(\d)"', body) == ["1"]
    assert "data-reroll-decline" in body and "Don't roll again: the dice stand" in body
    assert "Each figure's dice are numbered from 1" in body


# --- 9. smaller ------------------------------------------------------------------------------


def test_a_move_one_square_too_far_reads_well_in_italian():
    params = {"figure": "p1-m2", "moved": 4, "allowance": 4, "steps": 1}
    assert "un'altra casella è di troppo" in error_text("turn_move_too_far", params, "it")
    assert "altre 1" not in error_text("turn_move_too_far", params, "it")
    assert "altre 2 sono troppe" in error_text("turn_move_too_far", {**params, "steps": 2}, "it")


@pytest.mark.parametrize("aliens", [False, True])
def test_blind_grenades_are_offered_only_in_a_game_with_aliens(table, aliens):
    game = deck_flag_game(table, aliens=aliens)
    state = current(game)
    player = state.active_player
    held = replace(state.player(player), cards=("blind_grenades", "medi_kit"))
    state = upload(game, state.with_player(held))
    assert ("blind_grenades" in playable_cards(state)) is aliens
    # Medi-Kit, in either game, once there is a wounded commander to heal.
    assert "medi_kit" not in playable_cards(state)
    commander = next(f for f in state.figures_of(player) if f.unit == "commander")
    state = upload(game, state.with_figure(replace(commander, life_points=1)))
    assert "medi_kit" in playable_cards(state)


def test_the_games_list_links_each_game_as_a_fingertip_target(game, table):
    body = client_for(table.judge).get(url("board", game).rsplit("games/", 1)[0] + "games/")
    assert 'class="game-link"' in body.content.decode()
