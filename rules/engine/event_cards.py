"""The alien event deck as data (RULES §12): the cards, their texts and effects.

Cards live in ``data/events.json`` with Italian and English names and texts; a tournament
may edit texts, targets and effects or remove cards. A card's ``effect`` is either null
(the engine shows the text to the judge with the chosen target) or one of the codes in
:data:`EFFECT_CODES`, which change how the Aliens act this turn
(:mod:`rules.engine.play.events` draws the cards and applies them), or, for
``player_turn_limit``, what the chosen player may do in their next turn (``limit``, one
of :data:`TURN_LIMITS`, kept by :mod:`rules.engine.turns`). ``special_weapon`` arms the
first alien of the listed ``units`` able to hit a marine with ``weapon`` for that attack
(``firer_dies``: the weapon then blows up and kills it; :mod:`rules.engine.ai.special_weapons`).
``self_destruct`` makes the first alien of the listed ``units`` able to catch a marine in
its blast move and explode, every figure around it taking the total of ``dice`` (``{"red":
n, "white": m}``, a :class:`~rules.engine.units.DiceSpec` in the checked effect;
:mod:`rules.engine.ai.self_destruct`). ``alien_appears`` puts a new alien of ``unit`` (an
alien on one square) next to a marine or commander of the chosen player, and it acts this
turn (Genestealer; :mod:`rules.engine.play.event_arrivals`).

A card whose sources differ by Alien policy (Mechanical Assault: the printed card in BoB
and Priority, seed 000's Solitaire appendix in Solitaire, RULES §12) has, beside its
``effect``, ``policy_effects``: ``{policy: effect}`` for the policies that play it
otherwise (:meth:`EventCard.effect_under`).
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rules.engine.caches import memoised
from rules.engine.units import DiceSpec, RulesDataError, dice_from_data, load_rules_data

EVENTS_FILE = Path(__file__).resolve().parent / "data" / "events.json"

TARGETS = ("none", "player", "alien")
EFFECT_CODES = (
    "cannot_move",
    "cannot_move_or_shoot",
    "cannot_act",
    "extra_movement",
    "double_movement",
    "activate_first",
    "swap_two_aliens",
    "close_doors_blocking_sight",
    "player_turn_limit",
    "special_weapon",
    "self_destruct",
    "alien_appears",
)
#: What a card played against a player forbids in that player's next turn.
TURN_LIMITS = ("commander_idle", "no_orders", "heavy_jammed")
#: The Alien policies a card's ``policy_effects`` may name
#: (:data:`rules.engine.ai.policies.POLICIES`, which this low module does not import).
ALIEN_POLICIES = ("bob", "priority", "solitaire")
#: The fields of a card a tournament's overrides may change.
EDITABLE_FIELDS = ("name", "text", "target", "effect", "policy_effects")


class EventDataError(ValueError):
    """The event deck data is invalid; the message names the card and field."""


@dataclass(frozen=True)
class EventCard:
    id: str
    name: Mapping[str, str]
    text: Mapping[str, str]
    target: str
    effect: Mapping[str, Any] | None
    #: How many of the deck's cards are this one (RULES §12: 28 cards, 25 names).
    copies: int = 1
    #: The effect under the policies that play the card otherwise than ``effect``.
    policy_effects: Mapping[str, Mapping[str, Any] | None] = field(default_factory=dict)

    def effect_under(self, policy: str) -> Mapping[str, Any] | None:
        """The effect the Alien policy ``policy`` applies."""
        return self.policy_effects.get(policy, self.effect)


def _text_pair(value: Any, where: str) -> dict[str, str]:
    if not isinstance(value, dict) or not all(
        isinstance(value.get(lang), str) and value.get(lang) for lang in ("it", "en")
    ):
        raise EventDataError(f"{where}: expected {{'it': text, 'en': text}}, got {value!r}")
    return {"it": value["it"], "en": value["en"]}


def _units(effect: Mapping[str, Any], where: str, required: bool) -> None:
    units = effect.get("units")
    if units is None and not required:
        return
    if not isinstance(units, list) or not all(isinstance(u, str) and u for u in units):
        raise EventDataError(f"{where}.units: expected a list of unit keys, got {units!r}")


def _dice(value: Any, where: str) -> DiceSpec:
    """A handful of dice, ``{"red": n, "white": m}`` (a colour left out: none of it),
    checked as the rules data's dice are (:func:`rules.engine.units.dice_from_data`), and
    at least one die."""
    problem = f"{where}: expected the dice rolled, e.g. {{'red': 2}}, got {value!r}"
    try:
        dice = dice_from_data(value, where, either=True)
    except RulesDataError as error:
        raise EventDataError(problem) from error
    if not dice.count:
        raise EventDataError(problem)
    return dice


def _one_square_alien(unit: Any, where: str) -> None:
    """``unit`` is the key of an alien type on one square: one that can stand on the one
    free square next to a marine (a Dreadnought's 2x2 base could not)."""
    units = load_rules_data().units
    fits = sorted(key for key, data in units.items() if data.side == "alien" and data.size == 1)
    if unit not in fits:
        raise EventDataError(
            f"{where}: expected the key of an alien on one square ({', '.join(fits)}), got {unit!r}"
        )


def _check_effect(effect: Any, where: str) -> Mapping[str, Any] | None:
    if effect is None:
        return None
    if not isinstance(effect, dict) or effect.get("code") not in EFFECT_CODES:
        raise EventDataError(
            f"{where}: expected null or an object with 'code' one of {', '.join(EFFECT_CODES)}, "
            f"got {effect!r}"
        )
    code = effect["code"]
    checked = dict(effect)
    if code in (
        "cannot_move",
        "cannot_move_or_shoot",
        "cannot_act",
        "double_movement",
        "activate_first",
        "special_weapon",
        "self_destruct",
    ):
        _units(effect, where, required=True)
    if code == "self_destruct":
        checked["dice"] = _dice(effect.get("dice"), f"{where}.dice")
    if code == "special_weapon":
        if not isinstance(effect.get("weapon"), str) or not effect["weapon"]:
            raise EventDataError(f"{where}.weapon: expected a weapon key, e.g. 'plasma_gun'")
        if not isinstance(effect.get("firer_dies", False), bool):
            raise EventDataError(f"{where}.firer_dies: expected true or false")
    if code == "activate_first" and not isinstance(effect.get("acts_twice", False), bool):
        raise EventDataError(f"{where}.acts_twice: expected true or false")
    if code == "alien_appears":
        _one_square_alien(effect.get("unit"), f"{where}.unit")
    if code == "player_turn_limit" and effect.get("limit") not in TURN_LIMITS:
        raise EventDataError(f"{where}.limit: expected one of {', '.join(TURN_LIMITS)}")
    if code == "extra_movement":
        _units(effect, where, required=False)
        squares = effect.get("squares")
        if isinstance(squares, bool) or not isinstance(squares, int) or squares < 1:
            raise EventDataError(f"{where}.squares: expected a whole number of at least 1")
    return checked


def _check_policy_effects(value: Any, where: str) -> dict[str, Mapping[str, Any] | None]:
    if value is None:
        return {}
    if not isinstance(value, dict) or not set(value) <= set(ALIEN_POLICIES):
        raise EventDataError(
            f"{where}: expected an object of effects by Alien policy "
            f"({', '.join(ALIEN_POLICIES)}), got {value!r}"
        )
    return {policy: _check_effect(effect, f"{where}.{policy}") for policy, effect in value.items()}


def parse_cards(data: Mapping[str, Any]) -> tuple[EventCard, ...]:
    """Validate the deck data (the content of events.json, possibly edited)."""
    cards_data = data.get("cards") if isinstance(data, Mapping) else None
    if not isinstance(cards_data, list) or not cards_data:
        raise EventDataError("cards: expected a non-empty list of cards")
    cards: list[EventCard] = []
    seen: set[str] = set()
    for index, raw in enumerate(cards_data):
        where = f"cards[{index}]"
        if not isinstance(raw, dict):
            raise EventDataError(f"{where}: expected an object")
        card_id = raw.get("id")
        if not isinstance(card_id, str) or not card_id:
            raise EventDataError(f"{where}.id: expected a non-empty text")
        if card_id in seen:
            raise EventDataError(f"{where}.id: {card_id!r} is used twice")
        seen.add(card_id)
        target = raw.get("target")
        if target not in TARGETS:
            raise EventDataError(f"{where}.target: expected one of {', '.join(TARGETS)}")
        copies = raw.get("copies", 1)
        if not isinstance(copies, int) or isinstance(copies, bool) or copies < 1:
            raise EventDataError(f"{where}.copies: expected a whole number from 1")
        cards.append(
            EventCard(
                id=card_id,
                name=_text_pair(raw.get("name"), f"{where}.name"),
                text=_text_pair(raw.get("text"), f"{where}.text"),
                target=target,
                effect=_check_effect(raw.get("effect"), f"{where}.effect"),
                copies=copies,
                policy_effects=_check_policy_effects(
                    raw.get("policy_effects"), f"{where}.policy_effects"
                ),
            )
        )
    return tuple(cards)


@memoised("event_cards.default_data_json", bound=1, depends_on="data/events.json")
def _default_data_json() -> str:
    return EVENTS_FILE.read_text(encoding="utf-8")


def default_deck_data() -> dict[str, Any]:
    return json.loads(_default_data_json())


@memoised("event_cards.default_cards", bound=1, depends_on="data/events.json")
def default_cards() -> tuple[EventCard, ...]:
    return parse_cards(default_deck_data())


def load_cards(overrides: Mapping[str, Mapping[str, Any]] | None = None) -> tuple[EventCard, ...]:
    """The deck with per-card overrides (``{card_id: {field: value}}``) applied."""
    if not overrides:
        return default_cards()
    data = copy.deepcopy(default_deck_data())
    by_id = {card["id"]: card for card in data["cards"]}
    for card_id, changes in overrides.items():
        if card_id not in by_id:
            raise EventDataError(
                f"event override {card_id!r}: no such card; known cards: {', '.join(by_id)}"
            )
        if not isinstance(changes, Mapping):
            raise EventDataError(f"event override {card_id!r}: expected an object of fields")
        for key, value in changes.items():
            if key not in EDITABLE_FIELDS:
                raise EventDataError(
                    f"event override {card_id}.{key}: only {', '.join(EDITABLE_FIELDS)} "
                    "can be changed"
                )
            by_id[card_id][key] = value
    return parse_cards(data)


def card_name(card_id: str, lang: str) -> str:
    for card in default_cards():
        if card.id == card_id:
            return card.name[lang]
    return card_id
