"""Stipulations played to their end (RULES §6, §12): scripted Alien Hunt and TPK games
under the BoB and Solitaire policies, the last event card, the stall breaker."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rules.engine.ai.policies import policy_named
from rules.engine.ai.turn import resolve_alien_turn
from rules.engine.combat import attack_options, resolve_attack
from rules.engine.dice import ScriptedDice, SeededDice
from rules.engine.kill_scores import score_kill
from rules.engine.movement import move, shortest_path
from rules.engine.narration import render
from rules.engine.play.round_end import (
    close_round,
    last_round_without_aliens,
    settle_eliminations,
    squad_distance,
)
from rules.engine.session_records import SHOT, TurnRecord
from rules.engine.state import Figure, GameState, Player, Stipulation, build_state
from rules.engine.turns import end_turn, leave_through_claw, record_attack, record_move
from rules.engine.units import load_rules_data

RULES = load_rules_data()
POLICIES = ("bob", "solitaire")

#: A corridor deck: claw 1 at the far left, claw 2 at the far right.
HUNT = """
+--+--+--+--+--+--+--+--+--+--+--+--+--+--+
|.1 .  .  .  .  .  .  .  .  .  .  .  .  .2|
+  +  +  +  +  +  +  +  +  +  +  +  +  +  +
|.1 .  .  .  .  .  .  .  .  .  .  .  .  .2|
+--+--+--+--+--+--+--+--+--+--+--+--+--+--+
"""


def marine(fid, sq, player, lp=2):
    return Figure(fid, "marine", player, "marine", (sq,), lp, weapons=("bolter",))


def deck(kind: str, figures: list[Figure], switches: dict) -> GameState:
    """The corridor deck with ``figures``, p1 (claw 1) to play, p2 at claw 2."""
    players = (Player("p1", claw="1"), Player("p2", claw="2"))
    stipulation = Stipulation(kind, switches)
    return build_state(HUNT, figures, players=players, active_player="p1", stipulation=stipulation)


def hunt(**switches) -> GameState:
    figures = [
        marine("p1-a", (2, 0), "p1"),
        marine("p1-b", (3, 1), "p1"),
        marine("p2-a", (11, 0), "p2"),
        Figure("ork", "alien", None, "ork", ((7, 0),), 1, weapons=("ork_weapon",)),
    ]
    return deck("alien_hunt", figures, switches)


def walk(state: GameState, fid: str, to: tuple[int, int]) -> GameState:
    path = shortest_path(state, fid, to)
    assert path is not None
    state = record_move(state, fid, len(path), RULES)
    state, events = move(state, fid, path, allowance=6)
    if any(e.kind == "reached_claw" for e in events):
        state, _ = leave_through_claw(state, fid)
    return state


def shoot(state: GameState, fid: str, target: str, faces: list[int]) -> GameState:
    option = next(o for o in attack_options(state, fid) if o.kind == "shoot" and o.target == target)
    state = record_attack(state, fid, SHOT)
    after, events = resolve_attack(state, option, ScriptedDice(values=faces))
    for event in events:
        after, _ = score_kill(state, after, event, state.figure(fid).player, RULES)
    return after


def alien_turn_and_close(state: GameState, policy: str, seed: int = 1):
    while state.active_player is not None:
        state, _ = end_turn(state)
    state, _ = resolve_alien_turn(state, policy_named(policy), SeededDice(seed=seed))
    return close_round(state, RULES)


@pytest.mark.parametrize("policy", POLICIES)
def test_alien_hunt_with_fixed_rounds_ends_after_them(policy):
    state = hunt(end_condition="fixed_rounds", rounds=2).without_figure("ork")
    state, steps = alien_turn_and_close(state, policy)
    assert state.round == 2 and state.active_player == "p1" and state.outcome is None
    assert steps[-1].code == "round_starts"
    state = state.with_player(replace(state.player("p2"), score=5))
    state, steps = alien_turn_and_close(state, policy)
    assert state.outcome is not None and state.outcome.reason == "rounds_played"
    assert state.outcome.winners == ("p2",) and state.round == 2
    assert render(steps[-1].code, steps[-1].params, "it") == (
        "La partita è finita (giocati tutti i round). Vince: p2."
    )
    again = GameState.from_json(state.to_json())
    assert again.outcome == state.outcome


@pytest.mark.parametrize("policy", POLICIES)
def test_alien_hunt_all_aliens_dead_then_escape_rounds_then_the_rest_are_lost(policy):
    state = hunt(end_condition="aliens_dead", escape_rounds=1)
    # Round 1: p1's marine shoots the ork dead (two red dice: 3 + 0 beats armour 1).
    state = shoot(state, "p1-a", "ork", [3, 0])
    assert not state.aliens()
    state, steps = alien_turn_and_close(state, policy)
    assert [s.code for s in steps][:1] == ["aliens_cleared"]
    assert render(steps[0].code, steps[0].params, "en") == (
        "Every alien is dead: the squads have 1 round to reach their claws (until round 2)."
    )
    assert state.progress.aliens_cleared_round == 1 and state.outcome is None
    # Round 2, the escape round: p1-a walks out through claw 1, p1-b and p2-a stay.
    state = walk(state, "p1-a", (0, 0))
    assert not state.has_figure("p1-a") and state.progress.left_play[0].id == "p1-a"
    state, steps = alien_turn_and_close(state, policy)
    assert state.outcome is not None and state.outcome.reason == "escape_over"
    lost = [s.params["figure"] for s in steps if s.code == "marine_lost"]
    assert lost == ["p1-b", "p2-a"]
    # p1 scored the ork's token? No free token: 0; each lost marine costs its owner 5.
    assert {p.id: p.score for p in state.players} == {"p1": -5, "p2": -5}
    assert state.outcome.winners == ("p1", "p2")


def test_the_last_event_card_gives_one_last_turn_each_then_the_rest_are_lost():
    state = hunt(event_deck=True, event_cards=["report"]).without_figure("ork")
    state, steps = alien_turn_and_close(state, "bob")
    assert state.progress.events_drawn == ("report",)
    assert state.progress.last_event_round == 1 and state.outcome is None
    assert "last_event_card" in [s.code for s in steps] and state.round == 2
    assert last_round_without_aliens(state)
    state = walk(state, "p1-a", (0, 0))  # p1 saves one marine in its last turn
    while state.active_player is not None:
        state, _ = end_turn(state)
    state, steps = close_round(state, RULES)  # no Alien turn in the last round
    assert state.outcome is not None and state.outcome.reason == "last_event_card"
    assert [s.params["figure"] for s in steps if s.code == "marine_lost"] == ["p1-b", "p2-a"]
    assert not [f for f in state.figures if f.side == "marine"]


def test_a_figure_that_left_through_its_claw_never_comes_back():
    state = walk(hunt(), "p1-b", (0, 1))
    assert "p1-b" not in [f.id for f in state.figures]
    assert GameState.from_json(state.to_json()).progress.left_play == state.progress.left_play


# --- TPK -------------------------------------------------------------------------------------

STALL = {"from_round": 2, "points": 5, "growth": 5, "max_extra_rounds": 1}


def tpk(kind: str = "tpk", **switches) -> GameState:
    figures = [marine("p1-a", (1, 0), "p1"), marine("p2-a", (12, 1), "p2")]
    return deck(kind, figures, switches)


def test_squad_distance_is_the_engines_path_distance_to_the_nearest_enemy():
    state = tpk()
    assert squad_distance(state, "p1") == squad_distance(state, "p2") == 10


@pytest.mark.parametrize("policy", POLICIES)
def test_tpk_stall_breaker_scores_each_round_and_ends_after_k_rounds(policy):
    state = tpk(stall_breaker=STALL)
    state, steps = alien_turn_and_close(state, policy)  # round 1 = R-1: the baseline
    assert state.progress.stall[0].distances == {"p1": 10, "p2": 10}
    assert not [s for s in steps if s.code == "stall_round"]
    state = walk(state, "p1-a", (5, 0))  # round 2: p1 closes in by 4, p2 stays
    state, steps = alien_turn_and_close(state, policy)
    assert {s.params["player"]: s.params["points"] for s in steps if s.code == "stall_round"} == {
        "p1": 5,
        "p2": -5,
    }
    assert state.outcome is None and state.round == 3
    state = walk(state, "p1-a", (7, 0))  # round 3 = R+K, B = 10: only 2 squares closer
    state, steps = alien_turn_and_close(state, policy)
    assert [s.params["points"] for s in steps if s.code == "stall_round"] == [-10, -10]
    assert state.outcome is not None and state.outcome.reason == "stall_limit"
    assert {p.id: p.score for p in state.players} == {"p1": -5, "p2": -15}
    assert state.outcome.winners == ("p1",)


@pytest.mark.parametrize("kind", ["tpk", "extended_tpk"])
@pytest.mark.parametrize("policy", POLICIES)
def test_tpk_ends_when_one_squad_is_left(policy, kind):
    state = tpk(kind)
    state = walk(state, "p1-a", (7, 0))
    state, _ = end_turn(state)
    state = walk(state, "p2-a", (10, 0))
    state, _ = end_turn(state)
    state, _ = alien_turn_and_close(state, policy)
    assert state.outcome is None
    state = shoot(state, "p1-a", "p2-a", [3, 3])  # 6 - armour 2: p2's last marine dies
    state, steps = alien_turn_and_close(state, policy)
    assert state.outcome is not None and state.outcome.reason == "last_squad"
    assert state.outcome.winners == ("p1",)
    assert {p.id: p.score for p in state.players} == {"p1": 5, "p2": -5}
    over = next(s for s in steps if s.code == "game_over")
    assert render(over.code, over.params, "en").endswith("Winner: p1.")


def three_squads() -> GameState:
    """A TPK on the corridor deck: p1 between p2 and p3, one marine each; p3 has 10 points."""
    figures = [
        marine("p1-a", (6, 0), "p1"),
        marine("p2-a", (10, 0), "p2"),
        marine("p3-a", (2, 1), "p3"),
    ]
    players = (Player("p1", claw="1"), Player("p2", claw="2"), Player("p3", score=10))
    return build_state(
        HUNT, figures, players=players, active_player="p1", stipulation=Stipulation("tpk", {})
    )


def test_a_tpk_squad_is_out_at_once_and_the_game_ends_with_the_last_one():
    state = three_squads()
    state = shoot(state, "p1-a", "p2-a", [3, 3])  # p2's last marine dies in round 1
    state, steps = settle_eliminations(state, RULES)
    assert state.progress.eliminated == (("p2", 1),)
    assert [s.code for s in steps] == ["squad_eliminated"]
    assert "La squadra di p2 è eliminata" in render(steps[0].code, steps[0].params, "it")
    assert state.outcome is None  # two squads are left: the game goes on
    assert settle_eliminations(state, RULES) == (state, [])  # recorded once
    state, _ = close_round(state, RULES)
    state = state.replace(active_player="p1")
    state = shoot(state, "p1-a", "p3-a", [3, 3])  # round 2: p3's last marine dies
    state, steps = settle_eliminations(state, RULES)
    assert state.outcome is not None and state.outcome.reason == "last_squad"
    assert state.outcome.round == 2 and state.active_player is None
    assert state.outcome.winners == ("p1",)
    # Second place: the most points among the eliminated (p3: 10 - 5; p2: -5).
    assert state.outcome.ranking == ("p1", "p3", "p2")
    assert state.progress.eliminated == (("p2", 1), ("p3", 2))
    assert [s.code for s in steps] == ["squad_eliminated", "game_over", "tpk_ranking"]
    assert render("tpk_ranking", steps[-1].params, "it") == "Classifica: p1, p3, p2."
    loaded = GameState.from_json(state.to_json())
    assert loaded.progress.eliminated == state.progress.eliminated
    assert loaded.outcome == state.outcome


def test_eliminated_squads_on_equal_points_rank_the_later_one_first():
    state = three_squads()
    state = state.with_player(replace(state.player("p3"), score=0))
    state = shoot(state, "p1-a", "p3-a", [3, 3])
    state, _ = settle_eliminations(state, RULES)
    state = shoot(state.replace(turn=TurnRecord()), "p1-a", "p2-a", [3, 3])
    state, _ = settle_eliminations(state, RULES)
    assert state.outcome is not None and state.outcome.ranking == ("p1", "p2", "p3")


def test_other_stipulations_and_states_without_eliminations_are_left_alone():
    state = hunt()
    assert settle_eliminations(state.without_figure("p2-a"), RULES)[1] == []
    assert "eliminated" not in tpk().to_json()["progress"]
    assert "ranking" not in (hunt().to_json()["outcome"] or {})


def test_an_older_state_loads_with_default_turn_progress_and_no_outcome():
    data = hunt().to_json()
    data["format"] = "bob-state/1"
    for key in ("turn", "progress", "outcome"):
        del data[key]
    data["stipulation"]["switches"]["events_drawn"] = ["report"]
    state = GameState.from_json(data)
    assert state.outcome is None and state.turn.figures == {}
    assert state.progress.events_drawn == ("report",)
    assert "events_drawn" not in state.stipulation.switches
    assert state.to_json()["format"] == "bob-state/2"
