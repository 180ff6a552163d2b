"""Event cards that change one alien's attack: Ork Mekaniak and Gretchin Bomber (RULES §12).

The research (``space-crusade-cards.md`` §5) gives the printed effects: the Ork fires "as
if with a plasma gun, then the weapon blows up and the Ork dies"; the Gretchin throws a
grenade "instead of shooting, resolved like a missile launcher". Seed 000 (appendix I)
says who: the first Ork or Gretchin that can fire at a marine, which shoots without the
behaviour die, and the Gretchin not where its blast would also hit aliens (then the next
one throws). The engine plays the card in every policy (game engine decision 19):

* when an alien of an armed type activates, it is given the special weapon, and the
  area rule of RULES §11 aims it: the position and aim that hit the most marines, then
  the most expected damage, never a template touching another alien;
* an alien that can hit no marine so (from any square it can reach this turn) acts as
  usual, and the card waits for the next alien of the type;
* the first that can fires it and the card is spent; the Ork then dies, scoring nobody;
  a Gretchin keeps its own gun. A card nobody could use is logged at the turn's end.

The policies reach these through :mod:`rules.engine.ai.event_attacks`, with Suicide
Android's (:mod:`rules.engine.ai.self_destruct`, decision 22).
"""

from __future__ import annotations

from dataclasses import replace

from rules.engine.ai.actions import execute_plan
from rules.engine.ai.area import area_plans
from rules.engine.ai.plans import Plan
from rules.engine.ai.reach import assess_focus
from rules.engine.play.turn_context import TurnContext
from rules.engine.state import Figure

#: The step of an alien its special weapon killed (no player scores it).
BLEW_UP = "special_weapon_blew_up"


def special_weapon_attack(ctx: TurnContext, figure: Figure, allowance: int) -> Plan | None:
    """``figure`` (moving up to ``allowance`` squares) fires the special weapon of the
    event card in play if the card arms its type and it can hit a marine with it; the plan
    carried out, or None when the alien is to act as usual."""
    special = ctx.modifiers.special_weapon
    if special is None or figure.unit not in special.units:
        return None
    armed = replace(figure, weapons=(special.weapon,))
    assessment = assess_focus(ctx.state, armed, ctx.rules, allowance)
    plans = area_plans(ctx, assessment)
    if not plans:
        return None
    ctx.modifiers.special_weapon = None
    ctx.say("special_weapon_used", figure=figure.id, weapon=special.weapon)
    ctx.state = ctx.state.with_figure(armed)
    fired = execute_plan(ctx, assessment.reach, plans[0], [], True)
    if ctx.state.has_figure(figure.id):
        after = ctx.state.figure(figure.id)
        if fired and special.firer_dies:
            ctx.state = ctx.state.without_figure(figure.id)
            ctx.say(BLEW_UP, figure=figure.id)
        else:
            ctx.state = ctx.state.with_figure(replace(after, weapons=figure.weapons))
    return plans[0]


def report_unused_weapon(ctx: TurnContext) -> None:
    """At the end of the Alien turn: say so when no alien could use the card's weapon."""
    special = ctx.modifiers.special_weapon
    if special is not None:
        ctx.say("special_weapon_unused", units=sorted(special.units), weapon=special.weapon)
