"""Suicide Android (Androide Suicida), the event card that makes an alien blow itself up
(RULES §12; game engine decision 22 in ``docs/decisions.md``).

The research (``space-crusade-cards.md`` §5) gives the printed effect: after moving, one
android may explode; two heavy dice are rolled and every model next to it is attacked with
the total; the android is removed. Seed 000 (appendix I) says which one: the first to reach
a square from which its blast catches as many marines as possible, and not where the blast
would also hit aliens (the next android explodes instead). The engine plays the card in
every policy, as it plays Ork Mekaniak and Gretchin Bomber (decision 19):

* when an alien of the card's types activates, every square it can reach this turn is
  weighed by the area rule of RULES §11: the blast there (every square around it, not
  through walls or closed doors: :func:`rules.engine.combat.self_destruct_squares`; the
  doors it opens on its way there open) must catch a marine it can hurt (some roll beats
  its armour: never a Tarantula's 6 with two red dice) and no other alien; the most
  marines it can hurt, then the most expected points, then the most expected life
  points, then the fewest steps, then row and column;
* the first alien with such a square moves there and explodes: one roll of the card's
  dice, whose total every figure in the blast takes against its own armour; the alien
  leaves the board, nobody scores it, and the card is spent;
* an alien without such a square acts as usual and the card waits for the next one; a
  card nobody used is logged at the end of the turn, saying whether any alien of its types
  was there to use it.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from rules.engine.ai.actions import move_to
from rules.engine.ai.plans import Plan, hurt_by, rounded
from rules.engine.ai.reach import AlienReach, assess, footprint, stops_by_doors
from rules.engine.ai.strike import narrate_events
from rules.engine.combat import SELF_DESTRUCT, resolve_self_destruct, self_destruct_victims
from rules.engine.geometry import Square
from rules.engine.odds import line_odds
from rules.engine.play.turn_context import SelfDestruct, TurnContext
from rules.engine.state import ALIEN, Figure, GameState
from rules.engine.units import DiceSpec, RulesData

#: The step of the blast; its ``targets`` are every figure it caught, whatever their side.
BLAST = "self_destruct_blast"
#: The step of the alien its own blast destroyed (no player scores it).
GONE = "self_destruct_gone"


@dataclass(frozen=True)
class Blast:
    """Where an alien would explode (``steps`` away), the figures its blast would catch
    (those combat would attack), those of them some roll would take a life point from
    (the marines it hits, as the area rule counts them: :meth:`AttackOdds.damaged_keys`)
    and the expected points and life points it would take from them."""

    steps: int
    anchor: Square
    targets: tuple[str, ...]
    points: Fraction
    life_points: Fraction
    hurts: tuple[str, ...]

    @property
    def key(self) -> tuple:
        """The area rule's order, best first (RULES §11, as :func:`ai.area.area_plans`)."""
        return (
            -len(self.hurts),
            -self.points,
            -self.life_points,
            self.steps,
            self.anchor[1],
            self.anchor[0],
        )


def blast_at(
    state: GameState,
    rules: RulesData,
    figure: Figure,
    steps: int,
    anchor: Square,
    dice: DiceSpec,
) -> Blast | None:
    """``figure``'s blast were it to explode on ``anchor``, ``state`` having the doors on
    its way there open (:func:`rules.engine.ai.reach.stops_by_doors`: the blast goes
    through a door the alien opened); None when it would catch another alien or no
    figure it can hurt (:func:`rules.engine.ai.plans.hurt_by`, and no roll of ``dice``
    beating the armour of those it catches)."""
    moved = figure.moved_to(footprint(figure, anchor))
    _, victims = self_destruct_victims(state, figure, moved.squares)
    if any(f.side == ALIEN for f in victims):
        return None
    ids, hits = hurt_by(state, moved, victims, rules, fired_from=moved.squares)
    if not hits:
        return None
    odds = line_odds(dice, hits, ALIEN)  # every figure takes the same total, as on a line
    hurts = odds.damaged_keys()
    if not hurts:
        return None
    return Blast(
        steps,
        anchor,
        tuple(sorted(ids)),
        odds.expected_points(),
        odds.expected_life_points(),
        tuple(sorted(hurts)),
    )


