"""The state loader never crashes: any damage to a good state gives problems, with paths.

A state comes from files (the board's upload, an imported tournament document): whatever
part of it is replaced by whatever JSON, ``GameState.from_json`` either loads it or raises
:class:`StateError` listing problems, never another exception.
"""

from __future__ import annotations

import copy

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.engine.state import GameState, StateError
from tests.engine.test_state import alien, marine

GOOD = {
    "format": "bob-state/1",
    "map": "reference",
    "round": 2,
    "active_player": "p2",
    "players": [
        {"id": "p1", "squad": "ultramarines", "claw": "1", "score": 5},
        {"id": "p2", "squad": "blood_angels", "claw": "2", "score": -5},
    ],
    "initiative": ["p2", "p1"],
    "stipulation": {"type": "alien_hunt", "switches": {"rounds": 8, "event_deck": True}},
    "figures": [
        marine("p1-cmd", (7, 2), unit="commander", weapons=["bolter"], facing="S"),
        marine("p2-m1", (3, 19), player="p2", weapons=["laser_rifle"], equipment=["medikit"]),
        alien("dread", [(15, 2), (16, 2), (15, 3), (16, 3)], "dreadnought", 3),
        alien("ork1", [(4, 4)]),
    ],
    "doors": [{"between": [[6, 3], [7, 3]], "state": "open"}],
    "blips": [{"id": "b1", "square": [2, 2], "type": "ork"}],
    "reinforcements": ["gretchin", "ork"],
    "tokens": [{"id": "t1", "source": "blip", "alien": "ork", "taken_by": "p1"}],
    "surveyed_sections": ["A"],
    "flags": [{"id": "f1", "square": [12, 10], "carried_by": None, "hidden": True}],
    "data_overrides": {"units": {"ork": {"movement": 5}}},
}

JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**40), max_value=2**40)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=10,
)


def _locations(value, path=()):
    yield path
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _locations(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _locations(item, (*path, index))


def test_the_good_state_loads():
    GameState.from_json(copy.deepcopy(GOOD))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_any_damage_is_a_problem_never_a_crash(data):
    state = copy.deepcopy(GOOD)
    locations = [path for path in _locations(state) if path]
    path = data.draw(st.sampled_from(locations))
    target = state
    for part in path[:-1]:
        target = target[part]
    target[path[-1]] = data.draw(JSON_VALUES)
    try:
        GameState.from_json(state)
    except StateError as error:
        assert error.problems
        assert all(problem.path.startswith("$") for problem in error.problems)
