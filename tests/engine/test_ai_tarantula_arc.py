"""The Alien AI weighs a Tarantula gunner's armour as combat applies it: 4 against an
attack made from inside the Tarantula's arc, 2 from anywhere else (RULES §10, §10b), the
arc looked at from the square the alien fires from after its move
(``combat.armour_from``, called by ``ai.plans.hurt_by``, ``ai.area`` and
``ai.attack_choice``).

The hall: gunner G crews the Tarantula T facing east, so the arc is the wedge opening east
of T's front square (6, 3); every square an alien standing at x >= 11 can reach is inside
it. C is a wounded commander of p2 (4 life points) on row 6. The firer is drawn in with
:func:`put`. T itself is no marine hit for the two red dice of these weapons (armour 6,
``tests/engine/test_ai_tarantula_hits.py``): a shot at the gunner competes with a shot at
C, one marine each, on expected points.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.engine.ai.area import blast_shot, line_shot, single_shot
from rules.engine.ai.bob_policy import BobPolicy
from rules.engine.ai.reach import footprint
from rules.engine.ai.turn import resolve_alien_turn
from rules.engine.caches import BoundedCache
from rules.engine.combat import armour_from, attack_options, blast_option, in_tarantula_arc
from rules.engine.dice import SeededDice
from rules.engine.play.turn_context import TurnContext
from rules.engine.units import load_rules_data
from tests.engine.ai_support import steps_of
from tests.engine.combat_scenes import alien, marine, put, scene

RULES = load_rules_data()

HALL = """
+--+--+--+--+--+--+--+--+--+--+--+--+--+--+--+--+--+--+--+--+
|.  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  . |
+  +  +  +  +  +  +  +  +  +  +  +  +  +  +  +  +  +  +  +  +
|.  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  . |
+  +  +  +  +  +  +  +  +  +  +  +  +  +  +  +  +  +  +  +  +
|.  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  . |
+  +  +  +  +  +  +  +  +  +  +  +  +  +  +  +  +  +  +  +  +
|.  .  .  .  .G .T .T .  .  .  .  .  .  .  .  .  .  .  .  . |
+  +  +  +  +  +  +  +  +  +  +  +  +  +  +  +  +  +  +  +  +
|.  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  . |
+  +  +  +  +  +  +  +  +  +  +  +  +  +  +  +  +  +  +  +  +
|.  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  . |
+  +  +  +  +  +  +  +  +  +  +  +  +  +  +  +  +  +  +  +  +
|.  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .C .  .  .  . |
+--+--+--+--+--+--+--+--+--+--+--+--+--+--+--+--+--+--+--+--+
"""

#: Inside the arc (east, on the Tarantula's row) and outside it (west, behind the gunner).
IN_ARC, BEHIND = (15, 3), (0, 3)


def hall(firer: tuple[int, int], weapon: str, gunner_life: int = 2):
    legend = {
        "T": marine("tarantula", facing="E"),
        "G": marine(weapons=["laser_rifle"], piloting="T", life_points=gunner_life),
        "C": marine("commander", player="p2", life_points=4),
        "H": alien("chaos_marine_heavy", weapons=[weapon], id="h1"),
    }
    return scene(put(HALL, firer, "H"), legend)


def chosen(state):
    _, steps = resolve_alien_turn(state, BobPolicy(), SeededDice(seed=1))
    [attack] = steps_of(steps, "attack_chosen")
    return attack


def weighed(state, weapon: str) -> dict:
    """The best plan with ``weapon`` the turn weighed, chosen or logged as beaten (a
    fight may score better than any shot)."""
    _, steps = resolve_alien_turn(state, BobPolicy(), SeededDice(seed=1))
    plans = steps_of(steps, "attack_chosen") + steps_of(steps, "attack_alternative")
    return next(p for p in plans if p["weapon"] == weapon)


def test_the_hall_has_the_arc_the_scenarios_need():
    state = hall(IN_ARC, "plasma_gun")
    tarantula = state.figure("T")
    assert all(in_tarantula_arc(tarantula, (x, y), RULES) for x in range(11, 20) for y in range(7))
    assert not in_tarantula_arc(tarantula, BEHIND, RULES)


def test_a_plasma_line_from_inside_the_arc_meets_the_gunner_armour_4():
    """Along row 3 from the east the line goes through T and G, and so does the line from
    behind; a line through C (killed only by a total of 6, 1 in 36, worth 10) is worth
    less than the gunner at armour 2 (a total of 4 or more, 6 in 36, worth 5) and more
    than the gunner at armour 4 (a total of 6). The AI used to weigh armour 2 from
    anywhere and fired at the gunner from inside the arc too. (From behind, a fight with
    the gunner scores more still: the line is the best shot the turn weighed.)"""
    behind = weighed(hall(BEHIND, "plasma_gun"), "plasma_gun")
    assert behind["points"] == pytest.approx(5 / 6, abs=1e-3)
    assert (behind["square"][1], behind["target"]) == (3, "1,0")  # east along row 3
    in_arc = chosen(hall(IN_ARC, "plasma_gun"))
    assert in_arc["weapon"] == "plasma_gun"
    assert in_arc["points"] == pytest.approx(10 / 36, abs=1e-3)


def test_a_missile_from_inside_the_arc_spares_the_wounded_gunner():
    """A missile next to a gunner with 1 life point kills him on a highest die of 3
    against armour 2, never against 4 (the highest die is at most 3). From behind the AI
    throws it next to the gunner; from inside the arc at the commander instead (it used
    to throw it at the gunner from there too)."""
    behind = chosen(hall(BEHIND, "missile_launcher", gunner_life=1))
    aim = tuple(int(v) for v in behind["target"].split(","))
    assert max(abs(aim[0] - 4), abs(aim[1] - 3)) <= 1  # the gunner is caught
    in_arc = chosen(hall(IN_ARC, "missile_launcher", gunner_life=1))
    aim = tuple(int(v) for v in in_arc["target"].split(","))
    assert aim == (15, 6)
    assert in_arc["points"] == pytest.approx(10 / 36, abs=1e-3)


def test_a_dreadnought_ranks_its_aims_for_each_side_of_the_arc():
    """A Dreadnought (2x2) scores its weapons stop by stop (``ai.area._shots_per_stop``),
    its aims ranked once per arc key: from inside the arc its missile goes to the
    commander, from behind to the wounded gunner (it used to aim next to the gunner,
    worth 55/36 at armour 2, from inside the arc too). It fights in both places (a fight
    scores more): its missile plan is the best one the turn weighed."""

    def dreadnought_at(top):
        drawing = HALL
        for dx in (0, 1):
            for dy in (0, 1):
                drawing = put(drawing, (top[0] + dx, top[1] + dy), "D")
        legend = {
            "T": marine("tarantula", facing="E"),
            "G": marine(weapons=["laser_rifle"], piloting="T", life_points=1),
            "C": marine("commander", player="p2", life_points=4),
            "D": alien("dreadnought", weapons=["missile_launcher"], id="d1"),
        }
        return weighed(scene(drawing, legend), "missile_launcher")

    in_arc = dreadnought_at(IN_ARC)
    assert in_arc["target"] == "15,6"
    assert in_arc["points"] == pytest.approx(10 / 36, abs=1e-3)
    behind = dreadnought_at((0, 2))
    assert behind["target"] == "4,3"  # on the gunner: killed on a total of 3 or more


def _combat_option(state, firer_at, pick):
    placed = state.with_figure(state.figure("h1").moved_to((firer_at,)))
    options = [o for o in attack_options(placed, "h1", data=RULES) if pick(o)]
    assert len(options) == 1
    return options[0]


@pytest.mark.parametrize(("firer_at", "gunner_armour"), [(IN_ARC, 4), (BEHIND, 2)])
def test_the_line_estimate_is_what_combat_applies(firer_at, gunner_armour):
    """The AI weighs the plasma line along row 3 from where the alien fires, before it
    moves there (it starts at (10, 0)): the same expected points and life points as the
    option combat resolves once it stands there, the gunner's armour the arc's."""
    state = hall((10, 0), "plasma_gun")
    direction = (-1, 0) if firer_at == IN_ARC else (1, 0)
    ctx = TurnContext(state=state, dice=SeededDice(seed=0), rules=RULES)
    estimate = line_shot(ctx, state.figure("h1"), "plasma_gun", firer_at, direction, firer_at)
    assert estimate is not None and set(estimate.hits) == {"G", "T"}
    option = _combat_option(state, firer_at, lambda o: o.direction == direction)
    assert (estimate.points, estimate.life_points) == (
        option.odds.expected_points(),
        option.odds.expected_life_points(),
    )
    placed = state.figure("h1").moved_to((firer_at,))
    assert armour_from(state, state.figure("G"), placed.squares, RULES) == gunner_armour


@pytest.mark.parametrize(("firer_at", "gunner_armour"), [((15, 2), 4), ((0, 2), 2)])
def test_the_blast_estimate_is_what_combat_applies(firer_at, gunner_armour):
    """A missile at (4, 2), next to the wounded gunner (and to T), weighed from the
    square the alien will fire from: the same odds as combat's once it stands there, and
    the estimates from the two sides of the arc differ (the memo of shots, shared by both
    firing squares, keeps them apart)."""
    state = hall((10, 0), "missile_launcher", gunner_life=1)
    ctx = TurnContext(state=state, dice=SeededDice(seed=0), rules=RULES)
    firer = state.figure("h1")
    kept: BoundedCache = BoundedCache(100)
    other = (0, 2) if firer_at == (15, 2) else (15, 2)
    before = blast_shot(ctx, firer, "missile_launcher", (4, 2), {}, kept, fired_from=(other,))
    estimate = blast_shot(ctx, firer, "missile_launcher", (4, 2), {}, kept, fired_from=(firer_at,))
    assert estimate is not None and before is not None and estimate != before
    placed = state.with_figure(firer.moved_to((firer_at,)))
    option = blast_option(placed, "h1", "missile_launcher", (4, 2), data=RULES)
    assert option is not None
    assert (estimate.points, estimate.life_points) == (
        option.odds.expected_points(),
        option.odds.expected_life_points(),
    )
    assert (estimate.points > 0) == (gunner_armour == 2)
    assert armour_from(state, state.figure("G"), (firer_at,), RULES) == gunner_armour
    assert estimate.points in (Fraction(0), Fraction(55, 36))


@pytest.mark.parametrize(("top_left", "gunner_armour"), [((7, 0), 4), ((6, 0), 2)])
def test_the_single_shot_estimate_is_what_combat_applies(top_left, gunner_armour):
    """A Dreadnought with a bolter sees the gunner from (7, 0) (past T's corner) while its
    square (8, 1) is inside the arc: combat counts armour 4, and so does the AI's estimate
    of the shot from there; one square west, all four squares are outside the arc."""
    drawing = HALL.replace(".C", ". ")
    for dx in (0, 1):
        for dy in (0, 1):
            drawing = put(drawing, (7 + dx, dy), "D")
    legend = {
        "T": marine("tarantula", facing="E"),
        "G": marine(weapons=["laser_rifle"], piloting="T"),
        "D": alien("dreadnought", weapons=["bolter"], id="d1"),
    }
    state = scene(drawing, legend)
    dreadnought, gunner = state.figure("d1"), state.figure("G")
    ctx = TurnContext(state=state, dice=SeededDice(seed=0), rules=RULES)
    estimate = single_shot(ctx, "bolter", gunner, footprint(dreadnought, top_left))
    placed = state.with_figure(dreadnought.moved_to(footprint(dreadnought, top_left)))
    [option] = [o for o in attack_options(placed, "d1", data=RULES) if o.target == "G"]
    assert option.params["armour"] == gunner_armour
    assert (estimate.points, estimate.life_points) == (
        option.odds.expected_points(),
        option.odds.expected_life_points(),
    )


def test_the_turn_weighs_the_shot_from_the_square_straddling_the_arc_at_armour_4():
    """In the Dreadnought's turn (focus plans and area plans both) the bolter shot at the
    gunner from (7, 0) is weighed 5/36 points (armour 4), from (6, 0) 5/6 (armour 2)."""
    drawing = HALL.replace(".C", ". ")
    for dx in (0, 1):
        for dy in (0, 1):
            drawing = put(drawing, (7 + dx, dy), "D")
    legend = {
        "T": marine("tarantula", facing="E"),
        "G": marine(weapons=["laser_rifle"], piloting="T"),
        "D": alien("dreadnought", weapons=["bolter"], id="d1"),
    }
    _, steps = resolve_alien_turn(scene(drawing, legend), BobPolicy(), SeededDice(seed=1))
    shots = {
        tuple(p["square"]): p["points"]
        for p in steps_of(steps, "attack_alternative") + steps_of(steps, "attack_chosen")
        if p["weapon"] == "bolter" and p["target"] == "G"
    }
    assert shots == {(7, 0): 0.139, (6, 0): 0.833}


FACINGS = {"E": ((5, 3), (6, 3), (4, 3)), "W": ((4, 3), (5, 3), (6, 3))}


@settings(max_examples=60, deadline=None)
@given(
    firer_at=st.tuples(st.integers(0, 19), st.integers(0, 6)),
    facing=st.sampled_from(sorted(FACINGS)),
    gunner_life=st.integers(1, 2),
)
def test_every_line_and_blast_estimate_is_what_combat_applies(firer_at, facing, gunner_life):
    """From any free square, whichever way the Tarantula faces, each plasma line and each
    missile aim next to the gunner is weighed by the AI (the alien still at (19, 6), before
    its move) as combat resolves it once the alien stands there."""
    t_front, t_centre, g_square = FACINGS[facing]
    drawing = HALL.replace(".C", ". ").replace(".G", ". ").replace(".T", ". ")
    for sq, letter in ((t_front, "T"), (t_centre, "T"), (g_square, "G"), ((19, 6), "H")):
        drawing = put(drawing, sq, letter)
    legend = {
        "T": marine("tarantula", facing=facing),
        "G": marine(weapons=["laser_rifle"], piloting="T", life_points=gunner_life),
        "H": alien("chaos_marine_heavy", weapons=["plasma_gun", "missile_launcher"], id="h1"),
    }
    state = scene(drawing, legend)
    if state.figure_at(firer_at) is not None and firer_at != (19, 6):
        return
    firer = state.figure("h1")
    ctx = TurnContext(state=state, dice=SeededDice(seed=0), rules=RULES)
    placed = state.with_figure(firer.moved_to((firer_at,)))
    options = attack_options(placed, "h1", data=RULES)
    lines = {o.direction: o for o in options if o.weapon == "plasma_gun"}
    for direction, option in lines.items():
        estimate = line_shot(ctx, firer, "plasma_gun", firer_at, direction, firer_at)
        assert estimate is not None
        assert (estimate.points, estimate.life_points) == (
            option.odds.expected_points(),
            option.odds.expected_life_points(),
        )
    kept: BoundedCache = BoundedCache(100)
    for x in range(g_square[0] - 1, g_square[0] + 2):
        for y in range(2, 5):
            if max(abs(x - firer_at[0]), abs(y - firer_at[1])) <= 1:
                continue
            option = blast_option(placed, "h1", "missile_launcher", (x, y), data=RULES)
            shot = blast_shot(
                ctx, firer, "missile_launcher", (x, y), {}, kept, fired_from=(firer_at,)
            )
            if option is None or shot is None:
                continue
            assert (shot.points, shot.life_points) == (
                option.odds.expected_points(),
                option.odds.expected_life_points(),
            )
