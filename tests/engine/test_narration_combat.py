"""Combat texts and engine errors are codes with Italian and English templates: both
languages use the same params, Italian has no English left, English is the engine's text."""

from __future__ import annotations

import pytest

from rules.engine.combat import CombatError, option_for, resolve_attack
from rules.engine.dice import ScriptedDice
from rules.engine.los import SightError, line_of_sight
from rules.engine.movement import MoveError, move
from rules.engine.narration import LANGUAGES, fields_of
from rules.engine.narration_combat import ATTACKS, EVENTS, SINGULAR, combat_text
from rules.engine.narration_errors import ERRORS, CodedError, error_text
from rules.engine.narration_errors import SINGULAR as ERROR_SINGULAR
from tests.engine.ai_support import alien, make_board, make_state, marine
from tests.engine.test_ai_log_italian import english_in

#: One value for every param any template uses.
PARAMS = {
    "attacker": "p1-m4",
    "target": "ork-1",
    "figure": "p1-m4",
    "vehicle": "p1-dread",
    "weapon": "missile_launcher",
    "weapons": ["bolter", "power_sword"],
    "dice": {"red": 2, "white": 1},
    "their_dice": {"red": 0, "white": 1},
    "armour": 2,
    "targets": ["ork-1", "ork-2"],
    "eligible": [],
    "origin": [3, 4],
    "square": [5, 4],
    "blocked": [5, 5],
    "squares": [[3, 4], [4, 4]],
    "a": [1, 0],
    "b": [2, 0],
    "door": [[1, 0], [2, 0]],
    "direction": [1, -1],
    "areas": [[[5, 4], 2], [[7, 4], 1]],
    "purpose": "shot",
    "purpose_params": {"attacker": "p1-m4", "weapon": "bolter", "target": "ork-1"},
    "values": [3, 0],
    "total": 3,
    "highest": 3,
    "lost": 2,
    "left": 1,
    "points": 5,
    "attack": 4,
    "cause": "hand_to_hand",
    "shares": [["ork-1", 2], ["ork-2", 1]],
    "remaining": 3,
    "step": 2,
    "section": "B",
    "allowance": 6,
    "steps": 7,
    "door_state": "bulkhead",
    "width": 20,
    "height": 20,
    "shots": 3,
}


def _check_pair(entry: dict[str, str]) -> None:
    assert set(entry) == set(LANGUAGES)
    assert set(fields_of(entry["it"])) == set(fields_of(entry["en"]))


@pytest.mark.parametrize("code", sorted(ATTACKS) + sorted(EVENTS))
def test_combat_templates_read_in_both_languages(code):
    _check_pair({**ATTACKS, **EVENTS}[code])
    italian = combat_text(code, PARAMS, "it")
    english = combat_text(code, PARAMS, "en")
    assert "{" not in italian and not english_in(italian), italian
    assert "{" not in english
    assert italian != english


@pytest.mark.parametrize("code", sorted(ERRORS))
def test_error_templates_read_in_both_languages(code):
    _check_pair(ERRORS[code])
    italian = error_text(code, PARAMS, "it")
    assert "{" not in italian and not english_in(italian), italian
    assert italian != error_text(code, PARAMS, "en")


@pytest.mark.parametrize(
    "table, code", [(SINGULAR, c) for c in SINGULAR] + [(ERROR_SINGULAR, c) for c in ERROR_SINGULAR]
)
def test_singular_templates_match_the_plural_params(table, code):
    count, templates = table[code]
    plural = {**ATTACKS, **EVENTS, **ERRORS}[code]
    for lang in LANGUAGES:
        assert set(fields_of(templates[lang])) == set(fields_of(plural[lang])) - {count}


def test_counts_of_one_are_singular():
    one = {**PARAMS, "lost": 1, "left": 0, "cause": "bolter"}
    assert combat_text("damage_by", one, "it") == (
        "p1-m4 perde 1 punto vita; punti vita rimasti: 0 (bolter)"
    )
    assert combat_text("damage_by", one, "en") == "p1-m4 loses 1 life point, 0 left (bolter)"
    assert combat_text("damage", PARAMS, "en") == "p1-m4 loses 2 life points, 1 left"
    assert combat_text("killed", {"figure": "o1", "points": 1}, "it") == (
        "o1 è eliminato e tolto dal tabellone (vale 1 punto)"
    )
    assert error_text("too_long", {**PARAMS, "allowance": 1}, "it") == (
        "La figura p1-m4 può muovere di 1 casella, il percorso ne ha 7"
    )
    assert combat_text("area_shot", PARAMS, "it") == (
        "p1-m4 spara con lanciarazzi: 2 colpi sull'area da 5,4, 1 colpo sull'area da 7,4"
    )
    assert combat_text("fight", PARAMS, "it") == (
        "p1-m4 combatte in corpo a corpo con ork-1 (2 rossi + 1 bianco contro 1 bianco)"
    )


def test_an_unknown_language_is_refused():
    with pytest.raises(ValueError, match="language"):
        combat_text("tie", {}, "fr")


def test_coded_errors_keep_english_str_and_free_text():
    error = CodedError("no_door", a=[1, 0], b=[2, 0])
    assert str(error) == "there is no door between 1,0 and 2,0"
    assert error.code == "no_door" and error.params == {"a": [1, 0], "b": [2, 0]}
    assert error.text_in("it") == "Non c'è nessuna porta tra 1,0 e 2,0"
    free = MoveError("già tradotto")
    assert free.code is None and free.text_in("en") == "già tradotto"


# --- the engine's own events, options and errors --------------------------------------------


def _fight_state():
    board = make_board(6, 4)
    return make_state(
        board,
        [marine("m", "p1", (1, 1)), alien("o", "ork", (2, 1)), alien("g", "gretchin", (4, 1))],
        players=("p1",),
    )


def test_a_resolved_fight_reads_in_italian_with_the_english_text_unchanged():
    state = _fight_state()
    option = option_for(state, "m", None, target="o")
    assert option.description.startswith("m fights o hand-to-hand (")
    assert option.description_in("it").startswith("m combatte in corpo a corpo con o (")
    _, events = resolve_attack(state, option, ScriptedDice(values=[2, 2, 0, 0]))
    assert [e.code for e in events] == ["fight", "roll", "roll", "damage_by", "killed"]
    assert events[3].text == "o loses 1 life point, 0 left (hand-to-hand)"
    for event in events:
        italian = event.text_in("it")
        assert not english_in(italian), italian
        assert event.as_dict()["text"] == event.text
    assert events[3].text_in("it") == "o perde 1 punto vita; punti vita rimasti: 0 (corpo a corpo)"


def test_engine_errors_carry_codes():
    state = _fight_state()
    with pytest.raises(CombatError) as info:
        option_for(state, "m", "bolter", target="g")
    assert info.value.code == "no_such_weapon"
    assert str(info.value) == "m does not carry a bolter; it has: laser rifle"
    assert info.value.text_in("it") == "m non ha l'arma bolter; ha: fucile laser"
    with pytest.raises(MoveError) as moved:
        move(state, "m", [(3, 3)])
    assert moved.value.code == "step_blocked"
    assert moved.value.text_in("it").startswith("Passo 1: m non può passare da 1,1 a 3,3")
    with pytest.raises(SightError) as sight:
        line_of_sight(state, (0, 0), (9, 9), for_firing=True)
    assert str(sight.value) == "square 9,9 is outside the 6x4 board"
    assert sight.value.text_in("it") == "La casella 9,9 è fuori dal tabellone di 6x4 caselle"
