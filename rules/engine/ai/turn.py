"""One Alien turn: ``resolve_alien_turn(state, policy, dice) -> (new_state, steps)``.

The turn is a pure function of the state, the policy and the dice source: the same seed
or dice script always gives the same new state and the same step log. A policy is an
object with a ``name`` and a ``run(ctx)`` method that changes ``ctx.state`` through the
engine's modules and records what it did with ``ctx.say``.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Protocol

from rules.engine.dice import Dice
from rules.engine.narration import Step
from rules.engine.play.turn_context import TurnContext
from rules.engine.state import GameState
from rules.engine.units import RulesData, load_rules_data


class Policy(Protocol):
    name: str

    def run(self, ctx: TurnContext) -> None:
        """Resolve the turn on ``ctx`` (events, activations, reinforcements)."""


def resolve_alien_turn(
    state: GameState, policy: Policy, dice: Dice, *, rules: RulesData | None = None
) -> tuple[GameState, list[Step]]:
    """Resolve one whole Alien turn under ``policy``; returns the new state and the log."""
    if rules is None:
        rules = load_rules_data(dict(state.data_overrides) or None)
    ctx = TurnContext(state=state, dice=dice, rules=rules)
    ctx.say("turn_start", round=state.round, policy=policy.name)
    with _cycle_collector_paused():
        policy.run(ctx)
    ctx.say("turn_end")
    return ctx.state, ctx.steps


@contextmanager
def _cycle_collector_paused() -> Iterator[None]:
    """Pause Python's cyclic garbage collector while a turn is resolved.

    A turn makes and drops a great many small containers (states, tuples, plans) but no
    reference cycles, so reference counting frees everything it throws away (checked in
    ``tests/engine/test_fast_paths.py``). The cyclic collector, which would otherwise
    run every few hundred allocations and now and then walk every object the AI's memos
    keep, could find nothing to free: it only cost time. It runs as usual afterwards.

    Re-enabled as it is, the collector would at once walk every container the turn left
    alive (its log, its new state, the memos' new entries), to find no cycle there either.
    So those are moved to the oldest generation unexamined, with ``gc.freeze`` and
    ``gc.unfreeze`` (only when nothing else froze objects, whose freeze that would undo):
    they are walked again only by a full collection, which still frees any cycle among
    them, as it does among the objects that were young when the turn began."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            if gc.get_freeze_count() == 0:
                gc.freeze()
                gc.unfreeze()
            gc.enable()
