"""The map text format: parsing, validation with line/column, JSON round trips, bundled maps."""

import json

import pytest

from rules.engine.board import DoorState, SquareKind
from rules.engine.maps import (
    MapError,
    board_from_json,
    board_to_json,
    board_to_text,
    bundled_maps,
    load_map,
    parse_map,
    validate_map_text,
)
from rules.engine.state import StateError, validate_map_json

SMALL = """\
name: tiny
title: Tiny test map
+--+--+--+
|.  .o|: |
+  +DD+--+
|.1 .R .F|
+--+--+--+

section A board 0,0 2,1 Only section
marker o ork
"""


def problems(text):
    return [(p.line, p.column, p.message) for p in validate_map_text(text)]


def test_parse_small_map():
    board = parse_map(SMALL)
    assert (board.name, board.title) == ("tiny", "Tiny test map")
    assert board.kind((2, 0)) is SquareKind.ROOM
    assert board.has_wall((1, 0), (2, 0))
    assert board.door_at((1, 0), (1, 1)).state is DoorState.CLOSED
    assert board.markers == {(1, 0): "ork"}
    assert board.claw("1").squares == ((0, 1),)
    assert board.reinforcement_squares == {(1, 1)}
    assert board.flag_spots == ((2, 1),)


def test_text_round_trip_is_exact():
    board = parse_map(SMALL)
    text = board_to_text(board)
    assert board_to_text(parse_map(text)) == text


@pytest.mark.parametrize("name", bundled_maps())
def test_bundled_maps_round_trip_through_text_and_json(name):
    board = load_map(name)
    text = board_to_text(board)
    data = board_to_json(board)
    again = board_from_json(json.loads(json.dumps(data)))
    assert board_to_json(again) == data
    assert board_to_text(again) == text
    assert board_to_json(parse_map(text)) == data
    assert validate_map_json(data).width == board.width


def test_every_door_letter_round_trips():
    text = """\
+--+--+--+--+--+--+
|. D. O. A. B. X. |
+--+--+--+--+--+--+

section A board 0,0 2,0
section B board 3,0 5,0
"""
    board = parse_map(text)
    assert [(d.state.value, d.always_open) for d in board.doors.values()] == [
        ("closed", False),
        ("open", False),
        ("open", True),
        ("bulkhead", False),
        ("destroyed", False),
    ]
    assert board_to_text(parse_map(board_to_text(board))) == board_to_text(board)
    [(line, column, message)] = problems(text.replace("B. X. |", "B. A. |"))
    assert (line, column) == (2, 16)
    assert "dividing wall" in message


def test_bundled_maps_exist_for_each_stipulation():
    names = bundled_maps()
    assert {"reference", "hunt-derelict", "flag-relay", "tpk-ring"} <= set(names)
    hunt = load_map("hunt-derelict")
    assert len(hunt.markers) >= 10 and hunt.reinforcement_squares
    flag = load_map("flag-relay")
    assert len(flag.flag_spots) >= 1 and len(flag.claws) == 3
    tpk = load_map("tpk-ring")
    assert not tpk.markers and len(tpk.claws) == 3


def test_reference_map_is_game_sized():
    board = load_map("reference")
    assert board.width >= 26 and board.height >= 26
    assert len(board.sections) == 4
    assert len(board.claws) == 3
    assert len(board.reinforcement_squares) >= 4
    assert len(board.markers) >= 20
    kinds = set(board.kinds)
    assert {SquareKind.CORRIDOR, SquareKind.ROOM, SquareKind.SOLID} <= kinds
    always_open = [d for d in board.doors.values() if d.always_open]
    assert len(always_open) == 8  # four dividing walls, two doors each
    assert any(d.state is DoorState.BULKHEAD for d in board.doors.values())
    # Each dividing wall's two doors join two different sections.
    for d in always_open:
        assert board.section_of(d.edge[0]) != board.section_of(d.edge[1])


def test_unknown_bundled_map():
    with pytest.raises(FileNotFoundError, match="known maps"):
        load_map("no-such-map")


# -- bad maps: every problem with its line and column ----------------------------------


def test_bad_square_character_reports_line_and_column():
    bad = SMALL.replace("|.1 .R .F|", "|.1 ?R .F|")
    assert problems(bad) == [
        (6, 5, "unknown square '?': use '.' corridor, ':' room, '#' solid"),
    ]


def test_unknown_marker_letter():
    bad = SMALL.replace("marker o ork\n", "")
    [(line, column, message)] = problems(bad)
    assert (line, column) == (4, 6)
    assert "marker letter 'o' is not in the legend" in message


def test_a_marker_of_an_alien_type_the_rules_do_not_know():
    """QA: "marker o gretchen" was accepted, and the blip revealed as "special equipment
    gretchen" in the game."""
    bad = SMALL.replace("marker o ork", "marker o gretchen")
    found = problems(bad)
    assert found[0][:2] == (10, 10)
    assert found[0][2].endswith(
        "unknown alien type 'gretchen'; the known types: android, chaos_commander, "
        "chaos_marine, chaos_marine_heavy, dreadnought, genestealer, gretchin, ork"
    )


