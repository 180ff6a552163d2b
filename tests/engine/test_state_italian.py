"""A refused game state says why in Italian as well as English: every problem has a code
whose two templates use the same params, every code is reached by a real bad state, and
the English text (``str()``, the CLI) is what it always was."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from types import MappingProxyType
from typing import Any

import jsonschema
import pytest

from rules.engine import state as state_module
from rules.engine.board import DoorState
from rules.engine.maps import board_to_json, load_map
from rules.engine.narration import LANGUAGES, fields_of
from rules.engine.narration_state import (
    MORE_PROBLEMS,
    ONE_MORE_PROBLEM,
    SINGULAR,
    STATE_ERRORS,
    state_error_text,
)
from rules.engine.state import (
    GameState,
    Problem,
    StateError,
    Stipulation,
    build_state,
    state_schema,
    validate_map_json,
)
from tests.engine.test_ai_log_italian import english_in
from tests.engine.test_state import alien, marine

#: One value for every param any template uses.
PARAMS: dict[str, Any] = {
    "file": "stato.json",
    "reason": "No such file or directory",
    "errno": "ENOENT",
    "msg": "Expecting value",
    "line": 3,
    "column": 7,
    "property": "figures",
    "properties": ["colour", "size"],
    "value": "pirate",
    "types": ["string", "null"],
    "allowed": ["marine", "alien"],
    "expected": "bob-state/1",
    "pattern": "^[a-z]+$",
    "limit": 2,
    "detail": "3x3",
    "map": "atlantide",
    "maps": ["reference", "tpk-ring"],
    "a": [6, 3],
    "b": [7, 3],
    "door_state": "closed",
    "player": "p3",
    "claw": "4",
    "figure": "o1",
    "pilot": "p1-m1",
    "square": [4, 7],
    "width": 20,
    "height": 20,
    "blip": "b1",
    "token": "t1",
    "item": "i1",
    "section": "Z",
    "stipulation": "capture",
    "other": "o2",
    "number": 2,
    "unit": "ork",
}


def _pair(templates: dict[str, str]) -> None:
    assert set(templates) == set(LANGUAGES)
    assert set(fields_of(templates["it"])) == set(fields_of(templates["en"]))


@pytest.mark.parametrize("code", sorted(STATE_ERRORS))
def test_every_code_reads_in_both_languages_with_the_same_params(code):
    _pair(STATE_ERRORS[code])
    assert set(fields_of(STATE_ERRORS[code]["en"])) <= set(PARAMS)
    italian = state_error_text(code, PARAMS, "it")
    english = state_error_text(code, PARAMS, "en")
    assert "{" not in italian and "{" not in english
    assert not english_in(italian), italian
    assert italian != english


@pytest.mark.parametrize("code", sorted(SINGULAR))
def test_singular_templates_use_the_plural_params(code):
    count, templates = SINGULAR[code]
    _pair(templates)
    for lang in LANGUAGES:
        assert set(fields_of(templates[lang])) <= set(fields_of(STATE_ERRORS[code][lang]))


def test_one_item_reads_in_the_singular():
    one = {"properties": ["colour"]}
    assert state_error_text("schema_additional", one, "it") == (
        'proprietà non ammessa: "colour" (toglila o correggi il nome)'
    )
    assert state_error_text("schema_additional", one, "en") == (
        "Additional properties are not allowed ('colour' was unexpected)"
    )
    empty = {"value": [], "limit": 1}
    assert state_error_text("schema_min_items", empty, "it") == "la lista [] non può essere vuota"
    assert state_error_text("schema_min_items", empty, "en") == "[] should be non-empty"
    assert state_error_text("schema_additional", PARAMS, "it") == (
        'proprietà non ammesse: "colour", "size" (toglile o correggi il nome)'
    )


def test_the_more_problems_note_has_both_languages():
    _pair(MORE_PROBLEMS)
    _pair(ONE_MORE_PROBLEM)


def test_an_unknown_language_is_refused():
    with pytest.raises(ValueError, match="language"):
        state_error_text("solid", PARAMS, "fr")


def test_json_values_read_as_json_in_italian_and_as_jsonschema_writes_them_in_english():
    params = {"value": None, "types": ["integer"], "allowed": [True, "x"]}
    assert state_error_text("schema_type", params, "en") == "None is not of type 'integer'"
    assert state_error_text("schema_type", params, "it") == (
        "il valore null non va bene qui: serve un numero intero"
    )
    assert state_error_text("schema_enum", params, "it") == (
        'il valore null non è ammesso: usa uno tra true, "x"'
    )


# --- every code is reached by a bad state ------------------------------------------------


@pytest.fixture
def data() -> dict[str, Any]:
    return {
        "format": "bob-state/1",
        "map": "reference",
        "players": [{"id": "p1", "claw": "1"}, {"id": "p2"}],
        "initiative": ["p1", "p2"],
        "figures": [marine("p1-m1", (7, 2)), alien("o1", [(4, 4)])],
        "blips": [{"id": "b1", "square": [2, 2], "type": "ork"}],
        "tokens": [{"id": "t1", "source": "blip", "alien": "ork"}],
        "flags": [{"id": "f1", "square": [12, 10]}],
    }


REFERENCE = load_map("reference")


def _door(kind: Callable[[Any], bool]) -> list[list[int]]:
    door = next(d for d in REFERENCE.doors.values() if kind(d))
    return [list(sq) for sq in door.edge]


def _claw_square() -> list[int]:
    return list(REFERENCE.claws[0].squares[0])


def _set(path: str, value: Any) -> Callable[[dict], None]:
    """A change of ``data`` at a dotted path (``figures.0.squares``)."""

    def change(data: dict) -> None:
        *parents, last = path.split(".")
        target: Any = data
        for part in parents:
            target = target[int(part)] if part.isdigit() else target[part]
        target[int(last) if last.isdigit() else last] = value

    return change


def _append(key: str, item: Any) -> Callable[[dict], None]:
    return lambda data: data.setdefault(key, []).append(copy.deepcopy(item))


def _inline_map(change: Callable[[dict], None]) -> Callable[[dict], None]:
    def apply(data: dict) -> None:
        data["map"] = board_to_json(REFERENCE)
        change(data["map"])

    return apply


def _door_entry(between, state: str) -> dict:
    return {"between": between, "state": state}


def _twin_orks(data: dict) -> None:
    """The ork ``o1`` and a second ork ``o2`` both numbered 2."""
    data["figures"][1]["number"] = 2
    data["figures"].append({**alien("o2", [(5, 5)]), "number": 2})


#: (code, JSON path, change to the good state, the Italian message).
CASES: list[tuple[str, str, Callable[[dict], None], str]] = [
    (
        "schema_required",
        "$.figures[0]",
        lambda d: d["figures"][0].pop("unit"),
        'manca la proprietà obbligatoria "unit"',
    ),
    (
        "schema_additional",
        "$",
        _set("colour", "red"),
        'proprietà non ammessa: "colour" (toglila o correggi il nome)',
    ),
    (
        "schema_type",
        "$.figures[0].squares[0][1]",
        _set("figures.0.squares.0", [1, "a"]),
        'il valore "a" non va bene qui: serve un numero intero',
    ),
    (
        "schema_enum",
        "$.figures[1].side",
        _set("figures.1.side", "pirate"),
        'il valore "pirate" non è ammesso: usa uno tra "marine", "alien"',
    ),
    (
        "schema_enum",
        "$.format",
        _set("format", "bob-state/0"),
        'il valore "bob-state/0" non è ammesso: usa uno tra "bob-state/1", "bob-state/2"',
    ),
    (
        "schema_pattern",
        "$.figures[0].id",
        _set("figures.0.id", "-x"),
        'il valore "-x" non ha il formato richiesto (espressione regolare '
        '"^[A-Za-z0-9][A-Za-z0-9_.:-]*$")',
    ),
    (
        "schema_minimum",
        "$.figures[0].life_points",
        _set("figures.0.life_points", 0),
        "il valore 0 è inferiore al minimo consentito (1)",
    ),
    (
        "schema_min_items",
        "$.blips[0].square",
        _set("blips.0.square", [2]),
        "la lista [2] è troppo corta",
    ),
    (
        "schema_max_items",
        "$.figures[0].squares",
        _set("figures.0.squares", [[7, 2]] * 5),
        "la lista [[7, 2], [7, 2], [7, 2], [7, 2], [7, 2]] è troppo lunga",
    ),
    (
        "unknown_map",
        "$.map",
        _set("map", "atlantide"),
        "non c'è nessuna mappa inclusa di nome 'atlantide'; mappe disponibili: flag-relay, "
        "hunt-derelict, reference, tpk-ring",
    ),
    (
        "bad_map",
        "$.map",
        _inline_map(_set("squares", ["..."])),
        "la mappa non è valida: 'squares' must be 28 rows of 28 characters",
    ),
    (
        "door_not_adjacent",
        "$.doors[0].between",
        _append("doors", _door_entry([[1, 1], [3, 1]], "open")),
        "le due caselle devono avere un lato in comune",
    ),
    (
        "no_door",
        "$.doors[0].between",
        _append("doors", _door_entry([[1, 1], [2, 1]], "open")),
        "la mappa non ha nessuna porta tra 1,1 e 2,1",
    ),
    (
        "door_twice",
        "$.doors[1].between",
        lambda d: d.update(doors=[_door_entry(_door(lambda x: not x.always_open), "open")] * 2),
        "la porta tra {} e {} compare due volte",
    ),
    (
        "door_always_open",
        "$.doors[0].state",
        _append("doors", _door_entry(_door(lambda x: x.always_open), "closed")),
        "la porta tra {} e {} è in una parete divisoria ed è sempre aperta",
    ),
    (
        "bulkhead_state",
        "$.doors[0].state",
        _append("doors", _door_entry(_door(lambda x: x.state is DoorState.BULKHEAD), "open")),
        "la porta tra {} e {} è una porta stagna rinforzata: il suo stato deve essere "
        '"bulkhead" o "destroyed", non "open"',
    ),
    (
        "ordinary_door_state",
        "$.doors[0].state",
        _append(
            "doors",
            _door_entry(_door(lambda x: x.state is DoorState.CLOSED), "destroyed"),
        ),
        'la porta tra {} e {} è una porta normale: il suo stato deve essere "closed" o "open", '
        'non "destroyed"',
    ),
    (
        "player_id_twice",
        "$.players[1].id",
        _set("players.1.id", "p1"),
        "l'id di giocatore 'p1' è usato due volte",
    ),
    (
        "no_claw",
        "$.players[0].claw",
        _set("players.0.claw", "9"),
        "la mappa non ha nessun artiglio d'attracco '9'",
    ),
    (
        "unknown_player",
        "$.active_player",
        _set("active_player", "p7"),
        "giocatore sconosciuto 'p7'",
    ),
    (
        "player_twice",
        "$.initiative[1]",
        _set("initiative", ["p1", "p1"]),
        "il giocatore 'p1' compare due volte",
    ),
    (
        "figure_id_twice",
        "$.figures[1].id",
        _set("figures.1.id", "p1-m1"),
        "l'id di figura 'p1-m1' è usato due volte",
    ),
    (
        "number_twice",
        "$.figures[2].number",
        _twin_orks,
        "la figura 'o2' ha il numero 2, che 'o1' dell'unità ork ha già: dai a ogni figura di "
        "un'unità un numero suo, o togli il numero per avere il primo libero",
    ),
    (
        "number_not_taken",
        "$.figures[0].number",
        _set("figures.0.number", 1),
        "solo gli Alieni, le Tarantole e i Dreadnought hanno un numero: togli 'number' dalla "
        "figura 'p1-m1'",
    ),
    (
        "marine_needs_player",
        "$.figures[0].player",
        _set("figures.0.player", None),
        "una figura dei Marine deve indicare il giocatore a cui appartiene",
    ),
    (
        "alien_has_player",
        "$.figures[1].player",
        _set("figures.1.player", "p1"),
        "le figure degli Alieni non appartengono a nessun giocatore: usa null",
    ),
    (
        "needs_square",
        "$.figures[0].squares",
        _set("figures.0.squares", []),
        "una figura deve occupare una casella, a meno che non piloti un veicolo",
    ),
    (
        "square_count",
        "$.figures[1].squares",
        _set("figures.1.squares", [[4, 4], [5, 4], [6, 4]]),
        "una figura occupa 1, 2 (Tarantola) o 4 caselle",
    ),
    (
        "tarantula_squares",
        "$.figures[1].squares",
        _set("figures.1.squares", [[4, 4], [6, 4]]),
        "le due caselle di una Tarantola devono avere un lato in comune",
    ),
    (
        "dreadnought_squares",
        "$.figures[1].squares",
        _set("figures.1.squares", [[4, 4], [5, 4], [6, 4], [7, 4]]),
        "le quattro caselle di un Dreadnought devono formare un blocco 2x2",
    ),
    (
        "off_board",
        "$.figures[1].squares[0]",
        _set("figures.1.squares", [[40, 4]]),
        "la casella 40,4 è fuori dal tabellone di 28x28 caselle",
    ),
    (
        "solid",
        "$.figures[1].squares[0]",
        _set("figures.1.squares", [[0, 0]]),
        "la casella 0,0 è piena, non ci si può stare",
    ),
    (
        "square_taken",
        "$.figures[1].squares[0]",
        _set("figures.1.squares", [[7, 2]]),
        "la casella 7,2 è già occupata dalla figura 'p1-m1'",
    ),
    (
        "alien_in_claw",
        "$.figures[1].squares[0]",
        _set("figures.1.squares", [_claw_square()]),
        "la casella {} è nell'artiglio d'attracco 1: gli Alieni non entrano mai negli "
        "artigli d'attracco",
    ),
    (
        "unknown_figure",
        "$.figures[0].piloting",
        _set("figures.0.piloting", "ghost"),
        "figura sconosciuta 'ghost'",
    ),
    (
        "pilots_itself",
        "$.figures[0].piloting",
        _set("figures.0.piloting", "p1-m1"),
        "una figura non può pilotare se stessa",
    ),
    (
        "already_piloted",
        "$.figures[3].piloting",
        lambda d: d["figures"].extend(
            [
                {**marine("p1-m2", (8, 2)), "squares": [], "piloting": "o1"},
                {**marine("p1-m3", (8, 2)), "squares": [], "piloting": "o1"},
            ]
        ),
        "la figura 'o1' ha già un pilota, 'p1-m2'",
    ),
    (
        "pilot_inside",
        "$.figures[0].squares",
        lambda d: (
            d["figures"].append(
                alien("dread", [(15, 2), (16, 2), (15, 3), (16, 3)], "dreadnought")
            ),
            d["figures"][0].update(piloting="dread"),
        ),
        "il pilota di un Dreadnought sta al suo interno: non dare caselle al pilota",
    ),
    (
        "blip_id_twice",
        "$.blips[1].id",
        _append("blips", {"id": "b1", "square": [3, 2], "type": "ork"}),
        "l'id di segnalino Blip 'b1' è usato due volte",
    ),
    (
        "blip_off_board",
        "$.blips[0].square",
        _set("blips.0.square", [2, 40]),
        "la casella 2,40 è fuori dal tabellone",
    ),
    (
        "blip_on_figure",
        "$.blips[0].square",
        _set("blips.0.square", [4, 4]),
        "sulla casella 4,4 c'è la figura 'o1'",
    ),
    (
        "blip_on_blip",
        "$.blips[1].square",
        _append("blips", {"id": "b2", "square": [2, 2], "type": "ork"}),
        "sulla casella 2,2 c'è già un segnalino Blip",
    ),
    (
        "token_id_twice",
        "$.tokens[1].id",
        _append("tokens", {"id": "t1", "source": "reinforcement", "alien": "ork"}),
        "l'id di segnalino 't1' è usato due volte",
    ),
    (
        "no_section",
        "$.surveyed_sections[0]",
        _set("surveyed_sections", ["Z"]),
        "la mappa non ha nessun tabellone 'Z'",
    ),
    (
        "flag_place",
        "$.flags[0]",
        _set("flags.0.carried_by", "p1-m1"),
        "una bandiera sta su una casella oppure è portata da una figura (non tutte e due le cose)",
    ),
    (
        "flag_square",
        "$.flags[0].square",
        _set("flags.0.square", [0, 0]),
        "la casella 0,0 non è una casella percorribile del tabellone",
    ),
    (
        "item_id_twice",
        "$.items[1].id",
        _set(
            "items",
            [
                {"id": "i1", "square": [2, 2], "weapon": "melta"},
                {"id": "i1", "square": [3, 2], "weapon": "melta"},
            ],
        ),
        "l'equipaggiamento i1 compare due volte",
    ),
    (
        "item_square",
        "$.items[0].square",
        _set("items", [{"id": "i1", "square": [0, 0], "weapon": "melta"}]),
        "la casella 0,0 non è una casella percorribile del tabellone",
    ),
]


def _problem_at(data: dict, path: str) -> Problem:
    with pytest.raises(StateError) as info:
        GameState.from_json(data)
    found = {p.path: p for p in info.value.problems}
    assert path in found, [str(p) for p in info.value.problems]
    return found[path]


def _squares_of(problem: Problem) -> list[str]:
    return [
        ",".join(map(str, problem.params[k])) for k in ("a", "b", "square") if k in problem.params
    ]


@pytest.mark.parametrize("code, path, change, italian", CASES, ids=[c[0] for c in CASES])
def test_a_bad_state_gives_its_code_and_italian_text(data, code, path, change, italian):
    GameState.from_json(data)
    change(data)
    problem = _problem_at(data, path)
    assert problem.code == code
    assert problem.text_in("it") == italian.format(*_squares_of(problem))
    assert problem.text_in("en") == problem.message
    assert json.loads(json.dumps(problem.params)) == problem.params


def test_every_code_is_reached():
    reached = {case[0] for case in CASES}
    by_hand = {
        "cannot_read",
        "not_utf8",
        "too_large",  # tests/engine/test_board_cli.py: a file far too large
        "not_json",
        "schema_maximum",
        "schema_other",
        "unknown_stipulation",
        "schema_const",  # the map's format: test_a_map_of_another_format_names_the_one_expected
    }
    assert reached | by_hand == set(STATE_ERRORS)


def test_an_unknown_stipulation_in_a_built_state():
    """The schema lists the stipulations, so only a state built in code reaches this check."""
    with pytest.raises(StateError) as info:
        build_state(REFERENCE, stipulation=Stipulation("capture", MappingProxyType({})))
    assert info.value.problems[0].text_in("it") == "stipulazione sconosciuta 'capture'"
    assert str(info.value) == "$.stipulation.type: unknown stipulation 'capture'"


def test_unreadable_and_broken_files(tmp_path):
    with pytest.raises(StateError) as info:
        GameState.from_file(tmp_path / "none.json")
    assert info.value.problems[0].code == "cannot_read"
    assert info.value.text_in("it").endswith("none.json: il file non esiste")
    assert str(info.value).endswith("none.json: No such file or directory")
    broken = tmp_path / "broken.json"
    broken.write_text('{"map": "reference",\n "figures": [1,]}')
    with pytest.raises(StateError) as info:
        GameState.from_file(broken)
    assert info.value.text_in("it") == (
        f"$: {broken} non è JSON valido: manca un valore alla riga 2, colonna 16"
    )
    assert str(info.value) == f"$: {broken} is not JSON: Expecting value at line 2, column 16"
    latin1 = tmp_path / "latin1.json"
    latin1.write_bytes('{"map": "città"}'.encode("latin-1"))
    with pytest.raises(StateError) as info:
        GameState.from_file(latin1)
    assert info.value.problems[0].code == "not_utf8"
    assert "non è testo UTF-8" in info.value.text_in("it")


def test_a_schema_error_without_a_template_keeps_jsonschemas_text(data, monkeypatch):
    schema = copy.deepcopy(state_schema())
    schema["properties"]["initiative"]["uniqueItems"] = True
    monkeypatch.setattr(state_module, "state_schema", lambda: schema)
    data["initiative"] = ["p1", "p1"]
    problem = _problem_at(data, "$.initiative")
    assert problem.code == "schema_other"
    assert problem.message == "['p1', 'p1'] has non-unique elements"
    assert problem.text_in("it") == (
        "valore non valido secondo lo schema: ['p1', 'p1'] has non-unique elements"
    )


def test_english_is_jsonschemas_own_message(data):
    data["colour"] = "red"
    data["size"] = 3
    data["figures"][0]["facing"] = "NE"
    data["figures"][1]["squares"] = [[4, 4, 1]]
    with pytest.raises(StateError) as info:
        GameState.from_json(data)
    validator = jsonschema.Draft202012Validator(state_schema())
    expected = {error.message for error in validator.iter_errors(data)}
    assert {p.message for p in info.value.problems} == expected
    assert all(p.code and p.code.startswith("schema_") for p in info.value.problems)


def test_the_summary_counts_the_other_problems(data):
    data["figures"][1]["squares"] = [[0, 0]]
    data["blips"][0]["square"] = [0, 0]
    with pytest.raises(StateError) as info:
        GameState.from_json(data)
    assert str(info.value) == "$.figures[1].squares[0]: square 0,0 is solid (and 1 more problem)"
    assert info.value.text_in("it") == (
        "$.figures[1].squares[0]: la casella 0,0 è piena, non ci si può stare (e un altro problema)"
    )
    data["flags"][0]["square"] = [0, 0]
    with pytest.raises(StateError) as info:
        GameState.from_json(data)
    assert info.value.text_in("it").endswith("(e altri 2 problemi)")
    assert str(info.value).endswith("(and 2 more problems)")


def test_a_map_json_problem_reads_in_italian():
    data = board_to_json(REFERENCE)
    data["doors"][0]["state"] = "ajar"
    data["width"] = 300
    with pytest.raises(StateError) as info:
        validate_map_json(data)
    italian = {p.path: (p.code, p.text_in("it")) for p in info.value.problems}
    assert italian["$.doors[0].state"] == (
        "schema_enum",
        'il valore "ajar" non è ammesso: usa uno tra "closed", "open", "bulkhead", "destroyed"',
    )
    assert italian["$.width"] == (
        "schema_maximum",
        "il valore 300 è superiore al massimo consentito (200)",
    )


def test_a_callers_own_message_is_shown_as_it_is():
    problem = Problem("$", "non è JSON")
    assert problem.code is None and problem.text_in("it") == problem.text_in("en") == "non è JSON"


def test_a_map_of_another_format_names_the_one_expected():

    data = board_to_json(load_map("reference"))
    data["format"] = "bob-map/0"
    with pytest.raises(StateError) as caught:
        validate_map_json(data)
    problem = caught.value.problems[0]
    assert problem.code == "schema_const"
    assert problem.text_in("it") == 'il valore deve essere "bob-map/1"'
