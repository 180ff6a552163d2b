"""The area rule counts as "marines hit" only the figures a shot can hurt (RULES §11, with
§10: a figure loses a life point per point of attack above its armour).

A Tarantula has armour 6 (RULES §10b; seed 002 "Colpire la Tarantola": it can be hit in
the normal way and is destroyed by an attack above 6), so two red dice (a missile, a
plasma gun, an assault cannon, a bolter) never harm it, and its gunner has armour 4
against a shot from inside its arc, which the highest of two red dice (at most 3, what a
missile's blast deals around its centre) never beats. The AI used to count every figure a
template touched: an aim beside the Tarantula and its gunner counted two marines while it
could do nothing, and "most marines hit" comes first. Whether a figure can be hurt is
read off the same odds the expected damage comes from (``AttackOdds.damaged_keys``, the
armour combat's ``armour_from``); three red dice (a melta) can destroy a Tarantula, and
then it counts. A Suicide Android's square is picked by the same count (game engine
decisions 22 and 23), and a fight with the Tarantula is weighed as combat resolves it
(the attacker's total against armour 6).

The yard: gunner G crews the Tarantula T facing east, walls on G's north and south sides,
so that from the east (inside the arc, every square x >= 9) G's own square cannot be seen
(T stands in the way) while the squares beside T and G can. M, another squad's marine,
stands in the south-east corner, out of fighting reach.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from rules.engine.ai.area import area_plans, blast_shot, combat_shot, line_shot, single_shot
from rules.engine.ai.bob_policy import BobPolicy
from rules.engine.ai.reach import assess_focus
from rules.engine.ai.turn import resolve_alien_turn
from rules.engine.caches import BoundedCache
from rules.engine.combat import attack_options, blast_option, in_tarantula_arc
from rules.engine.dice import ScriptedDice, SeededDice
from rules.engine.play.turn_context import TurnContext
from rules.engine.units import load_rules_data
from tests.engine.ai_support import steps_of
from tests.engine.combat_scenes import alien, marine, put, scene
from tests.engine.test_event_self_destruct import with_card

RULES = load_rules_data()

YARD = """
+--+--+--+--+--+--+--+--+--+--+--+--+--+--+--+--+--+--+--+--+
|.  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  . |
+  +  +  +  +  +  +  +  +  +  +  +  +  +  +  +  +  +  +  +  +
|.  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  . |
+  +  +  +  +  +  +  +  +  +  +  +  +  +  +  +  +  +  +  +  +
|.  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  . |
+  +  +  +  +--+  +  +  +  +  +  +  +  +  +  +  +  +  +  +  +
|.  .  .  .  .G .T .T .  .  .  .  .  .  .  .  .  .  .  .  . |
+  +  +  +  +--+  +  +  +  +  +  +  +  +  +  +  +  +  +  +  +
|.  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  . |
+  +  +  +  +  +  +  +  +  +  +  +  +  +  +  +  +  +  +  +  +
|.  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  . |
+  +  +  +  +  +  +  +  +  +  +  +  +  +  +  +  +  +  +  +  +
|.  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .M|
+--+--+--+--+--+--+--+--+--+--+--+--+--+--+--+--+--+--+--+--+
"""

#: An aim beside both T and G, not on either: its blast catches the two of them.
BESIDE = (5, 2)


def yard(firer: str, squares: list[tuple[int, int]], weapons: list[str]):
    legend = {
        "T": marine("tarantula", facing="E"),
        "G": marine(weapons=["laser_rifle"], piloting="T"),
        "M": marine(weapons=["laser_rifle"], player="p2"),
        "H": alien(firer, weapons=weapons, id="h1"),
    }
    drawing = YARD
    for sq in squares:
        drawing = put(drawing, sq, "H")
    return scene(drawing, legend)


def chosen(state) -> tuple[dict, dict]:
    _, steps = resolve_alien_turn(state, BobPolicy(), SeededDice(seed=1))
    [attack] = steps_of(steps, "attack_chosen")
    [area] = steps_of(steps, "area_choice")
    return attack, area


def test_the_yard_is_what_the_scenarios_need():
    """Every square east of x = 8 is inside the arc, and the aim beside T and G is a blast
    combat resolves on both of them with nothing to lose: armour 6 for T, 4 for G (the
    highest die at most 3)."""
    state = yard("chaos_marine_heavy", [(13, 1)], ["missile_launcher"])
    tarantula = state.figure("T")
    assert all(in_tarantula_arc(tarantula, (x, y), RULES) for x in range(9, 20) for y in range(7))
    option = blast_option(state, "h1", "missile_launcher", BESIDE, data=RULES)
    assert option is not None
    assert set(option.target_keys) == {"G", "T"}
    assert option.odds.expected_life_points() == 0
    assert option.odds.damaged_keys() == ()


def test_a_missile_goes_to_the_marine_it_can_hurt_not_beside_the_tarantula():
    """The heavy Chaos Marine (in the arc wherever it can move) used to throw its missile
    at 5,2, beside T and G, counting two marines hit for 0 points and 0 life points; now
    that aim hits no marine and it throws the missile at M (one marine, killed on a total
    of 4 or more: 6 in 36, worth 5)."""
    attack, area = chosen(yard("chaos_marine_heavy", [(13, 1)], ["missile_launcher"]))
    assert (attack["weapon"], attack["target"]) == ("missile_launcher", "19,6")
    assert attack["points"] == pytest.approx(5 * 6 / 36, abs=1e-3)
    assert area["marines"] == 1


def test_a_dreadnought_missile_goes_to_the_marine_it_can_hurt():
    """The same for a Dreadnought, whose weapons are weighed stop by stop
    (``ai.area._shots_per_stop``) and whose marines hit are counted across its weapons
    (``ai.area.distinct_marines``): it used to aim beside T and G as well."""
    body = [(14, 0), (15, 0), (14, 1), (15, 1)]
    attack, area = chosen(yard("dreadnought", body, ["missile_launcher"]))
    assert (attack["weapon"], attack["target"]) == ("missile_launcher", "19,6")
    assert area["marines"] == 1


def test_the_aim_beside_the_tarantula_counts_no_marine():
    """The shot the AI weighs at 5,2 still touches T and G (what combat's option lists,
    which the AI matches to carry it out) but hurts neither."""
    state = yard("chaos_marine_heavy", [(13, 1)], ["missile_launcher"])
    ctx = TurnContext(state=state, dice=SeededDice(seed=0), rules=RULES)
    kept: BoundedCache = BoundedCache(100)
    shot = blast_shot(
        ctx, state.figure("h1"), "missile_launcher", BESIDE, {}, kept, fired_from=((13, 1),)
    )
    assert shot is not None
    assert (shot.hits, shot.hurts, shot.marines_hit) == (("G", "T"), (), 0)
    assert (shot.points, shot.life_points) == (0, 0)


def test_a_plasma_line_through_the_tarantula_counts_the_gunner_only():
    """Along row 3 from the east a plasma line (two red dice) goes through T and G: G
    (armour 4 from the arc) falls to a total of 5 or 6, T never."""
    state = yard("chaos_marine_heavy", [(14, 3)], ["plasma_gun"])
    ctx = TurnContext(state=state, dice=SeededDice(seed=0), rules=RULES)
    shot = line_shot(ctx, state.figure("h1"), "plasma_gun", (14, 3), (-1, 0), (14, 3))
    assert shot is not None
    assert (shot.hits, shot.hurts, shot.marines_hit) == (("G", "T"), ("G",), 1)


def test_a_melta_line_can_destroy_the_tarantula_and_counts_it():
    """A melta rolls three red dice for each figure on its line: a total of 7 or more
    destroys a Tarantula (worth 10), so T is a marine hit there, and so is G."""
    body = [(12, 2), (13, 2), (12, 3), (13, 3)]
    state = yard("dreadnought", body, ["melta"])
    ctx = TurnContext(state=state, dice=SeededDice(seed=0), rules=RULES)
    shot = combat_shot(ctx, state.figure("h1"), (12, 2), "melta", "T")
    assert shot is not None
    assert set(shot.hurts) == {"G", "T"} and shot.marines_hit == 2
    assert shot.points > 0


def test_a_single_shot_that_cannot_beat_armour_6_hits_no_marine():
    """A bolter's two red dice (at most 6) never destroy T: the shot counts no marine; at
    G (armour 4) it counts one."""
    state = yard("dreadnought", [(14, 0), (15, 0), (14, 1), (15, 1)], ["bolter"])
    ctx = TurnContext(state=state, dice=SeededDice(seed=0), rules=RULES)
    shot = single_shot(ctx, "bolter", state.figure("T"), ((14, 0),))
    assert (shot.hurts, shot.marines_hit, shot.points) == ((), 0, Fraction(0))
    at_gunner = single_shot(ctx, "bolter", state.figure("G"), ((14, 0),))
    assert (at_gunner.hurts, at_gunner.marines_hit) == (("G",), 1)


def test_area_plans_of_the_dreadnought_count_what_its_weapons_can_hurt():
    """A Dreadnought that stays where it is fires its missile at M and its bolter: the
    plan's marines hit are the figures its shots can hurt, never T."""
    body = [(14, 0), (15, 0), (14, 1), (15, 1)]
    state = yard("dreadnought", body, ["missile_launcher", "bolter"])
    ctx = TurnContext(state=state, dice=SeededDice(seed=0), rules=RULES)
    [plan] = area_plans(ctx, assess_focus(state, state.figure("h1"), RULES, 0))
    assert plan.marines_hit == len({f for s in plan.shots for f in s.hurts})
    assert "T" not in {f for s in plan.shots for f in s.hurts}


