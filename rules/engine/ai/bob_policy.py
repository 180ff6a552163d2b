"""The BoB Alien policy (RULES §11, seed 002), the default.

Turn: the event card (if the stipulation uses the deck), then every revealed alien once:
types in the fixed order, and inside a type the next alien chosen again before each
activation from the current state (:mod:`activation`). An activated alien picks its focus
(:mod:`focus`); if it can attack this turn it uses its most advantageous attack on the
focus (area weapons: the most marines hit, whoever they belong to), otherwise it moves to
get as close as possible to its focus. Then reinforcements, when the stipulation says.
"""

from __future__ import annotations

from rules.engine.ai.actions import approach, execute_plan
from rules.engine.ai.activation import Readiness, choose_next, type_rank
from rules.engine.ai.attack_choice import Attack, best_plan
from rules.engine.ai.event_attacks import event_card_attack
from rules.engine.ai.reach import Assessment, activation_type, assess_focus
from rules.engine.ai.readiness import ReadinessMemo
from rules.engine.play.events import close_doors_blocking_sight, play_event_phase
from rules.engine.play.reinforcement_phase import bob_reinforcements
from rules.engine.play.turn_context import TurnContext
from rules.engine.state import Figure


def allowance(ctx: TurnContext, figure: Figure) -> int:
    """Squares the alien may move this turn: its movement (a Dreadnought's by the class in
    its equipment), 0 when an event card holds its type, doubled when one doubles it, plus
    any event bonus."""
    if figure.unit in ctx.modifiers.cannot_move:
        return 0
    movement = ctx.rules.movement(figure.unit, figure.equipment)
    if figure.unit in ctx.modifiers.double_movement:
        movement *= 2
    return movement + ctx.modifiers.movement_bonus(figure.unit)


def event_first(ctx: TurnContext) -> str | None:
    """Alien Elite (``activate_first``): the alien of the highest listed type, nearest a
    marine (its focus distance; the lowest id on a tie), logged; None without the card.
    BoB and Priority activate it first (Solitaire picks its own, seed 000)."""
    order = ctx.modifiers.activate_first
    if not order:
        return None
    for unit in order:
        aliens = [a for a in ctx.aliens() if a.unit == unit]
        if aliens:
            ranked = sorted(
                (
                    assess_focus(ctx.state, a, ctx.rules, allowance(ctx, a)).readiness()
                    for a in aliens
                ),
                key=lambda r: (r.distance, r.figure_id),
            )
            chosen = ranked[0].figure_id
            ctx.say("event_activate_first", figure=chosen, unit=unit)
            return chosen
    return None


def acts_again(ctx: TurnContext, figure_id: str) -> bool:
    """Whether the alien Alien Elite picked (``figure_id``, just activated first) acts a
    second time now: the card says so and it is still on the board. Every policy plays the
    printed card's second action (research §5); seed 000 only picks the alien."""
    return ctx.modifiers.elite_acts_twice and ctx.state.has_figure(figure_id)


class BobPolicy:
    name = "bob"

    def run(self, ctx: TurnContext) -> None:
        play_event_phase(ctx)
        if not ctx.aliens():
            ctx.say("no_aliens")
        acted: set[str] = set()
        memo = ReadinessMemo()
        ranks: dict[tuple, int] = {}
        allowances: dict[tuple, int] = {}
        first = event_first(ctx)
        while True:
            pending = ctx.aliens(excluding=acted)
            if not pending:
                break
            attack: Attack | None = None
            if first is not None and any(a.id == first for a in pending):
                assessment = assess_focus(
                    ctx.state,
                    ctx.state.figure(first),
                    ctx.rules,
                    allowance(ctx, ctx.state.figure(first)),
                )
                criterion = "event_first"
                first = None
            else:
                assessment, criterion, attack = self._next(ctx, pending, memo, ranks, allowances)
            acted.add(assessment.reach.figure.id)
            self.activate(ctx, assessment, criterion, attack)
            elite = assessment.reach.figure.id
            if criterion == "event_first" and acts_again(ctx, elite):
                again = ctx.state.figure(elite)
                assessment = assess_focus(ctx.state, again, ctx.rules, allowance(ctx, again))
                self.activate(ctx, assessment, "event_again")
        if ctx.modifiers.close_doors_blocking_sight:
            close_doors_blocking_sight(ctx)
        bob_reinforcements(ctx)

    def _next(
        self,
        ctx: TurnContext,
        pending: list[Figure],
        memo: ReadinessMemo,
        ranks: dict[tuple, int],
        allowances: dict[tuple, int],
    ) -> tuple[Assessment, str, Attack | None]:
        """Only the aliens of the first type still to act are assessed (one distance
        field each), on the current state (an assessment the memo proves unchanged since
        an earlier activation is reused). For the turn, ``ranks`` keeps the type rank of each
        (unit, weapons) and ``allowances`` the allowance of each (unit, equipment): the event
        phase, over before the first activation, is what sets the modifiers. An alien that
        can attack its focus counts as able to attack only when it has a plan
        (:func:`best_plan`, game engine decision 24); the chosen alien's plans, when they
        were worked out, come with it (the state is the one it acts on)."""
        type_ranks = []
        for alien in pending:
            kind = (alien.unit, alien.weapons)
            rank = ranks.get(kind)
            if rank is None:
                rank = ranks[kind] = type_rank(activation_type(alien, ctx.rules))
            type_ranks.append(rank)
        top = min(type_ranks)
        same_type = []
        for rank, alien in zip(type_ranks, pending, strict=True):
            if rank == top:
                moves = (alien.unit, alien.equipment)
                squares = allowances.get(moves)
                if squares is None:
                    squares = allowances[moves] = allowance(ctx, alien)
                same_type.append(memo.assess(ctx.state, alien, ctx.rules, squares))
        by_id = {a.reach.figure.id: a for a in same_type}
        attacks: dict[str, Attack] = {}

        def has_plan(ready: Readiness) -> bool:
            attack = attacks[ready.figure_id] = best_plan(ctx, by_id[ready.figure_id])
            return attack[0] is not None

        chosen, criterion = choose_next([a.readiness() for a in same_type], has_plan)
        if criterion == "only_one" and len(pending) > 1:
            criterion = "type_order"
        return by_id[chosen.figure_id], criterion, attacks.get(chosen.figure_id)

    def activate(
        self,
        ctx: TurnContext,
        assessment: Assessment,
        criterion: str,
        attack: Attack | None = None,
    ) -> None:
        """Carry out one activation; ``attack``: :func:`best_plan` of the alien, if already
        worked out on this state."""
        figure = assessment.reach.figure
        ctx.say("activation", figure=figure.id, unit=figure.unit, criterion=criterion)
        if figure.unit in ctx.modifiers.cannot_act:
            ctx.say("skipped_by_event", figure=figure.id)
            return
        if event_card_attack(ctx, figure, assessment.reach.allowance) is not None:
            return
        focus = assessment.focus
        if focus is None:
            ctx.say("no_focus", figure=figure.id)
            return
        ctx.say(
            "focus",
            figure=figure.id,
            player=focus.player,
            distance=focus.distance if focus.reachable else "-",
            criterion=assessment.criterion,
        )
        if focus.attackable:
            plan, alternatives, area = attack if attack is not None else best_plan(ctx, assessment)
            if plan is not None:
                execute_plan(ctx, assessment.reach, plan, alternatives, area)
                return
        ctx.say("cannot_attack", figure=figure.id)
        approach(ctx, assessment.reach, focus.player)
