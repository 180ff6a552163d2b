"""Exact outcome distributions of attacks, computed from the dice faces (no sampling).

A white die shows 0,0,0,0,1,2 and a red die 0,0,0,1,2,3 (RULES §10), so every roll has an
exact distribution over 6**n equally likely face combinations. Distributions hold
:class:`fractions.Fraction` probabilities; the distributions of the dice themselves are
memoised (:mod:`rules.engine.caches`), and the Alien AI keeps the scores it works out.

The board-free model of an attack is :class:`AttackOdds`: the figures it can touch
(:class:`TargetInfo`) and the exact distribution of the life points each loses. Builders exist
for every weapon pattern -- single shot, assault-cannon split, plasma line, missile blast,
lascannon areas, melta, conversion beamer -- and for hand-to-hand; :mod:`rules.engine.combat`
turns a board position into these inputs.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Generic, TypeVar

from .caches import memoised
from .dice import RED_FACES, WHITE_FACES
from .narration import decimal
from .narration_tools import tool_text
from .units import DiceSpec

T = TypeVar("T", bound=Hashable)
U = TypeVar("U", bound=Hashable)

ZERO = Fraction(0)
ONE = Fraction(1)


class Distribution(Generic[T]):
    """An exact, immutable probability distribution over hashable outcomes."""

    __slots__ = ("_probs",)

    def __init__(self, probabilities: Mapping[T, Fraction] | Iterable[tuple[T, Fraction]]):
        merged: dict[T, Fraction] = {}
        items = probabilities.items() if isinstance(probabilities, Mapping) else probabilities
        for outcome, probability in items:
            merged[outcome] = merged.get(outcome, ZERO) + Fraction(probability)
        try:
            keys = sorted(merged)  # type: ignore[type-var]
        except TypeError:
            keys = list(merged)
        self._probs = {k: merged[k] for k in keys if merged[k]}

    @classmethod
    def from_counts(cls, counts: Mapping[T, int]) -> Distribution[T]:
        """Outcomes weighted by how many equally likely cases give each."""
        total = sum(counts.values())
        if total <= 0:
            raise ValueError("a distribution needs at least one case")
        return cls({k: Fraction(n, total) for k, n in counts.items()})

    @classmethod
    def certain(cls, outcome: T) -> Distribution[T]:
        return cls({outcome: ONE})

    def items(self) -> Iterator[tuple[T, Fraction]]:
        return iter(self._probs.items())

    def outcomes(self) -> list[T]:
        return list(self._probs)

    def probability(self, outcome: T) -> Fraction:
        return self._probs.get(outcome, ZERO)

    __getitem__ = probability

    def probability_where(self, predicate: Callable[[T], bool]) -> Fraction:
        return sum((p for k, p in self._probs.items() if predicate(k)), ZERO)

    def total(self) -> Fraction:
        return sum(self._probs.values(), ZERO)

    def expected(self, function: Callable[[T], int | Fraction] | None = None) -> Fraction:
        if function is None:
            return sum((k * p for k, p in self._probs.items()), ZERO)  # type: ignore[operator]
        return sum((Fraction(function(k)) * p for k, p in self._probs.items()), ZERO)

    def map(self, function: Callable[[T], U]) -> Distribution[U]:
        return Distribution((function(k), p) for k, p in self._probs.items())

    def __len__(self) -> int:
        return len(self._probs)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Distribution) and self._probs == other._probs

    def __hash__(self) -> int:
        return hash(tuple(self._probs.items()))

    def __repr__(self) -> str:
        body = ", ".join(f"{k!r}: {p}" for k, p in self._probs.items())
        return f"Distribution({{{body}}})"

    def as_dict(self) -> dict[str, str]:
        """JSON-friendly form: outcome text -> exact probability text."""
        return {str(k): str(p) for k, p in self._probs.items()}


# --- dice ---------------------------------------------------------------------------------


def _face_counts(faces: Sequence[int]) -> Counter[int]:
    return Counter(faces)


def dice_sum(dice: DiceSpec) -> Distribution[int]:
    """Distribution of the total shown by ``dice`` (counts over 6**n face combinations)."""
    counts: Counter[int] = Counter({0: 1})
    for faces in [WHITE_FACES] * dice.white + [RED_FACES] * dice.red:
        step = _face_counts(faces)
        nxt: Counter[int] = Counter()
        for total, n in counts.items():
            for face, m in step.items():
                nxt[total + face] += n * m
        counts = nxt
    return Distribution.from_counts(counts)


def dice_total_and_highest(dice: DiceSpec) -> Distribution[tuple[int, int]]:
    """Joint distribution of (total, highest single die) -- the missile blast needs both."""
    counts: Counter[tuple[int, int]] = Counter({(0, 0): 1})
    for faces in [WHITE_FACES] * dice.white + [RED_FACES] * dice.red:
        step = _face_counts(faces)
        nxt: Counter[tuple[int, int]] = Counter()
        for (total, high), n in counts.items():
            for face, m in step.items():
                nxt[(total + face, max(high, face))] += n * m
        counts = nxt
    return Distribution.from_counts(counts)


@memoised("odds.hand_to_hand_difference", bound=1024, depends_on="both sides' dice")
def hand_to_hand_difference(attacker: DiceSpec, defender: DiceSpec) -> Distribution[int]:
    """Distribution of attacker total minus defender total in hand-to-hand."""
    a, d = dice_sum(attacker), dice_sum(defender)
    return Distribution((x - y, p * q) for x, p in a.items() for y, q in d.items())


def life_points_lost(attack: int, armour: int, life_points: int) -> int:
    """One life point per point of attack above armour, never more than the figure has."""
    return min(life_points, max(0, attack - armour))


def shot_damage(dice: DiceSpec, armour: int, life_points: int) -> Distribution[int]:
    """Distribution of life points lost by one figure to one roll of ``dice``."""
    return dice_sum(dice).map(lambda total: life_points_lost(total, armour, life_points))


def kill_probability(dice: DiceSpec, armour: int, life_points: int) -> Fraction:
    return shot_damage(dice, armour, life_points).probability(life_points)


# --- attack outcomes ----------------------------------------------------------------------


@dataclass(frozen=True)
class TargetInfo:
    """A figure (or door) an attack may touch: its life points left and its worth."""

    key: str
    life_points: int
    value: int = 0  # points scored by destroying it
    owner: str | None = None  # player id, or "alien"; decides what counts as friendly
    label: str = ""


@dataclass(frozen=True)
class Hit:
    """One target under one roll: attack is the total (or highest die) minus ``reduction``."""

    target: TargetInfo
    armour: int
    use_highest: bool = False
    reduction: int = 0

    def attack(self, total: int, highest: int) -> int:
        return (highest if self.use_highest else total) - self.reduction


@dataclass(frozen=True)
class AttackOdds:
    """Exact distribution of life points lost by each target of one attack option."""

    targets: tuple[TargetInfo, ...]
    losses: Distribution[tuple[int, ...]]
    attacker_owner: str | None = None
    _index: dict[str, int] = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_index", {t.key: i for i, t in enumerate(self.targets)})

    def target(self, key: str) -> TargetInfo:
        return self.targets[self._index[key]]

    def _enemy(self, target: TargetInfo) -> bool:
        return self.attacker_owner is None or target.owner != self.attacker_owner

    def expected_damage(self, key: str) -> Fraction:
        i = self._index[key]
        return self.losses.expected(lambda v: v[i])

    def damaged_keys(self) -> tuple[str, ...]:
        """The keys of the targets that lose a life point in at least one outcome, in the
        targets' order: a figure whose armour the attack can never beat is left out."""
        hurt = [False] * len(self.targets)
        for losses in self.losses.outcomes():
            for i, lost in enumerate(losses):
                if lost:
                    hurt[i] = True
        return tuple(t.key for t, h in zip(self.targets, hurt, strict=True) if h)

    def of_target(self, key: str) -> AttackOdds:
        """The odds of this attack for the target ``key`` alone."""
        i = self._index[key]
        return AttackOdds(
            (self.targets[i],), self.losses.map(lambda v: (v[i],)), self.attacker_owner
        )

    def kill_probability(self, key: str) -> Fraction:
        i = self._index[key]
        lp = self.targets[i].life_points
        return self.losses.probability_where(lambda v: v[i] >= lp)

    def _points(self, losses: tuple[int, ...], friendly: bool) -> int:
        return sum(
            t.value
            for t, lost in zip(self.targets, losses, strict=True)
            if lost >= t.life_points and (friendly or self._enemy(t))
        )

    def expected_points(self, *, include_friendly: bool = False) -> Fraction:
        """Expected points destroyed (enemies only unless ``include_friendly``)."""
        return self.losses.expected(lambda v: self._points(v, include_friendly))

    def expected_life_points(self, *, include_friendly: bool = False) -> Fraction:
        """Expected life points removed (enemies only unless ``include_friendly``)."""
        mask = [include_friendly or self._enemy(t) for t in self.targets]
        return self.losses.expected(lambda v: sum(x for x, m in zip(v, mask, strict=True) if m))

    def points_distribution(self, *, include_friendly: bool = False) -> Distribution[int]:
        return self.losses.map(lambda v: self._points(v, include_friendly))

    def kills_distribution(self) -> Distribution[int]:
        lps = [t.life_points for t in self.targets]
        return self.losses.map(lambda v: sum(1 for x, lp in zip(v, lps, strict=True) if x >= lp))

    def friendly_hit_probability(self) -> Fraction:
        """Probability that a figure of the attacker's own side loses a life point."""
        friendly = [i for i, t in enumerate(self.targets) if not self._enemy(t)]
        if not friendly:
            return ZERO
        return self.losses.probability_where(lambda v: any(v[i] > 0 for i in friendly))

    def touches_friendly(self, *, besides: str | None = None) -> bool:
        """Whether the attack may touch a figure of the attacker's own side, other than
        ``besides`` (the attacker itself, one of the targets of its own hand-to-hand fight:
        the board warns only of another figure in the way)."""
        return any(not self._enemy(t) and t.key != besides for t in self.targets)

    def describe(self, lang: str = "en", names: Mapping[str, str] | None = None) -> list[str]:
        """Human-readable lines in ``lang``: per-target odds and the points distribution.
        ``names`` shows a target by another name than its label (a translated unit)."""
        lines = []
        for t in self.targets:
            name = (names or {}).get(t.key) or t.label or t.key
            probability = self.kill_probability(t.key)
            lines.append(
                tool_text(
                    "odds_target",
                    lang,
                    name=name,
                    expected=decimal(float(self.expected_damage(t.key)), 4, lang),
                    probability=probability,
                    approx=decimal(float(probability), 4, lang),
                )
            )
        lines.append(
            tool_text(
                "odds_totals",
                lang,
                points=decimal(float(self.expected_points()), 4, lang),
                life_points=decimal(float(self.expected_life_points()), 4, lang),
            )
        )
        for points, chance in self.points_distribution().items():
            lines.append(tool_text("odds_points", lang, points=points, probability=chance))
        return lines