#: Suicide Android N (4, 2) (4 squares a turn) can reach (1, 2), beside gunner G (0, 1)
#: and T (facing east, front (2, 1)), and the squares beside wounded marine A (8, 1), who
#: has 1 life point.
DECK = """
+--+--+--+--+--+--+--+--+--+--+
|.  .  .  .  .  .  .  .  .  . |
+  +  +  +  +  +  +  +  +  +  +
|.G .T .T .  .  .  .  .  .A . |
+  +  +  +  +  +  +  +  +  +  +
|.  .  .  .  .N .  .  .  .  . |
+  +  +  +  +  +  +  +  +  +  +
|.  .  .  .  .  .  .  .  .  . |
+--+--+--+--+--+--+--+--+--+--+
"""


def deck(drawing: str = DECK):
    legend = {
        "T": marine("tarantula", facing="E"),
        "G": marine(weapons=["laser_rifle"], piloting="T"),
        "A": marine(weapons=["laser_rifle"], player="p2", life_points=1),
        "N": alien("android", id="n1"),
    }
    return with_card(scene(drawing, legend))


def test_a_suicide_android_explodes_beside_the_marine_it_can_hurt():
    """The Suicide Android's square is picked by the same rule (RULES §11, decision 22):
    beside T and G its blast (two red dice, a total of at most 6) catches two figures but
    can hurt only G; beside A it hurts A, who dies on a total of 3 or more. It used to
    count T and explode beside the Tarantula."""
    _, steps = resolve_alien_turn(deck(), BobPolicy(), ScriptedDice(values=[3, 2]))
    [chosen_square] = steps_of(steps, "self_destruct_chosen")
    assert max(abs(chosen_square["square"][0] - 8), abs(chosen_square["square"][1] - 1)) == 1
    assert chosen_square["targets"] == ["A"]


