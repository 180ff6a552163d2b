"""One Alien turn: ``resolve_alien_turn(state, policy, dice) -> (new_state, steps)``.

The turn is a pure function of the state, the policy and the dice source: the same seed
or dice script always gives the same new state and the same step log. A policy is an
object with a ``name`` and a ``run(ctx)`` method that changes ``ctx.state`` through the
engine's modules and records what it did with ``ctx.say``. The turn leaves Python's
garbage collector alone; a caller resolving many turns in a row may pause it around each
(:func:`rules.engine.collector.cycle_collector_paused`).
"""

from __future__ import annotations

from typing import Protocol

from rules.engine.ai.event_attacks import report_unused_card
from rules.engine.dice import Dice
from rules.engine.narration import Step
from rules.engine.play.turn_context import TurnContext
from rules.engine.state import GameState, rules_of
from rules.engine.turns import TurnError
from rules.engine.units import RulesData


class Policy(Protocol):
    name: str

    def run(self, ctx: TurnContext) -> None:
        """Resolve the turn on ``ctx`` (events, activations, reinforcements)."""


def resolve_alien_turn(
    state: GameState,
    policy: Policy,
    dice: Dice,
    *,
    rules: RulesData | None = None,
    event_card: str | None = None,
) -> tuple[GameState, list[Step]]:
    """Resolve one whole Alien turn under ``policy``; returns the new state and the log.
    ``event_card``: the id of the event card the judge drew from the real deck, taken
    instead of the dice's draw (it must be still in the deck).

    A session played without aliens (``Stipulation.with_aliens``) has no Alien turn: a
    :class:`~rules.engine.turns.TurnError` says so, and the round is closed without one
    (:func:`rules.engine.play.round_end.close_round`)."""
    if not state.stipulation.with_aliens:
        raise TurnError("turn_no_aliens")
    if rules is None:
        rules = rules_of(state)
    ctx = TurnContext(
        state=state, dice=dice, rules=rules, policy=policy.name, event_card=event_card
    )
    ctx.say("turn_start", round=state.round, policy=policy.name)
    policy.run(ctx)
    report_unused_card(ctx)
    ctx.say("turn_end")
    return ctx.state, ctx.steps
