"""Game state JSON: schema, semantic checks with JSON paths, round trips, helpers."""

import copy
import json

import jsonschema
import pytest

from rules.engine.board import DoorState
from rules.engine.geometry import Facing
from rules.engine.maps import board_to_json, load_map
from rules.engine.state import (
    Figure,
    GameState,
    StateError,
    build_state,
    load_state,
    state_schema,
)


def marine(fid, sq, player="p1", unit="marine", **kw):
    return {
        "id": fid,
        "side": "marine",
        "player": player,
        "unit": unit,
        "squares": [list(sq)],
        "life_points": 2,
        **kw,
    }


def alien(fid, squares, unit="ork", life_points=1):
    return {
        "id": fid,
        "side": "alien",
        "player": None,
        "unit": unit,
        "squares": [list(sq) for sq in squares],
        "life_points": life_points,
    }


def full_state() -> dict:
    """A state using every part of the format."""
    return {
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


@pytest.fixture
def data():
    return full_state()


def expect_error(data, path, fragment):
    with pytest.raises(StateError) as info:
        GameState.from_json(data)
    paths = {p.path: p.message for p in info.value.problems}
    assert path in paths, paths
    assert fragment in paths[path], paths[path]


def test_load_full_state(data):
    state = GameState.from_json(data)
    assert state.board.name == "reference"
    assert state.round == 2 and state.active_player == "p2"
    assert state.initiative == ("p2", "p1")
    cmd = state.figure("p1-cmd")
    assert cmd.squares == ((7, 2),) and cmd.facing is Facing.SOUTH
    assert cmd.weapons == ("bolter",)
    assert state.figure("dread").is_dreadnought
    assert state.figure("dread").square == (15, 2)
    assert state.figure_at((16, 3)).id == "dread"
    assert state.figure_at((0, 0)) is None
    assert state.door_state((6, 3), (7, 3)) is DoorState.OPEN
    assert state.door_state((9, 4), (8, 4)) is DoorState.CLOSED  # map default
    assert state.blip_at((2, 2)).type == "ork"
    assert state.tokens[0].taken_by == "p1"
    assert state.stipulation.switches["rounds"] == 8
    assert state.player("p2").score == -5
    assert [f.id for f in state.figures_of("p1")] == ["p1-cmd"]


def test_json_round_trip(data):
    state = GameState.from_json(data)
    out = state.to_json()
    jsonschema.validate(out, state_schema())
    again = GameState.from_json(json.loads(json.dumps(out)))
    assert again.to_json() == out


def test_inline_map_round_trip(data):
    data["map"] = board_to_json(load_map("reference"))
    state = GameState.from_json(data)
    assert state.to_json()["map"] == data["map"]


def test_the_json_schema_is_valid():
    jsonschema.Draft202012Validator.check_schema(state_schema())


def test_minimal_state():
    state = GameState.from_json({"map": "tpk-ring", "figures": []})
    assert state.round == 1 and state.players == () and state.stipulation.type == "alien_hunt"


def test_helpers_return_new_states(data):
    state = GameState.from_json(data)
    moved = state.with_figure(state.figure("ork1").moved_to([(5, 5)]))
    assert moved.figure("ork1").squares == ((5, 5),)
    assert state.figure("ork1").squares == ((4, 4),)
    assert moved.figure_at((5, 5)).id == "ork1" and moved.figure_at((4, 4)) is None
    gone = state.without_figure("ork1")
    assert not gone.has_figure("ork1") and state.has_figure("ork1")
    opened = state.with_door((9, 4), (8, 4), DoorState.OPEN)
    assert opened.door_state((8, 4), (9, 4)) is DoorState.OPEN
    assert state.door_state((8, 4), (9, 4)) is DoorState.CLOSED
    added = state.with_figure(Figure("new", "alien", None, "gretchin", ((1, 7),), 1))
    assert added.figure("new").unit == "gretchin"
    with pytest.raises(KeyError, match="no figure"):
        state.figure("nobody")
    with pytest.raises(KeyError, match="no door"):
        state.with_door((1, 7), (2, 7), DoorState.OPEN)


# -- bad states: each names its JSON path ------------------------------------------------


def test_schema_errors_name_the_path(data):
    bad = copy.deepcopy(data)
    bad["figures"][1]["life_points"] = 0
    expect_error(bad, "$.figures[1].life_points", "less than the minimum of 1")
    bad = copy.deepcopy(data)
    bad["figures"][0]["squares"][0] = [1, "a"]
    expect_error(bad, "$.figures[0].squares[0][1]", "is not of type 'integer'")
    bad = copy.deepcopy(data)
    bad["figures"][0]["side"] = "pirate"
    expect_error(bad, "$.figures[0].side", "is not one of")
    bad = copy.deepcopy(data)
    bad["colour"] = "red"
    expect_error(bad, "$", "Additional properties")


def test_two_figures_on_one_square(data):
    data["figures"].append(alien("ork2", [(7, 2)]))
    expect_error(data, "$.figures[4].squares[0]", "already holds figure 'p1-cmd'")


def test_figure_inside_solid_square(data):
    data["figures"][3]["squares"] = [[0, 0]]
    expect_error(data, "$.figures[3].squares[0]", "square 0,0 is solid")


def test_figure_off_the_board(data):
    data["figures"][3]["squares"] = [[40, 2]]
    expect_error(data, "$.figures[3].squares[0]", "outside the 28x28 board")


def test_dreadnought_must_be_a_2x2_block(data):
    data["figures"][2]["squares"] = [[15, 2], [16, 2], [17, 2], [18, 2]]
    expect_error(data, "$.figures[2].squares", "2x2 block")


def test_unknown_references(data):
    bad = copy.deepcopy(data)
    bad["figures"][0]["piloting"] = "ghost"
    expect_error(bad, "$.figures[0].piloting", "unknown figure 'ghost'")
    bad = copy.deepcopy(data)
    bad["flags"][0] = {"id": "f1", "carried_by": "ghost"}
    expect_error(bad, "$.flags[0].carried_by", "unknown figure 'ghost'")
    bad = copy.deepcopy(data)
    bad["initiative"] = ["p2", "p9"]
    expect_error(bad, "$.initiative[1]", "unknown player 'p9'")
    bad = copy.deepcopy(data)
    bad["figures"][1]["player"] = "p7"
    expect_error(bad, "$.figures[1].player", "unknown player 'p7'")
    bad = copy.deepcopy(data)
    bad["tokens"][0]["taken_by"] = "p5"
    expect_error(bad, "$.tokens[0].taken_by", "unknown player 'p5'")
    bad = copy.deepcopy(data)
    bad["surveyed_sections"] = ["Z"]
    expect_error(bad, "$.surveyed_sections[0]", "no section 'Z'")
    bad = copy.deepcopy(data)
    bad["players"][0]["claw"] = "9"
    expect_error(bad, "$.players[0].claw", "no docking claw '9'")


def test_sides_and_players(data):
    bad = copy.deepcopy(data)
    bad["figures"][3]["player"] = "p1"
    expect_error(bad, "$.figures[3].player", "belong to no player")
    bad = copy.deepcopy(data)
    bad["figures"][0]["player"] = None
    expect_error(bad, "$.figures[0].player", "needs its player")
    bad = copy.deepcopy(data)
    bad["figures"][3]["id"] = "p1-cmd"
    expect_error(bad, "$.figures[3].id", "used twice")


def test_pilot_inside_a_dreadnought(data):
    data["figures"][2]["side"] = "marine"
    data["figures"][2]["player"] = "p1"
    data["figures"].append({**marine("pilot", (0, 0)), "squares": [], "piloting": "dread"})
    state = GameState.from_json(data)
    assert not state.figure("pilot").on_board
    data["figures"][4]["squares"] = [[1, 7]]
    expect_error(data, "$.figures[4].squares", "inside it")
    data["figures"][4]["squares"] = []
    data["figures"][4]["piloting"] = None
    expect_error(data, "$.figures[4].squares", "needs a square")


def test_doors_must_exist_and_keep_their_kind(data):
    bad = copy.deepcopy(data)
    bad["doors"] = [{"between": [[1, 7], [2, 7]], "state": "open"}]
    expect_error(bad, "$.doors[0].between", "no door between 1,7 and 2,7")
    bad = copy.deepcopy(data)
    bad["doors"] = [{"between": [[13, 7], [14, 7]], "state": "closed"}]
    expect_error(bad, "$.doors[0].state", "dividing wall")
    bad = copy.deepcopy(data)
    bad["doors"] = [{"between": [[6, 3], [7, 3]], "state": "bulkhead"}]
    expect_error(bad, "$.doors[0].state", "ordinary door")
    bad = copy.deepcopy(data)
    bad["doors"] = [{"between": [[11, 8], [11, 9]], "state": "open"}]
    expect_error(bad, "$.doors[0].state", "reinforced bulkhead")
    bad["doors"] = [{"between": [[11, 8], [11, 9]], "state": "destroyed"}]
    assert GameState.from_json(bad).door_state((11, 8), (11, 9)) is DoorState.DESTROYED


def test_blips_must_be_on_free_open_squares(data):
    bad = copy.deepcopy(data)
    bad["blips"].append({"id": "b2", "square": [4, 4], "type": "gretchin"})
    expect_error(bad, "$.blips[1].square", "holds figure 'ork1'")
    bad = copy.deepcopy(data)
    bad["blips"].append({"id": "b2", "square": [2, 2], "type": "gretchin"})
    expect_error(bad, "$.blips[1].square", "already holds a blip")
    bad = copy.deepcopy(data)
    bad["blips"][0]["square"] = [0, 5]
    expect_error(bad, "$.blips[0].square", "solid")


def test_unknown_bundled_map(data):
    data["map"] = "atlantis"
    expect_error(data, "$.map", "no bundled map 'atlantis'")


def test_load_state_from_file(tmp_path, data):
    path = tmp_path / "state.json"
    path.write_text(json.dumps(data))
    assert load_state(path).round == 2
    path.write_text("{not json")
    with pytest.raises(StateError, match="is not JSON"):
        load_state(path)
    with pytest.raises(StateError, match="cannot read"):
        load_state(tmp_path / "missing.json")


def test_build_state_from_a_drawing():
    state = build_state(
        """
+--+--+
|.  . |
+--+--+
""",
        [Figure("m", "marine", "p1", "marine", ((0, 0),), 2)],
    )
    assert state.initiative == ("p1",) and state.players[0].id == "p1"
    with pytest.raises(StateError, match=r"\$\.figures\[1\]\.squares\[0\]"):
        build_state(
            state.board,
            [
                Figure("m", "marine", "p1", "marine", ((0, 0),), 2),
                Figure("o", "alien", None, "ork", ((0, 0),), 1),
            ],
        )
