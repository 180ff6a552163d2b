"""The judge's turn actions at the table (RULES §5, §10 "Turns"): end the active player's
turn, start the next round when nothing alien is left to act, play an order card, use a
one-use equipment card. Each goes through :mod:`rules.engine.turns` or
:mod:`rules.engine.play.round_end` and appends one snapshot; a refusal names the rule."""

from __future__ import annotations

from django.utils.translation import gettext as _

from rules.engine.narration_turns import CARDS
from rules.engine.play.round_end import alien_turn_due, close_round
from rules.engine.state import GameState, rules_of
from rules.engine.turns import (
    USABLE_EQUIPMENT,
    TurnError,
    cards_left,
    end_turn,
    play_order_card,
    use_equipment,
    wounded_commander,
)
from table.actions import GameError, append_snapshot, latest_snapshot, snapshot_state
from table.models import Game, Snapshot, SnapshotKind
from table.snapshot_summaries import SummaryPart
from table.step_log import engine_error_text


def _current(game: Game) -> GameState:
    return snapshot_state(latest_snapshot(game))


def _store(game: Game, expected_number: int, state: GameState, steps, summary: SummaryPart, actor):
    return append_snapshot(
        game,
        expected_number,
        state,
        SnapshotKind.TURN,
        actor=actor,
        summary_parts=[summary],
        steps=[step.as_dict() for step in steps],
    )


def finish_turn(game: Game, *, expected_number: int, actor=None) -> Snapshot:
    """The active player ends their turn; the next player plays, or the Aliens."""
    state = _current(game)
    try:
        new_state, steps = end_turn(state)
    except TurnError as error:
        raise GameError(engine_error_text(error)) from None
    if new_state.active_player is None and alien_turn_due(new_state):
        summary: SummaryPart = ("aliens_act", {})
    elif new_state.active_player is None:
        summary = ("round_over", {})
    else:
        summary = ("plays", {"player": new_state.active_player})
    return _store(game, expected_number, new_state, steps, summary, actor)


def next_round(game: Game, *, expected_number: int, actor=None) -> Snapshot:
    """Close the round without an Alien turn (nothing alien is in play, or the session is
    played without aliens, as a TPK final usually is; ``alien_turn_due``): the
    stipulation's end is checked and the next round starts, or the game ends."""
    state = _current(game)
    try:
        if state.outcome is not None:
            raise TurnError("turn_game_over", ending=state.outcome.reason)
        if not state.turn.aliens_phase:
            raise TurnError("turn_players_first", active=state.active_player or "-")
        if alien_turn_due(state):
            raise TurnError("turn_aliens_on_board")
        new_state, steps = close_round(state, rules_of(state))
    except TurnError as error:
        raise GameError(engine_error_text(error)) from None
    if new_state.outcome is not None:
        summary: SummaryPart = ("game_over", {})
    else:
        summary = ("round_begins", {"round": new_state.round})
    return _store(game, expected_number, new_state, steps, summary, actor)


def play_card(
    game: Game,
    card: str,
    *,
    figure: str | None = None,
    expected_number: int,
    actor=None,
) -> Snapshot:
    """The active player plays the order card ``card`` or uses the one-use equipment card
    ``card`` (an effect code); ``figure`` is the marine Heavy Weapon! names."""
    state = _current(game)
    player = state.active_player
    if player is None:
        raise GameError(_("Cards are played in a player's turn; no player is playing now."))
    rules = rules_of(state)
    try:
        if CARDS.get(card, {}).get("kind") == "order":
            new_state, steps = play_order_card(state, player, card, rules, figure or None)
        else:
            new_state, steps = use_equipment(state, player, card, rules)
    except TurnError as error:
        raise GameError(engine_error_text(error)) from None
    return _store(
        game,
        expected_number,
        new_state,
        steps,
        ("card_played", {"player": player, "card": card}),
        actor,
    )


#: The one-use equipment card that only works against an Alien turn.
ALIEN_ONLY = "blind_grenades"


#: The one-use equipment card that only works on a wounded commander.
HEALS = "medi_kit"


def playable_cards(state: GameState) -> list[str]:
    """The active player's cards that may be played now, as effect codes: order cards
    while none is in play and none of their figures acted, one-use equipment any time but
    Blind Grenades in a game without aliens (they shield the squad in an Alien turn that
    never comes) and Medi-Kit without a wounded commander (it would heal no one)."""
    if state.active_player is None or state.outcome is not None:
        return []
    try:
        held = cards_left(state.player(state.active_player))
    except KeyError:
        return []
    acted = any(
        state.has_figure(fid) and state.figure(fid).player == state.active_player
        for fid in state.turn.figures
    )
    orders_open = state.turn.order_card is None and not acted
    usable = USABLE_EQUIPMENT if state.stipulation.with_aliens else USABLE_EQUIPMENT - {ALIEN_ONLY}
    if wounded_commander(state, state.active_player, rules_of(state)) is None:
        usable = usable - {HEALS}
    return [
        code
        for code in dict.fromkeys(held)
        if code in usable or (orders_open and CARDS.get(code, {}).get("kind") == "order")
    ]
