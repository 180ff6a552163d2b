"""The Solitaire Alien policy (RULES §11, seed 000 "StarQuest Solitaire").

Turn phases: (1) the event card; (2) blips move, nearest to a marine first, each up to 5
squares towards the nearest marine, and a blip that comes into a marine's sight is
revealed on that square and its alien acts at once (the squares moved as a blip count);
(3) the other aliens act, nearest to a marine first; (4) reinforcements: a d6, on 4-6 a d6
of tokens enter on random R squares (6 when no blip or alien is on the board).

How an alien acts (tables in ``data/solitaire.json``): Genestealers always close and fight;
Gretchin and Orks roll a d6 (1-4 fight hand-to-hand, 5-6 shoot), light Chaos Marines and
Androids too (1-3 fight, 4-6 shoot) when they can attack this turn; heavy Chaos Marines
and the Chaos Commander always shoot (a missile at the square hitting most marines, never
next to the firer, never touching an alien); a Dreadnought shoots with everything at 2+
life points and fights at 1. An alien that attacked without moving then steps to the
nearest square no marine can shoot at. Equal distances are settled by the dice.

Survey (a marine entering a new section, :func:`survey`): 1d3+5, 1d3+5, 1d3+6 blips for the
first three sections, all the rest on the fourth, drawn from the hidden pile
(``state.progress.blip_pile``, set up from the switch ``blip_pile``) and placed by
1d12 + 1d12 inside the section, re-rolled on an unusable square or one a marine sees.
Mission adjustments (switch ``solitaire_mission``) change the counts and hold some types
back until the last section. A marine-side move surveys with it through
:func:`reveal_after_move`; the session map's markers (blips and Genestealers) are BoB's
and are not used (docs/alien-ai.md, "Decisions where RULES.md is silent").
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rules.engine.ai.actions import approach, execute_plan, move_to
from rules.engine.ai.area import area_plans
from rules.engine.ai.attack_choice import focus_plans
from rules.engine.ai.bob_policy import acts_again, allowance
from rules.engine.ai.event_attacks import event_card_attack
from rules.engine.ai.focus import UNREACHABLE
from rules.engine.ai.plans import Plan
from rules.engine.ai.reach import (
    AlienReach,
    Assessment,
    activation_type,
    assess,
    assess_focus,
)
from rules.engine.ai.self_destruct import offer_card
from rules.engine.caches import memoised
from rules.engine.dice import Dice, DieKind
from rules.engine.geometry import Square
from rules.engine.los import line_of_sight
from rules.engine.narration import Step
from rules.engine.play.blips import (
    in_marine_sight,
    marines_on_board,
    place_reinforcements,
    reveal_blip,
    survey_section,
)
from rules.engine.play.blips import reveal_after_move as reveal_with_survey
from rules.engine.play.chance import random_index
from rules.engine.play.events import close_doors_blocking_sight, play_event_phase
from rules.engine.play.progress import with_progress
from rules.engine.play.targets import targets_of
from rules.engine.play.turn_context import TurnContext
from rules.engine.state import ALIEN, Blip, Figure, GameState

TABLES_FILE = Path(__file__).resolve().parent.parent / "data" / "solitaire.json"
BLIP_PILE = "blip_pile"
MISSION = "solitaire_mission"


@memoised("solitaire_policy.tables", bound=1, depends_on="data/solitaire.json")
def tables() -> dict[str, Any]:
    return json.loads(TABLES_FILE.read_text(encoding="utf-8"))


# --- ordering with random tie-breaks ----------------------------------------------------


def ordered_by_distance(
    ctx: TurnContext, items: list, distance: Callable[[Any], int], purpose: str
) -> list:
    """Nearest first; items at the same distance are ordered by the dice (recorded)."""
    groups: dict[int, list] = {}
    for item in items:
        groups.setdefault(distance(item), []).append(item)
    out = []
    for d in sorted(groups):
        group = groups[d]
        while group:
            out.append(group.pop(random_index(ctx.dice, len(group), purpose)))
    return out


def _owner(marine: Figure) -> str:
    """The player of a marine-side figure (only aliens belong to no player)."""
    assert marine.player is not None, f"{marine.id} belongs to no player"
    return marine.player


def _looked_up(distances: dict[str, int]) -> Callable[[Blip], int]:
    """The distance of a blip, read from ``distances`` by its id."""
    return lambda blip: distances[blip.id]


def nearest_marine(ctx: TurnContext, reach: AlienReach) -> tuple[int, Figure | None]:
    """The marine the alien needs the fewest squares to stand next to (dice on ties)."""
    best: list[Figure] = []
    best_d = UNREACHABLE
    for marine in marines_on_board(ctx.state):
        if marine.player is None or marine not in targets_of(ctx.state, marine.player):
            continue
        d, _ = reach.adjacent_stop(ctx.state, marine)
        if d < best_d:
            best, best_d = [marine], d
        elif d == best_d and d < UNREACHABLE:
            best.append(marine)
    if not best:
        return UNREACHABLE, None
    best.sort(key=lambda f: f.id)
    return best_d, best[random_index(ctx.dice, len(best), "nearest_marine_tie")]


# --- the policy -----------------------------------------------------------------------------


class SolitairePolicy:
    name = "solitaire"

    def run(self, ctx: TurnContext) -> None:
        ctx.genestealer_markers = False  # a Solitaire game does not use the map's markers
        play_event_phase(ctx)
        acted: set[str] = set()
        self.move_blips(ctx, acted)
        self.move_aliens(ctx, acted)
        if ctx.modifiers.close_doors_blocking_sight:
            close_doors_blocking_sight(ctx)
        self.reinforcements(ctx)

    # phase 2 -------------------------------------------------------------------------------

    def move_blips(self, ctx: TurnContext, acted: set[str]) -> None:
        moved: set[str] = set()
        while True:
            blips = [b for b in ctx.state.blips if b.id not in moved]
            if not blips or not marines_on_board(ctx.state):
                return
            reaches = {b.id: blip_reach(ctx, b) for b in blips}
            distances = {b.id: nearest_marine(ctx, reaches[b.id])[0] for b in blips}
            blip = ordered_by_distance(ctx, blips, _looked_up(distances), "blip_order")[0]
            moved.add(blip.id)
            self.move_one_blip(ctx, blip, reaches[blip.id], acted)

    def move_one_blip(
        self, ctx: TurnContext, blip: Blip, reach: AlienReach, acted: set[str]
    ) -> None:
        _, target = nearest_marine(ctx, reach)
        if target is None:
            return
        _, goal = reach.adjacent_stop(ctx.state, target)
        path = reach.field.path_to(goal) if goal is not None else None
        if not path:
            return
        path = path[: tables()["blip_movement"]]
        walked: list[Square] = []
        for sq in path:
            walked.append(sq)
            if in_marine_sight(ctx.state, sq):
                break
        while walked and not _free_for_blip(ctx.state, walked[-1]):
            walked.pop()
        if not walked:
            return
        end = walked[-1]
        ctx.say(
            "blip_moves",
            figure=blip.id,
            **{"from": list(blip.square), "to": list(end)},
            path=[list(blip.square)] + [list(sq) for sq in walked],
        )
        moved_blip = Blip(blip.id, end, blip.type)
        ctx.state = ctx.state.replace(
            blips=tuple(moved_blip if b.id == blip.id else b for b in ctx.state.blips)
        )
        if not in_marine_sight(ctx.state, end):
            return
        before = {f.id for f in ctx.state.figures}
        ctx.state, steps = reveal_blip(ctx.state, moved_blip, ctx.rules)
        ctx.extend(steps)
        for figure in ctx.state.figures:
            if figure.id not in before and figure.side == ALIEN:
                acted.add(figure.id)
                if figure.unit in ctx.modifiers.cannot_move:
                    # Seed 000, Psychic Attack and Mechanical Assault: a figure that may not
                    # move, revealed by a moving blip, ends its turn at once.
                    ctx.say("skipped_by_event", figure=figure.id)
                    continue
                self.act(ctx, figure, max(0, allowance(ctx, figure) - len(walked)))

    # phase 3 -------------------------------------------------------------------------------

    def move_aliens(self, ctx: TurnContext, acted: set[str]) -> None:
        aliens = [a for a in ctx.aliens() if a.id not in acted]
        if not aliens:
            return
        distance = {
            a.id: nearest_marine(ctx, assess(ctx.state, a, ctx.rules, 0))[0] for a in aliens
        }
        elite = self.elite(ctx, aliens, distance)
        rest = [a for a in aliens if elite is None or a.id != elite.id]
        order = ordered_by_distance(ctx, rest, lambda a: distance[a.id], "alien_order")
        for alien in ([elite] if elite is not None else []) + order:
            if not ctx.state.has_figure(alien.id):
                continue
            acted.add(alien.id)
            alien = ctx.state.figure(alien.id)
            criterion = "event_first" if elite is not None and alien.id == elite.id else "nearest"
            self.act(ctx, alien, allowance(ctx, alien), criterion)
            if criterion == "event_first" and acts_again(ctx, alien.id):
                again = ctx.state.figure(alien.id)
                self.act(ctx, again, allowance(ctx, again), "event_again")

    def elite(
        self, ctx: TurnContext, aliens: list[Figure], distance: dict[str, int]
    ) -> Figure | None:
        """Alien Elite (seed 000, appendix I): of the aliens about to move, the one of the
        highest type in the card's list nearest a marine (the dice on a tie) activates
        first; None without the card."""
        for unit in ctx.modifiers.activate_first:
            kind = [a for a in aliens if a.unit == unit]
            if not kind:
                continue
            nearest = min(distance[a.id] for a in kind)
            tied = sorted((a for a in kind if distance[a.id] == nearest), key=lambda a: a.id)
            chosen = tied[random_index(ctx.dice, len(tied), "elite_tie")]
            ctx.say("event_activate_first", figure=chosen.id, unit=unit)
            return chosen
        return None

    def act(self, ctx: TurnContext, alien: Figure, moves: int, criterion: str = "nearest") -> None:
        ctx.say("activation", figure=alien.id, unit=alien.unit, criterion=criterion)
        if alien.unit in ctx.modifiers.cannot_act:
            ctx.say("skipped_by_event", figure=alien.id)
            return
        if not marines_on_board(ctx.state):
            offer_card(ctx, alien)  # it was there to use Suicide Android, with nobody to catch
            return
        # Seed 000: the alien the event card arms fires it without the behaviour die.
        attacked = event_card_attack(ctx, alien, moves)
        if attacked is None:
            assessment = assess_focus(ctx.state, alien, ctx.rules, moves)
            if self.mode(ctx, assessment) == "close":
                attacked = self.close_combat(ctx, assessment)
            else:
                attacked = self.shoot(ctx, assessment)
        if (
            attacked is not None
            and attacked.steps == 0
            and (attacked.kind != "hand_to_hand" or alien.is_dreadnought)
            and ctx.state.has_figure(alien.id)
        ):
            # Seed 000 hides an alien after it fired without moving; a Dreadnought also
            # after a fight (its 1-life-point behaviour), nobody else after a fight.
            self.hide(ctx, ctx.state.figure(alien.id), moves)

    def mode(self, ctx: TurnContext, assessment: Assessment) -> str:
        """ "close" or "shoot", by the unit's table (a d6 roll where the seed says)."""
        figure = assessment.reach.figure
        kind = activation_type(figure, ctx.rules)
        rule = tables()["behaviour"].get(kind, {"mode": "close"})
        if rule["mode"] == "by_life_points":
            mode = "close" if figure.life_points <= rule["close_at_or_below"] else "shoot"
            ctx.say("behaviour_fixed", figure=figure.id, mode=mode)
            return mode
        if rule["mode"] != "d6":
            ctx.say("behaviour_fixed", figure=figure.id, mode=rule["mode"])
            return rule["mode"]
        if not any(r.attackable for r in assessment.reaches):
            return "shoot"
        roll = ctx.dice.d6("solitaire_behaviour", figure.id)
        mode = "close" if roll in rule["close"] else "shoot"
        ctx.say("behaviour_roll", figure=figure.id, roll=roll, mode=mode)
        return mode

    def close_combat(self, ctx: TurnContext, assessment: Assessment) -> Plan | None:
        reach = assessment.reach
        distance, target = nearest_marine(ctx, reach)
        if target is None:
            ctx.say("no_focus", figure=reach.figure.id)
            return None
        if distance <= reach.allowance:
            plans = [
                p
                for p in focus_plans(ctx, assessment, [_owner(target)])
                if p.kind == "hand_to_hand" and p.target == target.id
            ]
            if plans:
                ctx.say(
                    "target_choice", figure=reach.figure.id, target=target.id, criterion="nearest"
                )
                execute_plan(ctx, reach, plans[0], [], False)
                return plans[0]
        ctx.say("cannot_attack", figure=reach.figure.id)
        approach(ctx, reach, _owner(target))
        return None

    def shoot(self, ctx: TurnContext, assessment: Assessment) -> Plan | None:
        reach = assessment.reach
        figure = reach.figure
        kind = activation_type(figure, ctx.rules)
        if kind in ("chaos_marine_heavy", "dreadnought"):
            plans = area_plans(ctx, assessment)
            if plans:
                execute_plan(ctx, reach, plans[0], [], True)
                return plans[0]
        else:
            plans = [
                p
                for p in focus_plans(ctx, assessment, [r.player for r in assessment.reaches])
                if p.kind == "shoot"
            ]
            if plans:
                # The nearest firing square, then the nearest marine.
                plans.sort(key=lambda p: (p.steps, p.distance, p.target))
                ctx.say(
                    "target_choice", figure=figure.id, target=plans[0].target, criterion="nearest"
                )
                execute_plan(ctx, reach, plans[0], [], False)
                return plans[0]
        _, target = nearest_marine(ctx, reach)
        if target is None:
            ctx.say("no_focus", figure=figure.id)
            return None
        ctx.say("cannot_attack", figure=figure.id)
        approach(ctx, reach, _owner(target))
        return None

    def hide(self, ctx: TurnContext, figure: Figure, moves: int) -> None:
        """After attacking without moving: the nearest square no marine can shoot at."""
        reach = assess(ctx.state, figure, ctx.rules, moves)
        for steps, anchor in reach.stops:
            if steps == 0:
                continue
            if not _shootable(ctx.state, figure, anchor):
                ctx.say("hide_move", figure=figure.id, square=list(anchor))
                move_to(ctx, reach, anchor)
                return

    # phase 4 -------------------------------------------------------------------------------

    def reinforcements(self, ctx: TurnContext) -> None:
        if not ctx.state.reinforcements:
            return
        rule = tables()["reinforcements"]
        if not ctx.state.blips and not ctx.aliens():
            count = rule["count_when_board_empty"]
        else:
            roll = ctx.dice.roll(DieKind(rule["trigger_die"]), 1, purpose="reinforcements")[0]
            ctx.say("reinforcement_roll", roll=roll)
            if roll not in rule["trigger_faces"]:
                return
            count = ctx.dice.roll(DieKind(rule["count_die"]), 1, purpose="reinforcement_count")[0]
        ctx.say("reinforcement_count", count=count)
        ctx.state, steps = place_reinforcements(ctx.state, count, ctx.dice, ctx.rules)
        ctx.extend(steps)


