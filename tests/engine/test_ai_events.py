import json
from collections import Counter

import pytest

from rules.engine.dice import ScriptedDice, SeededDice
from rules.engine.event_cards import (
    EFFECT_CODES,
    EVENTS_FILE,
    EventDataError,
    default_cards,
    load_cards,
)
from rules.engine.play.chance import random_index, shuffled
from rules.engine.play.events import (
    choose_target_player,
    draw_card,
    draw_card_left,
    modifiers_for,
)

RULES_CARDS = [
    "A Rapporto",
    "Comando dall'Astronave Madre",
    "Comunicazioni Malfunzionanti",
    "Nuovi Ordini",
    "Piano di Battaglia",
    "Armi Inceppate",
    "Sondaggio dall'Astronave Madre",
    "Task Force Aliena",
    "Assalto Meccanizzato",
    "Mina Anti-Uomo",
    "Fine delle Munizioni",
    "Difesa Automatica",
    "Il Richiamo del Caos",
    "Ladro Genetico",
    "Attacco Psicico",
    "Ridisposizione",
    "Comando Centralizzato",
    "Gretchin con Bomba",
    "Orco Mekkaniko",
    "Androide Suicida",
    "Alieni d'Elite",
    "Equipaggiamento Difettoso",
    "Teletrasporto Alieno",
    "Guasto agli Androidi",
    "Ira!",
]


def test_every_card_named_in_rules_is_in_the_deck_with_both_languages():
    cards = default_cards()
    assert sorted(card.name["it"] for card in cards) == sorted(RULES_CARDS)
    for card in cards:
        assert card.name["en"] and card.text["it"] and card.text["en"]
        assert card.text["it"] != card.text["en"]


def test_effect_codes_in_the_data_are_known():
    raw = json.loads(EVENTS_FILE.read_text(encoding="utf-8"))
    effects = [c["effect"] for c in raw["cards"]]
    effects += [e for c in raw["cards"] for e in (c.get("policy_effects") or {}).values()]
    codes = {effect["code"] for effect in effects if effect}
    assert codes <= set(EFFECT_CODES)
    # Every code but extra_movement is some shipped card's: no printed card adds movement
    # (Frenzy! is left to the judge, decision 28); a house rule may still give it.
    assert codes == set(EFFECT_CODES) - {"extra_movement"}


def test_the_deck_has_28_cards_and_each_copy_is_drawn_once():
    # RULES §12: 28 cards, 25 names (Difesa Automatica ×2, Ladro Genetico ×3); the game
    # ends after the round its last card is drawn in.
    cards = default_cards()
    dice = SeededDice(seed=3)
    drawn: list[str] = []
    for _ in range(28):
        assert draw_card_left(cards, drawn, None) == 28 - len(drawn)
        card = draw_card(cards, drawn, None, dice)
        assert card is not None
        drawn.append(card.id)
    assert draw_card(cards, drawn, None, dice) is None
    assert draw_card_left(cards, drawn, None) == 0
    assert Counter(drawn) == {card.id: card.copies for card in cards}
    assert {card.id: card.copies for card in cards if card.copies > 1} == {
        "automatic_defence": 2,
        "genestealer": 3,
    }
    # A card removed by the stipulation goes with all its copies.
    assert draw_card_left(cards, [], ["genestealer", "wrath"]) == 4
    assert draw_card_left(cards, ["genestealer"], ["genestealer", "wrath"]) == 3


def test_draw_respects_the_stipulation_card_list():
    cards = default_cards()
    card = draw_card(cards, [], ["wrath"], SeededDice(seed=1))
    assert card.id == "wrath"
    with pytest.raises(EventDataError, match="unknown event cards"):
        draw_card(cards, [], ["no_such_card"], SeededDice(seed=1))


@pytest.mark.parametrize(
    ("rolls", "player"), [([1], "p1"), ([2], "p1"), ([3], "p2"), ([4], "p2"), ([6], "p3")]
)
def test_target_player_by_die_three_players(rolls, player):
    chosen, used = choose_target_player(["p1", "p2", "p3"], ScriptedDice(values=rolls))
    assert chosen == player and used == rolls


