"""Choosing an alien's attack (RULES §11): the most advantageous option from exact odds.

Ordinary aliens attack their focus player: every hand-to-hand target it can reach and
every figure it can shoot from a reachable square is scored (expected points destroyed,
then expected life points removed, then the nearest target, then the fewest squares
moved). Aliens with area weapons (a Chaos Marine with a heavy weapon, a Dreadnought)
ignore the focus: they take the position and aim that hit the most marines, then the most
expected damage, and never an aim whose template would touch another alien.
"""

from __future__ import annotations

from rules.engine.ai.area import area_plans
from rules.engine.ai.plans import Plan, melee_score, rank_plans, shot_score, single_plan
from rules.engine.ai.reach import Assessment, footprint
from rules.engine.card_effects import fight_dice
from rules.engine.combat import (
    HAND_TO_HAND,
    SHOOT,
    armour_from,
    fought_as_a_shot,
    hand_to_hand_dice,
    kill_value,
    shot_dice,
)
from rules.engine.play.targets import targets_of
from rules.engine.play.turn_context import TurnContext
from rules.engine.state import Figure

AREA_TYPES = frozenset({"chaos_marine_heavy", "dreadnought"})


def uses_area_rule(assessment: Assessment) -> bool:
    return assessment.activation_type in AREA_TYPES


def focus_plans(ctx: TurnContext, assessment: Assessment, players: list[str]) -> list[Plan]:
    """Hand-to-hand and single-shot plans against the figures of ``players``.

    What depends on the alien alone (its dice, its single-shot weapons) is read once, and
    what depends on the target alone (kill value) once per target that has a plan; the
    armour is the one combat applies against a shot from the stop the alien shoots from.
    Where no target of a player can be reached for a fight this turn (its reach's distance,
    the nearest adjacent stop over its targets, is beyond the allowance), a target's
    adjacent stop is only looked for when it can be shot (for the nearest-target
    tie-break). A shot or fight that can take no life point from its target (its dice
    never beat the armour) is left out: it would do nothing (game engine decision 24)."""
    reach = assessment.reach
    alien: Figure = reach.figure
    state, rules = ctx.state, ctx.rules
    allowance = reach.allowance
    plans: list[Plan] = []
    mine = hand_to_hand_dice(rules, alien.unit, alien.weapons)
    melee = mine.count > 0
    single = []
    for key in () if alien.unit in ctx.modifiers.cannot_shoot else alien.weapons:
        weapon = rules.weapon(key)
        if weapon.can_shoot and weapon.pattern == "single":
            single.append((key, shot_dice(rules, key)))
    distances = {r.player: r.distance for r in assessment.reaches}
    for player in players:
        fights = melee and distances.get(player, 0) <= allowance
        for target in targets_of(state, player):
            stop = reach.shooting_stop(state, target) if single else None
            if stop is None and not fights:
                continue
            steps, anchor = reach.adjacent_stop(state, target)
            fight = anchor if fights and steps <= allowance else None
            if fight is None and stop is None:
                continue
            value = kill_value(state, target, rules)
            if fight is not None:
                # The marine's chapter cards (Bolt Pistols, Close Assault Blades) count.
                ours = fight_dice(state, alien, target, mine)[0]
                if fought_as_a_shot(target):
                    # A Tarantula rolls nothing: the alien's total against its armour.
                    armour = armour_from(state, target, footprint(alien, fight), rules)
                    score = shot_score(ours.white, ours.red, armour, target.life_points, value)
                else:
                    theirs_base = hand_to_hand_dice(rules, target.unit, target.weapons)
                    theirs = fight_dice(state, target, alien, theirs_base)[0]
                    score = melee_score(
                        ours.white,
                        ours.red,
                        alien.life_points,
                        theirs.white,
                        theirs.red,
                        target.life_points,
                        value,
                    )
                plans.append(
                    single_plan(
                        HAND_TO_HAND, HAND_TO_HAND, target.id, fight, steps, steps, False, score
                    )
                )
            if stop is None:
                continue
            # Combat's armour against a shot from the stop (a Tarantula gunner's arc).
            armour = armour_from(state, target, footprint(alien, stop[1]), rules)
            for key, dice in single:
                score = shot_score(dice.white, dice.red, armour, target.life_points, value)
                plans.append(
                    single_plan(
                        SHOOT, key, target.id, stop[1], stop[0], steps, stop[2] == "doubtful", score
                    )
                )
    # A shot or fight that can hurt nobody is no plan (game engine decision 24).
    return [plan for plan in plans if plan.marines_hit]


#: :func:`best_plan`'s answer: the chosen plan, the alternatives it beat, whether the
#: area-weapon rule decided.
Attack = tuple[Plan | None, list[Plan], bool]


def best_plan(ctx: TurnContext, assessment: Assessment) -> Attack:
    """The chosen plan, the best alternatives it beat (for the log), and whether the
    area-weapon rule decided."""
    area = uses_area_rule(assessment)
    focus = assessment.focus
    if area:
        players = [r.player for r in assessment.reaches]
        plans = focus_plans(ctx, assessment, players) + area_plans(ctx, assessment)
    else:
        plans = focus_plans(ctx, assessment, [focus.player]) if focus else []
    if not plans:
        return None, [], area
    rank_plans(plans, area)
    return plans[0], plans[1:4], area
