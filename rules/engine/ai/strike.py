"""Carrying out a chosen attack through :mod:`rules.engine.combat`, with the judge's log.

The plan was chosen with fast, memoised scores; here the alien (already on its square)
asks combat for its legal options once, takes the one matching each planned shot, and
resolves it with the turn's dice. The combat events become translatable steps (the dice
come from the dice log, so the judge sees exactly what was rolled). Scores change as RULES
§7 says (:mod:`rules.engine.kill_scores`): a player loses the value of a marine that dies;
a player whose marine kills an alien in a fight takes a free token of that alien's type and
scores its value.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

from rules.engine.ai.plans import Shot
from rules.engine.caches import BoundedCache, declare
from rules.engine.combat import (
    HAND_TO_HAND,
    SHOOT,
    AttackOption,
    CombatError,
    CombatEvent,
    armour_against,
    attack_options,
    blast_option,
    hand_to_hand_dice,
    kill_value,
    option_for,
    owner_of,
    resolve_attack,
    shot_dice,
)
from rules.engine.geometry import Square
from rules.engine.kill_scores import score_kill
from rules.engine.los import figure_sees
from rules.engine.narration import Step
from rules.engine.odds import AttackOdds, TargetInfo, hand_to_hand_odds, shot_odds
from rules.engine.play.turn_context import TurnContext
from rules.engine.rerolls import ReplayDice, automatic_defence_reroll
from rules.engine.state import MARINE, Figure, GameState, carry_memo


def matching_option(options: list[AttackOption], shot: Shot) -> AttackOption | None:
    """The combat option that carries out a planned shot (never one touching another
    alien: the firer itself, which a conversion beam reaches, is no other alien)."""
    for option in options:
        if option.odds.touches_friendly(besides=option.attacker_id):
            continue
        if shot.pattern == "hand_to_hand":
            if option.kind == HAND_TO_HAND and option.target == shot.target:
                return option
            continue
        if option.kind == HAND_TO_HAND or option.weapon != shot.weapon:
            continue
        if shot.pattern == "single" and option.target == shot.target:
            return option
        if shot.pattern == "blast" and option.aim == shot.aim:
            return option
        if shot.pattern == "line" and tuple(sorted(option.target_keys)) == shot.hits:
            return option
        if shot.pattern == "split":
            return option
        if (
            tuple(sorted(option.target_keys)) == shot.hits
            and option.aim == shot.aim
            and option.areas == shot.areas
        ):
            return option
    return None


def narrate_events(
    ctx: TurnContext,
    events: list[CombatEvent],
    rolls_before: int,
    killer: dict[str, str],
    before: GameState,
    notes: Mapping[int, Step] | None = None,
) -> None:
    """Dice from the dice log, then damage, lost weapons, deaths and a freed gunner as
    steps, a marine's chapter card that changed the attack first; scores
    (:mod:`rules.engine.kill_scores`; ``before`` is the state before the
    attack). The attack itself, its hits and blasts are told by the plan and the dice
    steps; door events cannot happen (aliens never attack doors here). ``notes`` go
    before the roll of that index among the attack's rolls."""
    # Dice steps are made directly, without ``ctx.say``'s keyword arguments.
    log = ctx.steps
    # A marine's chapter card that changed the dice or the armour, before the dice.
    log.extend(Step(e.code, dict(e.params)) for e in events if e.kind == "card")
    for index, roll in enumerate(ctx.dice.log[rolls_before:]):
        if notes and index in notes:
            log.append(notes[index])
        params = {
            "figure": roll.subject or "-",
            "kind": roll.kind._value_,  # as .value, without the enum property's call
            "values": list(roll.values),
            "purpose": roll.purpose,
            "purpose_params": dict(roll.params),
        }
        log.append(Step("dice", params))
    for event in events:
        fid = event.figure_id
        if event.kind == "damage":
            target = ctx.state.figure(fid) if fid and ctx.state.has_figure(fid) else None
            left = target.life_points if target is not None else 0
            ctx.say("damage", target=fid, amount=event.life_points_lost, left=left)
        elif event.code == "shielded":
            ctx.say("shielded_target", target=fid)
        elif event.kind == "no_effect" and fid is not None:
            ctx.say("no_damage", target=fid)
        elif event.kind == "weapon_lost":
            ctx.say("weapon_lost", target=fid, weapon=event.details.get("weapon", ""))
        elif event.kind == "killed":
            ctx.say("killed", target=fid)
            ctx.state, steps = score_kill(
                before, ctx.state, event, killer.get(fid or ""), ctx.rules
            )
            ctx.extend(steps)
        elif event.kind == "gunner_freed":
            ctx.say("gunner_freed", target=fid)


def _defence_reroll(
    ctx: TurnContext,
    start: GameState,
    option: AttackOption,
    rolls_before: int,
    events: list[CombatEvent],
    notes: dict[int, Step],
) -> list[CombatEvent]:
    """The re-roll the engine takes for a marine commander the alien fights (Bionic Arm,
    Digital Weapons; :func:`rules.engine.rerolls.automatic_defence_reroll`): the fight
    resolved again from ``start`` with his die rolled again through the turn's dice
    (recorded, purpose "reroll"), ``ctx.state`` its result and the note told before that
    die added to ``notes``. Returns the fight's events: the new ones, or ``events`` when no
    re-roll is taken."""
    rolls = ctx.dice.log[rolls_before:]
    chosen = automatic_defence_reroll(start, option, rolls, events)
    if chosen is None or option.target is None:
        return events
    card, position = chosen
    values = [value for roll in rolls for value in roll.values]
    replay = ReplayDice(
        values=values, position=position, fresh=ctx.dice, card=card, figure=option.target
    )
    ctx.state, again = resolve_attack(start, option, replay, data=ctx.rules)
    params = {
        "chapter_card": card,
        "figure": option.target,
        "die": position + 1,
        "old": values[position],
    }
    notes[len(rolls)] = Step("reroll_auto", params)
    return again


