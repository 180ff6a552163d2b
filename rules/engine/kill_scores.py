"""What a kill is worth on the board (RULES §7), the same in a marine's attack and in the
Aliens' turn.

* A marine: its owner loses its value; the player who killed it gains the value, unless
  it was one of their own marines (an alien killer gains nothing).
* A Tarantula: the destroyer gains its value; its owner loses nothing (the gunner, if
  killed, is a marine of its own).
* A marine-piloted Dreadnought: the destroyer gains its value (class value and pilot);
  the owner loses the pilot's value, through the pilot's own death.
* An alien: its killer takes a free token of its type, if one is left, and scores the
  token's value (an alien Dreadnought of a named class: the class value, as its kill is
  logged); genestealers and other aliens without tokens score nothing.

The killed figure is looked up in ``before``, the state before the attack (a killed figure
is no longer in the state after it).
"""

from __future__ import annotations

from dataclasses import replace

from rules.engine.combat import CombatEvent, alien_token_value
from rules.engine.narration import Step
from rules.engine.state import ALIEN, GameState
from rules.engine.units import RulesData


def add_score(state: GameState, player: str | None, delta: int) -> GameState:
    if player is None or not delta:
        return state
    try:
        current = state.player(player)
    except KeyError:
        return state
    return state.with_player(replace(current, score=current.score + delta))


def take_token(
    state: GameState, unit: str, player: str, value: int
) -> tuple[GameState, list[Step]]:
    """The killer takes a free token of the alien's type, if any, and scores ``value``
    (:func:`~rules.engine.combat.alien_token_value`)."""
    for token in state.tokens:
        if token.alien == unit and token.taken_by is None:
            tokens = tuple(
                replace(t, taken_by=player) if t.id == token.id else t for t in state.tokens
            )
            state = add_score(state.replace(tokens=tokens), player, value)
            return state, [Step("token_taken", {"player": player, "unit": unit, "points": value})]
    return state, [Step("no_token", {"player": player, "unit": unit})]


def score_kill(
    before: GameState,
    after: GameState,
    event: CombatEvent,
    killer: str | None,
    rules: RulesData,
) -> tuple[GameState, list[Step]]:
    """``after`` with the scores and tokens the ``killed`` ``event`` changes, and the log
    lines saying so; ``killer`` is the killing player (``None`` for an alien)."""
    if event.kind != "killed" or event.figure_id is None:
        return after, []
    target = event.figure_id
    owner = event.details.get("owner")
    unit = event.details.get("unit", "")
    if event.details.get("pilot"):
        # The pilot of a destroyed Dreadnought: the owner loses the pilot's value (the
        # destroyer's points came with the Dreadnought's own event).
        pilot = before.figure(target) if before.has_figure(target) else None
        if pilot is None or owner in (None, ALIEN):
            return after, []
        value = rules.marine_value(pilot.unit, pilot.weapons)
        lost = Step("score_lost", {"player": owner, "points": value, "target": target})
        return add_score(after, owner, -value), [lost]
    if owner in (None, ALIEN):
        if killer is None:
            return after, []
        value = (
            alien_token_value(rules, before.figure(target))
            if before.has_figure(target)
            else rules.alien_tokens.get(unit, 0)
        )
        return take_token(after, unit, killer, value)
    steps: list[Step] = []
    state = after
    vehicle = unit == "tarantula" or (
        before.has_figure(target) and before.figure(target).is_dreadnought
    )
    if not vehicle:
        state = add_score(state, owner, -event.points)
        steps.append(
            Step("score_lost", {"player": owner, "points": event.points, "target": target})
        )
    if killer is not None and killer != owner and event.points:
        state = add_score(state, killer, event.points)
        steps.append(
            Step("score_gained", {"player": killer, "points": event.points, "target": target})
        )
    return state, steps
