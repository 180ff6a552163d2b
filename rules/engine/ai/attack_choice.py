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
from rules.engine.ai.plans import Plan, melee_plan, rank_plans, shot_plan
from rules.engine.ai.reach import Assessment, targets_of
from rules.engine.ai.turn import TurnContext
from rules.engine.combat import hand_to_hand_dice
from rules.engine.state import Figure

AREA_TYPES = frozenset({"chaos_marine_heavy", "dreadnought"})


def uses_area_rule(assessment: Assessment) -> bool:
    return assessment.activation_type in AREA_TYPES


def focus_plans(ctx: TurnContext, assessment: Assessment, players: list[str]) -> list[Plan]:
    """Hand-to-hand and single-shot plans against the figures of ``players``."""
    reach = assessment.reach
    alien: Figure = reach.figure
    rules = ctx.rules
    plans: list[Plan] = []
    melee = hand_to_hand_dice(rules, alien.unit, alien.weapons).count > 0
    shooting = [w for w in alien.weapons if rules.weapon(w).can_shoot]
    single = [w for w in shooting if rules.weapon(w).pattern == "single"]
    for player in players:
        for target in targets_of(ctx.state, player):
            steps, anchor = reach.adjacent_stop(ctx.state, target)
            if melee and anchor is not None and steps <= reach.allowance:
                plans.append(melee_plan(ctx.state, rules, alien, target, anchor, steps))
            if not single:
                continue
            stop = reach.shooting_stop(ctx.state, target)
            if stop is None:
                continue
            for weapon in single:
                plans.append(
                    shot_plan(
                        ctx.state,
                        rules,
                        weapon,
                        target,
                        stop[1],
                        stop[0],
                        steps,
                        stop[2] == "doubtful",
                    )
                )
    return plans


def best_plan(ctx: TurnContext, assessment: Assessment) -> tuple[Plan | None, list[Plan], bool]:
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
