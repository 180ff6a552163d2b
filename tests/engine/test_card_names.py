"""The chapter cards' names in the engine's texts come from one place: the shipped decks
(RULES §5: an Italian name only where an edition's name is known), or the names a caller's
catalogue gives them inside ``named_cards``."""

from __future__ import annotations

import json

import pytest

from rules.engine.card_names import (
    CARD_DATA,
    SHIPPED_NAMES,
    card_field,
    chapter_card_name,
    named_cards,
)
from rules.engine.narration import MESSAGES, fields_of, render
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
    with named_cards(names):
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
    with named_cards({"fire": {"it": "Fuoco a volontà!", "en": "Open Fire!"}}):
        with named_cards({"fire": {"it": "Spara!", "en": "Shoot!"}}):
            assert chapter_card_name("fire", "en") == "Shoot!"
        assert chapter_card_name("fire", "it") == "Fuoco a volontà!"
    assert chapter_card_name("fire", "it") == "Fuoco!"


def test_a_catalogue_names_the_event_cards_too():
    step = {"card": "report"}
    assert render("event_drawn", step, "it") == "Carta Evento Alieno pescata: A Rapporto."
    with named_cards({}, events={"report": {"it": "Rapporto al Comando", "en": "Report"}}):
        assert (
            render("event_drawn", step, "it") == "Carta Evento Alieno pescata: Rapporto al Comando."
        )
        assert render("event_drawn", {"card": "wrath"}, "en") == "Alien event card drawn: Wrath!."
    assert render("event_drawn", step, "en") == "Alien event card drawn: Report In."
