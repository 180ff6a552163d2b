"""Unit data: defaults from RULES §10b, sources on every value, validated overrides."""

import string

import pytest

from rules.engine.data_errors import DATA_ERRORS
from rules.engine.units import (
    DiceSpec,
    RulesDataError,
    ValueDifference,
    load_rules_data,
    override_differences,
)


@pytest.fixture(scope="module")
def data():
    return load_rules_data()


def test_marine_values_follow_rules_10b(data):
    for key in ("commander", "marine"):
        assert data.unit(key).movement == 6
    assert data.unit("heavy_weapon_marine").movement == 4
    assert all(data.unit(k).armour == 2 for k in ("commander", "marine", "heavy_weapon_marine"))
    assert data.unit("marine").life_points == 2
    assert data.unit("heavy_weapon_marine").life_points == 2
    assert data.unit("commander").life_points == 6


@pytest.mark.parametrize(
    ("unit", "armour", "movement"),
    [
        ("gretchin", 0, 8),
        ("ork", 1, 6),
        ("android", 2, 4),
        ("chaos_marine", 2, 6),
        ("chaos_marine_heavy", 2, 4),
        ("chaos_commander", 2, 6),
        ("genestealer", 3, 6),
        ("dreadnought", 4, 4),
        ("tarantula", 6, 6),
    ],
)
def test_alien_and_vehicle_values_follow_rules_10b(data, unit, armour, movement):
    assert data.unit(unit).armour == armour
    assert data.unit(unit).movement == movement


def test_other_fixed_armour_values(data):
    assert data.bulkhead_door_armour == 4
    assert data.tarantula_gunner_armour_inside_arc == 4


def test_dreadnought_classes(data):
    moves = {k: c.movement for k, c in data.dreadnought_classes.items()}
    assert moves == {"malignant": 4, "predator": 6, "dominator": 4, "abominable": 6}
    heavy = {k: c.heavy_weapons for k, c in data.dreadnought_classes.items()}
    assert heavy == {"malignant": 2, "predator": 2, "dominator": 4, "abominable": 4}
    assert not data.dreadnought_class("dominator").laser_rifles
    assert all(c.class_value >= 25 for c in data.dreadnought_classes.values())
    for cls in data.dreadnought_classes.values():
        assert all(data.weapon(w).is_heavy for w in cls.default_weapons)


def test_dreadnought_life_points_are_heavy_weapons_plus_one(data):
    assert data.max_life_points("dreadnought", ["assault_cannon", "lascannon", "laser_rifle"]) == 3
    four = data.dreadnought_class("dominator").default_weapons
    assert data.max_life_points("dreadnought", four) == 5
    assert data.max_life_points("marine", ["laser_rifle"]) == 2


def test_weapon_dice_and_classes(data):
    assert data.weapon("laser_rifle").dice == DiceSpec(white=2)
    assert data.weapon("laser_pistol").dice == DiceSpec(white=2)
    assert data.weapon("bolter").dice == DiceSpec(red=2)
    for key in ("assault_cannon", "missile_launcher", "plasma_gun"):
        assert data.weapon(key).weapon_class == "heavy"
        assert data.weapon(key).dice == DiceSpec(red=2)
    assert data.weapon("lascannon").dice.times(data.weapon("lascannon").shots) == DiceSpec(red=3)
    for key in ("melta", "conversion_beamer"):
        assert data.weapon(key).weapon_class == "extra_heavy"
        assert data.weapon(key).dice == DiceSpec(red=3)
    assert data.weapon("twin_lascannon").dice == DiceSpec(red=2)
    assert data.weapon("twin_lascannon").shots == 3


def test_commander_combos_and_hand_to_hand_dice(data):
    assert data.unit("commander").weapon_options == (
        ("power_axe", "laser_pistol"),
        ("bolter",),
        ("power_sword", "power_glove"),
    )
    assert data.hand_to_hand_dice("commander", ["power_axe", "laser_pistol"]) == DiceSpec(red=2)
    assert data.hand_to_hand_dice("commander", ["bolter"]) == data.unit("marine").hand_to_hand
    assert data.hand_to_hand_dice("commander", ["power_sword", "power_glove"]) == DiceSpec(2, 2)