def test_a_suicide_android_does_not_explode_beside_the_tarantula_alone():
    """Where its blast could catch only T (armour 6, a total of at most 6), the android
    acts as usual and the card waits: it used to walk up to T and explode for nothing."""
    drawing = put(put(DECK, (8, 1), " "), (4, 2), " ")
    drawing = put(drawing, (7, 2), "N")  # 4 squares from (3, y) beside T, 6 from G
    state = deck(drawing)
    assert not state.has_figure("A")
    _, steps = resolve_alien_turn(state, BobPolicy(), SeededDice(seed=1))
    assert not steps_of(steps, "self_destruct_chosen")
    assert steps_of(steps, "self_destruct_unused")


#: The yard without its walls: G's west side can be reached. The alien is drawn in.
OPEN_YARD = YARD.replace("+--+  +  +", "+  +  +  +")


@pytest.mark.parametrize(
    ("unit", "points_at_t"),
    [("ork", None), ("chaos_marine", None), ("genestealer", 0.471)],
)
def test_a_fight_with_the_tarantula_is_weighed_as_combat_resolves_it(unit, points_at_t):
    """A Tarantula rolls no dice in a fight: the attacker's total must beat its armour 6
    (seed 002, "La Tarantola nel combattimento corpo a corpo"; ``combat.fought_as_a_shot``).
    The AI weighed it as a fight against no dice and no armour (an Ork: 5.556 points, a
    Genestealer 8.889) and went for T; now an Ork's or a Chaos Marine's two white dice
    (at most 4) can do nothing there, so that fight is no plan at all (game engine
    decision 24), a Genestealer's dice (at most 10) are worth a little, and each fights
    the gunner instead."""
    legend = {
        "T": marine("tarantula", facing="E"),
        "G": marine(weapons=["laser_rifle"], piloting="T"),
        "H": alien(unit, id="a1"),
    }
    state = scene(put(OPEN_YARD.replace(".M", ". "), (8, 5), "H"), legend)
    _, steps = resolve_alien_turn(state, BobPolicy(), SeededDice(seed=1))
    [attack] = steps_of(steps, "attack_chosen")
    assert (attack["weapon"], attack["target"]) == ("hand_to_hand", "G")
    plans = steps_of(steps, "attack_alternative")
    fights_t = [p for p in plans if p["weapon"] == "hand_to_hand" and p["target"] == "T"]
    if points_at_t is None:
        assert fights_t == []
        return
    [at_t] = fights_t
    assert at_t["points"] == pytest.approx(points_at_t, abs=1e-3)
    # Combat's own option for that fight, from the square the AI would fight from.
    placed = state.with_figure(state.figure("a1").moved_to((tuple(at_t["square"]),)))
    options = attack_options(placed, "a1", data=RULES)
    [option] = [o for o in options if o.kind == "hand_to_hand" and o.target == "T"]
    assert option.code == "fight_tarantula"
    assert float(option.odds.expected_points()) == pytest.approx(at_t["points"], abs=1e-3)
