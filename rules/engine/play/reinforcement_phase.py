"""Reinforcements at the end of a BoB Alien turn (RULES §10: "when the stipulation says").

Switches: ``reinforcements_per_turn`` (how many tokens enter each Alien turn, default 0)
and ``reinforcements_from_round`` (first round they enter, default 1).
"""

from __future__ import annotations

from rules.engine.play.blips import place_reinforcements
from rules.engine.play.turn_context import TurnContext


def bob_reinforcements(ctx: TurnContext) -> None:
    switches = ctx.state.stipulation.switches
    count = switches.get("reinforcements_per_turn", 0)
    first_round = switches.get("reinforcements_from_round", 1)
    if not isinstance(count, int) or count <= 0 or not ctx.state.reinforcements:
        return
    if isinstance(first_round, int) and ctx.state.round < first_round:
        return
    ctx.say("reinforcement_count", count=count)
    ctx.state, steps = place_reinforcements(ctx.state, count, ctx.dice, ctx.rules)
    ctx.extend(steps)
