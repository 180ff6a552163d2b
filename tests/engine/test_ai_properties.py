"""Hypothesis properties of whole Alien turns over random small states."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.engine.ai.policies import POLICIES, policy_named
from rules.engine.ai.turn import resolve_alien_turn
from rules.engine.dice import SeededDice
from rules.engine.state import Blip, GameState, semantic_problems
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
    doors = draw(
        st.lists(
            st.sampled_from(
                [((x, y), (x, y + 1)) for x in range(width) for y in range(height - 1)]
            ),
            max_size=3,
            unique=True,
        )
    )
    board = make_board(width, height, walls=walls, doors=doors)
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
    # Sometimes a Dreadnought on a free 2x2 block with no door under it.
    if draw(st.booleans()):
        taken = set(squares)
        for x, y in cells:
            block = {(x, y), (x + 1, y), (x, y + 1), (x + 1, y + 1)}
            if x + 1 < width and y + 1 < height and not block & taken:
                if board.dread_doors[board.index((x, y))] == ():
                    figures.append(alien("dread", "dreadnought", (x, y)))
                    break
    state = make_state(board, figures, players=("p1", "p2"))
    occupied = {sq for f in figures for sq in f.squares}
    free = [sq for sq in cells if sq not in occupied]
    blip_squares = draw(st.lists(st.sampled_from(free), max_size=2, unique=True)) if free else []
    blips = tuple(
        Blip(f"b{i}", sq, draw(st.sampled_from(ALIEN_UNITS))) for i, sq in enumerate(blip_squares)
    )
    return state.replace(blips=blips, reinforcements=("ork", "gretchin"))


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