def best_blast(ctx: TurnContext, reach: AlienReach, dice: DiceSpec) -> Blast | None:
    """The best square among ``reach``'s stops to explode on, by :attr:`Blast.key`, each
    weighed with the doors on the alien's way to it open."""
    blasts = (
        blast_at(opened, ctx.rules, reach.figure, steps, anchor, dice)
        for opened, stops in stops_by_doors(ctx.state, reach)
        for steps, anchor in stops
    )
    return min((b for b in blasts if b is not None), key=lambda b: b.key, default=None)


def offer_card(ctx: TurnContext, figure: Figure) -> SelfDestruct | None:
    """The card in play if it makes ``figure``'s type explode (``figure`` activates), noted
    as offered: the turn's end then says no alien could use it, not that none was on the
    board."""
    card = ctx.modifiers.self_destruct
    if card is None or figure.unit not in card.units:
        return None
    ctx.modifiers.self_destruct_offered = True
    return card


def self_destruct_attack(ctx: TurnContext, figure: Figure, allowance: int) -> Plan | None:
    """``figure`` (moving up to ``allowance`` squares) explodes if the card in play makes
    its type explode and a square it can reach has a blast the area rule takes; the plan
    carried out, or None when the alien is to act as usual."""
    card = offer_card(ctx, figure)
    if card is None:
        return None
    reach = assess(ctx.state, figure, ctx.rules, allowance)
    blast = best_blast(ctx, reach, card.dice)
    if blast is None:
        return None
    ctx.modifiers.self_destruct = None
    ctx.say(
        "self_destruct_chosen",
        figure=figure.id,
        square=list(blast.anchor),
        targets=list(blast.targets),
        points=rounded(blast.points),
        life_points=rounded(blast.life_points),
    )
    move_to(ctx, reach, blast.anchor)
    explode(ctx, figure.id, card.dice)
    # Nothing ranks this plan: the policies only read that an attack was made and, in
    # Solitaire, its steps (an alien that attacked without moving hides, but this one has
    # left the board). ``distance`` repeats the steps to the blast's square.
    return Plan(
        kind="area",
        anchor=blast.anchor,
        steps=blast.steps,
        weapon=SELF_DESTRUCT,
        target=blast.targets[0],
        aim=blast.anchor,
        points=blast.points,
        life_points=blast.life_points,
        marines_hit=len(blast.hurts),
        distance=blast.steps,
    )


def explode(ctx: TurnContext, figure_id: str, dice: DiceSpec) -> None:
    """The figure explodes where it stands, narrated step by step: the dice, the blast and
    whom it caught, each figure's damage (and the scores a marine's death changes), and the
    figure leaving the board."""
    start = ctx.state
    rolls_before = len(ctx.dice.log)
    ctx.state, events = resolve_self_destruct(start, figure_id, dice, ctx.dice, data=ctx.rules)
    narrate_events(ctx, [], rolls_before, {}, start)  # the dice
    blast = next(event.params for event in events if event.code == BLAST)
    ctx.say(BLAST, **blast)
    narrate_events(ctx, events, len(ctx.dice.log), {}, start)  # damage, deaths, scores
    ctx.say(GONE, figure=figure_id)


def report_unexploded(ctx: TurnContext) -> None:
    """At the end of the Alien turn: say so when the card made no alien explode."""
    card = ctx.modifiers.self_destruct
    if card is None:
        return
    code = (
        "self_destruct_unused" if ctx.modifiers.self_destruct_offered else "self_destruct_no_figure"
    )
    ctx.say(code, units=sorted(card.units))