def test_marine_kill_values_follow_rules_7(data):
    assert data.marine_value("marine", ["laser_rifle"]) == 5
    assert data.marine_value("marine", []) == 5
    assert data.marine_value("heavy_weapon_marine", ["plasma_gun"]) == 10
    assert data.marine_value("commander", ["bolter"]) == 10
    assert data.marine_value("extra_heavy_weapon_marine", ["melta"]) == 15
    assert data.marine_value("heavy_weapon_marine", ["plasma_gun"], gunner=True) == 5
    assert data.tarantula_destroyed == 10
    assert data.alien_tokens["genestealer"] == 0


def test_every_value_has_a_source_and_weak_ones_are_flagged(data):
    assert data.source("units.gretchin.armour").text
    assert not data.source("units.gretchin.armour").unverified
    assert data.source("alien_tokens.ork").unverified
    unverified = data.unverified_paths()
    assert "units.gretchin.hand_to_hand" in unverified
    assert "units.marine.movement" not in unverified
    for unit in data.units:
        for field in ("movement", "armour", "life_points", "hand_to_hand", "weapons"):
            assert data.source(f"units.{unit}.{field}").text


def test_override_changes_values_and_records_the_source():
    data = load_rules_data({"units": {"genestealer": {"armour": 2}}, "alien_tokens": {"ork": 3}})
    assert data.unit("genestealer").armour == 2
    assert data.source("units.genestealer.armour").text == "tournament override"
    assert data.alien_tokens["ork"] == 3
    assert load_rules_data().unit("genestealer").armour == 3


def test_override_may_give_a_full_record_and_new_units():
    data = load_rules_data(
        {
            "units": {
                "ork": {"movement": {"value": 5, "source": "house rule", "unverified": True}},
                "ork_boss": {
                    "name": "Ork boss",
                    "side": "alien",
                    "movement": 5,
                    "armour": 2,
                    "life_points": 1,
                    "life_points_per_heavy_weapon": 0,
                    "hand_to_hand": {"white": 1, "red": 2},
                    "size": 1,
                    "weapons": ["bolter"],
                    "weapon_options": [["bolter"]],
                },
            },
            "alien_tokens": {"ork_boss": 8},
        }
    )
    assert data.unit("ork").movement == 5
    assert data.source("units.ork.movement").text == "house rule"
    assert data.source("units.ork.movement").unverified
    assert data.unit("ork_boss").hand_to_hand == DiceSpec(1, 2)


@pytest.mark.parametrize(
    ("override", "message"),
    [
        ({"units": {"ork": {"armor": 1}}}, "units.ork.armor: unknown key"),
        ({"units": {"ork": {"armour": -1}}}, "units.ork.armour: must be at least 0"),
        ({"units": {"ork": {"armour": "one"}}}, "units.ork.armour: expected a whole number"),
        ({"units": {"ork": {"side": "pirate"}}}, "units.ork.side: 'pirate' is not one of"),
        ({"units": {"ork": {"hand_to_hand": {"red": 1}}}}, "units.ork.hand_to_hand: expected dice"),
        ({"units": {"ork": {"weapons": ["ray_gun"]}}}, "units.ork.weapons[0]: unknown weapon"),
        ({"weapons": {"bolter": {"pattern": "cone"}}}, "weapons.bolter.pattern"),
        ({"dreadnought_classes": {"predator": {"heavy_weapons": 3}}}, "default_weapons"),
        ({"units": {"ogre": {"armour": 1}}}, "units.ogre: new entry is missing fields"),
        ({"nonsense": 1}, "nonsense: unknown key"),
        ({"units": 3}, "units: expected an object"),
    ],
)
def test_bad_overrides_name_the_key_path(override, message):
    with pytest.raises(RulesDataError) as info:
        load_rules_data(override)
    assert message in str(info.value)


def test_unknown_lookups_are_clear(data):
    with pytest.raises(RulesDataError, match="unknown unit type 'orc'"):
        data.unit("orc")
    with pytest.raises(RulesDataError, match="unknown weapon"):
        data.weapon("phaser")
    with pytest.raises(RulesDataError, match="no data value"):
        data.source("units.ork.colour")