#: The odds of fights and shots carried out, by the plain values they are made of (quicker
#: to hash than the TargetInfo and DiceSpec objects the odds are worked out from).
_ODDS: BoundedCache[tuple, AttackOdds] = declare(
    "strike.odds", bound=4096, depends_on="the plain values of both sides"
)


def _part(ctx: TurnContext, figure: Figure) -> tuple[str, int, int, str]:
    """What the odds see of a figure: id, life points, kill value and owner."""
    return figure.id, figure.life_points, kill_value(ctx.state, figure, ctx.rules), owner_of(figure)


def _info(part: tuple[str, int, int, str]) -> TargetInfo:
    return TargetInfo(*part, part[0])


def _kept_odds(key: tuple, make: Callable[[], AttackOdds]) -> AttackOdds:
    odds = _ODDS.get(key)
    if odds is None:
        odds = _ODDS.put(key, make())
    return odds


def _touching(state: GameState, alien: Figure, target: Figure) -> bool:
    """An open edge joins a square of ``alien`` to a square of ``target`` (a plain loop:
    ``any`` over a generator costs more than the test itself)."""
    for a in alien.squares:
        for b in target.squares:
            if abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1 and state.edge_open(a, b):
                return True
    return False


def direct_option(ctx: TurnContext, alien: Figure, shot: Shot) -> AttackOption | None:
    """The combat option of a single shot, a fight or a missile, built without listing
    every option of the alien (combat resolves it); None when the attack is not legal as
    it stands."""
    state, rules = ctx.state, ctx.rules
    if shot.pattern == "blast" and shot.aim is not None:
        option = blast_option(state, alien.id, shot.weapon, shot.aim, data=rules)
        if option is None or option.odds.touches_friendly():
            return None
        return option
    if shot.target is None or not state.has_figure(shot.target):
        return None
    target = state.figure(shot.target)
    if target.unit == "tarantula":
        return None  # combat's own option handles the Tarantula's armour rules
    if shot.pattern == "hand_to_hand":
        if not _touching(state, alien, target):
            return None
        mine, theirs = _part(ctx, alien), _part(ctx, target)
        my_dice = hand_to_hand_dice(rules, alien.unit, alien.weapons)
        their_dice = hand_to_hand_dice(rules, target.unit, target.weapons)
        odds = _kept_odds(
            (mine, my_dice.white, my_dice.red, theirs, their_dice.white, their_dice.red),
            lambda: hand_to_hand_odds(_info(mine), my_dice, _info(theirs), their_dice),
        )
        params = {"attacker": alien.id, "target": target.id}
        return AttackOption(
            alien.id,
            HAND_TO_HAND,
            None,
            alien.squares,
            odds,
            "fight_brief",
            params,
            target=target.id,
        )
    if shot.pattern != "single" or not figure_sees(state, alien, target, True):
        return None
    weapon = rules.weapon(shot.weapon)
    armour = armour_against(state, target, alien, rules)
    dice, part, owner = shot_dice(rules, weapon.key), _part(ctx, target), owner_of(alien)
    odds = _kept_odds(
        (dice.white, dice.red, part, armour, owner),
        lambda: shot_odds(dice, _info(part), armour, owner),
    )
    params = {"attacker": alien.id, "weapon": weapon.key, "target": target.id}
    return AttackOption(
        alien.id, SHOOT, weapon.key, alien.squares, odds, "shot_brief", params, target=target.id
    )


def carry_out(ctx: TurnContext, alien_id: str, shots: Iterable[Shot]) -> bool:
    """Resolve the planned shots in order; False if combat offered no matching option."""
    done = False
    for shot in shots:
        if not ctx.state.has_figure(alien_id):
            break
        alien = ctx.state.figure(alien_id)
        if shot.weapon != "hand_to_hand" and shot.weapon not in alien.weapons:
            continue
        option = direct_option(ctx, alien, shot)
        if option is None:
            options = attack_options(ctx.state, alien_id, data=ctx.rules, include_doors=False)
            option = matching_option(options, shot)
        if option is None:
            continue
        strike_with(ctx, alien_id, option)
        done = True
    return done


def carry_out_area(ctx: TurnContext, alien_id: str, weapon: str, area: tuple[Square, int]) -> bool:
    """Fire ``area``'s shots of the alien's lascannon (its top-left square and how many
    shots it takes), one of the areas it fires in turn (game engine decision 31); False
    when combat refuses it."""
    try:
        option = option_for(ctx.state, alien_id, weapon, areas=[area], data=ctx.rules)
    except CombatError:
        return False
    strike_with(ctx, alien_id, option)
    return True


def strike_with(ctx: TurnContext, alien_id: str, option: AttackOption) -> None:
    """Resolve combat's ``option`` for the alien with the turn's dice, narrated."""
    killer: dict[str, str] = {}
    if option.kind == HAND_TO_HAND and option.target is not None:
        target = ctx.state.figure(option.target)
        if target.side == MARINE and target.player is not None:
            killer[alien_id] = target.player
    before = len(ctx.dice.log)
    start = ctx.state
    ctx.state, events = resolve_attack(ctx.state, option, ctx.dice, data=ctx.rules)
    notes: dict[int, Step] = {}
    if option.kind == HAND_TO_HAND:
        events = _defence_reroll(ctx, start, option, before, events, notes)
    narrate_events(ctx, events, before, killer, start, notes)
    carry_memo(start, ctx.state)
