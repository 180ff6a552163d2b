"""The chapter cards' names in the engine's texts come from one place: the shipped decks
(RULES §5: an Italian name only where an edition's name is known), or the names a caller's
catalogue gives them inside ``named``, each chapter's card as that chapter names it; the
weapons' likewise."""

from __future__ import annotations

import json

import pytest

from rules.engine.card_names import CARD_DATA, SHIPPED_NAMES, card_field, chapter_card_name
from rules.engine.naming import Naming, named
from rules.engine.narration import MESSAGES, fields_of, format_param, render
from rules.engine.narration_combat import ATTACKS, EVENTS, combat_text
from rules.engine.narration_errors import ERRORS, error_text
from rules.engine.narration_turns import CARDS

#: Params whose names end like a fixed card's field: their value names the card.
CARD_PARAMS = {"chapter_card"}

TEMPLATES = {
    "message": MESSAGES,
    "attack": ATTACKS,
    "combat event": EVENTS,
    "error": ERRORS,
}


def test_every_card_the_engine_plays_is_named_by_the_shipped_decks_and_back():
    assert set(SHIPPED_NAMES) == set(CARDS)
    codes = {entry["effect_code"] for entry in json.loads(CARD_DATA.read_text())["cards"]}
    assert codes == set(CARDS)


def test_italian_names_only_where_an_edition_name_is_known():
    assert chapter_card_name("fire", "it") == "Fuoco!"
    assert chapter_card_name("medi_kit", "it") == "Pronto Soccorso"
    assert chapter_card_name("targeter", "it") == "Targeter"
    assert chapter_card_name("blind_grenades", "it") == "Blind Grenades"
    assert chapter_card_name("targeter", "en") == "Targeter"
    assert chapter_card_name("no_such_card", "it") == "no_such_card"


@pytest.mark.parametrize("kind", sorted(TEMPLATES))
def test_every_fixed_card_field_names_a_card(kind):
    for code, texts in TEMPLATES[kind].items():
        for lang, template in texts.items():
            for field in fields_of(template):
                if field.endswith("_card") and field not in CARD_PARAMS:
                    assert card_field(field), f"{kind} {code} ({lang}): {{{field}}} is no card"


def test_a_catalogue_names_the_cards_in_every_kind_of_text_and_only_inside_its_block():
    names = {"blind_grenades": {"it": "Granate Accecanti", "en": "Dazzle Grenades"}}
    with named(Naming(chapter_cards=names)):
        assert render("shielded_target", {"target": "p1-m"}, "it") == (
            "p1-m è protetto dalla carta Granate Accecanti: non subisce danni."
        )
        assert combat_text("shielded", {"figure": "p1-m"}, "en") == (
            "p1-m is shielded by Dazzle Grenades and takes no damage"
        )
        assert "Dazzle Grenades" in render(
            "card_reminder", {"player": "Ada", "chapter_card": "blind_grenades"}, "en"
        )
        # a card the catalogue leaves out keeps its shipped name
        assert "Targeter" in error_text("reroll_no_card", {"figure": "p1-m"}, "it")
    assert "Blind Grenades" in render("shielded_target", {"target": "p1-m"}, "en")


def test_blocks_nest_and_each_restores_the_names_before_it():
    with named(Naming(chapter_cards={"fire": {"it": "Fuoco a volontà!", "en": "Open Fire!"}})):
        with named(Naming(chapter_cards={"fire": {"it": "Spara!", "en": "Shoot!"}})):
            assert chapter_card_name("fire", "en") == "Shoot!"
        assert chapter_card_name("fire", "it") == "Fuoco a volontà!"
    assert chapter_card_name("fire", "it") == "Fuoco!"


def test_a_catalogue_names_the_event_cards_too():
    step = {"card": "report"}
    assert render("event_drawn", step, "it") == "Carta Evento Alieno pescata: “A Rapporto”."
    with named(Naming(event_cards={"report": {"it": "Rapporto al Comando", "en": "Report"}})):
        assert (
            render("event_drawn", step, "it")
            == "Carta Evento Alieno pescata: “Rapporto al Comando”."
        )
        frenzy = render("event_drawn", {"card": "wrath"}, "en")
        assert frenzy == "Alien event card drawn: “Frenzy!”."
    assert render("event_drawn", step, "en") == "Alien event card drawn: “Report In”."


#: Two chapters naming two of their cards apart, and whose each player and figure is.
CHAPTERS = Naming(
    chapter_cards={"blind_grenades": {"en": "Blind Grenades"}},
    chapters={
        "ultramarines": {
            "blind_grenades": {"en": "Dazzle Grenades", "it": "Granate Accecanti"},
            "close_assault_blades": {"en": "Shock Blades"},
        },
        "blood-angels": {
            "blind_grenades": {"en": "Smoke Grenades", "it": ""},
            "photon_grenades": {"en": "Sunburst Grenades"},
        },
    },
    owners={
        "p1": "ultramarines",
        "p1-m1": "ultramarines",
        "p2": "blood-angels",
        "p2-m2": "blood-angels",
    },
)


def test_each_players_card_is_named_as_their_own_chapter_names_it():
    with named(CHAPTERS):
        assert render(
            "equipment_used", {"player": "p2", "chapter_card": "blind_grenades", "effect": ""}, "it"
        ).startswith("p2 usa Smoke Grenades")  # an Italian name left empty reads as English
        assert render("shielded_target", {"target": "p1-m1"}, "it") == (
            "p1-m1 è protetto dalla carta Granate Accecanti: non subisce danni."
        )
        # a card that hinders the figure fought is its opponent's
        assert combat_text(
            "card_photon_grenades",
            {"figure": "o1", "opponent": "p2-m2", "chapter_card": "photon_grenades"},
            "en",
        ).startswith("Sunburst Grenades: o1 rolls one die fewer")
        assert "p1-m1's Shock Blades" in combat_text(
            "card_close_assault_blades",
            {"figure": "o1", "opponent": "p1-m1", "chapter_card": "close_assault_blades"},
            "en",
        )
        # nobody's card, or players whose chapters name it apart: named by its effect
        assert "Blind Grenades" in error_text(
            "turn_card_not_playable", {"chapter_card": "blind_grenades"}, "en"
        )
        assert "(Blind Grenades)" in render("players_shielded", {"players": ["p1", "p2"]}, "en")
        assert "(Dazzle Grenades)" in render("players_shielded", {"players": ["p1"]}, "en")
        # a figure of no known chapter, or a card its chapter's deck lacks
        assert chapter_card_name("blind_grenades", "en", "tarantula-1") == "Blind Grenades"
        assert chapter_card_name("fire", "en", "p1") == "Fire!"


def test_a_catalogue_names_the_weapons_in_every_kind_of_text():
    weapons = {"plasma_gun": {"en": "Plasma Incinerator", "it": "Inceneritore al plasma"}}
    with named(Naming(weapons=weapons)):
        assert format_param("weapon", "plasma_gun", "it") == "Inceneritore al plasma"
        assert format_param("weapon", "bolter", "en") == "bolter"
        assert "Plasma Incinerator" in combat_text(
            "shot_card",
            {
                "attacker": "p1-cmd",
                "weapon": "plasma_gun",
                "chapter_card": "combi_weapon",
                "target": "o1",
                "dice": {"red": 1, "white": 0},
                "armour": 1,
            },
            "en",
        )
    assert format_param("weapon", "plasma_gun", "en") == "plasma gun"
