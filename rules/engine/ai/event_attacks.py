"""The alien event cards that change one alien's attack (RULES §12): Ork Mekaniak and Gretchin
Bomber (:mod:`rules.engine.ai.special_weapons`, game engine decision 19) and Suicide
Android (:mod:`rules.engine.ai.self_destruct`, decision 22). Every policy asks
:func:`event_card_attack` when an alien activates, and the turn ends with
:func:`report_unused_card`."""

from __future__ import annotations

from rules.engine.ai.plans import Plan
from rules.engine.ai.self_destruct import report_unexploded, self_destruct_attack
from rules.engine.ai.special_weapons import report_unused_weapon, special_weapon_attack
from rules.engine.play.turn_context import TurnContext
from rules.engine.state import Figure


def event_card_attack(ctx: TurnContext, figure: Figure, allowance: int) -> Plan | None:
    """``figure`` (moving up to ``allowance`` squares) explodes if the event card in play
    makes its type explode, or fires the card's special weapon if the card arms its type,
    when it can catch or hit a marine so; the plan carried out, or None when the alien is
    to act as usual."""
    exploded = self_destruct_attack(ctx, figure, allowance)
    if exploded is not None:
        return exploded
    return special_weapon_attack(ctx, figure, allowance)


def report_unused_card(ctx: TurnContext) -> None:
    """At the end of the Alien turn: say so when the card made no alien explode, or when
    no alien could use the card's weapon."""
    report_unexploded(ctx)
    report_unused_weapon(ctx)
