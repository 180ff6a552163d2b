"""An alien's attack is judged by what it can hurt, as combat resolves it.

The assault cannon (RULES §10: its total split among any visible targets) is shared out
by combat's best split of each roll: a figure gets a share only where the share beats its
armour, so the figures it reaches are the ones it can hurt. The Priority policy asks every
area shot at a target to reach that target; it looked for the target among the figures
the shot touches, which a split shot never listed, so an assault cannon never passed and
an alien armed with one never shot (game engine decision 23).

A shot or fight that can hurt nobody (its dice never beat the armour of anyone it
reaches) is no plan (game engine decision 24): the alien does something useful instead,
here moving towards its focus. A Tarantula has armour 6 and its gunner armour 4 against a
shot from inside its arc (RULES §10b, seed 002): a Gretchin's two white dice (at most 4)
or a missile's two red dice around its centre (at most 3) never beat them.
"""

from __future__ import annotations

from rules.engine.ai.bob_policy import BobPolicy
from rules.engine.ai.priority_policy import PriorityPolicy
from rules.engine.ai.turn import resolve_alien_turn
from rules.engine.dice import SeededDice
from tests.engine.ai_support import steps_of
from tests.engine.combat_scenes import alien, marine, put, scene
from tests.engine.test_event_special_weapons import with_card

#: H, a heavy Chaos Marine with an assault cannon (4 squares a turn), sees A down the
#: corridor, too far to fight.
CORRIDOR = """
+--+--+--+--+--+--+--+--+--+--+--+--+--+--+
|.  .  .  .  .  .  .  .  .  .  .  .  .  . |
+  +  +  +  +  +  +  +  +  +  +  +  +  +  +
|.H .  .  .  .  .  .  .  .  .  .  .  .  .A|
+  +  +  +  +  +  +  +  +  +  +  +  +  +  +
|.  .  .  .  .  .  .  .  .  .  .  .  .  . |
+--+--+--+--+--+--+--+--+--+--+--+--+--+--+
"""

#: Gunner G crews the Tarantula T, facing east; X (a Gretchin, 8 squares a turn, or a
#: heavy Chaos Marine with a missile launcher, 4) stands inside its arc, too far to fight
#: either. Nobody else is on the board.
TARANTULA_HALL = """
+--+--+--+--+--+--+--+--+--+--+--+--+--+--+--+--+
|.  .  .  .  .  .  .  .  .  .  .  .  .  .  .  . |
+  +  +  +  +  +  +  +  +  +  +  +  +  +  +  +  +
|.G .T .T .  .  .  .  .  .  .  .  .  .  .  .  .X|
+  +  +  +  +  +  +  +  +  +  +  +  +  +  +  +  +
|.  .  .  .  .  .  .  .  .  .  .  .  .  .  .  . |
+--+--+--+--+--+--+--+--+--+--+--+--+--+--+--+--+
"""


def run(state, policy):
    _, steps = resolve_alien_turn(state, policy, SeededDice(seed=1))
    return steps


def corridor():
    legend = {"H": alien("chaos_marine_heavy", id="h1", weapons=["assault_cannon"]), "A": marine()}
    return scene(CORRIDOR, legend)


def test_priority_alien_fires_its_assault_cannon_at_the_target():
    """The split can hurt A (two red dice against armour 2): A is the target and the
    cannon fires. It used to find no plan at A and walk towards it instead."""
    steps = run(corridor(), PriorityPolicy())
    [choice] = steps_of(steps, "target_choice")
    assert (choice["figure"], choice["target"]) == ("h1", "A")
    [attack] = steps_of(steps, "attack_chosen")
    assert (attack["weapon"], attack["target"]) == ("assault_cannon", "A")
    assert not steps_of(steps, "cannot_attack")


def test_priority_dreadnought_fires_its_assault_cannon_too():
    """A Dreadnought (assault cannon, missile launcher, laser rifle) in H's corner fires
    its cannon at A with its other weapons; it used to leave the cannon out."""
    drawing = CORRIDOR.replace(".H", ".D")
    for square in ((0, 0), (1, 0), (1, 1)):
        drawing = put(drawing, square, "D")
    state = scene(drawing, {"D": alien("dreadnought", id="d1"), "A": marine()})
    steps = run(state, PriorityPolicy())
    [attack] = steps_of(steps, "attack_chosen")
    assert (attack["weapon"], attack["target"]) == ("assault_cannon", "A")
    fired = [p["purpose_params"]["weapon"] for p in steps_of(steps, "dice")]
    assert fired[:2] == ["assault_cannon", "missile_launcher"]


def tarantula_hall(unit: str, weapons: list[str]):
    legend = {
        "T": marine("tarantula", facing="E"),
        "G": marine(weapons=["laser_rifle"], piloting="T"),
        "X": alien(unit, id="x1", weapons=weapons),
    }
    return scene(TARANTULA_HALL, legend)


def test_bob_gretchin_does_not_shoot_what_it_cannot_hurt():
    """Its gun can hurt neither T nor G: it moves towards them instead of shooting for
    nothing (it used to shoot at 0 expected points)."""
    steps = run(tarantula_hall("gretchin", ["gretchin_weapon"]), BobPolicy())
    assert not steps_of(steps, "attack_chosen")
    assert steps_of(steps, "cannot_attack") == [{"figure": "x1"}]
    assert steps_of(steps, "move")


