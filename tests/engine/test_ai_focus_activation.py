"""Each focus and activation criterion in isolation, on the pure decision functions."""

import itertools
from dataclasses import replace

import pytest

from rules.engine.ai.activation import Readiness, choose_next, type_rank
from rules.engine.ai.focus import UNREACHABLE, PlayerReach, choose_focus


def reach(player, distance=5, attackable=False, marines=5, commander=True, initiative=0):
    return PlayerReach(player, distance, attackable, marines, commander, initiative)


def test_focus_shortest_path_distance():
    best, why = choose_focus([reach("a", 7, initiative=0), reach("b", 4, initiative=1)])
    assert (best.player, why) == ("b", "distance")


def test_focus_more_marines_in_play_on_equal_distance():
    best, why = choose_focus([reach("a", 4, marines=3), reach("b", 4, marines=4, initiative=1)])
    assert (best.player, why) == ("b", "marines_in_play")


def test_focus_commander_alive_on_equal_marines():
    best, why = choose_focus(
        [reach("a", 4, marines=3, commander=False), reach("b", 4, marines=3, initiative=2)]
    )
    assert (best.player, why) == ("b", "commander_alive")


def test_focus_initiative_as_last_tie_break():
    best, why = choose_focus([reach("b", 4, initiative=1), reach("a", 4, initiative=0)])
    assert (best.player, why) == ("a", "focus_initiative")


def test_focus_prefers_attackable_players_over_nearer_ones():
    best, why = choose_focus([reach("a", 2), reach("b", 9, attackable=True, initiative=1)])
    assert (best.player, why) == ("b", "only_player")


def test_focus_none_when_nothing_reachable():
    assert choose_focus([reach("a", UNREACHABLE)]) == (None, "no_path")


def ready(fid, kind="ork", distance=3, attackable=True, initiative=0):
    return Readiness(fid, kind, reach("p", distance, attackable, initiative=initiative))


def test_activation_attackers_first():
    best, why = choose_next([ready("o1", distance=1, attackable=False), ready("o2", distance=6)])
    assert (best.figure_id, why) == ("o2", "attackable_focus")


def test_activation_focus_earlier_in_initiative():
    best, why = choose_next([ready("o1", distance=1, initiative=2), ready("o2", distance=5)])
    assert (best.figure_id, why) == ("o2", "initiative")


def test_activation_shorter_path():
    best, why = choose_next([ready("o1", distance=4), ready("o2", distance=2)])
    assert (best.figure_id, why) == ("o2", "distance")


def test_activation_lowest_id_tie_is_flagged_for_the_attacked_player():
    best, why = choose_next([ready("o2", distance=2), ready("o1", distance=2)])
    assert (best.figure_id, why) == ("o1", "lowest_id")


def test_activation_move_only_nearest_first():
    best, why = choose_next(
        [ready("o1", distance=9, attackable=False), ready("o2", distance=7, attackable=False)]
    )
    assert (best.figure_id, why) == ("o2", "move_only")


def test_activation_an_attacker_that_would_hurt_nobody_ranks_as_moving_only():
    """o1 and o2 can attack their focus but only o3's attacks can hurt someone (game
    engine decision 24): o3 goes first, and before anyone that can only move."""
    asked = []

    def has_plan(ready):
        asked.append(ready.figure_id)
        return ready.figure_id == "o3"

    candidates = [ready("o1", distance=1), ready("o2", distance=2), ready("o3", distance=8)]
    best, why = choose_next(candidates + [ready("o4", distance=1, attackable=False)], has_plan)
    assert (best.figure_id, why) == ("o3", "attackable_focus")
    assert asked == ["o1", "o2", "o3"]


def test_activation_planless_attackers_move_nearest_first():
    best, why = choose_next(
        [ready("o1", distance=2), ready("o2", distance=9, attackable=False)], lambda r: False
    )
    assert (best.figure_id, why) == ("o1", "move_only")


def test_activation_judges_only_the_two_aliens_the_choice_needs():
    asked = []

    def has_plan(ready):
        asked.append(ready.figure_id)
        return True

    best, why = choose_next(
        [ready("o1", distance=1), ready("o2", distance=2), ready("o3", distance=3)],
        has_plan,
    )
    assert (best.figure_id, why) == ("o1", "distance")
    assert asked == ["o1", "o2"]


def test_single_alien_and_empty_list():
    assert choose_next([ready("o1")])[1] == "only_one"
    with pytest.raises(ValueError):
        choose_next([])


def test_type_order():
    order = [
        "gretchin",
        "ork",
        "dreadnought",
        "chaos_marine",
        "android",
        "genestealer",
        "chaos_marine_heavy",
        "chaos_commander",
    ]
    assert sorted(order, key=type_rank) == [
        "dreadnought",
        "chaos_commander",
        "chaos_marine_heavy",
        "android",
        "genestealer",
        "chaos_marine",
        "ork",
        "gretchin",
    ]
    assert type_rank("house_rule_beast") == 8


def test_activation_judging_only_two_aliens_chooses_as_judging_them_all():
    """The shortcut (plans asked only until two aliens have one) against the plain
    judgement: every alien without a plan marked so up front, then ordered."""
    # (can attack its focus, has a plan, distance, initiative) of o0, o1…
    shapes = [
        (True, True, 4, 1),
        (True, False, 1, 0),
        (True, True, 1, 0),
        (False, False, 2, 0),
        (True, False, 4, 0),
        (True, True, 2, 1),
    ]
    aliens = [
        (ready(f"o{n}", distance=d, attackable=a, initiative=i), has)
        for n, (a, has, d, i) in enumerate(shapes)
    ]
    for size in range(1, len(aliens) + 1):
        for chosen in itertools.permutations(aliens, size):
            candidates = [r for r, _ in chosen]
            plans = {r for r, has in chosen if has}
            plain = [
                r if r in plans or not r.can_attack else replace(r, planless=True)
                for r in candidates
            ]
            lazy = choose_next(candidates, plans.__contains__)
            assert lazy == choose_next(plain)
