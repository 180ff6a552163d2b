"""What the board page shows of the turn: the forms and texts of the turn panel."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _

from rules.engine.card_effects import cards_left
from rules.engine.card_names import chapter_card_name
from rules.engine.narration import format_param
from rules.engine.narration_turns import CARDS
from rules.engine.play.round_end import alien_turn_due, last_round_without_aliens
from rules.engine.state import GameState, rules_of
from rules.engine.turns import USABLE_EQUIPMENT, is_heavy_weapon_marine
from table.step_log import narration_language
from table.turn_actions import HEALS, playable_cards
from table.turn_forms import CardForm, TurnStepForm


def card_form(state: GameState, data=None, version: int | None = None) -> CardForm:
    """The form playing the active player's playable cards; it asks for a marine only when
    Heavy Weapon! is among them, offering their heavy-weapon marines."""
    lang = narration_language()
    playable = playable_cards(state)
    cards = [(code, chapter_card_name(code, lang, state.active_player)) for code in playable]
    figures: list[tuple[str, str]] = []
    if "heavy_weapon" in playable and state.active_player:
        rules = rules_of(state)
        figures = [
            (figure.id, figure.id)
            for figure in state.figures_of(state.active_player)
            if is_heavy_weapon_marine(figure, rules)
        ]
    initial = {"version": version} if version is not None else None
    return CardForm(data, initial=initial, cards=cards, figures=figures)


def _offered(code: str) -> bool:
    """Whether the card form ever offers ``code``: an order card or one-use equipment."""
    return code in USABLE_EQUIPMENT or CARDS.get(code, {}).get("kind") == "order"


def card_hints(state: GameState) -> list[str]:
    """Why the active player's cards the card form offers at times are not in it now (the
    form goes when none is left): an order card after the squad's first action or another
    order card, a one-use card already used, Medi-Kit without a wounded commander, Blind
    Grenades without an Alien turn."""
    if state.active_player is None or state.outcome is not None:
        return []
    try:
        player = state.player(state.active_player)
    except KeyError:
        return []
    lang = narration_language()
    playable = set(playable_cards(state))
    held = cards_left(player)
    hints = []
    for code in dict.fromkeys((*held, *player.cards_spent)):
        if code in playable or not _offered(code):
            continue
        values = {"card": chapter_card_name(code, lang, state.active_player)}
        if code not in held:
            hints.append(_("%(card)s: already used in this game.") % values)
        elif code == HEALS:
            hints.append(_("%(card)s: no wounded commander to heal.") % values)
        elif CARDS.get(code, {}).get("kind") != "order":
            hints.append(_("%(card)s: it works in an Alien turn, and this game has none.") % values)
        elif state.turn.order_card:
            order = chapter_card_name(state.turn.order_card, lang, state.active_player)
            hints.append(
                _("%(card)s: not now, %(order)s is this turn's order card (one a turn).")
                % {**values, "order": order}
            )
        else:
            hints.append(
                _("%(card)s: not now, an order card is played before the squad's first action.")
                % values
            )
    return hints


def alien_turn_offered(state: GameState) -> bool:
    """Whether the board offers the Alien turn (its form, its tool and the hint naming it):
    never after the game's end, in a session without aliens, nor in the players' one last
    turn after the last event card, where it is refused."""
    return (
        state.outcome is None
        and state.stipulation.with_aliens
        and not last_round_without_aliens(state)
    )


def turn_context(
    state: GameState, version: int, forms: dict[str, Any], names: Mapping[str, str] | None = None
) -> dict[str, Any]:
    """The turn panel's context: its forms (a refused one with its errors) and texts;
    ``names``: the seated players' names by the game's player id (the player on turn and
    the winners are named)."""
    lang = narration_language()
    outcome = state.outcome
    names = names or {}
    return {
        "turn_winners": [names.get(p, p) for p in outcome.winners] if outcome else [],
        "turn_player": names.get(state.active_player or "", state.active_player or ""),
        # Offered only when it can close the round: nothing alien is to act.
        "next_round_offered": state.turn.aliens_phase and not alien_turn_due(state),
        "alien_turn_offered": alien_turn_offered(state),
        "turn_step_form": forms.get("turn_step_form") or TurnStepForm(initial={"version": version}),
        "card_form": forms.get("card_form") or card_form(state, version=version),
        "card_hints": card_hints(state),
        "turn_ending": format_param("ending", outcome.reason, lang) if outcome else "",
        "turn_order_card": (
            chapter_card_name(state.turn.order_card, lang, state.active_player)
            if state.turn.order_card
            else ""
        ),
    }
