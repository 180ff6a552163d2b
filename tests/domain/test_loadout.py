"""RULES §5 loadout rules, each in isolation, and §9 honours/card allowances."""

import pytest
from django.utils import translation

from tournaments.domain.catalogue import (
    ALL_CHAPTERS,
    DEFAULT_CARDS,
    DEFAULT_CATALOGUE,
    DEFAULT_SQUADS,
    DEFAULT_WEAPONS,
    CardKind,
    CardSpec,
    CardUse,
    Catalogue,
    Confidence,
    SquadSpec,
    WeaponClass,
    WeaponSpec,
    load_card_data,
)
from tournaments.domain.honours import (
    HonoursError,
    SquadStanding,
    after_session,
    card_allowance,
    thresholds_reached,
)
from tournaments.domain.loadout import Loadout, suggested_cards, validate_loadout
from tournaments.forms.loadout import card_choices


def chapter(squad):
    orders = [
        CardSpec(f"order-{n}", f"Order {n}", f"Ordine {n}", squad=squad, kind=CardKind.ORDER)
        for n in range(3)
    ]
    equipment = [
        CardSpec(
            f"equipment-{n}", f"Equipment {n}", f"Equip. {n}", squad=squad, kind=CardKind.EQUIPMENT
        )
        for n in range(9)
    ]
    return orders + equipment


CATALOGUE = Catalogue(
    squads=DEFAULT_SQUADS + (SquadSpec("dark-angels", "Dark Angels", "Angeli Oscuri", "green"),),
    weapons=DEFAULT_WEAPONS,
    cards=tuple(card for squad in ("ultramarines", "blood-angels") for card in chapter(squad)),
)
EQUIPMENT = ("equipment-0", "equipment-1", "equipment-2", "equipment-3")


def loadout(**changes):
    values = dict(
        squad="ultramarines",
        commander_combo="axe_pistol",
        marine_weapons=("assault-cannon", "laser-rifle", "plasma-gun", "laser-rifle"),
        order_cards=("order-0",),
        equipment_cards=EQUIPMENT,
    )
    values.update(changes)
    return Loadout(**values)


def codes(problems):
    return [(problem.code, problem.field) for problem in problems]


def check(item, **kwargs):
    return codes(validate_loadout(item, CATALOGUE, **kwargs))


def test_a_valid_loadout_has_no_problems():
    assert check(loadout()) == []
    for combo in ("axe_pistol", "bolter", "sword_glove"):
        assert check(loadout(commander_combo=combo)) == []


def test_unknown_squad():
    assert check(loadout(squad="space-wolves")) == [("unknown_squad", "squad")]


def test_commander_combo_must_be_one_of_three():
    with translation.override("en"):
        problems = validate_loadout(loadout(commander_combo="bolter_sword"), CATALOGUE)
    assert codes(problems) == [("commander_combo_unknown", "commander_combo")]
    assert "Power axe + Laser pistol" in problems[0].message
    with translation.override("it"):
        problems = validate_loadout(loadout(commander_combo="bolter_sword"), CATALOGUE)
    assert "Ascia mortale + Pistola laser" in problems[0].message


def test_commander_never_carries_extra_heavy_weapons():
    catalogue = Catalogue(
        CATALOGUE.squads,
        CATALOGUE.weapons,
        CATALOGUE.cards,
        commander_combos={"melta": ("melta",)},
    )
    problems = validate_loadout(loadout(commander_combo="melta"), catalogue)
    assert codes(problems) == [("commander_extra_heavy", "commander_combo")]


def test_exactly_four_marines():
    assert ("marine_count", "marine_weapons") in check(
        loadout(marine_weapons=("assault-cannon", "laser-rifle"))
    )


def test_at_least_one_heavy_weapon():
    assert check(loadout(marine_weapons=("laser-rifle",) * 4)) == [
        ("no_heavy_weapon", "marine_weapons")
    ]


def test_at_least_one_laser_rifle():
    assert check(
        loadout(marine_weapons=("assault-cannon", "plasma-gun", "missile-launcher", "bolter"))
    ) == [("marine_weapon_not_allowed", "marine_weapons[3]"), ("no_laser_rifle", "marine_weapons")]
    assert check(loadout(marine_weapons=("assault-cannon", "plasma-gun", "missile-launcher"))) == [
        ("marine_count", "marine_weapons"),
        ("no_laser_rifle", "marine_weapons"),
    ]


def test_each_heavy_weapon_at_most_once():
    with translation.override("en"):
        problems = validate_loadout(
            loadout(marine_weapons=("plasma-gun", "laser-rifle", "plasma-gun", "laser-rifle")),
            CATALOGUE,
        )
    assert codes(problems) == [("heavy_weapon_repeated", "marine_weapons")]
    assert "2 times" in problems[0].message