def no_effect(attacker_owner: str | None = None) -> AttackOdds:
    return AttackOdds((), Distribution.certain(()), attacker_owner)


def _group_hits(hits: Sequence[Hit]) -> tuple[tuple[TargetInfo, ...], list[list[Hit]]]:
    """Targets in first-seen order; a figure hit twice by one roll keeps its strongest hit."""
    order: dict[str, int] = {}
    targets: list[TargetInfo] = []
    grouped: list[list[Hit]] = []
    for hit in hits:
        if hit.target.key not in order:
            order[hit.target.key] = len(targets)
            targets.append(hit.target)
            grouped.append([])
        grouped[order[hit.target.key]].append(hit)
    return tuple(targets), grouped


@memoised("odds.single_roll_losses", bound=8192, depends_on="the dice and the hits")
def _single_roll_losses(dice: DiceSpec, hits: tuple[Hit, ...]) -> Distribution[tuple[int, ...]]:
    targets, grouped = _group_hits(hits)
    needs_highest = any(h.use_highest for h in hits)
    rolls = dice_total_and_highest(dice) if needs_highest else dice_sum(dice).map(lambda t: (t, 0))

    def effect(roll: tuple[int, int]) -> tuple[int, ...]:
        total, highest = roll
        return tuple(
            max(life_points_lost(h.attack(total, highest), h.armour, t.life_points) for h in hs)
            for t, hs in zip(targets, grouped, strict=True)
        )

    return rolls.map(effect)


