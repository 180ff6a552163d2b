"""The Priority Alien policy (RULES §11, the idea of seed 001's automated admiral).

The aliens act slowest first (movement this turn, then type order, then id) and share one
target: the first alien that attacks picks it, and every later alien that can still
attack it does so while it lives ("focus fire"). When the shared target is dead or out of
an alien's reach, the alien picks a new one, ranking every marine it can attack this
turn by: can be damaged this turn, can be killed this turn, fewest life points left,
highest firepower, nearest (path distance to stand next to it), lowest id. Each alien
then uses its most advantageous attack on that target (as in BoB); an alien that cannot
attack anybody moves towards the nearest marine. An attack that can hurt nobody is no
plan (game engine decision 24), so a marine only such attacks reach is no target, shared
or not. An area weapon's shot at a target must reach it: a blast or a line touch it, an
assault cannon's split be able to give it a share (decision 23).
"""

from __future__ import annotations

from dataclasses import replace

from rules.engine.ai.actions import approach, execute_plan
from rules.engine.ai.activation import type_rank
from rules.engine.ai.area import area_plans
from rules.engine.ai.attack_choice import focus_plans, uses_area_rule
from rules.engine.ai.bob_policy import acts_again, allowance, event_first
from rules.engine.ai.event_attacks import event_card_attack
from rules.engine.ai.focus import UNREACHABLE
from rules.engine.ai.plans import Plan
from rules.engine.ai.reach import Assessment, activation_type, assess_focus
from rules.engine.play.events import close_doors_blocking_sight, play_event_phase
from rules.engine.play.reinforcement_phase import bob_reinforcements
from rules.engine.play.targets import targets_of
from rules.engine.play.turn_context import TurnContext
from rules.engine.state import Figure

_CRITERIA = (
    "can_damage",
    "can_kill",
    "fewest_life_points",
    "firepower",
    "nearest",
    "lowest_target_id",
)


def firepower(ctx: TurnContext, figure: Figure) -> float:
    """Expected total of a figure's shooting dice (a white die averages 1/2, a red 1)."""
    total = 0.0
    for key in figure.weapons:
        weapon = ctx.rules.weapon(key)
        if weapon.can_shoot:
            total += (weapon.dice.white * 0.5 + weapon.dice.red) * max(1, weapon.shots)
    return total


def target_key(ctx: TurnContext, target: Figure, plans: list[Plan], distance: int) -> tuple:
    """The target's rank (smallest first). Every plan can hurt someone (game engine
    decision 24); "can be damaged" asks whether one can hurt the target itself, not only
    another figure its blast or line catches."""
    can_damage = any(target.id in shot.hurts for p in plans for shot in p.shots)
    can_kill = any(p.points > 0 for p in plans)
    return (
        0 if can_damage else 1,
        0 if can_kill else 1,
        target.life_points,
        -firepower(ctx, target),
        distance,
        target.id,
    )


class PriorityPolicy:
    name = "priority"

    def run(self, ctx: TurnContext) -> None:
        play_event_phase(ctx)
        if not ctx.aliens():
            ctx.say("no_aliens")
        order = sorted(
            ctx.aliens(),
            key=lambda a: (allowance(ctx, a), type_rank(activation_type(a, ctx.rules)), a.id),
        )
        # Alien Elite: its alien acts first, the others slowest first.
        first = event_first(ctx)
        order.sort(key=lambda a: a.id != first)
        shared: str | None = None
        for alien in order:
            if not ctx.state.has_figure(alien.id):
                continue
            criterion = "event_first" if alien.id == first else "slowest"
            shared = self.turn_of(ctx, alien.id, criterion, shared)
            if criterion == "event_first" and acts_again(ctx, alien.id):
                shared = self.turn_of(ctx, alien.id, "event_again", shared)
        if ctx.modifiers.close_doors_blocking_sight:
            close_doors_blocking_sight(ctx)
        bob_reinforcements(ctx)

    def turn_of(
        self, ctx: TurnContext, figure_id: str, criterion: str, shared: str | None
    ) -> str | None:
        """One activation of the alien ``figure_id``; returns the shared target, as
        :meth:`activate` does."""
        alien = ctx.state.figure(figure_id)
        ctx.say("activation", figure=alien.id, unit=alien.unit, criterion=criterion)
        if alien.unit in ctx.modifiers.cannot_act:
            ctx.say("skipped_by_event", figure=alien.id)
            return shared
        if event_card_attack(ctx, alien, allowance(ctx, alien)) is not None:
            return shared
        return self.activate(ctx, alien, shared)

    def plans_by_target(self, ctx: TurnContext, assessment: Assessment) -> dict[str, list[Plan]]:
        players = [r.player for r in assessment.reaches]
        out: dict[str, list[Plan]] = {}
        for plan in focus_plans(ctx, assessment, players):
            out.setdefault(plan.target, []).append(plan)
        if uses_area_rule(assessment):
            for player in players:
                for target in targets_of(ctx.state, player):
                    for plan in area_plans(ctx, assessment, only_target=target.id):
                        out.setdefault(target.id, []).append(replace(plan, target=target.id))
        return out

    def activate(self, ctx: TurnContext, alien: Figure, shared: str | None) -> str | None:
        assessment = assess_focus(ctx.state, alien, ctx.rules, allowance(ctx, alien))
        reach = assessment.reach
        plans = self.plans_by_target(ctx, assessment)
        if not plans:
            nearest = min(
                (
                    (reach.adjacent_stop(ctx.state, t)[0], t.id, p)
                    for p in [r.player for r in assessment.reaches]
                    for t in targets_of(ctx.state, p)
                ),
                default=None,
            )
            if nearest is None or nearest[0] >= UNREACHABLE:
                ctx.say("no_focus", figure=alien.id)
                return shared
            ctx.say("cannot_attack", figure=alien.id)
            approach(ctx, reach, nearest[2])
            return shared
        if shared is not None and shared in plans:
            target_id, criterion = shared, "focus_fire"
        else:
            keys = {
                tid: target_key(
                    ctx,
                    ctx.state.figure(tid),
                    tplans,
                    reach.adjacent_stop(ctx.state, ctx.state.figure(tid))[0],
                )
                for tid, tplans in plans.items()
            }
            ranked = sorted(keys, key=keys.__getitem__)
            target_id = ranked[0]
            criterion = (
                _deciding(keys[ranked[0]], keys[ranked[1]]) if len(ranked) > 1 else ("only_target")
            )
        ctx.say("target_choice", figure=alien.id, target=target_id, criterion=criterion)
        options = sorted(plans[target_id], key=lambda p: p.key(False))
        execute_plan(ctx, reach, options[0], options[1:4], False)
        return target_id if ctx.state.has_figure(target_id) else None


def _deciding(best: tuple, runner: tuple) -> str:
    for name, a, b in zip(_CRITERIA, best, runner, strict=False):
        if a != b:
            return name
    return "lowest_target_id"