def test_marines_carry_only_heavy_weapons_or_laser_rifles():
    assert check(
        loadout(marine_weapons=("assault-cannon", "laser-rifle", "power-sword", "lascannon"))
    ) == [
        ("marine_weapon_not_allowed", "marine_weapons[2]"),
        ("marine_weapon_not_allowed", "marine_weapons[3]"),
    ]


def test_unknown_weapon():
    assert check(
        loadout(marine_weapons=("assault-cannon", "laser-rifle", "flamer", "laser-rifle"))
    ) == [("unknown_weapon", "marine_weapons[2]")]


def test_only_weapons_of_the_squads_colour():
    # The default weapons exist in blue, red and yellow only: a green squad has none.
    assert check(loadout(squad="dark-angels", order_cards=(), equipment_cards=()))[:3] == [
        ("wrong_colour", "commander_combo"),
        ("wrong_colour", "commander_combo"),
        ("wrong_colour", "marine_weapons[0]"),
    ]


def test_extended_tpk_needs_two_extra_heavy_marines():
    extra = ("lascannon", "melta")
    assert check(loadout(extra_marine_weapons=extra), extended_tpk=True) == []
    assert check(loadout(), extended_tpk=True) == [("extra_marine_count", "extra_marine_weapons")]
    assert check(loadout(extra_marine_weapons=("lascannon", "plasma-gun")), extended_tpk=True) == [
        ("extra_marine_weapon_not_extra_heavy", "extra_marine_weapons[1]")
    ]
    assert check(loadout(extra_marine_weapons=extra)) == [
        ("extra_marines_not_allowed", "extra_marine_weapons")
    ]


def test_card_counts_follow_rank_and_previous_thresholds():
    assert check(loadout()) == []
    assert check(loadout(), rank=1) == [("order_card_count", "order_cards")]
    assert check(loadout(order_cards=("order-0", "order-1")), rank=1) == []
    assert check(loadout(order_cards=("order-0", "order-1", "order-2")), rank=2) == []
    assert check(loadout(), thresholds_reached=1) == [("equipment_card_count", "equipment_cards")]
    assert check(loadout(equipment_cards=EQUIPMENT + ("equipment-4",)), thresholds_reached=1) == []


def test_cards_must_come_from_the_squads_chapter_set():
    foreign = Catalogue(
        CATALOGUE.squads,
        CATALOGUE.weapons,
        CATALOGUE.cards
        + (CardSpec("war-cry", "War cry", "Grido", squad="blood-angels", kind=CardKind.ORDER),),
    )
    problems = validate_loadout(loadout(order_cards=("war-cry",)), foreign)
    assert codes(problems) == [("card_not_in_chapter", "order_cards[0]")]
    assert "Blood Angels" in problems[0].message
    assert check(loadout(order_cards=("nope",))) == [("unknown_card", "order_cards[0]")]


def test_card_kind_and_repeats():
    assert check(loadout(order_cards=("equipment-5",))) == [("card_wrong_kind", "order_cards[0]")]
    repeated = ("equipment-0", "equipment-0", "equipment-1", "equipment-2")
    assert check(loadout(equipment_cards=repeated)) == [("card_repeated", "equipment_cards")]


def test_every_problem_is_reported_at_once_with_a_message():
    problems = validate_loadout(
        loadout(commander_combo="x", marine_weapons=(), order_cards=(), equipment_cards=()),
        CATALOGUE,
    )
    assert {p.code for p in problems} >= {
        "commander_combo_unknown",
        "marine_count",
        "no_heavy_weapon",
        "no_laser_rifle",
        "order_card_count",
        "equipment_card_count",
    }
    assert all(p.message and p.as_dict()["field"] for p in problems)


def test_default_catalogue_data():
    assert [(s.slug, s.colour, s.name_it) for s in DEFAULT_CATALOGUE.squads] == [
        ("ultramarines", "blue", "Ultramarines"),
        ("blood-angels", "red", "Angeli Sanguinari"),
        ("imperial-fists", "yellow", "Pugni d'Acciaio"),
    ]
    classes = {w.slug: w.weapon_class for w in DEFAULT_CATALOGUE.weapons}
    assert [s for s, c in classes.items() if c is WeaponClass.LIGHT] == [
        "laser-rifle",
        "laser-pistol",
        "bolter",
    ]
    assert [s for s, c in classes.items() if c is WeaponClass.HEAVY] == [
        "assault-cannon",
        "missile-launcher",
        "plasma-gun",
    ]
    assert [s for s, c in classes.items() if c is WeaponClass.EXTRA_HEAVY] == [
        "lascannon",
        "melta",
        "conversion-beamer",
    ]
    assert [s for s, c in classes.items() if c is WeaponClass.CLOSE] == [
        "power-axe",
        "power-sword",
        "power-glove",
    ]


