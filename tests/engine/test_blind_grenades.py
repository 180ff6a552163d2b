"""Blind Grenades (RULES §5): in the next Alien turn no alien attack damages the shielded
squad's figures: not a shot, not a fight, not a missile's blast, a plasma or melta line or
a conversion beam aimed at someone else. Other players' attacks still do."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rules.engine.ai.policies import policy_named
from rules.engine.ai.turn import resolve_alien_turn
from rules.engine.combat import option_for, resolve_attack
from rules.engine.dice import ScriptedDice, SeededDice
from rules.engine.narration import render
from rules.engine.narration_combat import combat_text
from tests.engine.ai_support import alien, make_board, make_state, marine

BOARD = make_board(12, 5)


def shielded(state, *players):
    return state.replace(progress=replace(state.progress, shielded=tuple(players)))


def scene(firer_weapons=("missile_launcher",), unit="chaos_marine_heavy"):
    """An alien at 0,2; p2's marine at 6,2 and p1's (shielded) marine at 7,2, in line."""
    figures = [
        alien("cm", unit, (0, 2), weapons=firer_weapons),
        marine("p2-m", "p2", (6, 2)),
        marine("p1-m", "p1", (7, 2)),
    ]
    return shielded(make_state(BOARD, figures, players=("p1", "p2")), "p1")


def test_a_missile_blast_spares_the_shielded_marine_next_to_its_target():
    state = scene()
    option = option_for(state, "cm", "missile_launcher", aim=(6, 2))
    after, events = resolve_attack(state, option, ScriptedDice(values=[3, 3]))
    assert not after.has_figure("p2-m")  # 6 against armour 2: killed
    assert after.figure("p1-m").life_points == 2  # 3 against armour 2 would have hurt
    shield = [e for e in events if e.code == "shielded"]
    assert [e.figure_id for e in shield] == ["p1-m"]
    assert combat_text("shielded", shield[0].params, "it") == (
        "p1-m è protetto dalla carta Blind Grenades: non subisce danni"
    )


@pytest.mark.parametrize("weapon", ["plasma_gun", "melta", "conversion_beamer"])
def test_lines_and_beams_spare_the_shielded_marine(weapon):
    state = scene((weapon,))
    option = option_for(state, "cm", weapon, direction=(1, 0))
    after, events = resolve_attack(state, option, ScriptedDice(values=[3] * 9))
    assert after.figure("p1-m").life_points == 2
    assert any(e.code == "shielded" and e.figure_id == "p1-m" for e in events)
    assert not after.has_figure("p2-m") or after.figure("p2-m").life_points < 2


def test_a_fight_the_shielded_marine_loses_costs_it_nothing():
    figures = [alien("o", "ork", (6, 1)), marine("p1-m", "p1", (6, 2))]
    state = shielded(make_state(BOARD, figures, players=("p1",)), "p1")
    option = option_for(state, "o", None, target="p1-m")
    after, events = resolve_attack(state, option, ScriptedDice(values=[2, 2, 0, 0]))
    assert after.figure("p1-m").life_points == 2
    assert events[-1].code == "shielded"


def test_another_players_marine_still_hurts_a_shielded_marine():
    figures = [marine("p2-m", "p2", (0, 2), weapons=("missile_launcher",), unit="marine")]
    figures += [marine("p1-a", "p1", (6, 2)), marine("p1-b", "p1", (7, 2))]
    state = shielded(make_state(BOARD, figures, players=("p1", "p2")), "p1")
    option = option_for(state, "p2-m", "missile_launcher", aim=(6, 2))
    after, _ = resolve_attack(state, option, ScriptedDice(values=[3, 3]))
    assert not after.has_figure("p1-a") and after.figure("p1-b").life_points == 1


@pytest.mark.parametrize("policy", ["bob", "priority", "solitaire"])
def test_an_alien_turn_never_damages_the_shielded_squad(policy):
    figures = [
        alien("cm", "chaos_marine_heavy", (0, 2)),
        alien("dread", "dreadnought", (0, 0)),
        marine("p2-m", "p2", (6, 2)),
        marine("p1-a", "p1", (7, 2)),
        marine("p1-b", "p1", (6, 3)),
    ]
    state = shielded(make_state(BOARD, figures, players=("p1", "p2")), "p1")
    for seed in range(6):
        after, steps = resolve_alien_turn(state, policy_named(policy), SeededDice(seed=seed))
        for fid in ("p1-a", "p1-b"):
            assert after.figure(fid).life_points == 2, (policy, seed)
        for step in steps:
            if step.code == "shielded_target":
                assert step.params["target"] in ("p1-a", "p1-b")
                assert "Blind Grenades" in render(step.code, step.params, "it")


def test_the_alien_aims_its_blast_at_marines_it_can_hurt():
    """A missile at C's square would touch C and the three shielded marines around it; one
    between A and B touches two marines it can hurt: with the shield it takes that one."""
    figures = [
        alien("cm", "chaos_marine_heavy", (0, 2)),
        marine("p2-a", "p2", (6, 1)),
        marine("p2-b", "p2", (6, 3)),
        marine("p2-c", "p2", (10, 2)),
        marine("p1-a", "p1", (10, 1)),
        marine("p1-b", "p1", (10, 3)),
        marine("p1-c", "p1", (11, 2)),
    ]
    plain = make_state(BOARD, figures, players=("p1", "p2"))

    def marines_aimed_at(state):
        _, steps = resolve_alien_turn(state, policy_named("bob"), SeededDice(seed=1))
        return next(s.params["marines"] for s in steps if s.code == "area_choice")

    assert marines_aimed_at(plain) == 4
    assert marines_aimed_at(shielded(plain, "p1")) == 2