def single_roll_odds(
    dice: DiceSpec, hits: Sequence[Hit], attacker_owner: str | None = None
) -> AttackOdds:
    """One roll applied to several targets (single shot, plasma line, missile, beamer)."""
    hits = tuple(hits)
    targets, _ = _group_hits(hits)
    return AttackOdds(targets, _single_roll_losses(dice, hits), attacker_owner)


def combine_independent(parts: Sequence[AttackOdds]) -> AttackOdds:
    """Joint outcome of independent rolls; losses on the same target add up (capped)."""
    if not parts:
        return no_effect()
    owner = parts[0].attacker_owner
    keys: dict[str, TargetInfo] = {}
    for part in parts:
        for t in part.targets:
            keys.setdefault(t.key, t)
    targets = tuple(keys.values())
    index = {t.key: i for i, t in enumerate(targets)}
    caps = [t.life_points for t in targets]
    joint: dict[tuple[int, ...], Fraction] = {tuple(0 for _ in targets): ONE}
    for part in parts:
        positions = [index[t.key] for t in part.targets]
        nxt: dict[tuple[int, ...], Fraction] = {}
        for state, p in joint.items():
            for losses, q in part.losses.items():
                merged = list(state)
                for pos, lost in zip(positions, losses, strict=True):
                    merged[pos] = min(caps[pos], merged[pos] + lost)
                key = tuple(merged)
                nxt[key] = nxt.get(key, ZERO) + p * q
        joint = nxt
    return AttackOdds(targets, Distribution(joint), owner)