def default_set(squad, kind):
    return [card.slug for card in DEFAULT_CATALOGUE.chapter_cards(squad) if card.kind is kind]


def test_default_chapter_decks_are_complete():
    # RULES §5: 12 cards per chapter, 4 orders and 8 equipment, Targeter printed twice.
    assert len(DEFAULT_CARDS) == 36
    assert {squad: default_set(squad, CardKind.ORDER) for squad in ALL_CHAPTERS} == {
        "ultramarines": ["fire", "move-it", "by-section", "close-assault"],
        "blood-angels": ["fire", "move-it", "close-assault", "photon-grenades"],
        "imperial-fists": ["fire", "move-it", "by-section", "heavy-weapon"],
    }
    shared = ["blind-grenades", "bolt-pistols", "melta-bomb", "targeter", "targeter-2"]
    own = {
        "ultramarines": {"bio-scanner", "digital-weapons", "medi-kit"},
        "blood-angels": {"bionic-arm", "close-assault-blades", "force-field"},
        "imperial-fists": {"bionic-eye", "combi-weapon", "suspensors"},
    }
    for squad in ALL_CHAPTERS:
        equipment = default_set(squad, CardKind.EQUIPMENT)
        assert len(equipment) == 8 and set(equipment) == set(shared) | own[squad], squad


def test_known_italian_names_and_english_fallback():
    by_slug = {card.slug: card for card in DEFAULT_CATALOGUE.chapter_cards("ultramarines")}
    with translation.override("it"):
        assert [by_slug[s].display_name() for s in ("fire", "move-it", "by-section")] == [
            "Fuoco!",
            "Muoversi!",
            "All'Attacco!",
        ]
        assert by_slug["medi-kit"].display_name() == "Pronto Soccorso"
        # No Italian edition name known: the English one until the organiser edits it.
        assert by_slug["bio-scanner"].display_name() == "Bio-Scanner"
        assert by_slug["bio-scanner"].effect().startswith("All'inizio")
    with translation.override("en"):
        assert by_slug["medi-kit"].display_name() == "Medi-Kit"
        assert by_slug["bio-scanner"].effect().startswith("At the start")


def test_every_default_card_is_documented():
    for card in DEFAULT_CATALOGUE.cards:
        assert card.name_en and card.effect_en and card.effect_it and card.source, card.slug
        assert card.effect_code and card.confidence in Confidence, card.slug
    # Orders are played once; the copies of a card share its effect code.
    assert {c.use for c in DEFAULT_CARDS if c.kind is CardKind.ORDER} == {CardUse.ONE_USE}
    targeters = {c.effect_code for c in DEFAULT_CARDS if c.slug.startswith("targeter")}
    assert targeters == {"targeter"}


def test_card_data_comes_from_the_shipped_file(tmp_path):
    data = tmp_path / "cards.json"
    data.write_text(
        '{"cards": [{"slug": "x", "name_en": "X", "name_it": "", "kind": "order", '
        '"use": "one_use", "chapters": ["blood-angels"], "copies": 3, "effect_code": "x", '
        '"effect_en": "e", "effect_it": "i", "source": "s", "confidence": "uncertain"}]}'
    )
    cards = load_card_data(data)
    assert [(c.slug, c.squad, c.confidence) for c in cards] == [
        ("x", "blood-angels", Confidence.UNCERTAIN),
        ("x-2", "blood-angels", Confidence.UNCERTAIN),
        ("x-3", "blood-angels", Confidence.UNCERTAIN),
    ]


@pytest.mark.parametrize("squad", ALL_CHAPTERS)
@pytest.mark.parametrize(("rank", "thresholds"), [(0, 0), (1, 1), (2, 4)])
def test_suggested_cards_are_a_valid_pick_from_every_default_deck(squad, rank, thresholds):
    orders, equipment = suggested_cards(DEFAULT_CATALOGUE, squad, rank, thresholds)
    marks = MARKS[: sum(1 for slug in equipment if slug.startswith("targeter"))]
    item = loadout(squad=squad, order_cards=orders, equipment_cards=equipment, targeter_marks=marks)
    assert (
        codes(validate_loadout(item, DEFAULT_CATALOGUE, rank=rank, thresholds_reached=thresholds))
        == []
    )
    assert len(orders) == 1 + rank and len(equipment) == 4 + thresholds


#: Two weapon types for the Targeters to mark.
MARKS = ("missile-launcher", "plasma-gun")