def test_bob_missile_is_not_thrown_where_it_hurts_nobody():
    """Every blast the heavy Chaos Marine could throw catches only T or G, or both, and
    can hurt neither: it throws none (it used to throw one, at 0 expected points)."""
    steps = run(tarantula_hall("chaos_marine_heavy", ["missile_launcher"]), BobPolicy())
    assert not steps_of(steps, "attack_chosen")
    assert steps_of(steps, "cannot_attack") == [{"figure": "x1"}]


def test_a_gretchin_bomb_is_not_thrown_where_it_hurts_nobody():
    """Gretchin with a Bomb (decision 19) aims by the area rule: every blast it could
    throw can hurt neither T nor G, so it acts as usual (it moves) and the card waits (it
    used to throw the bomb for nothing)."""
    state = with_card(tarantula_hall("gretchin", ["gretchin_weapon"]), "gretchin_with_bomb")
    steps = run(state, BobPolicy())
    assert not steps_of(steps, "special_weapon_used")
    assert steps_of(steps, "special_weapon_unused")
    assert steps_of(steps, "cannot_attack") == [{"figure": "x1"}]


def test_priority_gretchin_picks_no_target_it_cannot_hurt():
    """Neither T nor G is a target: the Gretchin moves towards the nearest instead."""
    steps = run(tarantula_hall("gretchin", ["gretchin_weapon"]), PriorityPolicy())
    assert not steps_of(steps, "target_choice")
    assert not steps_of(steps, "attack_chosen")
    assert steps_of(steps, "cannot_attack") == [{"figure": "x1"}]


#: Dreadnought D, armed with a missile launcher and a laser rifle, sees A across the hall.
HALL = """
+--+--+--+--+--+--+--+--+--+--+--+--+
|.  .  .  .  .  .  .  .  .  .  .  . |
+  +  +  +  +  +  +  +  +  +  +  +  +
|.D .D .  .  .  .  .  .  .  .  .  . |
+  +  +  +  +  +  +  +  +  +  +  +  +
|.D .D .  .  .  .  .  .  .  .  .A . |
+  +  +  +  +  +  +  +  +  +  +  +  +
|.  .  .  .  .  .  .  .  .  .  .  . |
+--+--+--+--+--+--+--+--+--+--+--+--+
"""


def test_a_dreadnought_does_not_fire_a_weapon_that_can_hurt_nobody():
    """A house rule gives marines armour 4: the missile (two red dice, up to 6 on its
    centre) can hurt A, the laser rifle (two white dice, at most 4) cannot. The Dreadnought
    fires the missile alone (it used to fire the laser rifle too, for nothing)."""
    legend = {
        "D": alien("dreadnought", id="d1", weapons=["missile_launcher", "laser_rifle"]),
        "A": marine(),
    }
    state = scene(HALL, legend).replace(data_overrides={"units": {"marine": {"armour": 4}}})
    steps = run(state, BobPolicy())
    fired = [p["purpose_params"]["weapon"] for p in steps_of(steps, "dice")]
    assert fired == ["missile_launcher"]


#: Two Gretchins (8 squares a turn) head for the Tarantula T and its gunner G, facing east.
#: X, inside the arc, sees T down the upper corridor but is too far to fight (20 squares
#: from a square next to T); Y, in the lower corridor, sees nobody from any square it can
#: reach and is nearer (15 squares, through the gap in the solid row).
TWO_GRETCHINS = """
+--+--+--+--+--+--+--+--+--+--+--+--+--+--+--+--+--+--+--+--+--+--+--+--+
|.G .T .T .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .X|
+--+--+--+--+--+  +--+--+--+--+--+--+--+--+--+--+--+--+--+--+--+--+--+--+
|## ## ## ## ## .  ## ## ## ## ## ## ## ## ## ## ## ## ## ## ## ## ## ##|
+--+--+--+--+--+  +--+--+--+--+--+--+--+--+--+--+--+--+--+--+--+--+--+--+
|.  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .Y .  .  .  .  .  .  . |
+--+--+--+--+--+--+--+--+--+--+--+--+--+--+--+--+--+--+--+--+--+--+--+--+
"""


def test_bob_activation_ranks_an_alien_that_would_hurt_nobody_as_one_that_moves():
    """X's gun can hurt neither T nor G, so X has no plan and only moves: the activation
    order ranks it as an alien that can only move, and Y, nearer, acts first. X used to go
    first as an alien able to attack ('attackable_focus') and then only moved."""
    legend = {
        "T": marine("tarantula", facing="E"),
        "G": marine(weapons=["laser_rifle"], piloting="T"),
        "X": alien("gretchin", id="x1"),
        "Y": alien("gretchin", id="x2"),
    }
    steps = run(scene(TWO_GRETCHINS, legend), BobPolicy())
    order = [(s["figure"], s["criterion"]) for s in steps_of(steps, "activation")]
    assert order == [("x2", "move_only"), ("x1", "only_one")]
    assert not steps_of(steps, "attack_chosen")
    assert steps_of(steps, "cannot_attack") == [{"figure": "x2"}, {"figure": "x1"}]
