"""Carrying out an alien's decisions on the state, with the judge's log.

Moves go through :func:`rules.engine.movement.move` (doors on the path are opened there);
attacks through :mod:`rules.engine.combat`. Every change is narrated on the context. A door
an alien opens may show marines what lay behind it: the blips they now see are revealed
(:func:`rules.engine.play.blips.reveal_after_door`).
"""

from __future__ import annotations

from rules.engine.ai.area import aimed_again, lascannon_rest, lost_marks
from rules.engine.ai.plans import Plan, Shot
from rules.engine.ai.reach import AlienReach
from rules.engine.ai.strike import carry_out, carry_out_area
from rules.engine.board import DoorState
from rules.engine.geometry import Square
from rules.engine.movement import UNREACHABLE, field_to_adjacent, follow_path, on_shortest_paths
from rules.engine.play.blips import reveal_after_door
from rules.engine.play.turn_context import TurnContext


def move_to(ctx: TurnContext, reach: AlienReach, anchor: Square) -> bool:
    """Move the alien to ``anchor`` along its shortest path; False if it stays put."""
    figure = ctx.state.figure(reach.figure.id)
    if anchor == reach.field.start:
        return False
    path = reach.field.path_to(anchor)
    if path is None:
        return False
    ctx.state, events = follow_path(ctx.state, figure.id, path)
    ctx.say(
        "move",
        figure=figure.id,
        **{"from": list(reach.field.start), "to": list(anchor)},
        path=[list(reach.field.start)] + [list(sq) for sq in path],
        steps=len(path),
    )
    opened = False
    for event in events:
        if event.kind == "door_opened":
            a, b = event.detail["between"]
            ctx.say("door_opened", figure=figure.id, a=list(a), b=list(b))
            opened = True
    if opened:
        reveal_behind_doors(ctx)
    return True


def reveal_behind_doors(ctx: TurnContext) -> None:
    """After an alien opened a door: reveal the blips (and Genestealer markers) a marine
    now sees, logged like the reveal after a marine's move. RULES is silent on doors opened
    by aliens; "a blip in the sight of a marine is revealed" holds whoever opened the door.
    The alien revealed acts when its policy's order reaches it: in BoB later in this turn
    (the next alien is chosen from those on the board), under Priority and in Solitaire's
    phase 3 (orders fixed when they start) next turn."""
    ctx.state, steps = reveal_after_door(ctx.state, genestealer_markers=ctx.genestealer_markers)
    ctx.extend(steps)


def approach(ctx: TurnContext, reach: AlienReach, player: str) -> None:
    """Move as close as possible (path distance) to standing next to ``player``'s figures:
    the reachable stop with the lowest remaining distance, then the fewest steps."""
    figure = reach.figure
    if reach.allowance <= 0:
        ctx.say("held_by_event", figure=figure.id)
        return
    best, remaining = _approach_stop(ctx, reach, player)
    if best is None:
        ctx.say("stay", figure=figure.id, square=list(reach.field.start))
        return
    move_to(ctx, reach, best)
    if figure.is_dreadnought and remaining is not None:  # always measured for it
        note_doorway(ctx, reach, best, remaining)


def _approach_stop(
    ctx: TurnContext, reach: AlienReach, player: str
) -> tuple[Square | None, list[int] | None]:
    """The stop :func:`approach` moves to (None: it stays) and, when they were measured,
    the remaining distances from every position. Kept in the state's memo for the same
    reach (a turn resolved again from the same position approaches once)."""
    memo = ctx.state.memo
    approaches = memo.approaches
    if approaches is None:
        approaches = memo.approaches = {}
    key = (reach.figure.id, player)
    kept = approaches.get(key)
    if kept is not None and kept[0] is reach:
        return kept[1], kept[2]
    figure = reach.figure
    remaining = None
    best = None if figure.is_dreadnought else _stop_on_shortest_path(ctx, reach, player)
    if best is None:
        remaining = field_to_adjacent(ctx.state, figure.id, player)
        w = ctx.state.board.width
        stop = min(
            reach.stops,
            key=lambda item: (
                remaining[item[1][0] + item[1][1] * w],
                item[0],
                item[1][1],
                item[1][0],
            ),
        )[1]
        start_left = remaining[reach.field.start[0] + reach.field.start[1] * w]
        if stop != reach.field.start and remaining[stop[0] + stop[1] * w] < start_left:
            best = stop
    approaches[key] = (reach, best, remaining)
    return best, remaining