def test_both_targeter_copies_may_be_taken_but_no_card_twice():
    equipment = ("targeter", "targeter-2", "melta-bomb", "bolt-pistols")
    item = loadout(
        squad="blood-angels", order_cards=("fire",), equipment_cards=equipment, targeter_marks=MARKS
    )
    assert codes(validate_loadout(item, DEFAULT_CATALOGUE)) == []
    twice = ("targeter", "targeter", "melta-bomb", "bolt-pistols")
    item = loadout(
        squad="blood-angels", order_cards=("fire",), equipment_cards=twice, targeter_marks=MARKS
    )
    assert codes(validate_loadout(item, DEFAULT_CATALOGUE)) == [
        ("card_repeated", "equipment_cards")
    ]


def test_a_chapter_card_of_another_deck_is_refused_by_name():
    equipment = ("targeter", "targeter-2", "melta-bomb", "bolt-pistols")
    item = loadout(
        squad="blood-angels",
        order_cards=("heavy-weapon",),
        equipment_cards=equipment,
        targeter_marks=MARKS,
    )
    assert codes(validate_loadout(item, DEFAULT_CATALOGUE)) == [
        ("card_not_in_chapter", "order_cards[0]")
    ]


def test_each_targeter_marks_its_own_weapon_type_that_shoots_never_an_extra_heavy_one():
    equipment = ("targeter", "targeter-2", "melta-bomb", "bolt-pistols")

    def problems(marks):
        item = loadout(
            squad="blood-angels",
            order_cards=("fire",),
            equipment_cards=equipment,
            targeter_marks=marks,
        )
        return validate_loadout(item, DEFAULT_CATALOGUE)

    missing = problems(("missile-launcher",))
    assert codes(missing) == [("targeter_mark_missing", "targeter_marks[1]")]
    assert "Choose the weapon type Targeter (copy 2) marks" in missing[0].message
    assert codes(problems(("lascannon", "plasma-gun"))) == [
        ("targeter_mark_extra_heavy", "targeter_marks[0]")
    ]
    close = problems(("power-axe", "plasma-gun"))
    assert codes(close) == [("targeter_mark_close", "targeter_marks[0]")]
    assert "Power axe is a hand-to-hand weapon" in close[0].message
    twice = problems(("plasma-gun", "plasma-gun"))
    assert codes(twice) == [("targeter_mark_twice", "targeter_marks[1]")]
    assert "Plasma gun is marked twice" in twice[0].message
    assert codes(problems(("plasma-gun", "death-ray"))) == [
        ("targeter_mark_unknown", "targeter_marks[1]")
    ]
    one = loadout(
        squad="blood-angels",
        order_cards=("fire",),
        equipment_cards=("targeter", "melta-bomb", "bolt-pistols", "force-field"),
        targeter_marks=MARKS,
    )
    extra = validate_loadout(one, DEFAULT_CATALOGUE)
    assert codes(extra) == [("targeter_mark_extra", "targeter_marks[1]")]
    assert "marked than the 1 copy of Targeter chosen" in extra[0].message


def test_weapon_spec_without_colours_is_available_everywhere():
    assert WeaponSpec("x", "X", "X").available_in("green")


def test_winning_gives_an_honour_and_a_rank_step_up_to_veteran():
    standing = SquadStanding()
    standing = after_session(standing, won=True)
    assert standing == SquadStanding(rank=1, honours=1)
    standing = after_session(standing, won=False)
    assert standing == SquadStanding(rank=1, honours=1)
    standing = after_session(after_session(standing, won=True), won=True)
    assert standing == SquadStanding(rank=2, honours=3)


def test_thresholds_and_allowances():
    assert thresholds_reached(59, (30, 60, 90)) == 1
    assert thresholds_reached(60, (30, 60, 90)) == 2
    assert thresholds_reached(-5, (30,)) == 0
    assert card_allowance(0, 0).orders == 1 and card_allowance(0, 0).equipment == 4
    assert card_allowance(2, 3).orders == 3 and card_allowance(2, 3).equipment == 7
    with pytest.raises(HonoursError, match="ascending"):
        thresholds_reached(10, (30, 30))
    with pytest.raises(HonoursError, match="does not exist"):
        card_allowance(3)
    with pytest.raises(HonoursError, match="negative"):
        card_allowance(0, -1)


def test_the_loadout_form_names_each_copy_of_a_card_apart():
    with translation.override("en"):
        choices = dict(
            card_choices(DEFAULT_CATALOGUE.chapter_cards("blood-angels"), CardKind.EQUIPMENT)
        )
    assert (choices["targeter"], choices["targeter-2"]) == ("Targeter", "Targeter (copy 2)")
    assert len(set(choices.values())) == 8
