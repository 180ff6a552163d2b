"""The alien event deck (RULES §12): cards as data, the draw, targets and effects.

Cards live in ``data/events.json`` with Italian and English names and texts; a tournament
may edit texts, targets and effects or remove cards. A card's ``effect`` is either null
(the engine shows the text to the judge with the chosen target) or one of the codes in
:data:`EFFECT_CODES`, which change how the Aliens act this turn and are applied by the
engine. Drawing picks uniformly among the cards not yet drawn this session, which is the
same as drawing the top card of a deck shuffled by the dice.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rules.engine.ai.chance import random_index
from rules.engine.ai.switches import EVENTS_DRAWN, switch_list, with_switch
from rules.engine.dice import Dice

if TYPE_CHECKING:
    from rules.engine.ai.turn import TurnContext
    from rules.engine.state import GameState

EVENTS_FILE = Path(__file__).resolve().parent.parent / "data" / "events.json"

TARGETS = ("none", "player", "alien")
EFFECT_CODES = (
    "cannot_move",
    "cannot_act",
    "extra_movement",
    "activate_first",
    "swap_two_aliens",
    "close_doors_blocking_sight",
)


class EventDataError(ValueError):
    """The event deck data is invalid; the message names the card and field."""


@dataclass(frozen=True)
class EventCard:
    id: str
    name: Mapping[str, str]
    text: Mapping[str, str]
    target: str
    effect: Mapping[str, Any] | None


@dataclass
class TurnModifiers:
    """How the drawn card changes this Alien turn (empty when no card applies)."""

    cannot_move: frozenset[str] = frozenset()
    cannot_act: frozenset[str] = frozenset()
    extra_movement: int = 0
    extra_movement_units: frozenset[str] = frozenset()  # empty: every alien
    activate_first: tuple[str, ...] = ()
    swap_two_aliens: bool = False
    close_doors_blocking_sight: bool = False
    first_figure: str | None = field(default=None)

    def movement_bonus(self, unit: str) -> int:
        if not self.extra_movement:
            return 0
        if self.extra_movement_units and unit not in self.extra_movement_units:
            return 0
        return self.extra_movement


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


def _check_effect(effect: Any, where: str) -> Mapping[str, Any] | None:
    if effect is None:
        return None
    if not isinstance(effect, dict) or effect.get("code") not in EFFECT_CODES:
        raise EventDataError(
            f"{where}: expected null or an object with 'code' one of {', '.join(EFFECT_CODES)}, "
            f"got {effect!r}"
        )
    code = effect["code"]
    if code in ("cannot_move", "cannot_act", "activate_first"):
        _units(effect, where, required=True)
    if code == "extra_movement":
        _units(effect, where, required=False)
        squares = effect.get("squares")
        if isinstance(squares, bool) or not isinstance(squares, int) or squares < 1:
            raise EventDataError(f"{where}.squares: expected a whole number of at least 1")
    return dict(effect)


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
        cards.append(
            EventCard(
                id=card_id,
                name=_text_pair(raw.get("name"), f"{where}.name"),
                text=_text_pair(raw.get("text"), f"{where}.text"),
                target=target,
                effect=_check_effect(raw.get("effect"), f"{where}.effect"),
            )
        )
    return tuple(cards)


@lru_cache(maxsize=1)
def _default_data_json() -> str:
    return EVENTS_FILE.read_text(encoding="utf-8")


def default_deck_data() -> dict[str, Any]:
    return json.loads(_default_data_json())


@lru_cache(maxsize=1)
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
            if key not in ("name", "text", "target", "effect"):
                raise EventDataError(
                    f"event override {card_id}.{key}: only name, text, target and effect "
                    "can be changed"
                )
            by_id[card_id][key] = value
    return parse_cards(data)


def card_name(card_id: str, lang: str) -> str:
    for card in default_cards():
        if card.id == card_id:
            return card.name[lang]
    return card_id


def draw_card(
    cards: Sequence[EventCard], drawn: Sequence[str], enabled: Sequence[str] | None, dice: Dice
) -> EventCard | None:
    """Draw uniformly among the enabled cards not drawn yet; None when the deck is empty."""
    enabled_set = None if enabled is None else set(enabled)
    unknown = sorted((enabled_set or set()) - {card.id for card in cards})
    if unknown:
        raise EventDataError(f"unknown event cards in the stipulation: {', '.join(unknown)}")
    drawn_set = set(drawn)
    remaining = [
        card
        for card in cards
        if card.id not in drawn_set and (enabled_set is None or card.id in enabled_set)
    ]
    if not remaining:
        return None
    return remaining[random_index(dice, len(remaining), "event_draw")]


def choose_target_player(players: Sequence[str], dice: Dice) -> tuple[str | None, list[int]]:
    """The player a card is played against: one d6, faces shared equally in initiative
    order (3 players: 1-2, 3-4, 5-6), a leftover face re-rolled. Returns the rolls too."""
    if not players:
        return None, []
    per_player = 6 // len(players)
    rolls: list[int] = []
    while True:
        roll = dice.d6("event_target", None)
        rolls.append(roll)
        index = (roll - 1) // per_player
        if index < len(players):
            return players[index], rolls


def modifiers_for(card: EventCard | None) -> TurnModifiers:
    """The turn modifiers of a card (see docs/alien-ai.md for each code)."""
    mods = TurnModifiers()
    if card is None or card.effect is None:
        return mods
    effect = card.effect
    code = effect["code"]
    if code == "cannot_move":
        mods.cannot_move = frozenset(effect["units"])
    elif code == "cannot_act":
        mods.cannot_act = frozenset(effect["units"])
    elif code == "extra_movement":
        mods.extra_movement = int(effect["squares"])
        mods.extra_movement_units = frozenset(effect.get("units") or ())
    elif code == "activate_first":
        mods.activate_first = tuple(effect["units"])
    elif code == "swap_two_aliens":
        mods.swap_two_aliens = True
    elif code == "close_doors_blocking_sight":
        mods.close_doors_blocking_sight = True
    return mods


# --- the event phase of an Alien turn --------------------------------------------------


def play_event_phase(ctx: TurnContext) -> None:
    """Turn start: if the stipulation uses the deck (switch ``event_deck``), draw one card,
    pick its target by die and set or apply its effect. Switches: ``event_cards`` (ids
    left in the deck by the stipulation; all when absent), ``event_overrides`` (per-card
    edits), ``events_drawn`` (kept up to date here)."""
    switches = ctx.state.stipulation.switches
    if not switches.get("event_deck"):
        return
    cards = load_cards(switches.get("event_overrides"))
    drawn = switch_list(ctx.state, EVENTS_DRAWN)
    card = draw_card(cards, drawn, switches.get("event_cards"), ctx.dice)
    if card is None:
        ctx.say("event_deck_empty")
        return
    ctx.state = with_switch(ctx.state, EVENTS_DRAWN, drawn + [card.id])
    ctx.say("event_drawn", card=card.id)
    if card.target == "player":
        from rules.engine.ai.reach import players_in_play

        player, rolls = choose_target_player(players_in_play(ctx.state), ctx.dice)
        if player is None:
            ctx.say("event_no_target")
        else:
            for roll in rolls[:-1]:
                ctx.say("event_target_reroll", roll=roll)
            ctx.say("event_target_player", player=player, roll=rolls[-1])
    ctx.say("event_instruction", text=dict(card.text))
    ctx.modifiers = modifiers_for(card)
    _announce(ctx)


def _announce(ctx: TurnContext) -> None:
    mods = ctx.modifiers
    if mods.cannot_move:
        ctx.say("event_cannot_move", units=sorted(mods.cannot_move))
    if mods.cannot_act:
        ctx.say("event_cannot_act", units=sorted(mods.cannot_act))
    if mods.extra_movement:
        ctx.say("event_extra_movement", squares=mods.extra_movement)
    if mods.swap_two_aliens:
        swap_two_aliens(ctx)


def swap_two_aliens(ctx: TurnContext) -> None:
    """Two aliens on one square each, chosen by the dice, swap places."""
    aliens = sorted((f for f in ctx.aliens() if len(f.squares) == 1), key=lambda f: f.id)
    if len(aliens) < 2:
        ctx.say("event_no_target")
        return
    first = aliens.pop(random_index(ctx.dice, len(aliens), "teleport_first"))
    second = aliens[random_index(ctx.dice, len(aliens), "teleport_second")]
    state = ctx.state.without_figure(first.id).without_figure(second.id)
    state = state.with_figure(first.moved_to(second.squares))
    ctx.state = state.with_figure(second.moved_to(first.squares))
    ctx.say("event_swap", figure=first.id, other=second.id)


def close_doors_blocking_sight(ctx: TurnContext) -> None:
    """End of turn (Centralised Command): close every open, closable door whose closing
    cuts a line of sight between a marine and an alien."""
    from rules.engine.board import DoorState
    from rules.engine.los import line_of_sight

    marines, aliens = ctx.marines(), ctx.aliens()

    def visible_pairs(state: GameState) -> set[tuple[str, str]]:
        return {
            (m.id, a.id)
            for m in marines
            for a in aliens
            if any(
                line_of_sight(state, ms, as_, for_firing=False).visible
                for ms in m.squares
                for as_ in a.squares
            )
        }

    before = visible_pairs(ctx.state)
    if not before:
        return
    board = ctx.state.board
    for door_edge in board.door_edges:
        door = board.doors[door_edge]
        if door.always_open or ctx.state.doors[door_edge] is not DoorState.OPEN:
            continue
        trial = ctx.state.with_door(door_edge[0], door_edge[1], DoorState.CLOSED)
        if visible_pairs(trial) < before:
            ctx.state = trial
            before = visible_pairs(trial)
            ctx.say("event_door_closed", a=list(door_edge[0]), b=list(door_edge[1]))
