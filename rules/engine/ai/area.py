"""Area weapons of the aliens: a Chaos Marine's heavy weapon and a Dreadnought's guns.

RULES §11: these aliens ignore the focus rule and choose the position and the aim that
hit the most marines, then the most expected damage (a figure caught counts as a marine
hit only when the shot can take a life point from it, as combat resolves the shot: a
Tarantula's armour 6 is never beaten by two red dice, :attr:`plans.Shot.hurts`, and a
shot that can hurt nobody is never fired, game engine decision 24); an aim whose template
would touch another alien (or the firer where it fires from) is never taken, and a
missile is never aimed at a square next to the square it is fired from (so its blast may
cover the square the firer moved away from). A Dreadnought fires every weapon it still has
that can hurt someone from the one position it chose (the position whose weapons together
hit the most marines). A position is weighed with the doors the alien opens on its way
there open (:func:`ai.reach.stops_by_doors`): it fires after moving, so its template or
line goes through them.

Templates come from :mod:`rules.engine.combat` (missile blast, plasma line), the odds
from :mod:`rules.engine.odds`; an assault cannon splits its total among the marines it
sees (the split that destroys most, :func:`odds.best_split`).

Speed: an aim's score depends on where the firer stands only through a Tarantula gunner's
armour (4 against a shot from inside the Tarantula's arc, :func:`combat.armour_from`), so
aims are scored and sorted once per :func:`_arc_key` of the firing squares (once when no
gunner is on the board) and per set of doors opened on the way, for the positions behind
them; each candidate position then looks for the first aim it can see.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import replace
from fractions import Fraction
from heapq import merge
from itertools import count, groupby
from operator import itemgetter
from typing import Any

from rules.engine.ai.plans import Plan, Shot, hurt_by, hurt_if, shot_score, target_info
from rules.engine.ai.reach import (
    AlienReach,
    Assessment,
    footprint,
    in_doorway,
    mask_of,
    open_lines_to,
    sees,
    stops_by_doors,
)
from rules.engine.board import Board, DoorState
from rules.engine.caches import BoundedCache, declare
from rules.engine.combat import (
    SHOOT,
    AttackOption,
    CombatError,
    armour_from,
    attack_options,
    lascannon_options,
    line_squares,
    missile_hits,
)
from rules.engine.geometry import DIRECTIONS8, Square
from rules.engine.los import layout_line, layout_lines, layout_lines_to, line_verdict
from rules.engine.odds import (
    AttackOdds,
    SplitTarget,
    blast_odds,
    combine_independent,
    line_odds,
    shot_odds,
    split_odds,
)
from rules.engine.play.targets import targets_of
from rules.engine.play.turn_context import TurnContext
from rules.engine.state import ALIEN, Figure, GameState
from rules.engine.tarantula import TARANTULA

AREA_PATTERNS = ("blast", "line", "split")


def _figures_on(state: GameState, squares: list[Square]) -> list[Figure]:
    seen: dict[str, Figure] = {}
    for sq in squares:
        f = state.figure_at(sq)
        if f is not None:
            seen.setdefault(f.id, f)
    return list(seen.values())


def _armour(ctx: TurnContext, figure: Figure, body: Sequence[Square]) -> int:
    """The figure's armour against a shot fired from ``body`` (the firer's squares where it
    fires, after its move), as combat applies it (:func:`combat.armour_from`: a Force
    Field and a Tarantula gunner's arc included)."""
    return armour_from(ctx.state, figure, body, ctx.rules)


def _gunners(state: GameState) -> list[Figure]:
    """The figures on the board crewing a Tarantula: their armour depends on the square a
    shot comes from (the gunner's arc)."""
    return [
        f
        for f in state.figures
        if f.piloting
        and f.squares
        and state.has_figure(f.piloting)
        and state.figure(f.piloting).unit == TARANTULA
    ]


def _arc_key(ctx: TurnContext, gunners: list[Figure], body: Sequence[Square]) -> tuple:
    """What changes with the square a shot is fired from: each gunner's armour against a
    shot from ``body`` (empty without gunners). Firing squares with equal keys give every
    shot the same score."""
    return tuple(_armour(ctx, g, body) for g in gunners)


def _by_arc(
    ctx: TurnContext, firer: Figure, stops: list[tuple[int, Square]], gunners: list[Figure]
) -> list[tuple[tuple[Square, ...], list[tuple[int, Square]]]]:
    """``stops`` split by :func:`_arc_key` (in their order), each part with one of its
    firing squares (the body there) to score its shots from; ``stops`` itself, whole,
    when no gunner is on the board."""
    if not gunners or not stops:
        return [(footprint(firer, stops[0][1]) if stops else firer.squares, stops)]
    parts: dict[tuple, tuple[tuple[Square, ...], list[tuple[int, Square]]]] = {}
    for stop in stops:
        body = footprint(firer, stop[1])
        parts.setdefault(_arc_key(ctx, gunners, body), (body, []))[1].append(stop)
    return list(parts.values())


_DOOR_CODES = {d: i for i, d in enumerate(DoorState)}


def _door_code(state: GameState) -> bytes:
    """Every door state as one bytes object (quick to hash in a key)."""
    return bytes(map(_DOOR_CODES.__getitem__, state.door_open_slots))


#: Shots and ranked aims kept per firer's weapon: at most this many of each.
_MAX_BLASTS = 50_000


class _KeptBlasts:
    """What one firer's missile weapon found on one layout with these doors."""

    __slots__ = ("shots", "ranked")

    def __init__(self) -> None:
        #: Each shot by its aim and the figures within one square of it (:func:`blast_shot`).
        self.shots: BoundedCache[tuple, Shot | None] = BoundedCache(_MAX_BLASTS)
        #: :func:`_blast_aims` by the targets and every figure within two squares of them.
        self.ranked: BoundedCache[tuple, list[Shot]] = BoundedCache(_MAX_BLASTS)


_BLASTS: BoundedCache[tuple, _KeptBlasts] = declare(
    "area.blasts",
    bound=50_000,
    depends_on="the board, the door states, the firer, its weapon and the rules data",
)
_UNKNOWN: Any = object()  # not kept (None is a kept answer: no shot)
#: A number for each figure part of a key seen (id, side, unit, life points, weapons,
#: squares): a key then holds small ints, quick to hash. Numbers are never reused, so
#: forgetting an entry of this table only makes later keys miss.
_FIGURE_TOKENS: BoundedCache[tuple, int] = declare(
    "area.figure_tokens",
    bound=50_000,
    depends_on="a figure's id, side, unit, life points, weapons and squares",
)
#: The missile aims around some targets' squares, and the squares near them (see
#: :func:`_aim_area`), by board and those squares (each holds flags the size of a board).
_AIM_AREAS: BoundedCache[tuple, tuple[list[Square], bytearray]] = declare(
    "area.aim_areas", bound=1_000, depends_on="the board and the targets' squares"
)
_new_token = count().__next__


def _blasts_for(ctx: TurnContext, firer: Figure, weapon: str) -> _KeptBlasts:
    """The kept blast shots of ``firer``'s ``weapon`` on this layout and these doors."""
    state = ctx.state
    outer = (state.board, _door_code(state), firer.id, weapon, id(ctx.rules))
    kept = _BLASTS.get(outer)
    if kept is None:
        kept = _BLASTS.put(outer, _KeptBlasts())
    return kept


def _figure_token(
    ctx: TurnContext, f: Figure, shielded: tuple[str, ...], body: Sequence[Square]
) -> int:
    """The same number for figures alike in everything a blast's key looks at (whether
    Blind Grenades shield the figure's player, ``shielded``, and its armour against a shot
    fired from ``body``, a Force Field's and a Tarantula gunner's arc included)."""
    part = (
        f.id,
        f.side,
        f.unit,
        f.life_points,
        f.weapons,
        f.squares,
        bool(shielded) and f.player in shielded,
        _armour(ctx, f, body),
    )
    token = _FIGURE_TOKENS.get(part)
    if token is None:
        token = _FIGURE_TOKENS.put(part, _new_token())
    return token


def blast_shot(
    ctx: TurnContext,
    firer: Figure,
    weapon: str,
    aim: Square,
    known: dict[str, int],
    kept: BoundedCache[tuple, Shot | None],
    *,
    fired_from: Sequence[Square],
) -> Shot | None:
    """A missile at ``aim`` fired from ``fired_from`` (the firer's squares after its move;
    None if it would touch another alien). Memoised in ``kept`` (:func:`_blasts_for`'s
    shots) on everything the answer depends on: the layout, and the figures within one
    square, by their tokens (``known``: the tokens by figure id for this firing square,
    filled as they are met)."""
    state = ctx.state
    board = state.board
    occupant = state.occupant
    shielded = state.progress.shielded
    w, h = board.width, board.height
    near = []
    for y in (aim[1] - 1, aim[1], aim[1] + 1):
        if not 0 <= y < h:
            continue
        for x in (aim[0] - 1, aim[0], aim[0] + 1):
            fid = occupant[x + y * w] if 0 <= x < w else None
            if fid is not None:
                token = known.get(fid)
                if token is None:
                    token = known[fid] = _figure_token(ctx, state.figure(fid), shielded, fired_from)
                near.append(token)
    if not near:
        return None
    key = (aim, tuple(near))
    shot = kept.get(key, _UNKNOWN)
    if shot is _UNKNOWN:
        shot = kept.put(key, _blast_shot(ctx, firer, weapon, aim, fired_from))
    return shot


def _blast_shot(
    ctx: TurnContext, firer: Figure, weapon: str, aim: Square, body: Sequence[Square]
) -> Shot | None:
    """The missile at ``aim`` from ``body``. The firer is left out of what it hits: it
    fires after its move, from a square never next to the aim (:func:`_first_visible_blast`),
    so a blast over the square it starts from does not touch it."""
    state, rules = ctx.state, ctx.rules
    centre_figures, around_figures = (
        [f for f in hit if f.id != firer.id] for hit in missile_hits(state, aim)
    )
    if any(f.side == ALIEN for f in centre_figures + around_figures):
        return None
    # Scored once for every square the firer may throw from with the same arc key
    # (see the module docstring).
    centre_ids, centre = hurt_by(state, firer, centre_figures, rules, fired_from=body)
    around_ids, around = hurt_by(state, firer, around_figures, rules, fired_from=body)
    if not centre and not around:
        return None
    dice = rules.weapon(weapon).dice
    odds = blast_odds(dice, centre, around, "alien")
    hurts = tuple(sorted(odds.damaged_keys()))
    return Shot(
        weapon,
        "blast",
        None,
        aim,
        odds.expected_points(),
        odds.expected_life_points(),
        None,
        tuple(sorted(centre_ids + around_ids)),
        hurts,
        odds=odds,
    )


def line_shot(
    ctx: TurnContext,
    firer: Figure,
    weapon: str,
    origin: Square,
    direction: Square,
    origin_anchor: Square | None = None,
) -> Shot | None:
    state = ctx.state
    body = footprint(firer, origin_anchor) if origin_anchor is not None else (origin,)
    squares = [sq for sq in line_squares(state, origin, direction) if sq not in body]
    caught = [f for f in _figures_on(state, squares) if f.id != firer.id]
    if any(f.side == ALIEN for f in caught):
        return None
    ids, hits = hurt_by(state, firer, caught, ctx.rules, fired_from=body)
    if not hits:
        return None
    odds = line_odds(ctx.rules.weapon(weapon).dice, hits, "alien")
    hurts = tuple(sorted(odds.damaged_keys()))
    return Shot(
        weapon,
        "line",
        None,
        direction,
        odds.expected_points(),
        odds.expected_life_points(),
        origin,
        tuple(sorted(ids)),
        hurts,
        odds=odds,
    )


def visible_marines(ctx: TurnContext, firer: Figure, anchor: Square) -> list[Figure]:
    out = []
    for player in _players(ctx.state):
        for target in targets_of(ctx.state, player):
            if sees(ctx.state, firer, anchor, target)[0]:
                out.append(target)
    return out


def split_shot(
    ctx: TurnContext, weapon: str, visible: list[Figure], body: Sequence[Square]
) -> Shot | None:
    """An assault cannon fired from ``body`` split among the ``visible`` marines.

    Combat shares the total out by the best split of each roll (:func:`odds.best_split`),
    giving a figure a share only to take life points from it (a share above its armour):
    the figures the shot reaches, its ``hits``, are the ones it can hurt, its ``hurts``."""
    if not visible:
        return None
    targets = tuple(
        SplitTarget(target_info(ctx.state, f, ctx.rules), _armour(ctx, f, body))
        for f in sorted(visible, key=lambda f: f.id)
    )
    odds = split_odds(ctx.rules.weapon(weapon).dice, targets, "alien")
    hurts = odds.damaged_keys()
    return Shot(
        weapon,
        "split",
        visible[0].id,
        None,
        odds.expected_points(),
        odds.expected_life_points(),
        hits=hurts,
        hurts=hurts,
        odds=odds,
    )


def single_shot(ctx: TurnContext, weapon: str, target: Figure, body: Sequence[Square]) -> Shot:
    """One shot of ``weapon`` at ``target`` fired from ``body`` (a marine hit only if it
    can take a life point from it, :func:`plans.hurt_if`)."""
    dice = ctx.rules.weapon(weapon).dice
    points, life = shot_score(
        dice.white,
        dice.red,
        _armour(ctx, target, body),
        target.life_points,
        target_info(ctx.state, target, ctx.rules).value,
    )
    hurts = hurt_if(target.id, life)
    return Shot(weapon, "single", target.id, None, points, life, hurts=hurts)


def combat_shot(
    ctx: TurnContext,
    firer: Figure,
    anchor: Square,
    weapon: str,
    only_target: str | None,
    covered: frozenset[str] = frozenset(),
) -> Shot | None:
    """Extra-heavy patterns (lascannon areas, melta, conversion beamer): the combat
    module lists the options from ``anchor``; the best one touching no other alien is
    taken. The firer is no other alien: a conversion beam reaches back to its own square
    (RULES §10), and is refused only when it can hurt the firer there."""
    try:
        options = attack_options(ctx.state, firer.id, anchor, data=ctx.rules, include_doors=False)
    except CombatError:
        options = []
    return _best_option_shot(ctx, firer, weapon, options, only_target, covered)


def lascannon_rest(ctx: TurnContext, firer: Figure, weapon: str, shots: int) -> Shot | None:
    """Where the ``shots`` a lascannon has left go, chosen on the state after its earlier
    areas were rolled (seed 002: the next area is chosen after seeing the roll, game
    engine decision 31), by the area rule (most marines hurt, then expected points and
    life points), or None when they can hurt nobody from where the firer stands."""
    options = lascannon_options(ctx.state, firer.id, weapon, shots, ctx.rules)
    shot = _best_option_shot(ctx, firer, weapon, options, None, frozenset())
    return shot if shot is not None and shot.hurts else None


def _best_option_shot(
    ctx: TurnContext,
    firer: Figure,
    weapon: str,
    options: Iterable[AttackOption],
    only_target: str | None,
    covered: frozenset[str],
) -> Shot | None:
    """The best of combat's ``options`` for ``weapon`` as a planned shot: touching no other
    alien, not hurting the firer, hitting ``only_target`` when given, ranked by
    :func:`_covering_key`."""
    shielded = _shielded_ids(ctx.state)
    best = None
    for option in options:
        if option.kind != SHOOT or option.weapon != weapon:
            continue
        if option.odds.touches_friendly(besides=firer.id) or _hurts_itself(option, firer):
            continue
        hits = tuple(sorted(k for k in option.target_keys if k not in shielded))
        if not hits or (only_target is not None and only_target not in hits):
            continue
        hurts = tuple(sorted(k for k in option.odds.damaged_keys() if k not in shielded))
        shot = Shot(
            weapon,
            ctx.rules.weapon(weapon).pattern,
            None,
            option.aim,
            option.odds.expected_points(),
            option.odds.expected_life_points(),
            option.origin,
            hits,
            hurts,
            option.areas,
            option.odds,
        )
        if best is None or _covering_key(shot, covered) < _covering_key(best, covered):
            best = shot
    return best


def _hurts_itself(option: AttackOption, firer: Figure) -> bool:
    """Whether some roll of ``option`` takes a life point from its own firer."""
    return any(t.key == firer.id for t in option.odds.targets) and (
        firer.id in option.odds.damaged_keys()
    )


def _shielded_ids(state: GameState) -> frozenset[str]:
    """The figures Blind Grenades shield from this Alien turn (``progress.shielded``)."""
    players = state.progress.shielded
    if not players:
        return frozenset()
    return frozenset(f.id for f in state.figures if f.player in players)


def _players(state: GameState) -> list[str]:
    return list(state.initiative) or [p.id for p in state.players]


def _shot_key(shot: Shot) -> tuple:
    return shot.rank


def _blast_aims(ctx: TurnContext, firer: Figure, weapon: str, body: Sequence[Square]) -> list[Shot]:
    """Every missile aim touching a marine and no other alien, fired from ``body`` (or a
    firing square with the same :func:`_arc_key`), best first (a kept list: not to be
    changed).

    The aims are the squares on and next to the targets, and a shot at one depends only
    on the figures within one square of it, so the list is kept by the targets and every
    figure within two squares of them: equal keys give equal keys of every shot."""
    state = ctx.state
    board = state.board
    w = board.width
    targets = [t for player in _players(state) for t in targets_of(state, player)]
    shielded = state.progress.shielded
    aims, near = _aim_area(board, tuple(sq for t in targets for sq in t.squares))
    around = []
    for f in state.figures:
        for x, y in f.squares:
            if near[x + y * w]:
                around.append(_figure_token(ctx, f, shielded, body))
                break
    key = (tuple(_figure_token(ctx, t, shielded, body) for t in targets), tuple(around))
    kept = _blasts_for(ctx, firer, weapon)
    ranked = kept.ranked.get(key)
    if ranked is None:
        known: dict[str, int] = {}
        ranked = []
        for aim in aims:
            shot = blast_shot(ctx, firer, weapon, aim, known, kept.shots, fired_from=body)
            if shot is not None:
                ranked.append(shot)
        ranked.sort(key=_blast_order)
        kept.ranked.put(key, ranked)
    return ranked


def _aim_area(board: Board, squares: tuple[Square, ...]) -> tuple[list[Square], bytearray]:
    """The squares on and next to ``squares`` that are not solid (the aims, sorted), and a
    flag for each square within two squares of them (every square next to an aim)."""
    key = (board, squares)
    area = _AIM_AREAS.get(key)
    if area is not None:
        return area
    w, h, solid = board.width, board.height, board.solid
    aims: set[Square] = set()
    near = bytearray(w * h)
    for x, y in squares:
        for ay in range(max(0, y - 2), min(h, y + 3)):
            for ax in range(max(0, x - 2), min(w, x + 3)):
                near[ax + ay * w] = 1
                if abs(ax - x) <= 1 and abs(ay - y) <= 1 and not solid[ax + ay * w]:
                    aims.add((ax, ay))
    return _AIM_AREAS.put(key, (sorted(aims), near))


def _blast_order(shot: Shot) -> tuple:
    """Best first: :attr:`Shot.rank`, then the aim's row and column."""
    aim = _centre(shot)
    return shot.rank, aim[1], aim[0]


def _centre(shot: Shot) -> Square:
    """The square a blast shot is aimed at (every blast shot has one)."""
    assert shot.aim is not None, "a blast shot has an aim"
    return shot.aim


def _first_visible_blast(
    state: GameState,
    firer: Figure,
    body: tuple[Square, ...],
    shots: list[Shot],
    covered: frozenset[str] = frozenset(),
) -> Shot | None:
    """The first of ``shots`` (ranked best first) whose aim the firer's ``body`` sees and
    is not next to; with ``covered`` (marines the firer's earlier weapons already hit), the
    first of those that hurts the most marines not covered."""
    best: Shot | None = None
    best_new = -1
    for shot in _visible_blasts(state, firer, body, shots):
        if not covered:
            return shot
        new = len(set(shot.hurts) - covered)
        if new > best_new:
            best, best_new = shot, new
        if best_new >= shot.marines_hit:
            break  # the shots after it hit no more marines than it adds
    return best


def _visible_blasts(
    state: GameState, firer: Figure, body: tuple[Square, ...], shots: list[Shot]
) -> Iterator[Shot]:
    """Those of ``shots`` whose aim the firer's ``body`` sees and is not next to, in order."""
    table = layout_lines(state)
    # A 1x1 or 2x2 body: the aims next to it fill its box grown by one square.
    left, top = body[0][0] - 1, body[0][1] - 1
    right, bottom = body[-1][0] + 1, body[-1][1] + 1
    for shot in shots:
        aim = _centre(shot)
        if left <= aim[0] <= right and top <= aim[1] <= bottom:
            continue
        open_lines = []
        for sq in body:
            line = table.get((sq, aim) if sq <= aim else (aim, sq))
            if line is None:
                line = layout_line(state, sq, aim)
            if not line.blocked and line_verdict(state, line, None)[0]:
                open_lines.append(line)
        if not open_lines:
            continue
        occupant = state.figure_at(aim)
        ignore = {firer.id} | ({occupant.id} if occupant else set())
        if any(line_verdict(state, line, ignore)[0] for line in open_lines):
            yield shot


def _best_missile_stop(
    groups: list[tuple[TurnContext, list[tuple[int, Square]]]],
    reach: AlienReach,
    weapon: str,
    only_target: str | None,
) -> tuple[int, Square, Shot] | None:
    """For a figure with one blast weapon: the stop and aim :func:`area_plans` would pick
    among the stops of ``groups`` (each with its state: its aims are ranked on it), found
    rank by rank of equally good aims, best first, every group's ranks merged. The first
    stop (fewest steps, then row, column) seeing an aim of the best rank any stop sees
    wins, with the first such aim; stops that see only worse aims are never scanned
    against every aim.

    Each group's stops are split further by :func:`_arc_key` (a Tarantula gunner's armour
    depends on the square the missile comes from), each part's aims ranked for its own
    firing squares."""
    w, size = reach.distances.width, len(reach.distances.dist)
    firer = reach.figure
    gunners = _gunners(groups[0][0].state) if groups else []
    parts = [
        (here, body, part)
        for here, stops in groups
        for body, part in _by_arc(here, firer, stops, gunners)
    ]
    masks = [
        reach.stops_mask(w) if stops is reach.stops else mask_of(stops, w, size)
        for _, _, stops in parts
    ]

    def ranks(
        index: int, here: TurnContext, body: tuple[Square, ...]
    ) -> Iterator[tuple[tuple, int, list[Shot]]]:
        ranked = _ranked_blasts(here, firer, weapon, only_target, body)
        for rank, shots in groupby(ranked, key=_shot_key):
            yield rank, index, list(shots)

    found: tuple[int, Square, Shot] | None = None
    merged = merge(
        *(ranks(i, here, body) for i, (here, body, _) in enumerate(parts)), key=itemgetter(0)
    )
    for rank, index, shots in merged:
        if found is not None and rank > found[2].rank:
            break
        here, _, stops = parts[index]
        seen = _first_stop_seeing(here.state, reach, stops, masks[index], shots)
        if seen is not None and (found is None or _stop_order(seen) < _stop_order(found)):
            found = seen
    return found


def _stop_order(found: tuple[int, Square, Shot]) -> tuple[int, int, int]:
    steps, anchor, _ = found
    return steps, anchor[1], anchor[0]


def _first_stop_seeing(
    state: GameState,
    reach: AlienReach,
    stops: list[tuple[int, Square]],
    stops_mask: int,
    shots: list[Shot],
) -> tuple[int, Square, Shot] | None:
    """The first of ``stops`` (some of ``reach``'s, ``stops_mask`` their bits) seeing one
    of the aims of ``shots``, with the first it sees. Stops from which walls and solid
    squares block the line to every aim (the firer is 1x1 here) are not scanned: they
    could see none of them."""
    w = state.board.width
    open_from = 0
    for shot in shots:
        aim = _centre(shot)
        lines_to = layout_lines_to(state, aim)
        open_from |= open_lines_to(state, lines_to, aim, stops, stops_mask)
    for steps, anchor in reach.stops_in(open_from & stops_mask, w):
        seen = _first_visible_blast(state, reach.figure, footprint(reach.figure, anchor), shots)
        if seen is not None:
            return steps, anchor, seen
    return None


def _best_from(
    ctx: TurnContext,
    firer: Figure,
    anchor: Square,
    weapon: str,
    ranked_blasts: dict[str, list[Shot]],
    ranked_single: dict[str, list[tuple[Shot, Figure]]],
    only_target: str | None = None,
    covered: frozenset[str] = frozenset(),
) -> Shot | None:
    """The best shot of one weapon with the firer standing at ``anchor`` (touching
    ``only_target`` when given); ``ranked_blasts`` and ``ranked_single`` are scored from
    there (or from a square with the same :func:`_arc_key`). With ``covered``, the marines
    a Dreadnought's earlier weapons already hit from there, the shot hurting the most
    marines not covered comes first (RULES §11: the most distinct marines), then the best
    one."""
    state = ctx.state
    pattern = ctx.rules.weapon(weapon).pattern
    body = footprint(firer, anchor)
    if pattern == "blast":
        return _first_visible_blast(state, firer, body, ranked_blasts[weapon], covered)
    if pattern == "line":
        best = None
        for origin in body:
            for direction in DIRECTIONS8:
                shot = line_shot(ctx, firer, weapon, origin, direction, anchor)
                if shot is not None and only_target is not None and only_target not in shot.hits:
                    continue
                if shot is not None and (
                    best is None or _covering_key(shot, covered) < _covering_key(best, covered)
                ):
                    best = shot
        return best
    if pattern == "split":
        shot = split_shot(ctx, weapon, visible_marines(ctx, firer, anchor), body)
        if shot is not None and only_target is not None and only_target not in shot.hits:
            return None
        return shot
    if pattern not in ("single",):
        return combat_shot(ctx, firer, anchor, weapon, only_target, covered)
    first = None
    for shot, target in ranked_single[weapon]:
        adds = bool(set(shot.hurts) - covered)
        if first is not None and not adds:
            continue
        if sees(state, firer, anchor, target)[0]:
            if adds or not covered:
                return shot
            first = shot
    return first


def _covering_key(shot: Shot, covered: frozenset[str]) -> tuple:
    """:func:`_shot_key`, after the most marines hurt that ``covered`` does not hold."""
    return (-len(set(shot.hurts) - covered), *_shot_key(shot))


def area_plans(
    ctx: TurnContext, assessment: Assessment, only_target: str | None = None
) -> list[Plan]:
    """The best area (or all-weapons, for a Dreadnought) plan over the reachable stops;
    with ``only_target``, every shot must touch that figure (Priority policy).

    Each stop is weighed with the doors on the alien's way there open
    (:func:`ai.reach.stops_by_doors`), as the shot will be resolved: a template through a
    door it opened may reach another alien (never taken) or more marines."""
    reach = assessment.reach
    firer = reach.figure
    rules = ctx.rules
    if firer.unit in ctx.modifiers.cannot_shoot:
        return []
    weapons = [w for w in firer.weapons if rules.weapon(w).can_shoot]
    if not weapons:
        return []
    if not firer.is_dreadnought:
        weapons = [w for w in weapons if rules.weapon(w).pattern in AREA_PATTERNS][:1]
        if not weapons:
            return []
    groups = [
        (ctx if opened is ctx.state else replace(ctx, state=opened), stops)
        for opened, stops in stops_by_doors(ctx.state, reach)
    ]
    candidates: Iterable[tuple[int, Square, list[Shot]]]
    if not firer.is_dreadnought and rules.weapon(weapons[0]).pattern == "blast":
        found = _best_missile_stop(groups, reach, weapons[0], only_target)
        candidates = [] if found is None else [(found[0], found[1], [found[2]])]
    else:
        candidates = (
            candidate
            for here, stops in groups
            for candidate in _shots_per_stop(here, reach, stops, weapons, only_target)
        )
    # (ranking key, steps, anchor, shots, marines hit, expected points, expected life points)
    best: tuple[tuple, int, Square, tuple[Shot, ...], int, Fraction, Fraction] | None = None
    for steps, anchor, all_shots in candidates:
        # A shot that can hurt nobody is never fired (game engine decision 24).
        shots = [s for s in all_shots if s.hurts]
        if not shots:
            continue
        marines = distinct_marines(shots)
        points, life = plan_value(ctx, firer, anchor, shots)
        key = (-marines, -points, -life, steps, anchor[1], anchor[0])
        if best is None or key < best[0]:
            best = (key, steps, anchor, tuple(shots), marines, points, life)
    if best is None:
        return []
    _, steps, anchor, chosen, marines, points, life = best
    main = chosen[0]
    return [
        Plan(
            "area",
            anchor,
            steps,
            main.weapon,
            main.target or _aim_text(main),
            main.aim,
            points,
            life,
            marines,
            steps,
            shots=chosen,
        )
    ]


def lost_marks(state: GameState, shot: Shot) -> bool:
    """Whether a figure ``shot`` was aimed at or could hurt has left the board since it
    was planned (an earlier weapon of the same attack killed it)."""
    marks = {*shot.hits, *shot.hurts, *([shot.target] if shot.target else [])}
    return any(not state.has_figure(fid) or not state.figure(fid).on_board for fid in marks)


def aimed_again(ctx: TurnContext, firer: Figure, weapon: str) -> Shot | None:
    """The best shot of ``weapon`` from where ``firer`` stands now, on the current state
    (the area rule: most marines hurt, then expected points and life points), or None when
    from there it can hurt nobody. A Dreadnought's weapons are planned together before any
    fires; one whose marks an earlier weapon killed is aimed again so (game engine
    decision 29), not fired at an empty square or left silent."""
    anchor = min(firer.squares, key=lambda sq: (sq[1], sq[0]))
    body = footprint(firer, anchor)
    pattern = ctx.rules.weapon(weapon).pattern
    blasts = {weapon: _ranked_blasts(ctx, firer, weapon, None, body)} if pattern == "blast" else {}
    singles = {weapon: _ranked_single(ctx, weapon, None, body)} if pattern == "single" else {}
    shot = _best_from(ctx, firer, anchor, weapon, blasts, singles)
    return shot if shot is not None and shot.hurts else None


def _ranked_blasts(
    ctx: TurnContext,
    firer: Figure,
    weapon: str,
    only_target: str | None,
    body: Sequence[Square],
) -> list[Shot]:
    """:func:`_blast_aims` from ``body``, those touching ``only_target`` when given."""
    ranked = _blast_aims(ctx, firer, weapon, body)
    if only_target is None:
        return ranked
    return [s for s in ranked if only_target in s.hits]


def _ranked_single(
    ctx: TurnContext, weapon: str, only_target: str | None, body: Sequence[Square]
) -> list[tuple[Shot, Figure]]:
    """A single shot's scores from ``body`` at every target (``only_target`` alone when
    given), best first."""
    pairs = [
        (single_shot(ctx, weapon, t, body), t)
        for p in _players(ctx.state)
        for t in targets_of(ctx.state, p)
        if only_target is None or t.id == only_target
    ]
    pairs.sort(key=lambda pair: (_shot_key(pair[0]), pair[1].id))
    return pairs


def distinct_marines(shots: Iterable[Shot]) -> int:
    """How many different figures the shots may hurt (:attr:`Shot.hurts`): a marine two
    of a Dreadnought's weapons can hit counts once (RULES §11, "distinct figures")."""
    return len({fid for shot in shots for fid in shot.hurts})


def plan_value(
    ctx: TurnContext, firer: Figure, anchor: Square, shots: Sequence[Shot]
) -> tuple[Fraction, Fraction]:
    """The expected points and life points of ``shots`` fired together from ``anchor``.

    A marine dies once and has only his life points to lose, so a marine two of a
    Dreadnought's weapons can hurt is counted once, by the odds of his losses added up
    over those weapons (independent rolls, capped at his life points: he dies when the
    weapons together take them all; game engine decision 32); each shot's own figures
    count as the shot scored them."""
    points = sum((s.points for s in shots), Fraction(0))
    life = sum((s.life_points for s in shots), Fraction(0))
    if len(shots) < 2:
        return points, life
    seen: set[str] = set()
    twice: set[str] = set()
    for shot in shots:
        for fid in shot.hurts:
            (twice if fid in seen else seen).add(fid)
    for fid in sorted(twice):
        parts = [_odds_for(ctx, firer, anchor, s, fid) for s in shots if fid in s.hurts]
        for part in parts:
            points -= part.expected_points()
            life -= part.expected_life_points()
        together = combine_independent(parts)
        points += together.expected_points()
        life += together.expected_life_points()
    return points, life


def _odds_for(ctx: TurnContext, firer: Figure, anchor: Square, shot: Shot, fid: str) -> AttackOdds:
    """``shot``'s odds for the figure ``fid`` alone (a single shot's worked out as
    :func:`single_shot` scored it)."""
    if shot.odds is not None:
        return shot.odds.of_target(fid)
    target = ctx.state.figure(fid)
    armour = _armour(ctx, target, footprint(firer, anchor))
    info = target_info(ctx.state, target, ctx.rules)
    return shot_odds(ctx.rules.weapon(shot.weapon).dice, info, armour, "alien")


def _shots_per_stop(
    ctx: TurnContext,
    reach: AlienReach,
    stops: list[tuple[int, Square]],
    weapons: list[str],
    only_target: str | None,
) -> Iterator[tuple[int, Square, list[Shot]]]:
    """Every one of ``stops`` with the best shot of each weapon from it (stops with none
    skipped), ``ctx.state`` having the doors on the way to them open. Blasts and single
    shots are ranked once per :func:`_arc_key` of the stops (once when no Tarantula
    gunner is on the board)."""
    firer = reach.figure
    patterns = {w: ctx.rules.weapon(w).pattern for w in weapons}
    gunners = _gunners(ctx.state)
    ranked: dict[tuple, tuple[dict[str, list[Shot]], dict[str, list[tuple[Shot, Figure]]]]] = {}
    for steps, anchor in stops:
        if firer.is_dreadnought and in_doorway(ctx.state, anchor):
            continue
        body = footprint(firer, anchor)
        arc = _arc_key(ctx, gunners, body) if gunners else ()
        if arc not in ranked:
            ranked[arc] = (
                {
                    w: _ranked_blasts(ctx, firer, w, only_target, body)
                    for w in weapons
                    if patterns[w] == "blast"
                },
                {
                    w: _ranked_single(ctx, w, only_target, body)
                    for w in weapons
                    if patterns[w] == "single"
                },
            )
        ranked_blasts, ranked_single = ranked[arc]
        shots = []
        covered: frozenset[str] = frozenset()
        for w in weapons:
            shot = _best_from(
                ctx, firer, anchor, w, ranked_blasts, ranked_single, only_target, covered
            )
            if shot is not None:
                shots.append(shot)
                covered |= frozenset(shot.hurts)
        if shots:
            yield steps, anchor, shots


def _aim_text(shot: Shot) -> str:
    if shot.aim is None:
        return "-"
    return f"{shot.aim[0]},{shot.aim[1]}"