def test_mismatched_edge_characters_and_bad_corner():
    bad = SMALL.replace("+  +DD+--+", "+  +D-+--*")
    found = problems(bad)
    assert (5, 5) in [(line, col) for line, col, _ in found]
    assert (5, 10) in [(line, col) for line, col, _ in found]
    assert any("must match" in m for _, _, m in found)
    assert any("corner" in m for _, _, m in found)


def test_door_on_the_outer_edge():
    bad = SMALL.replace("|.1 .R .F|", "D.1 .R .F|")
    assert problems(bad) == [(6, 1, "a door cannot sit on the outer edge of the map")]


def test_square_outside_every_section():
    bad = SMALL.replace("section A board 0,0 2,1", "section A board 0,0 1,1")
    found = problems(bad)
    assert (4, 8, "square 2,0 is in no section: extend a 'section' line to cover it") in found


def test_overlapping_sections_and_bad_legend_lines():
    bad = SMALL + "section B board 2,0 2,1\nwall 1,1\n"
    found = problems(bad)
    assert (11, 17, "section B overlaps section A at 2,0") in found
    assert any(line == 12 and "unknown legend line 'wall'" in m for line, _, m in found)


def test_ragged_drawing():
    bad = SMALL.replace("|.1 .R .F|", "|.1 .R .F|  x")
    [(line, column, message)] = problems(bad)
    assert (line, column) == (6, 11)
    assert "longer" in message


def test_even_number_of_drawing_lines():
    bad = SMALL.replace("+--+--+--+\n\nsection", "\nsection")
    found = problems(bad)
    assert any("odd number" in m for _, _, m in found)


def test_italian_title_and_description_travel_with_the_map():
    text = SMALL.replace(
        "title: Tiny test map\n",
        "title: Tiny test map\n"
        "title.it: Mappa minuscola\n"
        "description.it: Una stanza e un corridoio\n",
    )
    board = parse_map(text)
    assert (board.title_in("it"), board.title_in("en")) == ("Mappa minuscola", "Tiny test map")
    assert board.description_in("it") == "Una stanza e un corridoio"
    assert board.description_in("en") == ""
    assert "title.it: Mappa minuscola" in board_to_text(board)
    data = board_to_json(board)
    assert data["translations"] == {
        "title.it": "Mappa minuscola",
        "description.it": "Una stanza e un corridoio",
    }
    assert board_from_json(data).title_in("it") == "Mappa minuscola"
    assert "translations" not in board_to_json(parse_map(SMALL))  # only when given
    data["translations"]["title.fr"] = "Petite carte"
    with pytest.raises(StateError):
        validate_map_json(data)


@pytest.mark.parametrize("name", bundled_maps())
def test_every_bundled_map_has_an_italian_title_and_description(name):
    board = load_map(name)
    assert board.title_in("it") and board.title_in("it") != board.title
    assert board.description_in("it") and board.description_in("it") != board.description


def test_bad_header_and_missing_drawing():
    assert problems("name: Bad Name!\n+--+\n|. |\n+--+\n")[0][:2] == (1, 6)
    assert "no map drawing" in problems("name: x\n")[0][2]
    assert "expected 'name:'" in problems("colour: red\n+--+\n|. |\n+--+\n")[0][2]


def test_door_into_solid_square():
    bad = """\
+--+--+
|. D##|
+--+--+
"""
    [(line, column, message)] = problems(bad)
    assert (line, column) == (2, 4)
    assert "not solid" in message


def test_map_error_message_lists_every_problem():
    bad = SMALL.replace("|.1 .R .F|", "|.1 ?R .?|")
    with pytest.raises(MapError) as info:
        parse_map(bad, source="tiny.txt")
    assert len(info.value.problems) == 2
    assert "tiny.txt: line 6, column 5" in str(info.value)


def test_map_json_schema_errors_name_the_path():
    data = board_to_json(parse_map(SMALL))
    data["doors"][0]["state"] = "ajar"
    with pytest.raises(StateError) as info:
        validate_map_json(data)
    assert info.value.path == "$.doors[0].state"


def test_map_json_with_bad_rows():
    data = board_to_json(parse_map(SMALL))
    data["squares"] = ["..", "..."]
    with pytest.raises(StateError, match="rows of 3"):
        validate_map_json(data)


def test_every_map_problem_reads_in_both_languages():
    from rules.engine.narration_tools import MAP_PROBLEMS
    from tests.engine.test_ai_log_italian import english_in
    from tests.engine.test_log_languages import italian_in

    for code, texts in MAP_PROBLEMS.items():
        assert set(texts) == {"it", "en"}, code
        if code not in ("board", "where"):
            assert not english_in(texts["it"]) and not italian_in(texts["en"]), code
    problem = validate_map_text("name: x\n+--+\n|.Q|\n+--+\n")[0]
    assert problem.text_in("it").startswith("riga 3, colonna 3: marcatore di casella")
    assert str(problem) == problem.text_in("en")
