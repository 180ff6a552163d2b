"""Aliens and vehicles keep their number (the board's label, ``Or2``) all game: given when
they come into play, kept while they stay, never given again; older states get theirs on
loading, as the board counted them."""

from __future__ import annotations

import pytest

from rules.engine.geometry import Facing
from rules.engine.play.blips import place_found_equipment, spawn_alien
from rules.engine.state import (
    ALIEN,
    MARINE,
    Blip,
    Figure,
    GameState,
    Player,
    StateError,
    build_state,
    rules_of,
)

DRAWING = """\
+--+--+--+--+--+--+
|.1 .  .  .  .  . |
+  +  +  +  +  +  +
|.  .  .  .  .  . |
+  +  +  +  +  +  +
|.  .  .  .  .  . |
+--+--+--+--+--+--+
"""


def ork(fid: str, square: tuple[int, int]) -> Figure:
    return Figure(fid, ALIEN, None, "ork", (square,), 1, weapons=("ork_weapon",))


def start() -> GameState:
    marine = Figure("p1-cmd", MARINE, "p1", "commander", ((0, 0),), 6, Facing.SOUTH, ("bolter",))
    return build_state(DRAWING, (marine,), players=(Player("p1", "ultramarines", "1"),))


def numbers(state: GameState) -> dict[str, int]:
    return state.figure_numbers()


def test_a_death_leaves_the_others_numbers_and_a_newcomer_takes_a_fresh_one():
    state = start()
    for n, square in enumerate([(1, 1), (2, 1), (3, 1)], start=1):
        state = state.with_arrival(ork(f"ork-{n}", square))
    assert numbers(state) == {"ork-1": 1, "ork-2": 2, "ork-3": 3}
    state = state.without_figure("ork-1")
    assert numbers(state) == {"ork-2": 2, "ork-3": 3}
    state = state.without_figure("ork-3")  # the highest number gone: not given again
    state = state.with_arrival(ork("ork-4", (4, 1)))
    assert numbers(state) == {"ork-2": 2, "ork-4": 4}
    assert state.progress.arrivals == {"ork": 4}


def test_each_unit_counts_on_its_own():
    state = start().with_arrival(ork("ork-1", (1, 1)))
    stealer = Figure("gs-1", ALIEN, None, "genestealer", ((2, 1),), 1)
    state = state.with_arrival(stealer).with_arrival(ork("ork-2", (3, 1)))
    assert numbers(state) == {"ork-1": 1, "gs-1": 1, "ork-2": 2}
    assert "p1-cmd" not in numbers(state)  # marines are named by their ids


def test_the_engine_numbers_the_aliens_and_vehicles_it_brings_into_play():
    state = start()
    rules = rules_of(state)
    state, first = spawn_alien(state, rules, "ork", (1, 1), "blip-a")
    state, second = spawn_alien(state, rules, "ork", (2, 1), "blip-b")
    assert (first.number, second.number) == (1, 2)
    assert state.figure(second.id) == second  # the figure returned is the one in play
    state = state.without_figure(first.id)
    state, third = spawn_alien(state, rules, "ork", (1, 1), "reinforcement-1")
    assert third.number == 3
    found, _steps = place_found_equipment(state, Blip("blip-t", (4, 1), "tarantula"), rules)
    [tarantula] = [f for f in found.figures if f.unit == "tarantula"]
    assert tarantula.number == 1


def test_numbers_survive_saving_and_loading():
    state = start()
    for n, square in enumerate([(1, 1), (2, 1)], start=1):
        state = state.with_arrival(ork(f"ork-{n}", square))
    state = state.without_figure("ork-2")
    data = state.to_json()
    assert data["progress"]["arrivals"] == {"ork": 2}
    assert [f.get("number") for f in data["figures"]] == [None, 1]  # a marine has none
    loaded = GameState.from_json(data)
    assert loaded.to_json() == data
    assert loaded.with_arrival(ork("ork-3", (2, 1))).figure("ork-3").number == 3


def old_state(*aliens: Figure) -> dict:
    """The JSON of a state saved before numbers: no ``number``, no ``progress.arrivals``."""
    data = build_state(DRAWING, aliens).to_json()
    for figure in data["figures"]:
        figure.pop("number", None)
    data["progress"].pop("arrivals", None)
    return data


def test_an_old_state_loads_with_the_numbers_the_board_counted():
    data = old_state(ork("ork-b", (1, 1)), ork("ork-a", (2, 1)), ork("ork-c", (3, 1)))
    state = GameState.from_json(data)
    # In the order of the figures, as the board labelled them before numbers were kept.
    assert numbers(state) == {"ork-b": 1, "ork-a": 2, "ork-c": 3}
    assert state.progress.arrivals == {"ork": 3}
    # From then on they stay: a death after loading renumbers nobody.
    saved = GameState.from_json(state.without_figure("ork-b").to_json())
    assert numbers(saved) == {"ork-a": 2, "ork-c": 3}


def test_an_unnumbered_alien_in_an_upload_takes_the_next_number_never_a_used_one():
    state = start()
    for n, square in enumerate([(1, 1), (2, 1)], start=1):
        state = state.with_arrival(ork(f"ork-{n}", square))
    data = state.without_figure("ork-2").to_json()
    data["figures"].append(ork("ork-judge", (3, 1)).to_json())
    assert numbers(GameState.from_json(data))["ork-judge"] == 3


def test_an_unnumbered_alien_added_in_code_is_labelled_as_loading_would_number_it():
    state = start().with_arrival(ork("ork-1", (1, 1))).with_figure(ork("ork-x", (2, 1)))
    assert numbers(state) == {"ork-1": 1, "ork-x": 2}
    assert numbers(GameState.from_json(state.to_json())) == {"ork-1": 1, "ork-x": 2}
    state = state.with_arrival(ork("ork-2", (3, 1)))
    assert numbers(state) == {"ork-1": 1, "ork-x": 2, "ork-2": 3}


@pytest.mark.parametrize(
    ("figure", "code"),
    [
        ({**ork("ork-2", (2, 1)).to_json(), "number": 1}, "number_twice"),
        (
            {
                **Figure("p1-m1", MARINE, "p1", "marine", ((2, 1),), 1).to_json(),
                "number": 1,
            },
            "number_not_taken",
        ),
    ],
)
def test_a_number_used_twice_or_on_a_marine_is_refused(figure, code):
    data = start().with_arrival(ork("ork-1", (1, 1))).to_json()
    data["figures"].append(figure)
    with pytest.raises(StateError) as error:
        GameState.from_json(data)
    [problem] = error.value.problems
    assert (problem.path, problem.code) == ("$.figures[2].number", code)