def _stop_on_shortest_path(ctx: TurnContext, reach: AlienReach, player: str) -> Square | None:
    """The stop :func:`approach` picks, when it lies on a shortest path to the player.

    From a stop ``k`` steps away the player is at least ``D - k`` away (``D`` from the
    start), exactly ``D - k`` on a shortest path and more elsewhere. So when some stop on
    a shortest path is a whole ``allowance`` away, no stop can do better, and among those
    the first by row and column wins, as in the general rule. Otherwise (None) the caller
    measures every stop."""
    allowance = reach.allowance
    nearest, layers = on_shortest_paths(ctx.state, reach.figure.id, reach.field, player, allowance)
    if nearest >= UNREACHABLE or len(layers) <= allowance:
        return None
    w = ctx.state.board.width
    stoppable = reach.field.stoppable
    ends = [i for i in layers[allowance] if stoppable[i]]
    if not ends:
        return None
    i = min(ends, key=lambda j: (j // w, j % w))
    return (i % w, i // w)


def note_doorway(ctx: TurnContext, reach: AlienReach, anchor: Square, remaining: list[int]) -> None:
    """Tell the judge when a Dreadnought stopped short because the next position on its way
    is under a door (it never ends a move crouched in a doorway)."""
    board = ctx.state.board
    here = board.index(anchor)
    for j in board.dread_steps[here]:
        if remaining[j] < remaining[here] and board.dread_doors[j]:
            ctx.say("doorway_stop", figure=reach.figure.id)
            return


def _open_door_for_fight(ctx: TurnContext, figure_id: str, target_id: str) -> None:
    """An alien that ends its move in front of a closed door opens it to fight across."""
    figure = ctx.state.figure(figure_id)
    target = ctx.state.figure(target_id)
    for a in figure.squares:
        for b in target.squares:
            if ctx.state.door_state(a, b) is DoorState.CLOSED:
                ctx.state = ctx.state.with_door(a, b, DoorState.OPEN)
                ctx.say("door_opened", figure=figure_id, a=list(a), b=list(b))
                reveal_behind_doors(ctx)
                return


def execute_plan(
    ctx: TurnContext, reach: AlienReach, plan: Plan, alternatives: list[Plan], area: bool
) -> bool:
    """Narrate the choice, move to the plan's square and resolve its shots."""
    figure = reach.figure
    if area:
        ctx.say("area_choice", figure=figure.id, marines=plan.marines_hit)
    summary = plan.summary()
    ctx.say("attack_chosen", figure=figure.id, **summary)
    for other in alternatives:
        ctx.say("attack_alternative", **other.summary())
    if plan.doubtful:
        ctx.say("doubtful_sight", a=list(plan.anchor), b=list(ctx.state.figure(plan.target).square))
    move_to(ctx, reach, plan.anchor)
    if plan.kind == "hand_to_hand":
        _open_door_for_fight(ctx, figure.id, plan.target)
    done = False
    for index, shot in enumerate(plan.shots):
        if not ctx.state.has_figure(figure.id):
            break
        if index and lost_marks(ctx.state, shot):
            again = aimed_again(ctx, ctx.state.figure(figure.id), shot.weapon)
            if again is None:
                ctx.say("shot_dropped", figure=figure.id, weapon=shot.weapon)
                continue
            ctx.say("shot_aimed_again", figure=figure.id, weapon=shot.weapon)
            shot = again
        if len(shot.areas) > 1:
            done = fire_areas(ctx, figure.id, shot) or done
        else:
            done = carry_out(ctx, figure.id, (shot,)) or done
    if not done:
        ctx.say("attack_unavailable", figure=figure.id)
    return done


def fire_areas(ctx: TurnContext, figure_id: str, shot: Shot) -> bool:
    """Fire a lascannon's planned areas one at a time, the one with the fewest shots first,
    and choose where the shots left go after seeing each roll (seed 002, "Il Cannone
    Laser": the player fires one shot, sees the result, then decides where the others go;
    game engine decision 31). False if combat refused the first area."""
    weapon = shot.weapon
    areas = shot.areas
    left = sum(n for _, n in areas)
    done = False
    while areas:
        area = min(areas, key=lambda a: a[1])
        if not carry_out_area(ctx, figure_id, weapon, area):
            break
        done = True
        left -= area[1]
        if not left or not ctx.state.has_figure(figure_id):
            break
        rest = lascannon_rest(ctx, ctx.state.figure(figure_id), weapon, left)
        if rest is None:
            ctx.say("areas_held", figure=figure_id, weapon=weapon, shots=left)
            break
        ctx.say("areas_chosen_again", figure=figure_id, weapon=weapon, shots=left)
        areas = rest.areas
    return done