def shot_odds(
    dice: DiceSpec, target: TargetInfo, armour: int, attacker_owner: str | None = None
) -> AttackOdds:
    """An ordinary shot (or an attack on a Tarantula or bulkhead door): total vs armour."""
    return single_roll_odds(dice, [Hit(target, armour)], attacker_owner)


def line_odds(
    dice: DiceSpec, hits: Sequence[tuple[TargetInfo, int]], attacker_owner: str | None = None
) -> AttackOdds:
    """Plasma gun: every figure on the line takes the same total."""
    return single_roll_odds(dice, [Hit(t, a) for t, a in hits], attacker_owner)


def blast_odds(
    dice: DiceSpec,
    centre: Sequence[tuple[TargetInfo, int]],
    adjacent: Sequence[tuple[TargetInfo, int]],
    attacker_owner: str | None = None,
) -> AttackOdds:
    """Missile: the target square takes the total, adjacent squares the highest die."""
    hits = [Hit(t, a) for t, a in centre] + [Hit(t, a, use_highest=True) for t, a in adjacent]
    return single_roll_odds(dice, hits, attacker_owner)


def melta_odds(
    dice: DiceSpec, hits: Sequence[tuple[TargetInfo, int]], attacker_owner: str | None = None
) -> AttackOdds:
    """Melta: a separate roll of ``dice`` for every figure on the line."""
    parts = [shot_odds(dice, t, a, attacker_owner) for t, a in hits]
    return combine_independent(parts) if parts else no_effect(attacker_owner)


def conversion_odds(
    dice: DiceSpec, hits: Sequence[tuple[TargetInfo, int, int]], attacker_owner: str | None = None
) -> AttackOdds:
    """Conversion beamer: each target takes the total minus its square's reduction."""
    return single_roll_odds(dice, [Hit(t, a, reduction=r) for t, a, r in hits], attacker_owner)


def lascannon_odds(
    dice_per_shot: DiceSpec,
    areas: Sequence[tuple[int, Sequence[tuple[TargetInfo, int]]]],
    attacker_owner: str | None = None,
) -> AttackOdds:
    """Lascannon: each area is one roll of ``shots`` concentrated shots' dice."""
    parts = [
        single_roll_odds(dice_per_shot.times(shots), [Hit(t, a) for t, a in hits], attacker_owner)
        for shots, hits in areas
    ]
    return combine_independent(parts) if parts else no_effect(attacker_owner)


