"""Kills on the judge's board change the players' scores and tokens (RULES §7) in a
marine's attack as they do in the Aliens' turn."""

from __future__ import annotations

import json

import pytest

from rules.engine.dice import ScriptedDice
from rules.engine.state import ALIEN, Figure, GameState, Token
from rules.engine.units import load_rules_data
from table.actions import (
    attack_choices,
    latest_snapshot,
    marine_attack,
    snapshot_state,
    upload_state,
)
from table.step_log import log_lines
from tests.table.conftest import fresh_turn, rearrange

pytestmark = pytest.mark.django_db


def current(game) -> GameState:
    return snapshot_state(latest_snapshot(game))


def scores(state: GameState) -> dict[str, int]:
    return {p.id: p.score for p in state.players}


def attack(game, attacker: str, target: str, values: list[int]):
    options = attack_choices(current(game), attacker)
    index = next(i for i, o in enumerate(options) if o.target == target)
    number = latest_snapshot(game).number
    return marine_attack(game, attacker, index, ScriptedDice(values=values), expected_number=number)


def with_orks_and_tokens(game, orks: list[tuple[str, tuple[int, int]]], tokens: int) -> None:
    state = current(game)
    for fid, sq in orks:
        state = state.with_figure(
            Figure(fid, ALIEN, None, "ork", (sq,), life_points=1, weapons=("ork_weapon",))
        )
    state = state.replace(tokens=tuple(Token(f"t{n}", "blip", "ork") for n in range(tokens)))
    upload_state(game, json.dumps(state.to_json()), expected_number=latest_snapshot(game).number)


def test_killing_another_players_marine_moves_its_value_between_them(game):
    rearrange(game, {"p2-m1": (4, 5)})
    before = scores(current(game))
    snapshot = attack(game, "p1-m4", "p2-m1", [3, 3])
    after = current(game)
    assert not after.has_figure("p2-m1")
    assert scores(after)["p1"] == before["p1"] + 5
    assert scores(after)["p2"] == before["p2"] - 5
    assert scores(after)["p3"] == before["p3"]
    assert [step["code"] for step in snapshot.steps] == ["score_lost", "score_gained"]
    lines = [line.text for line in log_lines(snapshot.steps, "it")]
    assert lines == [
        "Il giocatore p2 perde 5 punti (p2-m1 eliminato).",
        "Il giocatore p1 guadagna 5 punti (p2-m1 eliminato).",
    ]


def test_a_marine_killing_an_alien_takes_a_free_token_of_its_type(game):
    with_orks_and_tokens(game, [("ork-1", (4, 5)), ("ork-2", (5, 5))], tokens=1)
    before = scores(current(game))
    first = attack(game, "p1-m4", "ork-1", [3, 3])
    state = current(game)
    assert not state.has_figure("ork-1")
    assert [t.taken_by for t in state.tokens] == ["p1"]
    ork = load_rules_data().alien_tokens["ork"]
    assert ork > 0
    assert scores(state)["p1"] == before["p1"] + ork
    assert [step["code"] for step in first.steps] == ["token_taken"]
    # The only ork token is gone: the second ork is worth nothing, and the board says so.
    fresh_turn(game)
    second = attack(game, "p1-m4", "ork-2", [3, 3])
    state = current(game)
    assert not state.has_figure("ork-2")
    assert scores(state)["p1"] == before["p1"] + ork
    assert [step["code"] for step in second.steps] == ["no_token"]


def test_an_attack_that_kills_nobody_changes_no_score(game):
    rearrange(game, {"p2-m1": (4, 5)})
    before = scores(current(game))
    snapshot = attack(game, "p1-m4", "p2-m1", [0, 0])
    assert scores(current(game)) == before
    assert snapshot.steps == []
