import pytest

from rules.engine.narration import (
    LANGUAGES,
    MESSAGES,
    SINGULAR,
    Step,
    fields_of,
    render,
    template_fields,
)


@pytest.mark.parametrize("code", sorted(MESSAGES))
def test_both_languages_use_the_same_params(code):
    assert set(MESSAGES[code]) == set(LANGUAGES)
    assert template_fields(code, "it") == template_fields(code, "en")


@pytest.mark.parametrize("code", sorted(MESSAGES))
def test_every_template_renders_with_sample_params(code):
    sample = {
        "square": [1, 2],
        "from": [0, 0],
        "to": [1, 1],
        "a": [2, 2],
        "b": [2, 3],
        "target_square": [4, 4],
        "path": [[0, 0], [1, 1]],
        "unit": "ork",
        "units": ["ork", "gretchin"],
        "weapon": "bolter",
        "criterion": "distance",
        "mode": "close",
        "card": "wrath",
        "text": {"it": "testo", "en": "text"},
    }
    params = {name: sample.get(name, 3) for name in template_fields(code, "en")}
    for lang in LANGUAGES:
        text = render(code, params, lang)
        assert "{" not in text and text


def test_step_renders_in_either_language():
    step = Step(
        "move",
        {
            "figure": "o1",
            "from": [0, 0],
            "to": [2, 1],
            "path": [[0, 0], [1, 0], [2, 1]],
            "steps": 2,
        },
    )
    assert (
        step.as_dict("en")["text"]
        == "o1 moves from (0,0) to (2,1) along (0,0) → (1,0) → (2,1) (2 squares)."
    )
    assert "muove" in step.as_dict("it")["text"]
    assert "text" not in step.as_dict()


def test_translated_names():
    # The name in quotes: its own "!" is not followed by the sentence's full stop.
    assert render("event_drawn", {"card": "wrath"}, "it") == "Carta Evento Alieno pescata: “Ira!”."
    assert "Ork" in render(
        "activation", {"figure": "x", "unit": "ork", "criterion": "type_order"}, "en"
    )
    assert "Orco" in render(
        "activation", {"figure": "x", "unit": "ork", "criterion": "type_order"}, "it"
    )


def test_unknown_code_and_language_are_refused():
    with pytest.raises(KeyError):
        Step("nope")
    with pytest.raises(ValueError, match="language"):
        render("turn_end", {}, "fr")


def test_every_weapon_and_unit_of_the_data_has_both_names():
    from rules.engine.figure_names import UNIT_NAMES, WEAPON_NAMES
    from rules.engine.units import load_rules_data

    data = load_rules_data()
    assert set(data.weapons) <= set(WEAPON_NAMES)
    assert set(data.units) <= set(UNIT_NAMES)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_count_of_one_reads_in_the_singular(lang):
    one = render("damage", {"target": "p1-1", "amount": 1, "left": 0}, lang)
    two = render("damage", {"target": "p1-1", "amount": 2, "left": 0}, lang)
    assert ("1 punto vita" if lang == "it" else "1 life point ") in one
    assert ("2 punti vita" if lang == "it" else "2 life points") in two
    for code, (count, templates) in SINGULAR.items():
        assert count in template_fields(code, lang)
        assert set(templates) == set(LANGUAGES)
        assert set(fields_of(templates[lang])) <= template_fields(code, lang)


def test_an_alien_turns_dice_say_what_they_were_rolled_for():
    """A Dreadnought fires each of its weapons with its own dice: each roll names the
    weapon and its aim, as a marine's attack reads, so the judge can follow which is which."""
    params = {
        "figure": "dreadnought-1",
        "kind": "red",
        "values": [1, 0],
        "purpose": "shot_square",
        "purpose_params": {
            "attacker": "dreadnought-1",
            "weapon": "missile_launcher",
            "square": [11, 13],
        },
    }
    assert render("dice", params, "en") == (
        "dreadnought-1 fires the missile launcher at square (11,13): red 1, 0."
    )
    assert render("dice", params, "it").startswith("dreadnought-1 spara con ")
    assert render("dice", params, "it").endswith("sulla casella (11,13): rossi 1, 0.")
    plain = {**params, "purpose": "a die typed at the table", "purpose_params": {}}
    assert render("dice", plain, "en") == "Dice rolled by dreadnought-1: red 1, 0."