def _free_for_blip(state: GameState, sq: Square) -> bool:
    return state.figure_at(sq) is None and state.blip_at(sq) is None


def _shootable(state: GameState, figure: Figure, anchor: Square) -> bool:
    body = (
        (anchor,)
        if not figure.is_dreadnought
        else (
            anchor,
            (anchor[0] + 1, anchor[1]),
            (anchor[0], anchor[1] + 1),
            (anchor[0] + 1, anchor[1] + 1),
        )
    )
    for marine in marines_on_board(state):
        for a in marine.squares:
            for b in body:
                sight = line_of_sight(state, a, b, for_firing=True, ignore={marine.id, figure.id})
                if sight.visible:
                    return True
    return False


def blip_reach(ctx: TurnContext, blip: Blip) -> AlienReach:
    """The blip's moves, computed as those of a stand-in alien on its square (a blip moves
    like an alien and may pass aliens)."""
    stand_in = Figure(f"blip:{blip.id}", ALIEN, None, "gretchin", (blip.square,), 1)
    state = ctx.state.replace(blips=tuple(b for b in ctx.state.blips if b.id != blip.id))
    state = state.with_figure(stand_in)
    return assess(state, stand_in, ctx.rules, tables()["blip_movement"])


# --- survey -----------------------------------------------------------------------------------


