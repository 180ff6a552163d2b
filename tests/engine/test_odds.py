"""Exact distributions: sums to 1, match brute-force enumeration of the faces, seed examples."""

from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.engine.odds import (
    Distribution,
    SplitTarget,
    TargetInfo,
    best_split,
    blast_odds,
    combine_independent,
    conversion_odds,
    dice_sum,
    dice_total_and_highest,
    enumerate_rolls,
    hand_to_hand_odds,
    kill_probability,
    lascannon_odds,
    line_odds,
    melta_odds,
    shot_damage,
    shot_odds,
    split_odds,
)
from rules.engine.units import DiceSpec

dice_specs = st.builds(DiceSpec, st.integers(0, 3), st.integers(0, 3))


def brute(dice, function):
    """Distribution of function(faces) over every face combination."""
    return Distribution.from_counts(Counter(function(faces) for faces in enumerate_rolls(dice)))


def alien(key, lp=1, value=1):
    return TargetInfo(key, lp, value, "alien")


def test_two_red_dice_exact():
    assert dice_sum(DiceSpec(red=2)) == Distribution(
        {
            0: Fraction(9, 36),
            1: Fraction(6, 36),
            2: Fraction(7, 36),
            3: Fraction(8, 36),
            4: Fraction(3, 36),
            5: Fraction(2, 36),
            6: Fraction(1, 36),
        }
    )


def test_two_white_dice_exact():
    dist = dice_sum(DiceSpec(white=2))
    assert dist.probability(0) == Fraction(16, 36)
    assert dist.probability(4) == Fraction(1, 36)
    assert dist.expected() == Fraction(2 * 3, 6)


@settings(max_examples=60, deadline=None)
@given(dice_specs)
def test_dice_sum_matches_enumeration_and_sums_to_one(dice):
    dist = dice_sum(dice)
    assert dist.total() == 1
    assert dist == brute(dice, sum)


@settings(max_examples=40, deadline=None)
@given(dice_specs)
def test_total_and_highest_matches_enumeration(dice):
    dist = dice_total_and_highest(dice)
    assert dist.total() == 1
    assert dist == brute(dice, lambda f: (sum(f), max(f, default=0)))


@settings(max_examples=80, deadline=None)
@given(dice_specs, st.integers(0, 6), st.integers(1, 6))
def test_shot_damage_matches_enumeration(dice, armour, lp):
    dist = shot_damage(dice, armour, lp)
    assert dist.total() == 1
    assert dist == brute(dice, lambda f: min(lp, max(0, sum(f) - armour)))
    assert kill_probability(dice, armour, lp) == dist.probability(lp)


def test_damage_is_points_above_armour():
    # Bolter (2 red) against an Ork (armour 1): a total of 3 removes 2 life points.
    odds = shot_odds(DiceSpec(red=2), TargetInfo("m", 2, 5, "p1"), 1, "alien")
    assert odds.losses.probability((2,)) == Fraction(8 + 3 + 2 + 1, 36)
    assert odds.kill_probability("m") == Fraction(14, 36)
    assert odds.expected_points() == Fraction(14, 36) * 5


@settings(max_examples=60, deadline=None)
@given(dice_specs, dice_specs, st.integers(1, 6), st.integers(1, 6))
def test_hand_to_hand_matches_enumeration(a_dice, d_dice, a_lp, d_lp):
    attacker = TargetInfo("a", a_lp, 5, "alien")
    defender = TargetInfo("d", d_lp, 10, "p1")
    odds = hand_to_hand_odds(attacker, a_dice, defender, d_dice)
    assert odds.losses.total() == 1
    # The two sides roll independently: enumerate each side's faces, then pair the totals.
    a_totals = Counter(sum(f) for f in enumerate_rolls(a_dice))
    d_totals = Counter(sum(f) for f in enumerate_rolls(d_dice))
    joint = Counter()
    for ta, na in a_totals.items():
        for td, nd in d_totals.items():
            diff = ta - td
            joint[(min(a_lp, max(0, -diff)), min(d_lp, max(0, diff)))] += na * nd
    assert odds.losses == Distribution.from_counts(joint)
    # Never both lose in the same fight; a tie costs nothing.
    assert odds.losses.probability_where(lambda v: v[0] > 0 and v[1] > 0) == 0
    assert odds.expected_points() == odds.kill_probability("d") * 10