def hand_to_hand_odds(
    attacker: TargetInfo, attacker_dice: DiceSpec, defender: TargetInfo, defender_dice: DiceSpec
) -> AttackOdds:
    """Both roll; the lower total loses one life point per point of difference."""
    diff = hand_to_hand_difference(attacker_dice, defender_dice)
    losses: Distribution[tuple[int, ...]] = diff.map(
        lambda d: (min(attacker.life_points, max(0, -d)), min(defender.life_points, max(0, d)))
    )
    return AttackOdds((attacker, defender), losses, attacker.owner)


# --- assault cannon split -----------------------------------------------------------------


@dataclass(frozen=True)
class SplitTarget:
    """A target of an assault-cannon split; eligible once every key in ``blocked_by`` died."""

    target: TargetInfo
    armour: int
    blocked_by: frozenset[str] = frozenset()


SplitPlan = tuple[tuple[str, int], ...]


def _plan_score(plan: SplitPlan, by_key: Mapping[str, SplitTarget]) -> tuple[int, int, int]:
    points = removed = 0
    for key, allotted in plan:
        st = by_key[key]
        lost = life_points_lost(allotted, st.armour, st.target.life_points)
        removed += lost
        if lost >= st.target.life_points:
            points += st.target.value
    spent = sum(a for _, a in plan)
    return (points, removed, -spent)


def best_split(total: int, targets: tuple[SplitTarget, ...]) -> SplitPlan:
    """The allocation of ``total`` that destroys the most points, then removes the most life
    points, then spends the fewest points; a target counts only once its blockers died.

    Only allocations that beat a target's armour are tried (points at or below armour are
    wasted), and never more than it takes to kill.
    """
    by_key = {st.target.key: st for st in targets}
    ordered = _blockers_first(targets)
    best: list = [(), _plan_score((), by_key)]

    # Shares are chosen in an order where blockers come before the figures they hide, so
    # every allocation is tried once (as a set), not once per ordering.
    def search(start: int, remaining: int, plan: SplitPlan, killed: frozenset[str]) -> None:
        score = _plan_score(plan, by_key)
        if score > best[1]:
            best[0], best[1] = plan, score
        for i in range(start, len(ordered)):
            st = ordered[i]
            key = st.target.key
            if not st.blocked_by <= killed:
                continue
            kill_cost = st.armour + st.target.life_points
            for allotted in range(st.armour + 1, min(remaining, kill_cost) + 1):
                new_killed = killed | {key} if allotted >= kill_cost else killed
                search(i + 1, remaining - allotted, (*plan, (key, allotted)), new_killed)

    search(0, total, (), frozenset())
    return best[0]


def _blockers_first(targets: tuple[SplitTarget, ...]) -> list[SplitTarget]:
    """Targets in a stable order where every blocker precedes the targets it hides."""
    done: set[str] = set()
    ordered: list[SplitTarget] = []
    pending = list(targets)
    while pending:
        ready = [st for st in pending if st.blocked_by <= done or not st.blocked_by]
        if not ready:
            # Blocked by figures that are not targets: never eligible, keep them last.
            ordered.extend(pending)
            break
        for st in ready:
            ordered.append(st)
            done.add(st.target.key)
        pending = [st for st in pending if st.target.key not in done]
    return ordered


def split_odds(
    dice: DiceSpec, targets: Sequence[SplitTarget], attacker_owner: str | None = None
) -> AttackOdds:
    """Assault cannon: for every total, the best split (see :func:`best_split`)."""
    targets = tuple(targets)
    infos = tuple(st.target for st in targets)
    position = {t.key: i for i, t in enumerate(infos)}

    def effect(total: int) -> tuple[int, ...]:
        losses = [0] * len(infos)
        for key, allotted in best_split(total, targets):
            st = targets[position[key]]
            losses[position[key]] = life_points_lost(allotted, st.armour, st.target.life_points)
        return tuple(losses)

    return AttackOdds(infos, dice_sum(dice).map(effect), attacker_owner)


def enumerate_rolls(dice: DiceSpec) -> Iterator[tuple[int, ...]]:
    """Every face combination of ``dice`` (white dice first), each equally likely.

    For tests and brute-force checks; the distributions above never enumerate."""
    faces = [WHITE_FACES] * dice.white + [RED_FACES] * dice.red
    return itertools.product(*faces)
