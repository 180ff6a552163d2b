"""Attacks on a game state: legal options with exact odds, and their resolution with dice.

:func:`attack_options` lists what a figure can attack from a square -- hand-to-hand against
orthogonal neighbours, every weapon pattern of RULES §10 (single shot, assault-cannon split,
plasma line, missile blast, lascannon areas, melta, conversion beamer), Tarantula fire inside
its arc, and reinforced bulkhead doors -- each with its exact :class:`~rules.engine.odds.
AttackOdds`. :func:`resolve_attack` rolls through a :class:`~rules.engine.dice.Dice` source
(every roll with a purpose) and returns the new state and the events for the judge's log.

Damage never leaves a figure on the board with 0 life points: it is removed. A Dreadnought
loses one heavy weapon per life point lost. Scores and tokens are not changed here: a
``killed`` event carries the points at stake (RULES §7) for the scoring code.

Decisions where RULES.md is silent are listed in ``docs/unit-data.md``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from .board import Board, DoorState
from .caches import BoundedCache, declare
from .card_effects import (
    COMBI_WEAPON,
    MELTA_BOMB,
    armour_with_cards,
    combi_weapon,
    fight_dice,
    fights_diagonally,
    melta_bomb_ready,
)
from .dice import Dice, DieKind
from .geometry import (
    DIRECTIONS8,
    ORTHOGONAL,
    Edge,
    Square,
    add,
    block_2x2,
    format_square,
    is_orthogonally_adjacent,
    neighbours8,
)
from .los import door_blockers, figure_sees, line_of_sight
from .narration_cards import CARD_ATTACKS
from .narration_combat import combat_text, dice_spec
from .narration_errors import CodedError
from .odds import (
    AttackOdds,
    SplitTarget,
    TargetInfo,
    best_split,
    blast_odds,
    combine_independent,
    conversion_odds,
    hand_to_hand_odds,
    lascannon_odds,
    line_odds,
    melta_odds,
    shot_odds,
    split_odds,
)
from .state import ALIEN, MARINE, Figure, GameState, rules_of
from .units import DiceSpec, RulesData, Weapon

HAND_TO_HAND = "hand_to_hand"
SHOOT = "shoot"
DOOR = "door"
#: The key of a bulkhead door among an option's targets starts so ("door 3,4|3,5").
DOOR_TARGET = "door "
#: Lascannon options also try splitting shots over this many of the best single areas.
LASCANNON_AREAS_COMBINED = 4


class CombatError(CodedError):
    """An attack is not possible as asked (the message says why; see
    :mod:`rules.engine.narration_errors` for its code and params)."""


@dataclass(frozen=True)
class CombatEvent:
    """One line of the combat log: a code of :mod:`rules.engine.narration_combat` and its
    JSON-ready params (an ``attack`` event has its option's code)."""

    kind: str  # attack, roll, hit, no_effect, damage, weapon_lost, killed, door_destroyed...
    code: str
    params: dict[str, Any] = field(hash=False)
    figure_id: str | None = None
    attack: int | None = None
    life_points_lost: int = 0
    points: int = 0  # for "killed": the points at stake (RULES §7)
    details: dict[str, Any] = field(default_factory=dict, compare=False)

    @property
    def text(self) -> str:
        """The event in English."""
        return combat_text(self.code, self.params, "en")

    def text_in(self, lang: str) -> str:
        return combat_text(self.code, self.params, lang)

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready, with the English text for readers that do not translate."""
        return {"kind": self.kind, "code": self.code, "params": self.params, "text": self.text}


@dataclass(frozen=True)
class AttackOption:
    """One legal attack of one figure from one position, with its exact odds. Its
    description is a code of :mod:`rules.engine.narration_combat` and JSON-ready params."""

    attacker_id: str
    kind: str  # "hand_to_hand", "shoot" or "door"
    weapon: str | None
    from_squares: tuple[Square, ...]
    odds: AttackOdds
    code: str
    params: dict[str, Any] = field(hash=False)
    target: str | None = None  # figure id (single shot, hand-to-hand)
    aim: Square | None = None  # missile square; impact square of a conversion beam
    direction: Square | None = None  # line weapons: a step such as (1, -1)
    origin: Square | None = None  # line weapons: the square the line starts from
    areas: tuple[tuple[Square, int], ...] = ()  # lascannon: (area top-left, shots)
    door: Edge | None = None
    allocation: tuple[tuple[str, int], ...] | None = None  # split: explicit (target, points)
    card: str | None = None  # a chapter card chosen with the attack (Melta Bomb, Combi-Weapon)

    @property
    def line(self) -> tuple[Square, Square]:
        """A line weapon's (origin, direction); the engine builds its options with both."""
        assert self.origin is not None and self.direction is not None, "not a line option"
        return self.origin, self.direction

    @property
    def target_keys(self) -> tuple[str, ...]:
        return tuple(t.key for t in self.odds.targets)

    @property
    def warns_friendly(self) -> bool:
        """Whether the judge should be warned that the attack may touch the attacker's own
        side: a hand-to-hand fight always "touches" the fighter itself, so only another
        figure counts there; a blast that reaches the firer warns."""
        fighter = self.attacker_id if self.kind == "hand_to_hand" else None
        return self.odds.touches_friendly(besides=fighter)

    @property
    def description(self) -> str:
        """The attack in English."""
        return combat_text(self.code, self.params, "en")

    def description_in(self, lang: str) -> str:
        return combat_text(self.code, self.params, lang)


def dice_param(spec: DiceSpec) -> dict[str, int]:
    """A dice spec as the ``dice`` param of a combat text."""
    return dice_spec(spec.red, spec.white)


# --- who is who -----------------------------------------------------------------------------


def owner_of(figure: Figure) -> str:
    """The scoring owner of a figure: its player, or ``"alien"``."""
    return figure.player if figure.side == MARINE and figure.player else ALIEN


def is_enemy(attacker: Figure, other: Figure) -> bool:
    if attacker.id == other.id:
        return False
    if attacker.side == ALIEN:
        return other.side == MARINE
    return other.side == ALIEN or other.player != attacker.player


def pilot_of(state: GameState, vehicle_id: str) -> Figure | None:
    return next((f for f in state.figures if f.piloting == vehicle_id), None)


def _is_vehicle(data: RulesData, figure: Figure) -> bool:
    return figure.unit == "tarantula" or (figure.is_dreadnought and figure.side == MARINE)


def is_attackable(state: GameState, figure: Figure, data: RulesData) -> bool:
    """On the board, not safe in a docking claw (RULES §10) and not an abandoned Tarantula
    or marine Dreadnought (RULES §7)."""
    if not figure.on_board:
        return False
    claw_of = state.board.claw_of
    for sq in figure.squares:  # a plain loop: any() over a generator costs more
        if claw_of(sq) is not None:
            return False
    if _is_vehicle(data, figure):
        return pilot_of(state, figure.id) is not None
    return True


def fought_as_a_shot(defender: Figure) -> bool:
    """Whether a fight with ``defender`` is the attacker's roll against its armour, with no
    roll of its own: a Tarantula's (seed 002, "La Tarantola nel combattimento corpo a
    corpo": it rolls no dice, and the attacker must beat its armour 6)."""
    return defender.unit == "tarantula"


def dreadnought_class_of(data: RulesData, figure: Figure) -> str:
    """The class named in the figure's equipment, else the first class in the data."""
    for item in figure.equipment:
        if item in data.dreadnought_classes:
            return item
    return next(iter(data.dreadnought_classes))


def kill_value(state: GameState, victim: Figure, data: RulesData) -> int:
    """Points a kill of ``victim`` is worth to the killer (RULES §7)."""
    if victim.unit == "tarantula":
        return data.tarantula_destroyed
    if victim.is_dreadnought:
        cls = data.dreadnought_class(dreadnought_class_of(data, victim)).class_value
        pilot = pilot_of(state, victim.id)
        if pilot is not None and pilot.side == MARINE:
            return cls + data.marine_value(pilot.unit, pilot.weapons)
        if victim.side == ALIEN:
            return _token_value(state, "dreadnought", data, alien_token_value(data, victim))
        return cls
    if victim.side == MARINE:
        if victim.piloting is not None and _is_tarantula(state, victim.piloting):
            return data.marine_value(victim.unit, victim.weapons, gunner=True)
        return data.marine_value(victim.unit, victim.weapons)
    return _token_value(state, victim.unit, data, alien_token_value(data, victim))


def alien_token_value(data: RulesData, alien: Figure) -> int:
    """What the token taken for killing ``alien`` scores (RULES §7): its type's token value,
    but for a Dreadnought whose class is named in its equipment that class's value
    (decision 31, docs/unit-data.md point 12), as the kill log and the odds count it."""
    if alien.is_dreadnought and any(item in data.dreadnought_classes for item in alien.equipment):
        return data.dreadnought_class(dreadnought_class_of(data, alien)).class_value
    return data.alien_tokens.get(alien.unit, 0)


def _token_value(state: GameState, alien: str, data: RulesData, value: int) -> int:
    """An alien scores only if a revealed token of its type is still free (RULES §7).

    A state without any tokens recorded (e.g. a what-if position) counts the token value."""
    if not state.tokens:
        return value
    free = any(t.alien == alien and t.taken_by is None for t in state.tokens)
    return value if free else 0


def _is_tarantula(state: GameState, figure_id: str) -> bool:
    return state.has_figure(figure_id) and state.figure(figure_id).unit == "tarantula"


# --- armour, arcs and the geometry of templates -------------------------------------------


def in_tarantula_arc(tarantula: Figure, square: Square, data: RulesData) -> bool:
    """Whether ``square`` is in the Tarantula's fire arc: the wedge opening ahead of its
    front square (sideways offset at most ``tarantula_arc_half_width`` x the distance
    ahead)."""
    dx, dy = tarantula.facing.delta
    front = max(tarantula.squares, key=lambda sq: sq[0] * dx + sq[1] * dy)
    ahead = (square[0] - front[0]) * dx + (square[1] - front[1]) * dy
    side = abs((square[0] - front[0]) * dy - (square[1] - front[1]) * dx)
    return ahead >= 1 and side <= ahead * data.tarantula_arc_half_width


def tarantula_arc(state: GameState, tarantula: Figure, data: RulesData) -> frozenset[Square]:
    """Squares of the board in the Tarantula's fire arc (:func:`in_tarantula_arc`)."""
    return frozenset(sq for sq in state.board.squares() if in_tarantula_arc(tarantula, sq, data))


def armour_against(
    state: GameState, target: Figure, attacker: Figure | None, data: RulesData
) -> int:
    """Armour of ``target`` against ``attacker`` standing where it is
    (:func:`armour_from`)."""
    return armour_from(state, target, None if attacker is None else attacker.squares, data)


def armour_from(
    state: GameState, target: Figure, squares: Iterable[Square] | None, data: RulesData
) -> int:
    """Armour of ``target`` against an attack made from ``squares`` (the attacker's, where
    it attacks from; None: from no one square). Cards count (a Force Field); a Tarantula
    gunner has more against attacks from its arc: any of ``squares`` inside it."""
    armour = armour_with_cards(state, target, data.unit(target.unit).armour)[0]
    if squares is not None and target.piloting and _is_tarantula(state, target.piloting):
        tarantula = state.figure(target.piloting)
        if any(in_tarantula_arc(tarantula, sq, data) for sq in squares):
            armour = max(armour, data.tarantula_gunner_armour_inside_arc)
    return armour


def _target_info(state: GameState, figure: Figure, data: RulesData) -> TargetInfo:
    return TargetInfo(
        figure.id,
        figure.life_points,
        kill_value(state, figure, data),
        owner_of(figure),
        f"{figure.id} ({data.unit(figure.unit).name})",
    )


def _step_open(state: GameState, a: Square, b: Square) -> bool:
    """Can a line or blast pass from ``a`` to its neighbour ``b`` (8 directions)?

    Orthogonally: no wall, closed door or standing bulkhead. Diagonally, through the
    corner: blocked only when both sides of the corner are blocked (as for sight)."""
    board = state.board
    if board.is_solid(b):
        return False
    if is_orthogonally_adjacent(a, b):
        return state.edge_open(a, b)
    side1 = (b[0], a[1])
    side2 = (a[0], b[1])
    open1 = not board.is_solid(side1) and state.edge_open(a, side1) and state.edge_open(side1, b)
    open2 = not board.is_solid(side2) and state.edge_open(a, side2) and state.edge_open(side2, b)
    return open1 or open2


def line_squares(state: GameState, origin: Square, direction: Square) -> list[Square]:
    """Squares of a straight line from ``origin`` (excluded) until a wall or closed door."""
    out: list[Square] = []
    here = origin
    while True:
        nxt = add(here, direction)
        if not state.board.in_bounds(nxt) or not _step_open(state, here, nxt):
            return out
        out.append(nxt)
        here = nxt


def blast_squares(state: GameState, centre: Square) -> list[Square]:
    """The squares around ``centre`` that a blast reaches (not through walls/closed doors).

    They depend only on the board and on which doors can be passed (those that block
    sight, :func:`rules.engine.los.door_blockers`), so they are kept by those, by centre:
    every turn meets the same few door positions again."""
    board = state.board
    key = (board, door_blockers(state))
    by_centre = _BLAST_SQUARES.get(key)
    if by_centre is None:
        by_centre = _BLAST_SQUARES.put(key, {})
    squares = by_centre.get(centre)
    if squares is None:
        squares = by_centre[centre] = tuple(
            n for n in neighbours8(centre) if board.in_bounds(n) and _step_open(state, centre, n)
        )
    return list(squares)


#: :func:`blast_squares` by board and door blockers: the squares by centre (a plain dict:
#: one entry per square of the board at most).
_BLAST_SQUARES: BoundedCache[tuple[Board, bytes], dict[Square, tuple[Square, ...]]] = declare(
    "combat.blast_squares", bound=256, depends_on="the board and which doors can be passed"
)


def _figures_on(state: GameState, squares: Iterable[Square]) -> list[Figure]:
    seen: dict[str, Figure] = {}
    for sq in squares:
        fig = state.figure_at(sq)
        if fig is not None and fig.id not in seen:
            seen[fig.id] = fig
    return list(seen.values())


def lascannon_area(top_left: Square, data: RulesData) -> tuple[Square, ...]:
    """The squares one lascannon shot hits: the data's template placed at ``top_left``
    (by default a 2x2 block, RULES §10)."""
    return tuple((top_left[0] + dx, top_left[1] + dy) for dx, dy in data.lascannon_area)


def lascannon_hit_squares(
    state: GameState,
    firer: Figure,
    area_top_left: Square,
    data: RulesData,
) -> list[Square]:
    """Squares of an area the firer sees (figures inside the area do not hide each other).

    A Tarantula fires through its gunner's eyes and only inside its arc."""
    area = [sq for sq in lascannon_area(area_top_left, data) if state.board.in_bounds(sq)]
    viewers: Sequence[Square] = firer.squares
    arc: frozenset[Square] | None = None
    if firer.unit == "tarantula":
        gunner = pilot_of(state, firer.id)
        if gunner is None or not gunner.on_board:
            return []
        viewers = gunner.squares
        arc = tarantula_arc(state, firer, data)
    inside = {f.id for f in _figures_on(state, area)}
    ignore = inside | {firer.id}
    if firer.unit == "tarantula":
        ignore |= {f.id for f in state.figures if f.piloting == firer.id}
    out = []
    for sq in area:
        if state.board.is_solid(sq) or (arc is not None and sq not in arc):
            continue
        if sq in firer.squares:
            continue
        if any(
            line_of_sight(state, v, sq, for_firing=True, ignore=ignore).visible for v in viewers
        ):
            out.append(sq)
    return out


# --- options ----------------------------------------------------------------------------


def _placed(state: GameState, attacker: Figure, from_square: Square | None) -> GameState:
    """The state with the attacker moved to ``from_square`` (top-left for a Dreadnought)."""
    if from_square is None or from_square == attacker.square:
        return state
    if len(attacker.squares) == 2:
        raise CombatError("tarantula_fixed", figure=attacker.id)
    squares = block_2x2(from_square) if attacker.is_dreadnought else (from_square,)
    for sq in squares:
        other = state.figure_at(sq)
        if state.board.is_solid(sq) or (other is not None and other.id != attacker.id):
            raise CombatError(
                "attack_square_taken",
                figure=attacker.id,
                square=list(from_square),
                blocked=list(sq),
            )
    return state.with_figure(attacker.moved_to(squares))


#: Dice read off a rules data object, by what was asked and the object's ``id`` (the object
#: is kept with its answer, so that the id cannot be reused while the answer is kept).
_DICE_KEPT: BoundedCache[tuple, tuple[RulesData, DiceSpec]] = declare(
    "combat.dice", bound=4096, depends_on="the rules data (by id, held) and what was asked"
)


def hand_to_hand_dice(data: RulesData, unit: str, weapons: tuple[str, ...]) -> DiceSpec:
    """``data.hand_to_hand_dice(unit, weapons)``, kept: the same figures' dice are asked
    for again and again by the Alien AI and in every fight."""
    return _kept_dice((HAND_TO_HAND, id(data), unit, weapons), data, _fight_dice)


def shot_dice(data: RulesData, weapon: str) -> DiceSpec:
    """The dice of one shot of ``weapon``, all its shots rolled together (kept, as
    :func:`hand_to_hand_dice`)."""
    return _kept_dice((SHOOT, id(data), weapon), data, _weapon_dice)


def _kept_dice(
    key: tuple, data: RulesData, make: Callable[[RulesData, tuple], DiceSpec]
) -> DiceSpec:
    """The dice ``make(data, key[2:])`` gives, kept in :data:`_DICE_KEPT` by ``key``."""
    kept = _DICE_KEPT.get(key)
    if kept is None or kept[0] is not data:
        kept = _DICE_KEPT.put(key, (data, make(data, key[2:])))
    return kept[1]


def _fight_dice(data: RulesData, asked: tuple) -> DiceSpec:
    unit, weapons = asked
    return data.hand_to_hand_dice(unit, weapons)


def _weapon_dice(data: RulesData, asked: tuple) -> DiceSpec:
    weapon = data.weapon(asked[0])
    return weapon.dice.times(max(1, weapon.shots))


def _data_for(state: GameState, data: RulesData | None) -> RulesData:
    if data is not None:
        return data
    return rules_of(state)


def _can_shoot(state: GameState, attacker: Figure, data: RulesData) -> bool:
    if attacker.is_dreadnought:
        # Crouched in a doorway it cannot fire (RULES §10).
        doors = state.board.dread_doors[state.board.index(attacker.square)]
        if doors:
            return False
        if attacker.side == MARINE and pilot_of(state, attacker.id) is None:
            return False
    if attacker.unit == "tarantula":
        return pilot_of(state, attacker.id) is not None
    if attacker.piloting is not None and _is_tarantula(state, attacker.piloting):
        return False  # the gunner works the Tarantula instead of his own weapon
    return True


def attack_options(
    state: GameState,
    attacker_id: str,
    from_square: Square | None = None,
    *,
    data: RulesData | None = None,
    include_doors: bool = True,
) -> list[AttackOption]:
    """Every legal attack of ``attacker_id`` from ``from_square`` (default: where it stands),
    each with its exact outcome distribution. The attacker is assumed to stand at
    ``from_square``; the state is not changed."""
    data = _data_for(state, data)
    if not state.has_figure(attacker_id):
        raise CombatError("no_figure", figure=attacker_id)
    attacker = state.figure(attacker_id)
    if not attacker.on_board:
        raise CombatError("attack_inside_vehicle", figure=attacker_id)
    if _is_vehicle(data, attacker) and pilot_of(state, attacker.id) is None:
        return []  # an abandoned vehicle does nothing
    state = _placed(state, attacker, from_square)
    attacker = state.figure(attacker_id)
    options: list[AttackOption] = []
    options.extend(_hand_to_hand_options(state, attacker, data))
    if _can_shoot(state, attacker, data):
        for weapon_key in dict.fromkeys(attacker.weapons):
            weapon = data.weapon(weapon_key)
            if weapon.can_shoot:
                options.extend(_weapon_options(state, attacker, weapon, data))
        combi = combi_weapon(state, attacker, data)
        if combi is not None:
            options.extend(
                _with_card(o, COMBI_WEAPON) for o in _weapon_options(state, attacker, combi, data)
            )
    if include_doors:
        options.extend(_door_options(state, attacker, data))
    return options


def _with_card(option: AttackOption, card: str) -> AttackOption:
    """``option`` chosen with the chapter card ``card`` (its description says so when a
    text of :mod:`rules.engine.narration_cards` is written for it)."""
    code = f"{option.code}_card"
    return replace(
        option,
        card=card,
        code=code if code in CARD_ATTACKS else option.code,
        params={**option.params, "chapter_card": card},
    )


def _hand_to_hand_options(
    state: GameState, attacker: Figure, data: RulesData
) -> list[AttackOption]:
    if attacker.unit == "tarantula":
        return []
    dice = hand_to_hand_dice(data, attacker.unit, attacker.weapons)
    out = []
    seen: set[str] = set()
    steps = DIRECTIONS8 if fights_diagonally(state, attacker) else ORTHOGONAL
    for sq in attacker.squares:
        for n in (add(sq, d) for d in steps):
            other = state.figure_at(n)
            if other is None or other.id in seen or not is_enemy(attacker, other):
                continue
            diagonal = n[0] != sq[0] and n[1] != sq[1]
            reach_open = _step_open(state, sq, n) if diagonal else state.edge_open(sq, n)
            if not reach_open or not is_attackable(state, other, data):
                continue
            seen.add(other.id)
            out.append(_hand_to_hand_option(state, attacker, other, dice, data))
    if out and melta_bomb_ready(state, attacker):
        foes = _foes(state, out)
        out.extend(_hand_to_hand_option(state, attacker, o, dice, data, MELTA_BOMB) for o in foes)
    return out


def _foes(state: GameState, options: list[AttackOption]) -> list[Figure]:
    return [state.figure(o.target) for o in options if o.target is not None]


def _hand_to_hand_option(
    state: GameState,
    attacker: Figure,
    defender: Figure,
    base: DiceSpec,
    data: RulesData,
    card: str | None = None,
) -> AttackOption:
    me = _target_info(state, attacker, data)
    them = _target_info(state, defender, data)
    dice = fight_dice(state, attacker, defender, base, melta=card == MELTA_BOMB)[0]
    if fought_as_a_shot(defender):
        odds = shot_odds(dice, them, data.unit("tarantula").armour, owner_of(attacker))
        code = "fight_tarantula"
        params = {"attacker": attacker.id, "target": defender.id, "dice": dice_param(dice)}
    else:
        their_base = hand_to_hand_dice(data, defender.unit, defender.weapons)
        their_dice = fight_dice(state, defender, attacker, their_base)[0]
        odds = hand_to_hand_odds(me, dice, them, their_dice)
        code = "fight"
        params = {
            "attacker": attacker.id,
            "target": defender.id,
            "dice": dice_param(dice),
            "their_dice": dice_param(their_dice),
        }
    option = AttackOption(
        attacker.id, HAND_TO_HAND, None, attacker.squares, odds, code, params, target=defender.id
    )
    return option if card is None else _with_card(option, card)


def _visible_enemies(
    state: GameState, attacker: Figure, data: RulesData, viewer: Figure | None = None
) -> list[Figure]:
    viewer = viewer or attacker
    out = []
    for other in state.figures:
        if not is_enemy(attacker, other) or not is_attackable(state, other, data):
            continue
        if viewer.id == other.id:
            continue
        if figure_sees(state, viewer, other, for_firing=True):
            out.append(other)
    return out


def _weapon_options(
    state: GameState, attacker: Figure, weapon: Weapon, data: RulesData
) -> list[AttackOption]:
    pattern = weapon.pattern
    if pattern == "single":
        return _single_options(state, attacker, weapon, data)
    if pattern == "split":
        option = _split_option(state, attacker, weapon, data)
        return [option] if option is not None else []
    if pattern in ("line", "melta", "conversion"):
        return _line_options(state, attacker, weapon, data)
    if pattern == "blast":
        return _blast_options(state, attacker, weapon, data)
    if pattern == "lascannon":
        return _lascannon_options(state, attacker, weapon, data)
    return []


def _single_options(
    state: GameState, attacker: Figure, weapon: Weapon, data: RulesData
) -> list[AttackOption]:
    out = []
    dice = shot_dice(data, weapon.key)
    for target in _visible_enemies(state, attacker, data):
        armour = armour_against(state, target, attacker, data)
        odds = shot_odds(dice, _target_info(state, target, data), armour, owner_of(attacker))
        params = {
            "attacker": attacker.id,
            "weapon": weapon.key,
            "target": target.id,
            "dice": dice_param(dice),
            "armour": armour,
        }
        out.append(
            AttackOption(
                attacker.id,
                SHOOT,
                weapon.key,
                attacker.squares,
                odds,
                "shot",
                params,
                target=target.id,
            )
        )
    return out


def split_targets(state: GameState, attacker: Figure, data: RulesData) -> tuple[SplitTarget, ...]:
    """Enemies the assault cannon may share its total among, each with the figures that
    must die first for it to come into sight (RULES §10: kills may reveal new targets)."""
    everyone = {f.id for f in state.figures}
    out = []
    for other in state.figures:
        if not is_enemy(attacker, other) or not is_attackable(state, other, data):
            continue
        best: frozenset[str] | None = None
        for a in attacker.squares:
            for b in other.squares:
                if not line_of_sight(state, a, b, for_firing=True, ignore=everyone).visible:
                    continue
                blockers = _blockers(state, a, b, attacker, other, everyone)
                if blockers is None:
                    continue
                if best is None or len(blockers) < len(best):
                    best = blockers
        if best is None:
            continue
        # Only targets whose blockers can all be killed by this split are ever reachable.
        armour = armour_against(state, other, attacker, data)
        out.append(SplitTarget(_target_info(state, other, data), armour, best))
    keys = {st.target.key for st in out}
    return tuple(st for st in out if st.blocked_by <= keys)


def _blockers(
    state: GameState, a: Square, b: Square, attacker: Figure, target: Figure, everyone: set[str]
) -> frozenset[str] | None:
    """Figures that must die for the line a-b to open (None: it never opens).

    A figure on the line blocks alone; two figures touching the line at one corner block
    together (either death opens it) -- counted conservatively as both."""
    own = {attacker.id, target.id}
    if line_of_sight(state, a, b, for_firing=True, ignore=own).visible:
        return frozenset()
    x0, x1 = sorted((a[0], b[0]))
    y0, y1 = sorted((a[1], b[1]))
    found: set[str] = set()
    grazing: set[str] = set()
    for f in state.figures:
        if f.id in own or not f.on_board:
            continue
        if not any(x0 <= x <= x1 and y0 <= y <= y1 for x, y in f.squares):
            continue
        sight = line_of_sight(state, a, b, for_firing=True, ignore=everyone - {f.id})
        if not sight.visible:
            found.add(f.id)
        elif sight.doubtful:
            grazing.add(f.id)
    for blockers in (found, found | grazing):
        if line_of_sight(state, a, b, for_firing=True, ignore=own | blockers).visible:
            return frozenset(blockers)
    return None


def _split_option(
    state: GameState, attacker: Figure, weapon: Weapon, data: RulesData
) -> AttackOption | None:
    targets = split_targets(state, attacker, data)
    if not any(not st.blocked_by for st in targets):
        return None
    odds = split_odds(weapon.dice, targets, owner_of(attacker))
    params = {
        "attacker": attacker.id,
        "weapon": weapon.key,
        "dice": dice_param(weapon.dice),
        "targets": [st.target.key for st in targets],
    }
    return AttackOption(
        attacker.id, SHOOT, weapon.key, attacker.squares, odds, "split_shot", params
    )


def _line_hits(
    state: GameState, attacker: Figure, origin: Square, direction: Square
) -> tuple[list[Square], list[Figure]]:
    squares = [sq for sq in line_squares(state, origin, direction) if sq not in attacker.squares]
    return squares, _figures_on(state, squares)


def _line_options(
    state: GameState, attacker: Figure, weapon: Weapon, data: RulesData
) -> list[AttackOption]:
    out = []
    seen: set[tuple] = set()
    owner = owner_of(attacker)
    for origin in attacker.squares:
        for direction in DIRECTIONS8:
            squares, figures = _line_hits(state, attacker, origin, direction)
            if weapon.pattern == "conversion":
                if not squares:
                    continue
                odds, reached = _conversion_odds(state, attacker, origin, squares, weapon, data)
                key = (weapon.pattern, tuple(sorted(reached)))
                enemies = [fid for fid, _ in reached if is_enemy(attacker, state.figure(fid))]
                if not enemies or key in seen:
                    continue
                seen.add(key)
                params = {
                    "attacker": attacker.id,
                    "weapon": weapon.key,
                    "origin": list(origin),
                    "square": list(squares[-1]),
                }
                out.append(
                    AttackOption(
                        attacker.id,
                        SHOOT,
                        weapon.key,
                        attacker.squares,
                        odds,
                        "beam_shot",
                        params,
                        aim=squares[-1],
                        direction=direction,
                        origin=origin,
                    )
                )
                continue
            hits = [f for f in figures if is_attackable(state, f, data)]
            line_key = (weapon.pattern, tuple(f.id for f in hits))
            if not any(is_enemy(attacker, f) for f in hits) or line_key in seen:
                continue
            seen.add(line_key)
            pairs = _pairs(state, attacker, hits, data)
            if weapon.pattern == "melta":
                odds = melta_odds(weapon.dice, pairs, owner)
            else:
                odds = line_odds(weapon.dice, pairs, owner)
            params = {
                "attacker": attacker.id,
                "weapon": weapon.key,
                "origin": list(origin),
                "direction": list(direction),
                "targets": [f.id for f in hits],
            }
            out.append(
                AttackOption(
                    attacker.id,
                    SHOOT,
                    weapon.key,
                    attacker.squares,
                    odds,
                    "line_shot",
                    params,
                    direction=direction,
                    origin=origin,
                )
            )
    return out


def conversion_reductions(
    state: GameState, origin: Square, line: Sequence[Square]
) -> dict[Square, int]:
    """How much less than the total each square takes from a conversion beam.

    The last square of the line takes the total; its reachable neighbours one less; each
    square back along the line (down to the firer's own square) one less than the next."""
    impact = line[-1]
    reductions: dict[Square, int] = {impact: 0}
    for sq in blast_squares(state, impact):
        reductions[sq] = min(reductions.get(sq, 1), 1)
    back = [origin, *line]
    for steps, sq in enumerate(reversed(back)):
        reductions[sq] = min(reductions.get(sq, steps), steps)
    return reductions


def _conversion_odds(
    state: GameState,
    attacker: Figure,
    origin: Square,
    line: Sequence[Square],
    weapon: Weapon,
    data: RulesData,
) -> tuple[AttackOdds, list[tuple[str, int]]]:
    """Odds of one beam, and the (figure id, reduction) pairs it can reach."""
    reductions = conversion_reductions(state, origin, line)
    max_total = 3 * weapon.dice.red + 2 * weapon.dice.white
    hits: list[tuple[TargetInfo, int, int]] = []
    reached: list[tuple[str, int]] = []
    for sq, reduction in sorted(reductions.items(), key=lambda kv: kv[1]):
        if reduction >= max_total:
            continue
        fig = state.figure_at(sq)
        if fig is None or not is_attackable(state, fig, data):
            continue
        armour = armour_against(state, fig, attacker, data)
        if any(fid == fig.id for fid, _ in reached):
            continue  # a figure on several squares takes its strongest hit
        hits.append((_target_info(state, fig, data), armour, reduction))
        reached.append((fig.id, reduction))
    return conversion_odds(weapon.dice, hits, owner_of(attacker)), reached


def missile_hits(state: GameState, aim: Square) -> tuple[list[Figure], list[Figure]]:
    """Figures on the aimed square, and figures the blast reaches around it."""
    centre = _figures_on(state, [aim])
    around = [f for f in _figures_on(state, blast_squares(state, aim)) if f not in centre]
    return centre, around


def self_destruct_squares(state: GameState, body: Sequence[Square]) -> list[Square]:
    """The squares the blast of a figure exploding on ``body`` reaches (Suicide Android,
    game engine decision 22): every square around it, as around a missile's centre
    (:func:`blast_squares`: not through walls or closed doors), by row then column."""
    reached = {sq for centre in body for sq in blast_squares(state, centre)} - set(body)
    return sorted(reached, key=lambda sq: (sq[1], sq[0]))


def self_destruct_victims(
    state: GameState, figure: Figure, body: Sequence[Square]
) -> tuple[list[Square], list[Figure]]:
    """The squares of ``figure``'s blast were it to explode on ``body``, and every other
    figure on them, whatever its side."""
    squares = self_destruct_squares(state, body)
    return squares, [f for f in _figures_on(state, squares) if f.id != figure.id]


def _blast_options(
    state: GameState, attacker: Figure, weapon: Weapon, data: RulesData
) -> list[AttackOption]:
    candidates: set[Square] = set()
    for other in state.figures:
        if is_enemy(attacker, other) and is_attackable(state, other, data):
            for sq in other.squares:
                candidates.add(sq)
                candidates.update(n for n in neighbours8(sq) if state.board.in_bounds(n))
    out = []
    owner = owner_of(attacker)
    for aim in sorted(candidates, key=lambda s: (s[1], s[0])):
        option = _blast_option_at(state, attacker, weapon, data, aim, owner)
        if option is not None:
            out.append(option)
    return out


def _blast_option_at(
    state: GameState, attacker: Figure, weapon: Weapon, data: RulesData, aim: Square, owner: str
) -> AttackOption | None:
    """The blast option at one candidate aim, or None where :func:`_blast_options` skips it."""
    if state.board.is_solid(aim) or aim in attacker.squares:
        return None
    occupant = state.figure_at(aim)
    if occupant is not None and occupant.id == attacker.id:
        return None
    if not figure_sees(state, attacker, aim, for_firing=True):
        return None
    centre, around = missile_hits(state, aim)
    centre = [f for f in centre if is_attackable(state, f, data)]
    around = [f for f in around if is_attackable(state, f, data)]
    if not any(is_enemy(attacker, f) for f in centre + around):
        return None
    odds = blast_odds(
        weapon.dice,
        [(_target_info(state, f, data), armour_against(state, f, attacker, data)) for f in centre],
        [(_target_info(state, f, data), armour_against(state, f, attacker, data)) for f in around],
        owner,
    )
    params = {"attacker": attacker.id, "weapon": weapon.key, "square": list(aim)}
    return AttackOption(
        attacker.id, SHOOT, weapon.key, attacker.squares, odds, "blast_shot", params, aim=aim
    )


def blast_option(
    state: GameState,
    attacker_id: str,
    weapon_key: str,
    aim: Square,
    *,
    data: RulesData | None = None,
) -> AttackOption | None:
    """The option :func:`attack_options` lists for firing the blast weapon ``weapon_key``
    of ``attacker_id`` (where it stands) at ``aim``, or None when it lists none, without
    working out every other option."""
    data = _data_for(state, data)
    if not state.has_figure(attacker_id):
        raise CombatError("no_figure", figure=attacker_id)
    attacker = state.figure(attacker_id)
    if not attacker.on_board:
        raise CombatError("attack_inside_vehicle", figure=attacker_id)
    if _is_vehicle(data, attacker) and pilot_of(state, attacker.id) is None:
        return None
    if weapon_key not in attacker.weapons or not _can_shoot(state, attacker, data):
        return None
    weapon = data.weapon(weapon_key)
    if not weapon.can_shoot or weapon.pattern != "blast":
        return None
    # A candidate aim of attack_options: on the board, on or next to an attackable enemy
    # (the figures standing on the aim and around it, read off the occupancy table).
    if not state.board.in_bounds(aim):
        return None
    if not any(
        other is not None and is_enemy(attacker, other) and is_attackable(state, other, data)
        for other in map(state.figure_at, (aim, *neighbours8(aim)))
    ):
        return None
    return _blast_option_at(state, attacker, weapon, data, aim, owner_of(attacker))


def _pairs(
    state: GameState, attacker: Figure, figures: Iterable[Figure], data: RulesData
) -> list[tuple[TargetInfo, int]]:
    """(target, armour against this attacker) for each figure."""
    return [
        (_target_info(state, f, data), armour_against(state, f, attacker, data)) for f in figures
    ]


def _area_pairs(
    state: GameState, attacker: Figure, area: Square, data: RulesData
) -> list[tuple[TargetInfo, int]]:
    squares = lascannon_hit_squares(state, attacker, area, data)
    figures = [f for f in _figures_on(state, squares) if is_attackable(state, f, data)]
    return _pairs(state, attacker, figures, data)


def lascannon_options(
    state: GameState,
    attacker_id: str,
    weapon: str,
    shots: int,
    data: RulesData,
    *,
    first: bool = False,
) -> list[AttackOption]:
    """The ways to fire ``shots`` of ``attacker_id``'s lascannon from where it stands: the
    shots it has left this turn after seeing where its earlier areas' dice fell (seed 002,
    "Il Cannone Laser": the area of the next shots is chosen after the roll, game engine
    decision 31); with ``first``, the ways to fire only some of them at one area now and
    choose where the others go after seeing the roll. None when it cannot shoot now."""
    attacker = state.figure(attacker_id)
    if not attacker.on_board or not _can_shoot(state, attacker, data):
        return []
    return _lascannon_options(state, attacker, data.weapon(weapon), data, shots, first=first)


def _lascannon_options(
    state: GameState,
    attacker: Figure,
    weapon: Weapon,
    data: RulesData,
    shots: int = 0,
    *,
    first: bool = False,
) -> list[AttackOption]:
    """Every way to fire the lascannon's ``shots`` (default: all it has) at the areas where
    they can hit an enemy; with ``first``, every way to fire fewer of them at one area, the
    others left to fire after seeing the roll."""
    owner = owner_of(attacker)
    corners: set[Square] = set()
    for other in state.figures:
        if is_enemy(attacker, other) and is_attackable(state, other, data):
            for x, y in other.squares:
                corners.update((x - dx, y - dy) for dx, dy in data.lascannon_area)
    areas: list[tuple[Square, list[tuple[TargetInfo, int]]]] = []
    seen: set[tuple[str, ...]] = set()
    for corner in sorted(corners, key=lambda s: (s[1], s[0])):
        pairs = _area_pairs(state, attacker, corner, data)
        if not any(t.owner != owner for t, _ in pairs):
            continue
        key = tuple(sorted(t.key for t, _ in pairs))
        if key in seen:
            continue
        seen.add(key)
        areas.append((corner, pairs))
    if not areas:
        return []
    shots = shots or max(1, weapon.shots)
    if first:
        return [
            _area_option(attacker, weapon, ((areas[i][0], n),), [(n, areas[i][1])], owner, shots)
            for i in range(len(areas))
            for n in range(1, shots)
        ]
    single = [
        (lascannon_odds(weapon.dice, [(1, pairs)], owner).expected_points(), i)
        for i, (_, pairs) in enumerate(areas)
    ]
    best = [i for _, i in sorted(single, key=lambda s: (-s[0], s[1]))[:LASCANNON_AREAS_COMBINED]]
    plans: list[tuple[tuple[int, int], ...]] = [((i, shots),) for i in range(len(areas))]
    if shots == 3:
        for i in best:
            for j in best:
                if i != j:
                    plans.append(((i, 2), (j, 1)))
        for a in range(len(best)):
            for b in range(a + 1, len(best)):
                for c in range(b + 1, len(best)):
                    plans.append(((best[a], 1), (best[b], 1), (best[c], 1)))
    elif shots == 2:
        for a in range(len(best)):
            for b in range(a + 1, len(best)):
                plans.append(((best[a], 1), (best[b], 1)))
    return [
        _area_option(
            attacker,
            weapon,
            tuple((areas[i][0], n) for i, n in plan),
            [(n, areas[i][1]) for i, n in plan],
            owner,
            shots,
        )
        for plan in plans
    ]


def _area_option(
    attacker: Figure,
    weapon: Weapon,
    chosen: tuple[tuple[Square, int], ...],
    hit: list[tuple[int, list[tuple[TargetInfo, int]]]],
    owner: str,
    shots: int,
) -> AttackOption:
    """The lascannon option firing ``chosen`` (area, shots) out of the ``shots`` it has
    left; ``hit`` is each area's shots and (target, armour) pairs. Firing fewer than all of
    them is an attack that leaves the others to fire after seeing the roll."""
    params = _area_params(attacker, weapon.key, chosen)
    left = shots - sum(n for _, n in chosen)
    code = "area_shot"
    if left > 0:
        code = "area_shot_first"
        params["left"] = left
    odds = lascannon_odds(weapon.dice, hit, owner)
    return AttackOption(
        attacker.id, SHOOT, weapon.key, attacker.squares, odds, code, params, areas=chosen
    )


def _door_target(door: Edge) -> TargetInfo:
    return TargetInfo(f"{DOOR_TARGET}{format_square(door[0])}|{format_square(door[1])}", 1, 0, None)


def _door_options(state: GameState, attacker: Figure, data: RulesData) -> list[AttackOption]:
    """Attacks on standing reinforced bulkheads: hand-to-hand from a square in front of
    one, or a weapon's whole roll when the firer sees the square in front of it."""
    out = []
    armour = data.bulkhead_door_armour
    owner = owner_of(attacker)
    for door, door_state in state.doors.items():
        if door_state is not DoorState.BULKHEAD:
            continue
        adjacent = any(sq in door for sq in attacker.squares)
        if adjacent and attacker.unit != "tarantula":
            dice = hand_to_hand_dice(data, attacker.unit, attacker.weapons)
            odds = shot_odds(dice, _door_target(door), armour, owner)
            params = {"attacker": attacker.id, "door": _door_param(door), "dice": dice_param(dice)}
            out.append(
                AttackOption(
                    attacker.id, DOOR, None, attacker.squares, odds, "door_fight", params, door=door
                )
            )
        if not _can_shoot(state, attacker, data):
            continue
        near = [
            sq
            for sq in door
            if sq in attacker.squares or figure_sees(state, attacker, sq, for_firing=True)
        ]
        if not near:
            continue
        for weapon_key in dict.fromkeys(attacker.weapons):
            weapon = data.weapon(weapon_key)
            if not weapon.can_shoot:
                continue
            dice = shot_dice(data, weapon.key)
            odds = shot_odds(dice, _door_target(door), armour, owner)
            params = {"attacker": attacker.id, "weapon": weapon.key, "door": _door_param(door)}
            out.append(
                AttackOption(
                    attacker.id,
                    DOOR,
                    weapon.key,
                    attacker.squares,
                    odds,
                    "door_shot",
                    params,
                    door=door,
                )
            )
    return out


def _door_param(door: Edge) -> list[list[int]]:
    return [list(door[0]), list(door[1])]


# --- resolution -----------------------------------------------------------------------------


#: A roll's purpose: a code of :mod:`rules.engine.narration_dice` and its params.
Purpose = tuple[str, dict[str, Any]]


def _roll(dice: Dice, spec: DiceSpec, purpose: Purpose, subject: str) -> tuple[int, ...]:
    code, params = purpose
    values: tuple[int, ...] = ()
    if spec.red:
        values += dice.roll(DieKind.RED, spec.red, code, subject, params)
    if spec.white:
        values += dice.roll(DieKind.WHITE, spec.white, code, subject, params)
    return values


def _roll_event(subject: str, purpose: Purpose, values: tuple[int, ...]) -> CombatEvent:
    total = sum(values)
    params = {
        "purpose": purpose[0],
        "purpose_params": purpose[1],
        "values": list(values),
        "total": total,
    }
    return CombatEvent("roll", "roll", params, subject, attack=total)


def _shot(attacker: Figure, weapon: Weapon, code: str = "shot", **params: Any) -> Purpose:
    return code, {"attacker": attacker.id, "weapon": weapon.key, **params}


def apply_damage(
    state: GameState,
    figure_id: str,
    lost: int,
    data: RulesData,
    *,
    cause: str = "",
) -> tuple[GameState, list[CombatEvent]]:
    """Remove ``lost`` life points; at 0 the figure leaves the board (never below 0).

    A Dreadnought loses one heavy weapon per life point lost (the last-listed first); a
    destroyed Dreadnought takes its pilot with it; a destroyed Tarantula frees its gunner."""
    if lost <= 0 or not state.has_figure(figure_id):
        return state, []
    figure = state.figure(figure_id)
    if not is_attackable(state, figure, data):
        return state, [
            CombatEvent("no_effect", "cannot_be_damaged", {"figure": figure_id}, figure_id)
        ]
    lost = min(lost, figure.life_points)
    remaining = figure.life_points - lost
    damage = {"figure": figure_id, "lost": lost, "left": remaining}
    if cause:
        damage["cause"] = cause
    events = [
        CombatEvent(
            "damage",
            "damage_by" if cause else "damage",
            damage,
            figure_id,
            life_points_lost=lost,
        )
    ]
    if remaining > 0:
        weapons = list(figure.weapons)
        if figure.is_dreadnought:
            for _ in range(lost):
                heavy = [i for i, w in enumerate(weapons) if data.weapon(w).is_heavy]
                if not heavy:
                    break
                gone = weapons.pop(heavy[-1])
                events.append(
                    CombatEvent(
                        "weapon_lost",
                        "weapon_lost",
                        {"figure": figure_id, "weapon": gone},
                        figure_id,
                        details={"weapon": gone},
                    )
                )
        state = state.with_figure(replace(figure, life_points=remaining, weapons=tuple(weapons)))
        return state, events
    points = kill_value(state, figure, data)
    events.append(
        CombatEvent(
            "killed",
            "killed",
            {"figure": figure_id, "points": points},
            figure_id,
            points=points,
            details={"owner": owner_of(figure), "unit": figure.unit},
        )
    )
    state = state.without_figure(figure_id)
    if figure.piloting is not None and state.has_figure(figure.piloting):
        # A killed gunner leaves its Tarantula abandoned: nobody's (rules.engine.vehicles).
        state = state.with_figure(replace(state.figure(figure.piloting), player=None))
    for other in [f for f in state.figures if f.piloting == figure_id]:
        if figure.is_dreadnought:
            state = state.without_figure(other.id)
            events.append(
                CombatEvent(
                    "killed",
                    "pilot_killed",
                    {"figure": other.id, "vehicle": figure_id},
                    other.id,
                    details={"owner": owner_of(other), "unit": other.unit, "pilot": True},
                )
            )
        else:
            state = state.with_figure(replace(other, piloting=None))
            events.append(
                CombatEvent("gunner_freed", "gunner_freed", {"figure": other.id}, other.id)
            )
    return state, events


def shielded_from(state: GameState, attacker: Figure, target: Figure) -> bool:
    """Blind Grenades (``progress.shielded``): no alien attack damages the shielded
    player's figures in that Alien turn, not even a blast, a line or a beam aimed at
    another figure (RULES §5, ``docs/turns.md``)."""
    return (
        attacker.side == ALIEN
        and target.side == MARINE
        and target.player is not None
        and target.player in state.progress.shielded
    )


def _shield_event(figure_id: str) -> CombatEvent:
    return CombatEvent("no_effect", "shielded", {"figure": figure_id}, figure_id)


def _apply_hits(
    state: GameState,
    attacker: Figure,
    hits: Sequence[tuple[str, int]],
    data: RulesData,
    what: str,
) -> tuple[GameState, list[CombatEvent]]:
    """Apply attack values to figures: each loses the points above its armour. ``what`` is
    the ``cause`` of the damage: a weapon key, ``hand_to_hand`` or ``split_share``."""
    events: list[CombatEvent] = []
    for figure_id, attack in hits:
        if not state.has_figure(figure_id):
            continue
        target = state.figure(figure_id)
        if shielded_from(state, attacker, target):
            events.append(_shield_event(figure_id))
            continue
        armour = armour_against(state, target, attacker, data)
        if armour_with_cards(state, target, data.unit(target.unit).armour)[1]:
            events.extend(card_events(target, attacker, ("force_field",)))
        lost = max(0, attack - armour)
        params = {"cause": what, "attack": attack, "figure": figure_id, "armour": armour}
        if lost == 0:
            events.append(CombatEvent("no_effect", "miss", params, figure_id, attack=attack))
            continue
        events.append(CombatEvent("hit", "hit", params, figure_id, attack=attack))
        state, more = apply_damage(state, figure_id, lost, data, cause=what)
        events.extend(more)
    return state, events


def resolve_attack(
    state: GameState, option: AttackOption, dice: Dice, *, data: RulesData | None = None
) -> tuple[GameState, list[CombatEvent]]:
    """Roll and apply one attack option; returns the new state and the log events.

    The attacker must stand where the option assumed (move it first)."""
    data = _data_for(state, data)
    if not state.has_figure(option.attacker_id):
        raise CombatError("attacker_gone", figure=option.attacker_id)
    attacker = state.figure(option.attacker_id)
    if attacker.squares != option.from_squares and set(attacker.squares) != set(
        option.from_squares
    ):
        raise CombatError(
            "attacker_moved", figure=attacker.id, squares=[list(sq) for sq in attacker.squares]
        )
    events = [_attack_event(option)]
    if option.card == COMBI_WEAPON:
        events.extend(card_events(attacker, None, (COMBI_WEAPON,)))
    if option.kind == HAND_TO_HAND:
        state, more = _resolve_hand_to_hand(state, attacker, option, dice, data)
    elif option.kind == DOOR:
        state, more = _resolve_door(state, attacker, option, dice, data)
    else:
        weapon = data.weapon(option.weapon or "")
        resolver = _RESOLVERS[weapon.pattern]
        state, more = resolver(state, attacker, option, weapon, dice, data)
    return state, events + more


def resolve_attacks(
    state: GameState,
    options: Sequence[AttackOption],
    dice: Dice,
    *,
    data: RulesData | None = None,
) -> tuple[GameState, list[CombatEvent]]:
    """Resolve several options in order (a Dreadnought firing every weapon). An option whose
    weapon the attacker has lost in the meantime, or whose attacker died, is skipped."""
    data = _data_for(state, data)
    events: list[CombatEvent] = []
    for option in options:
        if not state.has_figure(option.attacker_id):
            break
        attacker = state.figure(option.attacker_id)
        if option.weapon is not None and option.weapon not in attacker.weapons:
            events.append(
                CombatEvent(
                    "skipped",
                    "skipped",
                    {"figure": attacker.id, "weapon": option.weapon},
                    attacker.id,
                )
            )
            continue
        state, more = resolve_attack(state, option, dice, data=data)
        events.extend(more)
    return state, events


def _attack_event(option: AttackOption) -> CombatEvent:
    return CombatEvent("attack", option.code, option.params, option.attacker_id)


def combined_odds(options: Sequence[AttackOption]) -> AttackOdds:
    """Odds of several options rolled independently (e.g. every Dreadnought weapon)."""
    return combine_independent([o.odds for o in options])


def _resolve_hand_to_hand(
    state: GameState, attacker: Figure, option: AttackOption, dice: Dice, data: RulesData
) -> tuple[GameState, list[CombatEvent]]:
    if option.target is None or not state.has_figure(option.target):
        raise CombatError("fight_target_gone")
    defender = state.figure(option.target)
    base = hand_to_hand_dice(data, attacker.unit, attacker.weapons)
    mine, cards = fight_dice(state, attacker, defender, base, melta=option.card == MELTA_BOMB)
    events = card_events(attacker, defender, cards)
    purpose = ("hand_to_hand_attack", {"attacker": attacker.id, "defender": defender.id})
    a_values = _roll(dice, mine, purpose, attacker.id)
    events.append(_roll_event(attacker.id, purpose, a_values))
    if fought_as_a_shot(defender):
        state, more = _apply_hits(
            state, attacker, [(defender.id, sum(a_values))], data, HAND_TO_HAND
        )
        return state, events + more
    their_base = hand_to_hand_dice(data, defender.unit, defender.weapons)
    theirs, cards = fight_dice(state, defender, attacker, their_base)
    events.extend(card_events(defender, attacker, cards))
    purpose = ("hand_to_hand_defence", {"attacker": attacker.id, "defender": defender.id})
    d_values = _roll(dice, theirs, purpose, defender.id)
    events.append(_roll_event(defender.id, purpose, d_values))
    diff = sum(a_values) - sum(d_values)
    if diff == 0:
        events.append(CombatEvent("no_effect", "tie", {}))
        return state, events
    loser = defender if diff > 0 else attacker
    if shielded_from(state, attacker if loser is defender else defender, loser):
        return state, [*events, _shield_event(loser.id)]
    state, more = apply_damage(state, loser.id, abs(diff), data, cause=HAND_TO_HAND)
    return state, events + more


def card_events(figure: Figure, opponent: Figure | None, cards: Sequence[str]) -> list[CombatEvent]:
    """One log line per chapter card that changed ``figure``'s part of an attack
    (:mod:`rules.engine.card_effects`); ``opponent`` is whom it fights, if anyone."""
    out = []
    for card in cards:
        params = {"figure": figure.id, "chapter_card": card}
        if opponent is not None:
            params["opponent"] = opponent.id
        out.append(CombatEvent("card", f"card_{card}", params, figure.id))
    return out


def _resolve_door(
    state: GameState, attacker: Figure, option: AttackOption, dice: Dice, data: RulesData
) -> tuple[GameState, list[CombatEvent]]:
    door = option.door
    if door is None or state.doors.get(door) is not DoorState.BULKHEAD:
        raise CombatError("no_bulkhead")
    if option.weapon is None:
        spec = hand_to_hand_dice(data, attacker.unit, attacker.weapons)
    else:
        spec = shot_dice(data, option.weapon)
    purpose = ("door_attack", {"attacker": attacker.id, "a": list(door[0]), "b": list(door[1])})
    values = _roll(dice, spec, purpose, attacker.id)
    events = [_roll_event(attacker.id, purpose, values)]
    armour = data.bulkhead_door_armour
    params = {"attack": sum(values), "armour": armour, "door": _door_param(door)}
    if sum(values) > armour:
        state = state.with_door(door[0], door[1], DoorState.DESTROYED)
        events.append(
            CombatEvent(
                "door_destroyed",
                "door_destroyed",
                params,
                attack=sum(values),
                details={"door": _door_param(door)},
            )
        )
    else:
        events.append(CombatEvent("no_effect", "door_holds", params, attack=sum(values)))
    return state, events


#: The state after an attack and what happened, in order.
_Resolution = tuple[GameState, list[CombatEvent]]


def _resolve_single(
    state: GameState,
    attacker: Figure,
    option: AttackOption,
    weapon: Weapon,
    dice: Dice,
    data: RulesData,
) -> _Resolution:
    if option.target is None or not state.has_figure(option.target):
        raise CombatError("target_gone")
    spec = shot_dice(data, weapon.key)
    purpose = _shot(attacker, weapon, target=option.target)
    values = _roll(dice, spec, purpose, attacker.id)
    state, more = _apply_hits(state, attacker, [(option.target, sum(values))], data, weapon.key)
    return state, [_roll_event(attacker.id, purpose, values), *more]


def _resolve_line(
    state: GameState,
    attacker: Figure,
    option: AttackOption,
    weapon: Weapon,
    dice: Dice,
    data: RulesData,
) -> _Resolution:
    origin, direction = option.line
    _, figures = _line_hits(state, attacker, origin, direction)
    purpose = _shot(attacker, weapon, "shot_line", direction=list(direction))
    values = _roll(dice, weapon.dice, purpose, attacker.id)
    hits = [(f.id, sum(values)) for f in figures]
    state, more = _apply_hits(state, attacker, hits, data, weapon.key)
    return state, [_roll_event(attacker.id, purpose, values), *more]


def _resolve_melta(
    state: GameState,
    attacker: Figure,
    option: AttackOption,
    weapon: Weapon,
    dice: Dice,
    data: RulesData,
) -> _Resolution:
    _, figures = _line_hits(state, attacker, *option.line)
    events: list[CombatEvent] = []
    for fig in figures:
        purpose = _shot(attacker, weapon, target=fig.id)
        values = _roll(dice, weapon.dice, purpose, attacker.id)
        events.append(_roll_event(attacker.id, purpose, values))
        state, more = _apply_hits(state, attacker, [(fig.id, sum(values))], data, weapon.key)
        events.extend(more)
    return state, events


def _resolve_blast(
    state: GameState,
    attacker: Figure,
    option: AttackOption,
    weapon: Weapon,
    dice: Dice,
    data: RulesData,
) -> _Resolution:
    aim = option.aim
    assert aim is not None, "a blast option has its aim"
    purpose = _shot(attacker, weapon, "shot_square", square=list(aim))
    values = _roll(dice, weapon.dice, purpose, attacker.id)
    total, highest = sum(values), max(values, default=0)
    centre, around = missile_hits(state, aim)
    events = [
        _roll_event(attacker.id, purpose, values),
        CombatEvent(
            "blast",
            "blast",
            {"square": list(aim), "total": total, "highest": highest},
            attack=total,
        ),
    ]
    hits = [(f.id, total) for f in centre] + [(f.id, highest) for f in around]
    state, more = _apply_hits(state, attacker, hits, data, weapon.key)
    return state, events + more


#: The ``cause`` of the damage a Suicide Android's blast does, and its roll's purpose.
SELF_DESTRUCT = "self_destruct"


def resolve_self_destruct(
    state: GameState,
    figure_id: str,
    dice_spec: DiceSpec,
    dice: Dice,
    *,
    data: RulesData | None = None,
) -> tuple[GameState, list[CombatEvent]]:
    """The figure explodes where it stands (Suicide Android, game engine decision 22): one
    roll of ``dice_spec``, whose total every figure of :func:`self_destruct_victims` takes
    against its own armour (aliens too), and the figure leaves the board. Events: the roll,
    a ``self_destruct_blast`` (its squares and the figures on them), the hits and damage,
    and ``self_destructed`` (no ``killed`` event: nobody killed it, nobody scores it)."""
    data = _data_for(state, data)
    figure = state.figure(figure_id)
    squares, victims = self_destruct_victims(state, figure, figure.squares)
    purpose: Purpose = (SELF_DESTRUCT, {"attacker": figure.id})
    values = _roll(dice, dice_spec, purpose, figure.id)
    total = sum(values)
    blast = {
        "figure": figure.id,
        "square": list(figure.square),
        "squares": [list(sq) for sq in squares],
        "targets": [f.id for f in victims],
        "caught": len(victims),
        "total": total,
    }
    events = [
        _roll_event(figure.id, purpose, values),
        CombatEvent("blast", "self_destruct_blast", blast, attack=total),
    ]
    hits = [(f.id, total) for f in victims]
    state, more = _apply_hits(state, figure, hits, data, SELF_DESTRUCT)
    state = state.without_figure(figure.id)
    gone = CombatEvent("self_destructed", "self_destructed", {"figure": figure.id}, figure.id)
    return state, [*events, *more, gone]


def _resolve_conversion(
    state: GameState,
    attacker: Figure,
    option: AttackOption,
    weapon: Weapon,
    dice: Dice,
    data: RulesData,
) -> _Resolution:
    origin, direction = option.line
    line, _ = _line_hits(state, attacker, origin, direction)
    if not line:
        raise CombatError("beam_no_line")
    purpose = _shot(attacker, weapon, "shot_line", direction=list(direction))
    values = _roll(dice, weapon.dice, purpose, attacker.id)
    total = sum(values)
    reductions = conversion_reductions(state, origin, line)
    best: dict[str, int] = {}
    for sq, reduction in reductions.items():
        fig = state.figure_at(sq)
        if fig is not None and total - reduction > 0:
            best[fig.id] = max(best.get(fig.id, 0), total - reduction)
    events = [
        _roll_event(attacker.id, purpose, values),
        CombatEvent("blast", "beam", {"square": list(line[-1]), "total": total}, attack=total),
    ]
    state, more = _apply_hits(state, attacker, sorted(best.items()), data, weapon.key)
    return state, events + more


def _resolve_lascannon(
    state: GameState,
    attacker: Figure,
    option: AttackOption,
    weapon: Weapon,
    dice: Dice,
    data: RulesData,
) -> _Resolution:
    events: list[CombatEvent] = []
    for area, shots in option.areas:
        squares = lascannon_hit_squares(state, attacker, area, data)
        spec = weapon.dice.times(shots)
        purpose = _shot(attacker, weapon, "shot_area", square=list(area), shots=shots)
        values = _roll(dice, spec, purpose, attacker.id)
        events.append(_roll_event(attacker.id, purpose, values))
        hits = [(f.id, sum(values)) for f in _figures_on(state, squares)]
        state, more = _apply_hits(state, attacker, hits, data, weapon.key)
        events.extend(more)
    return state, events


# --- assault cannon split, step by step ---------------------------------------------------


@dataclass(frozen=True)
class SplitSession:
    """An assault-cannon total being shared out. Targets are re-checked after every kill,
    so a figure that comes into sight because the one in front died becomes eligible."""

    state: GameState
    attacker_id: str
    weapon: str
    total: int
    remaining: int
    events: tuple[CombatEvent, ...]
    data: RulesData

    def eligible(self) -> list[str]:
        """Ids of the enemies the attacker can now assign points to."""
        if not self.state.has_figure(self.attacker_id):
            return []
        attacker = self.state.figure(self.attacker_id)
        return [f.id for f in _visible_enemies(self.state, attacker, self.data)]

    def assign(self, target_id: str, points: int) -> SplitSession:
        """Spend ``points`` of the total on one eligible target."""
        if points < 1 or points > self.remaining:
            raise CombatError("split_points", remaining=self.remaining, points=points)
        if target_id not in self.eligible():
            raise CombatError(
                "split_not_eligible",
                target=target_id,
                figure=self.attacker_id,
                eligible=self.eligible(),
            )
        attacker = self.state.figure(self.attacker_id)
        state, more = _apply_hits(
            self.state, attacker, [(target_id, points)], self.data, "split_share"
        )
        return replace(
            self, state=state, remaining=self.remaining - points, events=self.events + tuple(more)
        )


def start_split(
    state: GameState, option: AttackOption, dice: Dice, *, data: RulesData | None = None
) -> SplitSession:
    """Roll an assault cannon and return the session to share its total step by step."""
    data = _data_for(state, data)
    weapon = data.weapon(option.weapon or "")
    if weapon.pattern != "split":
        raise CombatError("not_split_weapon", weapon=weapon.key)
    attacker = state.figure(option.attacker_id)
    purpose = _shot(attacker, weapon, "shot_split")
    values = _roll(dice, weapon.dice, purpose, attacker.id)
    events = (_attack_event(option), _roll_event(attacker.id, purpose, values))
    return SplitSession(state, attacker.id, weapon.key, sum(values), sum(values), events, data)


def _resolve_split(
    state: GameState,
    attacker: Figure,
    option: AttackOption,
    weapon: Weapon,
    dice: Dice,
    data: RulesData,
) -> _Resolution:
    session = start_split(state, option, dice, data=data)
    events = list(session.events[1:])
    session = replace(session, events=())
    if option.allocation is not None:
        plan = option.allocation
    else:
        plan = best_split(session.total, split_targets(state, attacker, data))
        if plan:
            shares = [[k, p] for k, p in plan]
            events.append(
                CombatEvent("split", "best_split", {"total": session.total, "shares": shares})
            )
        else:
            events.append(CombatEvent("no_effect", "split_wasted", {"total": session.total}))
    for target_id, points in plan:
        session = session.assign(target_id, points)
    return session.state, events + list(session.events)


# --- one chosen attack ----------------------------------------------------------------------


def _direction_towards(a: Square, b: Square) -> Square:
    dx, dy = b[0] - a[0], b[1] - a[1]
    if (dx, dy) == (0, 0) or not (dx == 0 or dy == 0 or abs(dx) == abs(dy)):
        raise CombatError("not_straight", square=list(b), origin=list(a))
    return ((dx > 0) - (dx < 0), (dy > 0) - (dy < 0))


def option_for(
    state: GameState,
    attacker_id: str,
    weapon: str | None = None,
    *,
    target: str | None = None,
    aim: Square | None = None,
    direction: Square | None = None,
    origin: Square | None = None,
    areas: Sequence[tuple[Square, int]] | None = None,
    allocation: Sequence[tuple[str, int]] | None = None,
    data: RulesData | None = None,
) -> AttackOption:
    """The option for one chosen attack (a judge's or player's choice), with its odds.

    ``weapon=None`` with a ``target`` is hand-to-hand. Single shots need a ``target``;
    missiles an ``aim`` square; line weapons a ``direction`` (or an ``aim`` square on the
    line); lascannons ``areas`` as (top-left square, shots) or an ``aim`` for all shots on
    one area; an assault cannon may give an explicit ``allocation`` of its total."""
    data = _data_for(state, data)
    if not state.has_figure(attacker_id):
        raise CombatError("no_figure", figure=attacker_id)
    attacker = state.figure(attacker_id)
    if not attacker.on_board:
        raise CombatError("attack_inside_vehicle", figure=attacker_id)
    if weapon is None:
        if target is None or not state.has_figure(target):
            raise CombatError("fight_needs_target")
        for option in _hand_to_hand_options(state, attacker, data):
            if option.target == target:
                return option
        raise CombatError("cannot_fight", figure=attacker_id, target=target)
    if weapon not in attacker.weapons:
        raise CombatError(
            "no_such_weapon", figure=attacker_id, weapon=weapon, weapons=list(attacker.weapons)
        )
    if not _can_shoot(state, attacker, data):
        raise CombatError("cannot_shoot_now", figure=attacker_id)
    spec = data.weapon(weapon)
    owner = owner_of(attacker)
    pattern = spec.pattern
    if pattern == "single":
        if target is None:
            raise CombatError("needs_target", weapon=weapon)
        for option in _single_options(state, attacker, spec, data):
            if option.target == target:
                return option
        raise CombatError("cannot_see_enemy", figure=attacker_id, target=target)
    if pattern == "split":
        split = _split_option(state, attacker, spec, data)
        if split is None:
            raise CombatError("sees_no_enemy", figure=attacker_id, weapon=weapon)
        return replace(split, allocation=tuple(allocation) if allocation else None)
    if pattern in ("line", "melta", "conversion"):
        origin = origin or attacker.squares[0]
        if origin not in attacker.squares:
            raise CombatError("not_own_square", square=list(origin), figure=attacker_id)
        if direction is None:
            if aim is None:
                raise CombatError("needs_direction", weapon=weapon)
            direction = _direction_towards(origin, aim)
        for option in _line_options(state, attacker, spec, data):
            if option.origin == origin and option.direction == tuple(direction):
                return option
        raise CombatError(
            "line_hits_nothing", weapon=weapon, origin=list(origin), direction=list(direction)
        )
    if pattern == "blast":
        if aim is None:
            raise CombatError("needs_square", weapon=weapon)
        if state.board.is_solid(aim) or aim in attacker.squares:
            raise CombatError("untargetable", square=list(aim))
        if not figure_sees(state, attacker, aim, for_firing=True):
            raise CombatError("cannot_see_square", figure=attacker_id, square=list(aim))
        centre, around = missile_hits(state, aim)
        centre = [f for f in centre if is_attackable(state, f, data)]
        around = [f for f in around if is_attackable(state, f, data)]
        odds = blast_odds(
            spec.dice,
            _pairs(state, attacker, centre, data),
            _pairs(state, attacker, around, data),
            owner,
        )
        params = {"attacker": attacker.id, "weapon": weapon, "square": list(aim)}
        return AttackOption(
            attacker.id, SHOOT, weapon, attacker.squares, odds, "blast_shot", params, aim=aim
        )
    if pattern == "lascannon":
        if areas is None:
            if aim is None:
                raise CombatError("needs_areas", weapon=weapon)
            areas = [(aim, max(1, spec.shots))]
        areas = [((sq[0], sq[1]), int(n)) for sq, n in areas]
        if sum(n for _, n in areas) > spec.shots or any(n < 1 for _, n in areas):
            raise CombatError("too_many_shots", weapon=weapon, shots=spec.shots)
        odds = lascannon_odds(
            spec.dice, [(n, _area_pairs(state, attacker, sq, data)) for sq, n in areas], owner
        )
        params = _area_params(attacker, weapon, areas)
        return AttackOption(
            attacker.id,
            SHOOT,
            weapon,
            attacker.squares,
            odds,
            "area_shot",
            params,
            areas=tuple(areas),
        )
    raise CombatError("cannot_shoot", weapon=weapon)


def _area_params(
    attacker: Figure, weapon: str, areas: Iterable[tuple[Square, int]]
) -> dict[str, Any]:
    return {
        "attacker": attacker.id,
        "weapon": weapon,
        "areas": [[list(sq), n] for sq, n in areas],
    }


#: How each weapon pattern's shot is resolved (:func:`resolve_attack`).
_RESOLVERS = {
    "single": _resolve_single,
    "split": _resolve_split,
    "line": _resolve_line,
    "melta": _resolve_melta,
    "blast": _resolve_blast,
    "conversion": _resolve_conversion,
    "lascannon": _resolve_lascannon,
}