def test_seed_hand_to_hand_example_one_against_four():
    # RULES §10: totals 1 and 4 -> the first loses 3 life points.
    odds = hand_to_hand_odds(
        TargetInfo("a", 6, 10, "p1"),
        DiceSpec(red=2),
        TargetInfo("d", 6, 1, "alien"),
        DiceSpec(red=2),
    )
    assert odds.losses.probability((3, 0)) > 0
    assert odds.losses.probability((0, 0)) == sum(
        dice_sum(DiceSpec(red=2)).probability(t) ** 2 for t in range(7)
    )


def test_missile_blast_matches_enumeration():
    centre = [(alien("c", value=5), 2)]
    around = [(alien("n1"), 0), (alien("n2"), 2), (TargetInfo("m", 2, 5, "p1"), 2)]
    odds = blast_odds(DiceSpec(red=2), centre, around, "p1")
    brute_dist = brute(
        DiceSpec(red=2),
        lambda f: (
            min(1, max(0, sum(f) - 2)),
            min(1, max(0, max(f) - 0)),
            min(1, max(0, max(f) - 2)),
            min(2, max(0, max(f) - 2)),
        ),
    )
    assert odds.losses == brute_dist
    assert odds.touches_friendly() is True
    # The firer's own marine next to the blast counts only when asked for.
    m_kill = odds.kill_probability("m")
    assert odds.expected_points(include_friendly=True) == odds.expected_points() + 5 * m_kill


def test_touches_friendly_besides_leaves_out_only_the_figure_named():
    # A fighter is one of its own fight's targets: the board's warning leaves it out.
    fight = hand_to_hand_odds(
        TargetInfo("a", 6, 10, "p1"),
        DiceSpec(red=2),
        TargetInfo("d", 6, 1, "alien"),
        DiceSpec(red=1),
    )
    assert fight.touches_friendly() is True
    assert fight.touches_friendly(besides="a") is False
    # The firer's own marine next to a blast is another figure: still touched.
    centre = [(alien("c"), 2)]
    blast = blast_odds(DiceSpec(red=2), centre, [(TargetInfo("m", 2, 5, "p1"), 2)], "p1")
    assert blast.touches_friendly(besides="firer") is True
    assert blast.touches_friendly(besides="m") is False
    # No owner for the attacker: nothing is friendly.
    unowned = blast_odds(DiceSpec(red=2), centre, [(TargetInfo("m", 2, 5, "p1"), 2)])
    assert unowned.touches_friendly(besides="x") is False


def test_plasma_line_uses_one_roll_for_every_figure():
    odds = line_odds(DiceSpec(red=2), [(alien("a"), 0), (alien("b"), 2)])
    # Whenever b dies (total > 2), a dies too: the same roll.
    assert odds.losses.probability((0, 1)) == 0
    assert odds.kill_probability("b") == Fraction(14, 36)
    assert odds.kill_probability("a") == Fraction(27, 36)


def test_melta_rolls_separately_per_figure():
    hits = [(alien("g"), 0), (alien("an"), 2), (alien("o"), 1)]
    odds = melta_odds(DiceSpec(red=3), hits)
    single = {a: kill_probability(DiceSpec(red=3), a, 1) for a in (0, 1, 2)}
    assert odds.losses.probability((1, 1, 1)) == single[0] * single[2] * single[1]
    assert odds.losses.total() == 1


def test_conversion_beamer_reductions():
    hits = [(alien("end"), 2, 0), (alien("back1"), 2, 1), (TargetInfo("self", 2, 15, "p1"), 2, 5)]
    odds = conversion_odds(DiceSpec(red=3), hits, "p1")
    # The firer five squares back is hurt only by a total of 8 or more (impossible with 3 red
    # dice only above 9): 9 - 5 = 4 > 2 -> 2 life points.
    assert odds.kill_probability("self") == Fraction(1, 216)
    assert odds.friendly_hit_probability() == dice_sum(DiceSpec(red=3)).probability_where(
        lambda t: t - 5 > 2
    )
    assert odds.expected_points() == odds.kill_probability("end") + odds.kill_probability("back1")
    assert odds.expected_points(include_friendly=True) > odds.expected_points()