def test_target_player_two_players_and_reroll_of_leftover_face():
    assert choose_target_player(["a", "b"], ScriptedDice(values=[4]))[0] == "b"
    # 4 players share 6 faces one each; faces 5 and 6 are re-rolled.
    chosen, used = choose_target_player(["a", "b", "c", "d"], ScriptedDice(values=[6, 5, 2]))
    assert chosen == "b" and used == [6, 5, 2]


def test_modifiers_of_effect_cards():
    by_id = {card.id: card for card in default_cards()}
    assert modifiers_for(by_id["psychic_attack"]).cannot_shoot == {"ork", "gretchin"}
    assert modifiers_for(by_id["android_failure"]).cannot_act == {"android", "dreadnought"}
    bonus = {"code": "extra_movement", "squares": 2}
    [house_rule] = [c for c in load_cards({"wrath": {"effect": bonus}}) if c.id == "wrath"]
    assert modifiers_for(house_rule).movement_bonus("ork") == 2
    assert modifiers_for(house_rule).movement_bonus("dreadnought") == 2
    assert modifiers_for(by_id["elite_aliens"]).activate_first[0] == "dreadnought"
    assert modifiers_for(by_id["report"]) == modifiers_for(None)


# What the judge is told for the cards the engine leaves to him: the card's effect as
# research ``space-crusade-cards.md`` §5 gives it (RULES §12), in both languages.
INSTRUCTIONS = {
    "mothership_command": ("secondary mission", "missione secondaria"),
    "new_orders": ("one extra order card", "una carta Ordine in più"),
    "battle_plan": ("each takes one extra order card", "una carta Ordine in più"),
    "mothership_scan": ("reveals every blip on it", "rivela tutti i segnalini Blip"),
    "alien_task_force": ("adds two of them at random", "ne aggiunge due a caso"),
    "anti_personnel_mine": ("missile launcher", "Lanciarazzi"),
    "out_of_ammo": ("bolter", "Bolter"),
    "automatic_defence": ("one heavy die", "un dado pesante"),
    "call_of_chaos": ("on a 3", "con un 3"),
    "wrath": (
        "One Gretchin or Ork may attack twice in hand-to-hand",
        "Un Gretchin o un Orco può attaccare due volte in corpo a corpo",
    ),
}


@pytest.mark.parametrize("card_id", sorted(INSTRUCTIONS))
def test_instruction_cards_tell_the_judge_the_cards_effect(card_id):
    card = {card.id: card for card in default_cards()}[card_id]
    english, italian = INSTRUCTIONS[card_id]
    assert card.effect is None
    assert english in card.text["en"] and italian in card.text["it"]


def test_overrides_change_a_card_and_are_validated():
    cards = load_cards({"report": {"effect": {"code": "cannot_move", "units": ["ork"]}}})
    report = next(card for card in cards if card.id == "report")
    assert modifiers_for(report).cannot_move == {"ork"}
    with pytest.raises(EventDataError, match="no such card"):
        load_cards({"nope": {}})
    with pytest.raises(EventDataError, match="cards\\[0\\].effect"):
        load_cards({"report": {"effect": {"code": "fly"}}})


def test_random_index_is_uniform_and_rejects_biased_numbers():
    # n=4 with one d6: faces 5 and 6 are re-rolled.
    assert random_index(ScriptedDice(values=[5, 6, 3]), 4, "t") == 2
    # n=25 uses two d6 digits: (2-1)*6 + (3-1) = 8.
    assert random_index(ScriptedDice(values=[2, 3]), 25, "t") == 8
    counts = [0] * 5
    dice = SeededDice(seed=11)
    for _ in range(2000):
        counts[random_index(dice, 5, "t")] += 1
    assert min(counts) > 300


def test_shuffle_is_a_permutation_and_replays():
    items = list(range(10))
    a = shuffled(SeededDice(seed=5), items, "t")
    b = shuffled(SeededDice(seed=5), items, "t")
    assert sorted(a) == items and a == b
