"""Attack plans an alien could carry out this turn, scored from exact distributions.

A plan says where the alien stands (an anchor it can reach this turn), which weapon (or
hand-to-hand) it uses and at what; its score is what RULES §11 orders by: expected points
destroyed, then expected life points removed, then the nearest target, then the fewest
squares moved. Area plans (missile, plasma, assault cannon, Dreadnought) also count the
marines they hit, which comes first for area weapons: a figure counts only when the shot
can take a life point from it (:meth:`odds.AttackOdds.damaged_keys`), so a Tarantula
(armour 6) in a blast of two red dice, or a gunner behind its armour 4 at the edge of one,
is no marine hit. Scores come from
:mod:`rules.engine.odds` (exact, memoised); nothing here rolls dice.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from operator import attrgetter

from rules.engine.caches import memoised
from rules.engine.combat import (
    HAND_TO_HAND,
    SHOOT,
    armour_from,
    is_attackable,
    kill_value,
    owner_of,
    shielded_from,
)
from rules.engine.geometry import Square
from rules.engine.odds import AttackOdds, TargetInfo, hand_to_hand_odds, shot_odds
from rules.engine.state import Figure, GameState
from rules.engine.units import DiceSpec, RulesData


@dataclass(frozen=True)
class Shot:
    """One weapon's part of a plan: what it is aimed at and its expected result."""

    weapon: str
    pattern: str  # single | blast | line | split
    target: str | None  # a figure id (single shot; main target of a split)
    aim: tuple[int, int] | None  # blast centre, or the direction of a line as (dx, dy)
    points: Fraction
    life_points: Fraction
    origin: tuple[int, int] | None = None  # the firer's square a line starts from
    # Figures a blast or line touches (combat's option's targets); a split reaches only
    # the figures it can hurt (combat gives a share only above a figure's armour).
    hits: tuple[str, ...] = ()
    hurts: tuple[str, ...] = ()  # figures it can take a life point from (the marines hit)
    # A lascannon's areas, as (top-left square, shots): fired one at a time (decision 31).
    areas: tuple[tuple[tuple[int, int], int], ...] = ()
    # The exact odds the scores were read from (none for a single shot, scored on plain
    # numbers): a Dreadnought's plan combines them where two weapons reach one marine.
    odds: AttackOdds | None = field(default=None, compare=False, repr=False)

    @property
    def marines_hit(self) -> int:
        """The marines it hits: the figures it can take a life point from."""
        return len(self.hurts)

    @cached_property
    def rank(self) -> tuple:
        """Sort key, best first: most marines hit, then expected points, then expected
        life points (see :func:`exact_order_key`)."""
        return (
            -self.marines_hit,
            -exact_order_key(self.points),
            -exact_order_key(self.life_points),
        )


#: Bounds under which a fraction's float has the same order and equality as the fraction.
_FLOAT_DENOMINATOR = 1 << 20
_FLOAT_MAGNITUDE = 1 << 10


def exact_order_key(value: Fraction) -> float | Fraction:
    """``value`` as a float when that is exact for ordering, else the fraction itself.

    Two different fractions with denominators below 2**20 differ by more than 2**-40,
    while a float below 2**10 is within 2**-43 of the value it rounds, so their floats
    keep the order and equality of the fractions; expected values from dice always fit.
    Floats compare much faster than fractions, which matters when hundreds of shots are
    sorted per activation."""
    if value.denominator < _FLOAT_DENOMINATOR and -_FLOAT_MAGNITUDE < value < _FLOAT_MAGNITUDE:
        return float(value)
    return value


@dataclass(frozen=True)
class Plan:
    """One way to attack: stand on ``anchor`` (``steps`` away) and use ``weapon``."""

    kind: str  # "hand_to_hand" | "shoot" | "area"
    anchor: tuple[int, int]
    steps: int
    weapon: str  # weapon key, or "hand_to_hand"
    target: str  # target figure id (the main target for area weapons)
    aim: tuple[int, int] | None  # aimed square for area weapons
    points: Fraction
    life_points: Fraction
    marines_hit: int
    distance: int  # path distance to the target, for the "nearest target" tie-break
    doubtful: bool = False
    shots: tuple[Shot, ...] = ()  # what to fire, in order (one for ordinary attacks)

    def key(self, area: bool) -> tuple:
        base = (-self.points, -self.life_points, self.distance, self.steps, self.target)
        return ((-self.marines_hit,) + base) if area else base

    def summary(self) -> dict:
        return {
            "weapon": self.weapon,
            "target": self.target,
            "square": list(self.anchor),
            "points": rounded(self.points),
            "life_points": rounded(self.life_points),
        }


def rounded(value: Fraction) -> float:
    """``round(float(value), 3)``: the same true division ``float`` makes, without the
    two calls it goes through (plans told to the judge convert many scores)."""
    return round(value.numerator / value.denominator, 3)


