"""Hypothesis properties of whole Alien turns over random small states."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.engine.ai.policies import POLICIES, policy_named
from rules.engine.ai.turn import resolve_alien_turn
from rules.engine.dice import SeededDice
from rules.engine.state import GameState, semantic_problems
from tests.engine.ai_support import RULES, alien, make_board, make_state, marine

ALIEN_UNITS = ["ork", "gretchin", "genestealer", "chaos_marine", "android", "chaos_marine_heavy"]


@st.composite
def random_states(draw):
    width = draw(st.integers(5, 10))
    height = draw(st.integers(3, 7))
    cells = [(x, y) for y in range(height) for x in range(width)]
    walls = draw(
        st.lists(
            st.sampled_from(
                [((x, y), (x + 1, y)) for x in range(width - 1) for y in range(height)]
            ),
            max_size=6,
            unique=True,
        )
    )
    board = make_board(width, height, walls=walls)
    count_aliens = draw(st.integers(1, 5))
    count_marines = draw(st.integers(1, 4))
    squares = draw(
        st.lists(
            st.sampled_from(cells),
            min_size=count_aliens + count_marines,
            max_size=count_aliens + count_marines,
            unique=True,
        )
    )
    figures = []
    for i, sq in enumerate(squares[:count_aliens]):
        figures.append(alien(f"x{i}", draw(st.sampled_from(ALIEN_UNITS)), sq))
    for i, sq in enumerate(squares[count_aliens:]):
        figures.append(marine(f"m{i}", ("p1", "p2")[i % 2], sq))
    return make_state(board, figures, players=("p1", "p2"))


@pytest.mark.parametrize("policy", sorted(POLICIES))
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(state=random_states(), seed=st.integers(0, 10**6))
def test_turn_is_legal_valid_and_replays(policy, state, seed):
    new_state, steps = resolve_alien_turn(state, policy_named(policy), SeededDice(seed=seed))
    # The state stays valid, and survives a JSON round trip.
    assert semantic_problems(new_state) == []
    again = GameState.from_json(new_state.to_json())
    assert again.to_json() == new_state.to_json()
    # Every alien acted at most once and every move respected its movement (a blip
    # revealed by the Solitaire policy may have used part of it already).
    activated = [s.params["figure"] for s in steps if s.code == "activation"]
    assert len(activated) == len(set(activated))
    for step in steps:
        if step.code == "move" and state.has_figure(step.params["figure"]):
            unit = state.figure(step.params["figure"]).unit
            assert step.params["steps"] <= RULES.unit(unit).movement
            path = step.params["path"]
            for a, b in zip(path, path[1:], strict=False):
                assert max(abs(a[0] - b[0]), abs(a[1] - b[1])) == 1
    # Marines never move during the Alien turn.
    for figure in state.figures:
        if figure.side == "marine" and new_state.has_figure(figure.id):
            assert new_state.figure(figure.id).squares == figure.squares
    # Same seed, same turn.
    replay_state, replay_steps = resolve_alien_turn(
        state, policy_named(policy), SeededDice(seed=seed)
    )
    assert replay_steps == steps
    assert replay_state.to_json() == new_state.to_json()
