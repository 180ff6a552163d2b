"""Rolling an alien's chosen attack and applying the result to the state.

A thin adapter over the dice service and :mod:`rules.engine.odds` (the same loss rule
the odds use): a single shot, a hand-to-hand fight, or one roll applied to several figures
(area weapons, with the template's squares already worked out by :mod:`ai.area`). Deaths
update the scores as RULES §7 says: an owner loses the value of a marine that dies; a
player whose marine kills an alien in a fight takes a free token of that alien's type.
"""

from __future__ import annotations

from dataclasses import replace

from rules.engine.ai.turn import TurnContext
from rules.engine.dice import DieKind
from rules.engine.odds import life_points_lost
from rules.engine.state import MARINE, Figure, GameState
from rules.engine.units import DiceSpec


def roll(ctx: TurnContext, dice: DiceSpec, purpose: str, subject: str) -> tuple[int, ...]:
    """Roll white then red dice, log them, return all faces (white first)."""
    values: tuple[int, ...] = ()
    if dice.white:
        white = ctx.dice.roll(DieKind.WHITE, dice.white, purpose=purpose, subject=subject)
        ctx.say("dice", purpose=purpose, kind="white", values=list(white))
        values += white
    if dice.red:
        red = ctx.dice.roll(DieKind.RED, dice.red, purpose=purpose, subject=subject)
        ctx.say("dice", purpose=purpose, kind="red", values=list(red))
        values += red
    return values


def _score(state: GameState, player: str | None, delta: int) -> GameState:
    if player is None or not delta or not any(p.id == player for p in state.players):
        return state
    current = state.player(player)
    return state.with_player(replace(current, score=current.score + delta))


def apply_damage(
    ctx: TurnContext, target_id: str, amount: int, killer_player: str | None = None
) -> None:
    """Take ``amount`` life points from a figure; remove it (and score) if it dies."""
    state = ctx.state
    if not state.has_figure(target_id):
        return
    target = state.figure(target_id)
    if amount <= 0:
        ctx.say("no_damage", target=target_id)
        return
    left = max(0, target.life_points - amount)
    if left > 0:
        ctx.state = state.with_figure(_wounded(ctx, target, left))
        ctx.say("damage", target=target_id, amount=target.life_points - left, left=left)
        return
    ctx.say("damage", target=target_id, amount=target.life_points, left=0)
    ctx.say("killed", target=target_id)
    state = state.without_figure(target_id)
    for pilot in [f for f in state.figures if f.piloting == target_id]:
        state = state.without_figure(pilot.id)
    if target.side == MARINE:
        value = ctx.rules.marine_value(target.unit, target.weapons)
        state = _score(state, target.player, -value)
    elif killer_player is not None:
        state = _take_token(ctx, state, target.unit, killer_player)
    ctx.state = state


def _wounded(ctx: TurnContext, target: Figure, left: int) -> Figure:
    """A wounded Dreadnought loses one heavy weapon per life point lost (last first)."""
    weapons = list(target.weapons)
    if ctx.rules.unit(target.unit).life_points_per_heavy_weapon:
        for _ in range(target.life_points - left):
            heavy = [i for i, w in enumerate(weapons) if ctx.rules.weapon(w).is_heavy]
            if not heavy:
                break
            lost = weapons.pop(heavy[-1])
            ctx.say("weapon_lost", target=target.id, weapon=lost)
    return replace(target, life_points=left, weapons=tuple(weapons))


def _take_token(ctx: TurnContext, state: GameState, unit: str, player: str) -> GameState:
    for token in state.tokens:
        if token.alien == unit and token.taken_by is None:
            tokens = tuple(
                replace(t, taken_by=player) if t.id == token.id else t for t in state.tokens
            )
            value = ctx.rules.alien_tokens.get(unit, 0)
            return _score(state.replace(tokens=tokens), player, value)
    return state


def shoot_single(ctx: TurnContext, alien: Figure, weapon: str, target_id: str) -> None:
    target = ctx.state.figure(target_id)
    dice = ctx.rules.weapon(weapon).dice
    total = sum(roll(ctx, dice, f"{alien.id} fires {weapon}", alien.id))
    armour = ctx.rules.unit(target.unit).armour
    apply_damage(ctx, target_id, life_points_lost(total, armour, target.life_points))


def hand_to_hand(ctx: TurnContext, alien: Figure, target_id: str) -> None:
    target = ctx.state.figure(target_id)
    rules = ctx.rules
    mine = sum(
        roll(ctx, rules.hand_to_hand_dice(alien.unit, alien.weapons), "hand-to-hand", alien.id)
    )
    theirs = sum(
        roll(ctx, rules.hand_to_hand_dice(target.unit, target.weapons), "hand-to-hand",
             target.id)
    )
    if mine > theirs:
        apply_damage(ctx, target_id, min(target.life_points, mine - theirs))
    elif theirs > mine:
        apply_damage(ctx, alien.id, min(alien.life_points, theirs - mine), target.player)
    else:
        ctx.say("no_damage", target=target_id)