def test_lascannon_area_template_is_a_setting():
    assert load_rules_data().lascannon_area == ((0, 0), (1, 0), (0, 1), (1, 1))
    line = load_rules_data({"templates": {"lascannon_area": [[0, 0], [1, 0], [2, 0], [3, 0]]}})
    assert line.lascannon_area == ((0, 0), (1, 0), (2, 0), (3, 0))
    with pytest.raises(RulesDataError, match=r"templates.lascannon_area\[0\]: expected \[dx, dy\]"):
        load_rules_data({"templates": {"lascannon_area": [[0]]}})


def test_data_files_keep_their_order():
    data = load_rules_data()
    assert next(iter(data.dreadnought_classes)) == "malignant"
    assert next(iter(data.units)) == "commander"


def test_dreadnought_loadouts_and_movement_by_class(data):
    assert data.dreadnought_weapons("predator") == ("plasma_gun", "missile_launcher", "laser_rifle")
    assert data.dreadnought_weapons("dominator", ["melta", "melta", "lascannon", "plasma_gun"]) == (
        "melta",
        "melta",
        "lascannon",
        "plasma_gun",
    )
    with pytest.raises(RulesDataError, match="mounts 2 heavy weapons, not 1"):
        data.dreadnought_weapons("malignant", ["melta"])
    with pytest.raises(RulesDataError, match="cannot mount 'bolter'"):
        data.dreadnought_weapons("malignant", ["melta", "bolter"])
    assert data.movement("dreadnought", ["abominable"]) == 6
    assert data.movement("dreadnought") == 4
    assert data.movement("gretchin") == 8


def test_dreadnought_weapon_choices_must_be_heavy():
    with pytest.raises(RulesDataError, match=r"weapon_choices\[0\]: 'bolter' is not a heavy"):
        load_rules_data({"dreadnought_classes": {"malignant": {"weapon_choices": ["bolter"]}}})


def test_sections_of_other_modules_are_left_alone():
    data = load_rules_data({"scoring": {"kill_light": 7}, "units": {"ork": {"armour": 2}}})
    assert data.unit("ork").armour == 2


@pytest.mark.parametrize(
    ("override", "italian"),
    [
        ({"units": {"ork": {"armor": 1}}}, "units.ork.armor: chiave sconosciuta"),
        ({"units": {"ork": {"armour": -1}}}, "units.ork.armour: deve essere almeno 0"),
        ({"units": {"ork": {"armour": "one"}}}, "units.ork.armour: serve un numero intero"),
        ({"units": {"ork": {"weapons": ["ray_gun"]}}}, "units.ork.weapons[0]: arma sconosciuta"),
        ({"units": {"ogre": {"armour": 1}}}, "units.ogre: alla nuova voce mancano i campi"),
        ({"units": 3}, "units: serve un oggetto"),
        ({"dreadnought_classes": {"predator": {"heavy_weapons": 3}}}, "ne monta 3"),
    ],
)
def test_bad_overrides_are_told_in_italian_too(override, italian):
    with pytest.raises(RulesDataError) as info:
        load_rules_data(override)
    assert italian in info.value.text_in("it")
    assert info.value.text_in("en") == str(info.value)
    assert info.value.text_in("it") != str(info.value)


def test_every_data_problem_has_both_languages_with_the_same_params():
    fields = string.Formatter()
    for code, texts in DATA_ERRORS.items():
        assert set(texts) == {"it", "en"}, code
        names = [{name for _, name, _, _ in fields.parse(texts[lang]) if name} for lang in texts]
        assert names[0] == names[1], code
        assert texts["it"] != texts["en"], code


def test_override_differences_name_each_value_as_the_data_read_it():
    kept = {"alien_tokens": {"ork": 4}, "units": {"ork": {"armour": 1}}}
    given = {
        "alien_tokens": {"ork": {"value": 4, "source": "a file"}},  # the same value
        "units": {"marine": {"movement": 12, "hand_to_hand": {"white": 3}}},
        "events": {"report": {"name": {"en": "Roll call"}}},
    }
    assert override_differences(kept, given) == [
        ValueDifference("events.report.name.en", None, "Roll call"),
        ValueDifference("units.marine.hand_to_hand.white", 2, 3),
        ValueDifference("units.marine.movement", 6, 12),
    ]
    # The ork's armour is set to its default (1) on one side only: no difference.
    assert override_differences(given, given) == []
    assert override_differences({}, None) == []