def test_lascannon_concentrated_and_separate_areas():
    gretchins = [(alien(f"g{i}"), 0) for i in range(3)]
    androids = [(alien("a1", value=5), 2), (alien("a2", value=5), 2)]
    odds = lascannon_odds(DiceSpec(red=1), [(1, gretchins), (2, androids)])
    assert odds.kill_probability("g0") == Fraction(3, 6)
    assert odds.kill_probability("a1") == dice_sum(DiceSpec(red=2)).probability_where(
        lambda t: t > 2
    )
    # Independent areas: the joint probability is the product.
    assert odds.losses.probability((1, 1, 1, 1, 1)) == Fraction(3, 6) * Fraction(14, 36)
    assert odds.losses.total() == 1


def test_combine_adds_losses_on_the_same_target_and_caps_them():
    marine = TargetInfo("m", 2, 10, "p1")
    one = shot_odds(DiceSpec(red=2), marine, 2, "alien")
    both = combine_independent([one, one])
    brute_joint = Counter()
    for f1 in enumerate_rolls(DiceSpec(red=2)):
        for f2 in enumerate_rolls(DiceSpec(red=2)):
            lost = max(0, sum(f1) - 2) + max(0, sum(f2) - 2)
            brute_joint[(min(2, lost),)] += 1
    assert both.losses == Distribution.from_counts(brute_joint)


GRETCHINS = [SplitTarget(alien(f"g{i}", value=1), 0) for i in range(3)]
ORK_NEAR = SplitTarget(alien("ork1", value=2), 1)
ANDROID = SplitTarget(alien("android", value=5), 2)
ORK_FAR = SplitTarget(alien("ork2", value=2), 1, frozenset({"ork1"}))
SEED_TARGETS = (*GRETCHINS, ORK_NEAR, ANDROID, ORK_FAR)


def _plan_damage(plan, targets):
    by_key = {t.target.key: t for t in targets}
    return {k: min(by_key[k].target.life_points, max(0, a - by_key[k].armour)) for k, a in plan}


def test_assault_cannon_seed_example_best_split_of_four():
    # With Android 5 and Gretchin 1 the best split of 4 is 3 on the Android + 1 on a Gretchin.
    plan = best_split(4, SEED_TARGETS)
    kills = _plan_damage(plan, SEED_TARGETS)
    assert sorted(k for k, v in kills.items() if v) == ["android", "g0"]
    assert sum(a for _, a in plan) == 4


def test_assault_cannon_split_reaches_a_target_revealed_by_a_kill():
    # If the Orks are worth most, 2 + 2 kills the near Ork and then the one behind it.
    valuable = (
        *GRETCHINS,
        SplitTarget(alien("ork1", value=9), 1),
        ANDROID,
        SplitTarget(alien("ork2", value=9), 1, frozenset({"ork1"})),
    )
    assert dict(best_split(4, valuable)) == {"ork1": 2, "ork2": 2}
    # Without the near Ork dying, the far Ork is never eligible.
    assert "ork2" not in dict(best_split(1, valuable))


def test_split_odds_sum_to_one_and_match_plans():
    odds = split_odds(DiceSpec(red=2), SEED_TARGETS, "p1")
    assert odds.losses.total() == 1
    for total, p in dice_sum(DiceSpec(red=2)).items():
        kills = _plan_damage(best_split(total, SEED_TARGETS), SEED_TARGETS)
        vector = tuple(kills.get(t.target.key, 0) for t in SEED_TARGETS)
        assert odds.losses.probability(vector) >= p


def test_describe_mentions_every_target():
    odds = shot_odds(DiceSpec(white=2), alien("g"), 0)
    text = "\n".join(odds.describe())
    assert "g:" in text
    assert "P(points destroyed = 1)" in text


def test_distribution_rejects_empty_counts():
    with pytest.raises(ValueError):
        Distribution.from_counts({})