#: The parts of :meth:`Plan.key` after the scores (ascending), and the scores themselves
#: (descending, not negated) without and with the marines hit first (area weapons).
_RANKING_TIES = attrgetter("distance", "steps", "target")
_RANKING_SCORES = (
    attrgetter("points", "life_points"),
    attrgetter("marines_hit", "points", "life_points"),
)


def rank_plans(plans: list[Plan], area: bool) -> None:
    """Sort ``plans`` in place by :meth:`Plan.key`, best first, without negating any
    fraction (each negation makes a new Fraction, slow in Python): a stable sort by the
    ties, then a stable sort by the scores in reverse, order the plans as the key does,
    equal keys keeping their order."""
    if len(plans) < 2:
        return
    plans.sort(key=_RANKING_TIES)
    plans.sort(key=_RANKING_SCORES[area], reverse=True)


def target_info(state: GameState, figure: Figure, rules: RulesData) -> TargetInfo:
    """A figure as the odds see it: life points, the points its death is worth (combat's
    rule, e.g. a piloted Dreadnought's class value plus its pilot), and its owner."""
    value = kill_value(state, figure, rules)
    return TargetInfo(figure.id, figure.life_points, value, owner_of(figure), figure.id)


def hurt_by(
    state: GameState,
    attacker: Figure,
    figures: Iterable[Figure],
    rules: RulesData,
    *,
    fired_from: Sequence[Square],
) -> tuple[list[str], list[tuple[TargetInfo, int]]]:
    """Those of ``figures`` (caught by a blast or a line of ``attacker``'s) that combat
    would hurt, in their order: their ids, and each as the odds take it, with its armour
    against the attack. Left out, as combat leaves them out: a figure safe in a docking
    claw or an abandoned vehicle (:func:`combat.is_attackable`) and one Blind Grenades
    shield (:func:`combat.shielded_from`).

    The armour is combat's (:func:`combat.armour_from`) against an attack from
    ``fired_from``, the squares ``attacker`` will stand on when it attacks (after its
    move): a Force Field card counts (and any card that changes armour, through
    ``card_effects.armour_with_cards``), and so does a Tarantula gunner's arc."""
    shielded = bool(state.progress.shielded)
    ids: list[str] = []
    hits: list[tuple[TargetInfo, int]] = []
    for f in figures:
        if not is_attackable(state, f, rules) or (shielded and shielded_from(state, attacker, f)):
            continue
        ids.append(f.id)
        hits.append((target_info(state, f, rules), armour_from(state, f, fired_from, rules)))
    return ids, hits


@memoised("plans.shot_score", bound=4096, depends_on="the dice, armour, life points and value")
def shot_score(
    white: int, red: int, armour: int, life_points: int, value: int
) -> tuple[Fraction, Fraction]:
    """Expected points and life points of a shot with ``white`` and ``red`` dice at a
    marine (memoised on the dice's numbers: a DiceSpec's hash is a call in Python)."""
    dice = DiceSpec(white, red)
    odds = shot_odds(dice, TargetInfo("t", life_points, value, "marine"), armour, "alien")
    return odds.expected_points(), odds.expected_life_points()


@memoised("plans.melee_score", bound=4096, depends_on="both sides' dice, life points and value")
def melee_score(
    white: int,
    red: int,
    own_life: int,
    target_white: int,
    target_red: int,
    life_points: int,
    value: int,
) -> tuple[Fraction, Fraction]:
    """Expected points and life points of a fight of an alien (``white``, ``red``,
    ``own_life``) with a marine (memoised as :func:`shot_score`)."""
    odds = hand_to_hand_odds(
        TargetInfo("a", own_life, 0, "alien"),
        DiceSpec(white, red),
        TargetInfo("t", life_points, value, "marine"),
        DiceSpec(target_white, target_red),
    )
    return odds.expected_points(), odds.expected_life_points()


def hurt_if(target: str, life_points: Fraction) -> tuple[str, ...]:
    """``(target,)`` when an attack on it removes ``life_points`` > 0 on average (it can
    take a life point from it: some outcome does), else ``()``: a single shot or fight
    counts as a marine hit only then."""
    return (target,) if life_points > 0 else ()


def single_plan(
    kind: str,
    weapon: str,
    target: str,
    anchor: tuple[int, int],
    steps: int,
    distance: int,
    doubtful: bool,
    score: tuple[Fraction, Fraction],
) -> Plan:
    """A plan of one shot or one fight (``kind`` "shoot" or "hand_to_hand", ``weapon``
    "hand_to_hand" for a fight) at ``target`` with its expected points and life points;
    it hits one marine if it can take a life point from the target (:func:`hurt_if`),
    none otherwise."""
    points, life = score
    hurts = hurt_if(target, life)
    pattern = "single" if kind == SHOOT else HAND_TO_HAND
    shot = Shot(weapon, pattern, target, None, points, life, hurts=hurts)
    return Plan(
        kind,
        anchor,
        steps,
        weapon,
        target,
        None,
        points,
        life,
        len(hurts),
        distance,
        doubtful,
        (shot,),
    )