def _count(dice: Dice, spec: Any, pile: int, last: bool) -> int:
    """Blips for one section; the map's last unsurveyed section takes all that are left
    (the seed's "fourth section", generalised to maps of any number of sections). Nothing
    is rolled when no blip is left to draw."""
    if spec == "all" or last or pile == 0:
        return pile
    kind = DieKind(spec["dice"])
    return min(pile, dice.roll(kind, 1, purpose="survey_blip_count")[0] + int(spec["plus"]))


def blip_pile(state: GameState) -> tuple[str, ...]:
    """The blip tokens not drawn yet (the state's progress; an older state's switch)."""
    return state.progress.blip_pile or ()


def survey(state: GameState, section_id: str, dice: Dice) -> tuple[GameState, list[Step]]:
    """Solitaire survey of a newly entered section: draw blips from the hidden pile and
    place each by 1d12 + 1d12 inside the section (re-rolled on a bad square). In a session
    without aliens (``Stipulation.with_aliens``) the pile is not used and nothing is
    rolled: the survey is BoB's, which then places only the special-equipment blips, so
    the Alien policy makes no difference to such a game."""
    if section_id in state.surveyed_sections:
        return state, []
    if not state.stipulation.with_aliens:
        return survey_section(state, section_id)
    board = state.board
    section = board.section(section_id)
    order = len(state.surveyed_sections)
    last = order == len(board.sections) - 1
    mission = tables()["missions"].get(str(state.stipulation.switches.get(MISSION, "")), {})
    survey_table = mission.get("survey_blips", {})
    special = survey_table.get("special_sections", {})
    sequence = survey_table.get("sequence", tables()["survey_blips"]["default"])
    pile: list[str | None] = list(blip_pile(state))
    held = set(mission.get("hold_back", ())) if not last else set()
    drawable = [i for i, t in enumerate(pile) if t not in held]
    key = next((k for k in special if k in (section.id, section.name)), None)
    if key is not None:
        spec = special[key]
    else:
        plain = sum(
            1
            for s in state.surveyed_sections
            if not any(k in (s, board.section(s).name) for k in special)
        )
        spec = sequence[min(plain, len(sequence) - 1)]
    count = _count(dice, spec, len(drawable), last)
    steps = [Step("survey", {"section": section_id, "count": count})]
    squares = section.squares()
    x0 = min(x for x, _ in squares)
    y0 = min(y for _, y in squares)
    limit = tables()["blip_placement"]["max_rerolls"]
    blips = list(state.blips)
    for n in range(count):
        index = drawable.pop(random_index(dice, len(drawable), "blip_draw"))
        kind = pile[index]
        assert kind is not None  # drawable indices point at tokens still in the pile
        pile[index] = None
        placed = None
        for _ in range(limit):
            x, y = dice.roll(DieKind.D12, 2, purpose="blip_placement")
            sq = (x0 + x - 1, y0 + y - 1)
            reason = _unusable(state, squares, sq, blips)
            if reason is None:
                placed = sq
                break
            steps.append(
                Step(
                    "blip_placement_reroll", {"x": x, "y": y, "square": list(sq), "reason": reason}
                )
            )
        if placed is None:
            steps.append(Step("blip_no_room", {"section": section_id}))
            pile[index] = kind
            continue
        blip_id = f"blip-{section_id}-{n + 1}"
        while any(b.id == blip_id for b in blips):
            blip_id += "x"
        blips.append(Blip(blip_id, placed, kind))
        steps.append(Step("blip_placed", {"square": list(placed)}))
    state = state.replace(
        blips=tuple(blips), surveyed_sections=state.surveyed_sections + (section_id,)
    )
    state = with_progress(state, blip_pile=tuple(t for t in pile if t is not None))
    return state, steps


def reveal_after_move(state: GameState, figure_id: str, dice: Dice) -> tuple[GameState, list[Step]]:
    """After a marine-side move in a Solitaire game: :func:`survey` the section it stands
    in if nobody has yet, rolling ``dice``, then reveal the blips it sees as after any move
    (:func:`rules.engine.play.blips.reveal_after_move`), without the map's markers."""

    def survey_with_dice(before: GameState, section_id: str) -> tuple[GameState, list[Step]]:
        return survey(before, section_id, dice)

    return reveal_with_survey(state, figure_id, survey_with_dice, genestealer_markers=False)


def _unusable(
    state: GameState, squares: frozenset[Square], sq: Square, blips: list[Blip]
) -> str | None:
    if sq not in squares or state.board.is_solid(sq):
        return "outside"
    if state.figure_at(sq) is not None or any(b.square == sq for b in blips):
        return "occupied"
    if in_marine_sight(state, sq):
        return "in_sight"
    return None
