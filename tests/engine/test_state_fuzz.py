"""The state loader never crashes: any damage to a good state gives problems, with paths.

A state comes from files (the board's upload, an imported tournament document): whatever
part of it is replaced by whatever JSON, ``GameState.from_json`` either loads it or raises
:class:`StateError` listing problems, never another exception.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.engine.state import GameState, StateError
from tests.engine.test_state import full_state
from tests.fuzzing import JSON_VALUES, locations, replaced


def test_the_good_state_loads():
    GameState.from_json(full_state())


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_any_damage_is_a_problem_never_a_crash(data):
    state = full_state()
    places = [path for path in locations(state) if path]
    replaced(state, data.draw(st.sampled_from(places)), data.draw(JSON_VALUES))
    try:
        GameState.from_json(state)
    except StateError as error:
        assert error.problems
        assert all(problem.path.startswith("$") for problem in error.problems)


def test_a_decimal_where_a_whole_number_belongs_is_a_problem():
    """JSON Schema counts 0.0 as an integer; a square written 0.0 must be refused, not
    reach the board as a float index (found by the fuzz test above)."""
    state = full_state()
    replaced(state, ("figures", 2, "squares", 0, 0), 0.0)
    with pytest.raises(StateError) as error:
        GameState.from_json(state)
    assert [problem.path for problem in error.value.problems] == ["$.figures[2].squares[0][0]"]
