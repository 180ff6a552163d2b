"""The event phase of an Alien turn (RULES §12): the draw, the card's target and effects.

The cards themselves are data (:mod:`rules.engine.event_cards`). Drawing picks uniformly
among the cards not yet drawn this session, which is the same as drawing the top card of
a deck shuffled by the dice.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from rules.engine.board import DoorState
from rules.engine.dice import Dice
from rules.engine.event_cards import EventCard, EventDataError, load_cards
from rules.engine.los import line_of_sight
from rules.engine.narration_errors import CodedError
from rules.engine.play import event_arrivals
from rules.engine.play.chance import random_index
from rules.engine.play.progress import with_progress
from rules.engine.play.targets import players_in_play
from rules.engine.play.turn_context import (
    SelfDestruct,
    SpecialWeapon,
    TurnContext,
    TurnModifiers,
)
from rules.engine.state import GameState


class UnknownEventCards(CodedError, EventDataError):
    """The stipulation enables event cards the deck does not have (a coded error, so the
    judge's page and the command line say it in their language)."""


class EventCardNotInDeck(CodedError, EventDataError):
    """The judge named a drawn card that is not in the deck now (drawn already, left out
    by the stipulation, or no deck is drawn in this session)."""


def cards_left(
    cards: Sequence[EventCard], drawn: Sequence[str], enabled: Sequence[str] | None
) -> list[EventCard]:
    """The enabled cards not drawn yet, in deck order (the cards a draw picks from): a card
    printed more than once (``copies``, RULES §12) is listed once per copy still in the
    deck."""
    enabled_set = None if enabled is None else set(enabled)
    unknown = sorted((enabled_set or set()) - {card.id for card in cards})
    if unknown:
        raise UnknownEventCards("unknown_event_cards", cards=unknown)
    return _copies_left(cards, drawn, enabled_set)


def _copies_left(
    cards: Sequence[EventCard], drawn: Sequence[str], enabled: set[str] | None
) -> list[EventCard]:
    times = Counter(drawn)
    return [
        card
        for card in cards
        if enabled is None or card.id in enabled
        for _ in range(card.copies - times[card.id])
    ]


def draw_card(
    cards: Sequence[EventCard], drawn: Sequence[str], enabled: Sequence[str] | None, dice: Dice
) -> EventCard | None:
    """Draw uniformly among the enabled cards not drawn yet; None when the deck is empty."""
    remaining = cards_left(cards, drawn, enabled)
    if not remaining:
        return None
    return remaining[random_index(dice, len(remaining), "event_draw")]


def named_card(
    cards: Sequence[EventCard], drawn: Sequence[str], enabled: Sequence[str] | None, card_id: str
) -> EventCard:
    """The card ``card_id`` a judge drew from the real deck at the table, instead of the
    dice's draw; it must be one of :func:`cards_left`."""
    for card in cards_left(cards, drawn, enabled):
        if card.id == card_id:
            return card
    raise EventCardNotInDeck("event_card_not_in_deck", card=card_id)


def draw_card_left(
    cards: Sequence[EventCard], drawn: Sequence[str], enabled: Sequence[str] | None
) -> int:
    """How many enabled cards (copies counted) are still in the deck."""
    return len(_copies_left(cards, drawn, None if enabled is None else set(enabled)))


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


def modifiers_for(card: EventCard | None, policy: str = "bob") -> TurnModifiers:
    """The turn modifiers of a card under the Alien ``policy`` (see docs/alien-ai.md for
    each code)."""
    mods = TurnModifiers()
    effect = None if card is None else card.effect_under(policy)
    if card is None or effect is None:
        return mods
    code = effect["code"]
    if code == "cannot_move":
        mods.cannot_move = frozenset(effect["units"])
    elif code == "cannot_move_or_shoot":
        mods.cannot_move = mods.cannot_shoot = frozenset(effect["units"])
    elif code == "cannot_act":
        mods.cannot_act = frozenset(effect["units"])
    elif code == "extra_movement":
        mods.extra_movement = int(effect["squares"])
        mods.extra_movement_units = frozenset(effect.get("units") or ())
    elif code == "double_movement":
        mods.double_movement = frozenset(effect["units"])
    elif code == "activate_first":
        mods.activate_first = tuple(effect["units"])
        mods.elite_acts_twice = bool(effect.get("acts_twice", False))
    elif code == "swap_two_aliens":
        mods.swap_two_aliens = True
    elif code == "close_doors_blocking_sight":
        mods.close_doors_blocking_sight = True
    elif code == "special_weapon":
        mods.special_weapon = SpecialWeapon(
            card.id,
            frozenset(effect["units"]),
            str(effect["weapon"]),
            bool(effect.get("firer_dies", False)),
        )
    elif code == "self_destruct":
        mods.self_destruct = SelfDestruct(card.id, frozenset(effect["units"]), effect["dice"])
    return mods


# --- the event phase of an Alien turn --------------------------------------------------


def play_event_phase(ctx: TurnContext) -> None:
    """Turn start: if the stipulation uses the deck (switch ``event_deck``, with aliens in
    play: ``Stipulation.uses_event_deck``), draw one card (or take the one the judge drew
    from the real deck, ``ctx.event_card``), pick its target by die and set or apply its
    effect. Switches: ``event_cards`` (ids left in the deck by the
    stipulation; all when absent), ``event_overrides`` (per-card edits). The cards drawn
    are kept in ``state.progress.events_drawn``."""
    switches = ctx.state.stipulation.switches
    if not ctx.state.stipulation.uses_event_deck:
        if ctx.event_card is not None:
            raise EventCardNotInDeck("event_card_not_in_deck", card=ctx.event_card)
        return
    cards = load_cards(switches.get("event_overrides"))
    drawn = list(ctx.state.progress.events_drawn)
    if ctx.event_card is not None:
        card: EventCard | None = named_card(
            cards, drawn, switches.get("event_cards"), ctx.event_card
        )
    else:
        card = draw_card(cards, drawn, switches.get("event_cards"), ctx.dice)
    if card is None:
        ctx.say("event_deck_empty")
        return
    ctx.state = with_progress(ctx.state, events_drawn=(*drawn, card.id))
    if draw_card_left(cards, (*drawn, card.id), switches.get("event_cards")) == 0:
        ctx.state = with_progress(ctx.state, last_event_round=ctx.state.round)
    ctx.say("event_drawn", card=card.id)
    effect = card.effect_under(ctx.policy)
    appears = effect is not None and effect["code"] == event_arrivals.CODE
    player = None
    if card.target == "player" or appears:
        player = _target_player(ctx, appears)
        if player is not None and effect is not None and effect["code"] == "player_turn_limit":
            limits = (*ctx.state.progress.limits, (player, effect["limit"]))
            ctx.state = with_progress(ctx.state, limits=limits)
    ctx.say("event_instruction", text=dict(card.text))
    if appears and effect is not None:
        event_arrivals.alien_appears(ctx, str(effect["unit"]), player)
    ctx.modifiers = modifiers_for(card, ctx.policy)
    _announce(ctx)


def _target_player(ctx: TurnContext, appears: bool) -> str | None:
    """The player the card is played against, by the die (logged); a card that brings an
    alien next to a marine picks among the players with a figure it may appear next to
    (none: nobody, and the appearance says why)."""
    players = players_in_play(ctx.state)
    if appears:
        players = event_arrivals.players_with_room(ctx.state, players)
    player, rolls = choose_target_player(players, ctx.dice)
    if player is None:
        if not appears:
            ctx.say("event_no_target")
        return None
    for roll in rolls[:-1]:
        ctx.say("event_target_reroll", roll=roll)
    ctx.say("event_target_player", player=player, roll=rolls[-1])
    return player


def _announce(ctx: TurnContext) -> None:
    mods = ctx.modifiers
    if mods.cannot_shoot:
        ctx.say("event_cannot_move_or_shoot", units=sorted(mods.cannot_shoot))
    elif mods.cannot_move:
        ctx.say("event_cannot_move", units=sorted(mods.cannot_move))
    if mods.cannot_act:
        ctx.say("event_cannot_act", units=sorted(mods.cannot_act))
    if mods.double_movement:
        ctx.say("event_double_movement", units=sorted(mods.double_movement))
    if mods.extra_movement:
        ctx.say("event_extra_movement", squares=mods.extra_movement)
    if mods.special_weapon is not None:
        special = mods.special_weapon
        ctx.say("event_special_weapon", units=sorted(special.units), weapon=special.weapon)
    if mods.self_destruct is not None:
        ctx.say("event_self_destruct", units=sorted(mods.self_destruct.units))
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
    """End of turn (Master Control): close every open, closable door whose closing
    cuts a line of sight between a marine and an alien."""
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
