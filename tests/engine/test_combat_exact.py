"""Each option's exact odds equal what resolution does over every possible roll.

For every attack option on a busy board (small enough to enumerate), the dice it rolls are
replayed face by face through ScriptedDice; the life points each figure loses, weighted by
how many die faces show each value, must give exactly the option's distribution."""

import itertools
from collections import Counter
from fractions import Fraction

import pytest

from rules.engine.combat import attack_options, resolve_attack
from rules.engine.dice import FACES, DieKind, ScriptedDice, SeededDice
from rules.engine.odds import Distribution
from tests.engine.combat_scenes import scene
from tests.engine.test_combat_properties import LEGEND, MELEE

MAX_DICE = 6


def weighted_faces(kind: DieKind) -> list[tuple[int, int]]:
    return sorted(Counter(FACES[kind]).items())


def enumerate_resolutions(state, option):
    probe = SeededDice(seed=1)
    resolve_attack(state, option, probe)
    kinds = [roll.kind for roll in probe.log for _ in roll.values]
    if len(kinds) > MAX_DICE:
        return None
    counts: Counter = Counter()
    for combo in itertools.product(*(weighted_faces(k) for k in kinds)):
        values = [v for v, _ in combo]
        weight = 1
        for _, w in combo:
            weight *= w
        _, events = resolve_attack(state, option, ScriptedDice(values=values))
        lost = Counter()
        for event in events:
            if event.kind == "damage":
                lost[event.figure_id] += event.life_points_lost
        assert set(lost) <= set(option.target_keys), (option.description, lost)
        counts[tuple(lost.get(k, 0) for k in option.target_keys)] += weight
    return Distribution.from_counts(counts)


def all_options():
    state = scene(MELEE, LEGEND)
    for figure in state.figures:
        for option in attack_options(state, figure.id):
            if option.kind != "door":
                yield pytest.param(state, option, id=f"{figure.id}:{option.description[:60]}")


@pytest.mark.parametrize(("state", "option"), list(all_options()))
def test_option_odds_equal_exhaustive_resolution(state, option):
    brute = enumerate_resolutions(state, option)
    if brute is None:
        pytest.skip("too many dice to enumerate")
    assert brute == option.odds.losses
    assert option.odds.losses.total() == Fraction(1)
