"""Catch the Flag (RULES §6): placement, finding, pickup, carrying, dropping on death and
scoring when brought home, played to the end of its rounds."""

from __future__ import annotations

import pytest

from rules.engine.flags import after_move, drop_flags, place_flags
from rules.engine.movement import move, shortest_path
from rules.engine.play.round_end import close_round
from rules.engine.session_records import TurnRecord
from rules.engine.state import Figure, GameState, Player, Stipulation, build_state
from rules.engine.turns import end_turn, leave_through_claw, record_move
from rules.engine.units import load_rules_data

RULES = load_rules_data()

#: Claw 1 on the left, claw 2 on the right, flag spots at 5,0 and 9,0; a wall and a
#: closed door hide 9,0 from the left part of the deck.
FIELD = """
+--+--+--+--+--+--+--+--+--+--+--+
|.1 .  .  .  .  .F .  . |.  .F .2|
+  +  +  +  +  +  +  +  +  +  +  +
|.1 .  .  .  .  .  .  . D.  .  .2|
+--+--+--+--+--+--+--+--+--+--+--+
"""


def field(**switches) -> GameState:
    figures = [
        Figure("p1-a", "marine", "p1", "marine", ((1, 0),), 2, weapons=("bolter",)),
        Figure("p2-a", "marine", "p2", "marine", ((10, 1),), 2, weapons=("bolter",)),
    ]
    players = (Player("p1", claw="1"), Player("p2", claw="2"))
    switches = {"flag_value": 30, **switches}
    stipulation = Stipulation("catch_the_flag", switches)
    state = build_state(
        FIELD, figures, players=players, active_player="p1", stipulation=stipulation
    )
    return place_flags(state)


def walk(state: GameState, fid: str, to: tuple[int, int]):
    path = shortest_path(state, fid, to)
    assert path is not None
    state = record_move(state, fid, len(path), RULES)
    state, events = move(state, fid, path, allowance=20)
    state, steps = after_move(state, fid)
    if any(e.kind == "reached_claw" for e in events):
        state, more = leave_through_claw(state, fid)
        steps += more
    return state, steps


@pytest.mark.parametrize(
    ("setting", "count"), [("one_per_squad", 2), ("two_for_three", 1), ("one_for_all", 1)]
)
def test_flags_are_placed_on_the_maps_flag_spots(setting, count):
    state = field(flags=setting)
    assert [f.square for f in state.flags] == [(5, 0), (9, 0)][:count]
    assert not any(f.hidden for f in state.flags)


def test_a_hidden_flag_is_found_when_a_marine_sees_its_square():
    state = field(hidden_flags=True)
    assert all(f.hidden for f in state.flags)
    state, steps = walk(state, "p1-a", (3, 0))
    assert [s.params["flag"] for s in steps if s.code == "flag_found"] == ["flag-1"]
    assert state.flags[1].hidden  # behind the wall and the closed door


def test_a_flag_is_picked_up_carried_dropped_on_death_and_scored_at_home():
    state, steps = walk(field(), "p1-a", (5, 0))
    assert [s.code for s in steps] == ["flag_picked_up"]
    carried = state.flags[0]
    assert carried.carried_by == "p1-a" and carried.square is None
    assert GameState.from_json(state.to_json()).flags == state.flags
    # Killed while carrying it: the flag drops where it was carried.
    moved, _ = walk(state.replace(turn=TurnRecord()), "p1-a", (3, 1))
    dead, steps = drop_flags(moved, moved.without_figure("p1-a"))
    assert dead.flags[0].square == (3, 1) and dead.flags[0].carried_by is None
    assert steps[0].code == "flag_dropped"
    # Brought home through its own claw: 30 points, the flag leaves play.
    home, steps = walk(moved.replace(turn=TurnRecord()), "p1-a", (0, 1))
    assert [s.code for s in steps] == ["flag_scored", "left_play"]
    assert home.player("p1").score == 30 and len(home.flags) == 1


def test_catch_the_flag_ends_after_its_rounds_with_the_flag_points():
    state, _ = walk(field(rounds=1), "p1-a", (5, 0))
    state, _ = walk(state.replace(turn=TurnRecord()), "p1-a", (0, 0))
    assert state.player("p1").score == 30
    while state.active_player is not None:
        state, _ = end_turn(state)
    state, steps = close_round(state, RULES)
    assert state.outcome is not None and state.outcome.reason == "rounds_played"
    assert state.outcome.winners == ("p1",)


def test_flags_belong_to_no_squad_any_marine_may_take_one_home():
    """Seed 002: a flag hidden at a secret spot, brought back to "la propria via di fuga";
    "una bandiera per Squadra" is how many flags there are, not whose (docs/decisions.md)."""
    state = field(flags="one_per_squad").replace(active_player="p2")
    state, steps = walk(state, "p2-a", (5, 0))  # the flag nearer p1's claw
    assert [s.code for s in steps] == ["flag_picked_up"]
    state, steps = walk(state.replace(turn=TurnRecord()), "p2-a", (10, 0))
    assert [s.code for s in steps] == ["flag_scored", "left_play"]
    assert state.player("p2").score == 30 and state.player("p1").score == 0
    # Through another squad's claw the flag is not scored: it drops on that claw.
    state = field().replace(active_player="p2")
    state, _ = walk(state, "p2-a", (5, 0))
    state, steps = walk(state.replace(turn=TurnRecord()), "p2-a", (0, 0))
    assert state.player("p2").score == 0
    assert next(f for f in state.flags if f.id == "flag-1").square == (0, 0)
