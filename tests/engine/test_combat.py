"""Combat resolution on small boards, with scripted dice (the seeds' examples included)."""

from dataclasses import replace
from fractions import Fraction

import pytest

from rules.engine.board import DoorState
from rules.engine.combat import (
    CombatError,
    attack_options,
    option_for,
    resolve_attack,
    resolve_attacks,
    split_targets,
    start_split,
)
from rules.engine.dice import DiceError, ScriptedDice
from rules.engine.odds import best_split
from rules.engine.units import load_rules_data
from tests.engine.combat_scenes import alien, marine, piloted_dreadnought, scene

DATA = load_rules_data()


def kinds(events):
    return [e.kind for e in events]


def killed(events):
    return [e.figure_id for e in events if e.kind == "killed"]


CORRIDOR = """
+--+--+--+--+
|.M .  .G .O|
+--+--+--+--+
"""


def test_shot_kills_when_total_beats_armour():
    state = scene(CORRIDOR, {"M": marine(), "G": alien("gretchin"), "O": alien("ork")})
    option = option_for(state, "M", "laser_rifle", target="G")
    dice = ScriptedDice(values=[1, 0])
    new, events = resolve_attack(state, option, dice)
    assert killed(events) == ["G"]
    assert not new.has_figure("G")
    assert dice.log[0].purpose == "shot"
    assert dice.log[0].purpose_in("en") == "M fires the laser rifle at G"
    assert dice.log[0].purpose_in("it") == "M spara con fucile laser a G"
    # The Ork was hidden behind the Gretchin and is now in sight.
    assert [o.target for o in attack_options(new, "M") if o.weapon == "laser_rifle"] == ["O"]


def test_total_equal_to_armour_does_nothing_and_damage_is_points_above_armour():
    state = scene(CORRIDOR, {"M": marine(), "G": alien("chaos_marine"), "O": alien("ork")})
    option = option_for(state, "G", "bolter", target="M")
    new, events = resolve_attack(state, option, ScriptedDice(values=[2, 0]))
    assert "no_effect" in kinds(events)
    assert new.figure("M").life_points == 2
    new, events = resolve_attack(state, option, ScriptedDice(values=[3, 0]))
    assert new.figure("M").life_points == 1
    new, events = resolve_attack(new, option, ScriptedDice(values=[3, 3]))
    assert killed(events) == ["M"] and not new.has_figure("M")
    assert [e.points for e in events if e.kind == "killed"] == [5]


def test_only_visible_enemies_can_be_shot():
    state = scene(CORRIDOR, {"M": marine(), "G": alien("gretchin"), "O": alien("ork")})
    with pytest.raises(CombatError, match="cannot see an enemy O"):
        option_for(state, "M", "laser_rifle", target="O")
    with pytest.raises(CombatError, match="does not carry"):
        option_for(state, "M", "bolter", target="G")


ADJACENT = """
+--+--+--+
|.M .O|. |
+--+--+--+
"""


def test_hand_to_hand_lower_total_loses_the_difference():
    state = scene(ADJACENT, {"M": marine(), "O": alien("ork")})
    option = option_for(state, "M", target="O")
    assert option.kind == "hand_to_hand"
    # Marine rolls 0,0; Ork rolls 2,1: the marine loses 3 -> capped at his 2 life points.
    dice = ScriptedDice(values=[0, 0, 2, 1])
    new, events = resolve_attack(state, option, dice)
    assert killed(events) == ["M"]
    assert new.figure("O").life_points == 1
    assert [r.subject for r in dice.log] == ["M", "O"]


def test_hand_to_hand_tie_costs_nothing():
    state = scene(ADJACENT, {"M": marine(), "O": alien("ork")})
    option = option_for(state, "M", target="O")
    new, events = resolve_attack(state, option, ScriptedDice(values=[1, 0, 0, 1]))
    assert new == state or new.figures == state.figures
    assert "equal totals" in events[-1].text


def test_hand_to_hand_needs_an_open_edge_and_orthogonal_adjacency():
    state = scene(ADJACENT, {"M": marine(), "O": alien("ork")})
    blocked = scene(
        """
+--+--+--+
|.M|.O|. |
+--+--+--+
""",
        {"M": marine(), "O": alien("ork")},
    )
    assert any(o.kind == "hand_to_hand" for o in attack_options(state, "M"))
    assert not any(o.kind == "hand_to_hand" for o in attack_options(blocked, "M"))
    with pytest.raises(CombatError, match="cannot fight"):
        option_for(blocked, "M", target="O")


def test_commander_combo_dice_used_in_hand_to_hand():
    state = scene(
        ADJACENT,
        {"M": marine("commander", weapons=["power_sword", "power_glove"]), "O": alien("ork")},
    )
    dice = ScriptedDice(values=[3, 3, 2, 2, 0, 0])
    new, events = resolve_attack(state, option_for(state, "M", target="O"), dice)
    assert [r.kind.value for r in dice.log] == ["red", "white", "white"]
    assert killed(events) == ["O"]


# Seed example one: an assault cannon total of 4 split among visible aliens.
ASSAULT = """
+--+--+--+--+--+--+
|:  :  :  :G :  : |
+  +  +  +  +  +  +
|:M :  :  :O :P : |
+  +  +  +  +  +  +
|:  :  :  :H :  : |
+  +  +  +  +  +  +
|:I :  :A :  :  : |
+--+--+--+--+--+--+
"""
ASSAULT_LEGEND = {
    "M": marine("heavy_weapon_marine", weapons=["assault_cannon"]),
    "G": alien("gretchin"),
    "H": alien("gretchin"),
    "I": alien("gretchin"),
    "O": alien("ork"),
    "P": alien("ork"),
    "A": alien("android"),
}


def test_assault_cannon_targets_and_the_ork_behind_the_ork():
    state = scene(ASSAULT, ASSAULT_LEGEND)
    targets = {st.target.key: st for st in split_targets(state, state.figure("M"), DATA)}
    assert set(targets) == {"G", "H", "I", "O", "P", "A"}
    assert targets["P"].blocked_by == frozenset({"O"})
    assert all(not targets[k].blocked_by for k in "GHIOA")
    assert [targets[k].armour for k in "GOA"] == [0, 1, 2]


def test_assault_cannon_seed_splits_of_four():
    state = scene(ASSAULT, ASSAULT_LEGEND)
    option = option_for(state, "M", "assault_cannon")
    # Way 1: one point on each Gretchin; the fourth point is lost on the Ork's armour.
    session = start_split(state, option, ScriptedDice(values=[3, 1]))
    assert session.total == 4
    for g in "GHI":
        session = session.assign(g, 1)
    session = session.assign("O", 1)
    assert killed(session.events) == ["G", "H", "I"]
    assert session.state.has_figure("O")
    # Way 2: two on the near Ork and one each on two of the Gretchins.
    session = start_split(state, option, ScriptedDice(values=[2, 2]))
    for target, points in (("O", 2), ("G", 1), ("I", 1)):
        session = session.assign(target, points)
    assert killed(session.events) == ["O", "G", "I"]
    assert session.remaining == 0
    # Way 3: two on the near Ork, then two on the Ork it revealed.
    session = start_split(state, option, ScriptedDice(values=[2, 2]))
    assert "P" not in session.eligible()
    session = session.assign("O", 2)
    assert "P" in session.eligible()
    session = session.assign("P", 2)
    assert killed(session.events) == ["O", "P"]
    # Way 4: three on the Android and one on a Gretchin.
    session = start_split(state, option, ScriptedDice(values=[3, 1])).assign("A", 3)
    session = session.assign("H", 1)
    assert killed(session.events) == ["A", "H"]
    with pytest.raises(CombatError, match="between 1 and 0"):
        session.assign("G", 1)


def test_assault_cannon_best_split_is_used_by_resolve():
    state = scene(ASSAULT, ASSAULT_LEGEND)
    option = option_for(state, "M", "assault_cannon")
    new, events = resolve_attack(state, option, ScriptedDice(values=[3, 1]))
    # Android (5 points) + a Gretchin (1) is the most points a total of 4 can destroy.
    assert sorted(killed(events)) == ["A", "G"]
    assert option.odds.losses.total() == 1


def test_assault_cannon_explicit_allocation_is_checked():
    state = scene(ASSAULT, ASSAULT_LEGEND)
    option = option_for(state, "M", "assault_cannon", allocation=[("P", 2)])
    with pytest.raises(CombatError, match="P is not a visible enemy"):
        resolve_attack(state, option, ScriptedDice(values=[2, 2]))


# Seed example two: a plasma gun that can fire in three directions.
PLASMA = """
+--+--+--+--+--+
|.M .A .  .B . |
+  +  +--+--+--+
|.C .D|##|## ##|
+--+--+--+--+--+
"""


def test_plasma_three_directions_and_every_figure_on_the_line():
    legend = {
        "M": marine("heavy_weapon_marine", weapons=["plasma_gun"]),
        "A": alien("android"),
        "B": alien("android"),
        "C": alien("gretchin"),
        "D": alien("gretchin"),
    }
    state = scene(PLASMA, legend)
    options = [o for o in attack_options(state, "M") if o.weapon == "plasma_gun"]
    assert sorted(o.direction for o in options) == [(0, 1), (1, 0), (1, 1)]
    diagonal = next(o for o in options if o.direction == (1, 1))
    assert diagonal.target_keys == ("D",)  # one square, then the wall
    east = next(o for o in options if o.direction == (1, 0))
    new, events = resolve_attack(state, east, ScriptedDice(values=[3, 1]))
    # Both Androids take 4, B regardless of A dying first.
    assert killed(events) == ["A", "B"]
    assert [e.attack for e in events if e.kind == "hit"] == [4, 4]


def test_plasma_hits_marines_on_the_line_too():
    legend = {
        "M": marine("heavy_weapon_marine", weapons=["plasma_gun"]),
        "A": marine(),
        "B": alien("android"),
        "C": alien("gretchin"),
        "D": alien("gretchin"),
    }
    state = scene(PLASMA, legend)
    east = option_for(state, "M", "plasma_gun", direction=(1, 0))
    assert east.odds.touches_friendly()
    new, events = resolve_attack(state, east, ScriptedDice(values=[3, 1]))
    assert killed(events) == ["A", "B"]  # the marine A takes 4 against armour 2 as well


# Seed example three: a missile rolling 2 and 3.
MISSILE = """
+--+--+--+--+--+--+
|:M :  :  :  :  : |
+  +  +  +  +  +  +
|:  :  :  :X :Y : |
+  +  +  +  +  +  +
|:  :  :  :T :Z : |
+  +  +  +--+  +  +
|:  :  :  :W :  : |
+--+--+--+--+--+--+
"""


def test_missile_seed_example_five_and_three_not_through_the_wall():
    legend = {
        "M": marine("heavy_weapon_marine", weapons=["missile_launcher"]),
        "X": alien("gretchin"),
        "Y": alien("android"),
        "T": alien("chaos_marine"),
        "Z": alien("ork"),
        "W": alien("gretchin"),
    }
    state = scene(MISSILE, legend)
    option = option_for(state, "M", "missile_launcher", aim=(3, 2))
    assert set(option.target_keys) == {"T", "X", "Y", "Z"}
    new, events = resolve_attack(state, option, ScriptedDice(values=[2, 3]))
    assert "square 3,2 takes 5; the squares around it take 3" in [e.text for e in events]
    assert sorted(killed(events)) == ["T", "X", "Y", "Z"]
    assert new.has_figure("W")
    attacks = {e.figure_id: e.attack for e in events if e.kind == "hit"}
    assert attacks == {"T": 5, "X": 3, "Y": 3, "Z": 3}


def test_missile_needs_a_visible_square():
    legend = {k: alien("gretchin") for k in "XYTZW"}
    state = scene(
        MISSILE, {**legend, "M": marine("heavy_weapon_marine", weapons=["missile_launcher"])}
    )
    with pytest.raises(CombatError, match="needs a target square"):
        option_for(state, "M", "missile_launcher")


LASCANNON = """
+--+--+--+--+--+--+
|.M .  .  .G .H . |
+  +  +  +  +  +  +
|.  .  .  .I|.J . |
+  +  +  +  +  +  +
|.  .  .  .  .  . |
+  +  +  +  +  +  +
|.  .K .L .  .  . |
+--+--+--+--+--+--+
"""


def test_lascannon_area_only_squares_in_sight_and_concentrated_shots():
    legend = {
        "M": marine("extra_heavy_weapon_marine", weapons=["lascannon"]),
        "G": alien("gretchin"),
        "H": alien("gretchin"),
        "I": alien("gretchin"),
        "J": alien("gretchin"),
        "K": alien("android"),
        "L": alien("android"),
    }
    state = scene(LASCANNON, legend)
    option = option_for(state, "M", "lascannon", areas=[((3, 0), 1), ((1, 3), 2)])
    assert set(option.target_keys) == {"G", "H", "I", "K", "L"}  # J is behind the wall
    dice = ScriptedDice(values=[2, 2, 1])
    new, events = resolve_attack(state, option, dice)
    assert sorted(killed(events)) == ["G", "H", "I", "K", "L"]
    assert new.has_figure("J")
    assert [len(r.values) for r in dice.log] == [1, 2]


def test_lascannon_at_most_three_shots():
    legend = {k: alien("gretchin") for k in "GHIJKL"}
    state = scene(
        LASCANNON, {**legend, "M": marine("extra_heavy_weapon_marine", weapons=["lascannon"])}
    )
    with pytest.raises(CombatError, match="has 3 shots"):
        option_for(state, "M", "lascannon", areas=[((3, 0), 2), ((1, 3), 2)])


def test_lascannon_options_include_concentrated_and_spread_shots():
    legend = {k: alien("gretchin") for k in "GHIJKL"}
    legend["M"] = marine("extra_heavy_weapon_marine", weapons=["lascannon"])
    state = scene(LASCANNON, legend)
    plans = {tuple(n for _, n in o.areas) for o in attack_options(state, "M")}
    assert {(3,), (2, 1), (1, 1, 1)} <= plans


MELTA = """
+--+--+--+--+--+--+
|.M .  .G .A .O . |
+--+--+--+--+--+--+
"""


def test_melta_rolls_three_red_dice_per_figure():
    legend = {
        "M": marine("extra_heavy_weapon_marine", weapons=["melta"]),
        "G": alien("gretchin"),
        "A": alien("android"),
        "O": alien("ork"),
    }
    state = scene(MELTA, legend)
    option = option_for(state, "M", "melta", direction=(1, 0))
    dice = ScriptedDice(values=[3, 3, 1, 1, 1, 0, 3, 1, 0])
    new, events = resolve_attack(state, option, dice)
    assert [r.total for r in dice.log] == [7, 2, 4]
    assert killed(events) == ["G", "O"]
    assert new.has_figure("A")


BEAMER = """
+--+--+--+--+--+--+--+
|.M .G .  .  .  .  .O|
+  +  +  +  +  +  +  +
|.  .  .  .  .  .  .A|
+--+--+--+--+--+--+--+
"""


def test_conversion_beamer_seed_example_leaves_the_firer_unharmed():
    legend = {
        "M": marine("extra_heavy_weapon_marine", weapons=["conversion_beamer"]),
        "G": alien("gretchin"),
        "O": alien("ork"),
        "A": alien("android"),
    }
    state = scene(BEAMER, legend)
    option = option_for(state, "M", "conversion_beamer", direction=(1, 0))
    assert option.aim == (6, 0)
    new, events = resolve_attack(state, option, ScriptedDice(values=[3, 2, 1]))
    attacks = {e.figure_id: e.attack for e in events if e.kind in ("hit", "no_effect")}
    # Impact 6, its neighbours 5, then 5, 4, 3, 2, 1 back along the line; the firer 0.
    assert attacks == {"O": 6, "A": 5, "G": 1}
    assert sorted(killed(events)) == ["A", "G", "O"]
    assert new.figure("M").life_points == 2


def test_conversion_beamer_can_kill_the_firer():
    legend = {
        "M": marine("extra_heavy_weapon_marine", weapons=["conversion_beamer"]),
        "O": alien("ork"),
    }
    state = scene(
        """
+--+--+--+
|.  .M .O|
+--+--+--+
""",
        legend,
    )
    option = option_for(state, "M", "conversion_beamer", direction=(1, 0))
    assert option.odds.friendly_hit_probability() > 0
    new, events = resolve_attack(state, option, ScriptedDice(values=[3, 3, 3]))
    assert sorted(killed(events)) == ["M", "O"]
    assert [e.points for e in events if e.figure_id == "M" and e.kind == "killed"] == [15]


DREAD = """
+--+--+--+--+--+--+
|:D :D :  :  :M : |
+  +  +  +  +  +  +
|:D :D :  :  :  : |
+--+--+--+--+--+--+
"""


def test_dreadnought_fires_every_weapon_and_loses_heavy_weapons():
    legend = {"D": alien("dreadnought"), "M": marine(weapons=["bolter"])}
    state = scene(DREAD, legend)
    dread = state.figure("D")
    assert dread.life_points == 3
    weapons = {o.weapon for o in attack_options(state, "D") if o.kind == "shoot"}
    assert weapons == {"assault_cannon", "missile_launcher", "laser_rifle"}
    shot = option_for(state, "M", "bolter", target="D")
    new, events = resolve_attack(state, shot, ScriptedDice(values=[3, 3]))
    assert new.figure("D").life_points == 1
    assert [e.details["weapon"] for e in events if e.kind == "weapon_lost"] == [
        "missile_launcher",
        "assault_cannon",
    ]
    assert new.figure("D").weapons == ("laser_rifle",)


def test_dreadnought_volley_skips_lost_weapons():
    legend = {"D": alien("dreadnought"), "M": marine(weapons=["bolter"])}
    state = scene(DREAD, legend)
    volley = [
        o for o in attack_options(state, "D") if o.weapon in ("laser_rifle", "assault_cannon")
    ]
    assert len(volley) == 2
    damaged = state.with_figure(replace(state.figure("D"), weapons=("laser_rifle",)))
    dice = ScriptedDice(values=[0, 0])
    new, events = resolve_attacks(damaged, volley, dice)
    assert "skipped" in kinds(events)
    assert len(dice.log) == 1


def test_marine_piloted_dreadnought_takes_its_pilot_with_it():
    legend = piloted_dreadnought(M=marine(player="p2", weapons=["bolter"]))
    state = scene(DREAD, legend)
    state = state.with_figure(replace(state.figure("D"), life_points=1))
    shot = option_for(state, "M", "bolter", target="D")
    assert shot.odds.targets[0].value == 30 + 10
    new, events = resolve_attack(state, shot, ScriptedDice(values=[3, 2]))
    assert killed(events) == ["D", "pilot"]
    assert not new.has_figure("pilot")


def test_abandoned_dreadnought_cannot_be_attacked():
    legend = {"D": marine("dreadnought"), "M": marine(player="p2", weapons=["bolter"])}
    state = scene(DREAD, legend)
    assert not [o for o in attack_options(state, "M") if o.target == "D"]
    # and an abandoned marine Dreadnought cannot fire either
    assert not [o for o in attack_options(state, "D") if o.kind == "shoot"]


TARANTULA = """
+--+--+--+--+--+--+--+
|.  .  .  .  .  .  . |
+  +  +  +  +  +  +  +
|.  .  .  .  .  .  . |
+  +  +  +  +  +  +  +
|.  .G .T .T .  .  . |
+  +  +  +  +  +  +  +
|.  .X .  .  .  .Y . |
+--+--+--+--+--+--+--+
"""


def tarantula_state(**extra_legend):
    legend = {
        "T": marine("tarantula", facing="E"),
        "G": marine(weapons=["laser_rifle"], piloting="T"),
        **extra_legend,
    }
    return scene(TARANTULA, legend)


def test_gunner_armour_four_only_against_attacks_from_inside_the_arc():
    from rules.engine.combat import armour_against, tarantula_arc

    state = tarantula_state(X=alien("ork"), Y=alien("ork"))
    arc = tarantula_arc(state, state.figure("T"), DATA)
    assert (4, 2) in arc and (5, 1) in arc and (6, 3) in arc
    assert (2, 2) not in arc and (1, 3) not in arc
    gunner = state.figure("G")
    assert armour_against(state, gunner, state.figure("Y"), DATA) == 4
    assert armour_against(state, gunner, state.figure("X"), DATA) == 2
    assert armour_against(state, gunner, None, DATA) == 2


def test_tarantula_fires_three_twin_lascannon_shots_inside_its_arc():
    state = tarantula_state(X=alien("ork"), Y=alien("ork"))
    options = attack_options(state, "T")
    hit = {k for o in options for k in o.target_keys}
    assert hit == {"Y"}  # X is outside the arc
    option = option_for(state, "T", "twin_lascannon", areas=[((5, 3), 3)])
    dice = ScriptedDice(values=[0, 0, 0, 0, 1, 1])
    new, events = resolve_attack(state, option, dice)
    assert [len(r.values) for r in dice.log] == [6]
    assert killed(events) == ["Y"]
    # The gunner cannot fire his own weapon while crewing.
    assert not [o for o in attack_options(state, "G") if o.kind == "shoot"]


def test_tarantula_hand_to_hand_is_attack_against_armour_six_and_frees_the_gunner():
    state = scene(
        """
+--+--+--+--+
|.G .T .T .O|
+--+--+--+--+
""",
        {
            "T": marine("tarantula", facing="E"),
            "G": marine(piloting="T"),
            "O": alien("chaos_commander", weapons=["chaos_commander_weapon"]),
        },
    )
    option = option_for(state, "O", target="T")
    assert option.odds.kill_probability("T") == 0  # 2 red dice cannot beat armour 6
    new, events = resolve_attack(state, option, ScriptedDice(values=[3, 3]))
    assert new.has_figure("T") and len(events) == 3
    shot = option_for(state, "O", "chaos_commander_weapon", target="T")
    assert shot.odds.target("T").value == 10


def test_destroyed_tarantula_frees_its_gunner():
    from rules.engine.combat import apply_damage

    state = tarantula_state(X=alien("ork"), Y=alien("ork"))
    new, events = apply_damage(state, "T", 1, DATA)
    assert "gunner_freed" in kinds(events)
    assert new.figure("G").piloting is None
    assert [e.points for e in events if e.kind == "killed"] == [10]


def test_bulkhead_door_destroyed_only_by_more_than_four():
    state = scene(
        """
+--+--+--+--+
|.  .MB.  . |
+--+--+--+--+
""",
        {"M": marine("commander", weapons=["bolter"])},
    )
    doors = [o for o in attack_options(state, "M") if o.kind == "door"]
    assert {o.weapon for o in doors} == {None, "bolter"}
    shot = next(o for o in doors if o.weapon == "bolter")
    assert shot.odds.kill_probability(shot.target_keys[0]) == Fraction(3, 36)
    same, events = resolve_attack(state, shot, ScriptedDice(values=[2, 2]))
    assert "no_effect" in kinds(events)
    new, events = resolve_attack(state, shot, ScriptedDice(values=[3, 2]))
    assert "door_destroyed" in kinds(events)
    assert new.door_state((1, 0), (2, 0)) is DoorState.DESTROYED
    assert not [o for o in attack_options(new, "M") if o.kind == "door"]


def test_every_roll_has_a_purpose_and_too_few_dice_is_a_clear_error():
    state = scene(CORRIDOR, {"M": marine(), "G": alien("gretchin"), "O": alien("ork")})
    option = option_for(state, "M", "laser_rifle", target="G")
    with pytest.raises(DiceError, match="not enough dice"):
        resolve_attack(state, option, ScriptedDice(values=[1]))


def test_option_from_another_square_and_stale_options():
    state = scene(CORRIDOR, {"M": marine(), "G": alien("gretchin"), "O": alien("ork")})
    options = attack_options(state, "M", (1, 0))
    assert any(o.kind == "hand_to_hand" and o.target == "G" for o in options)
    with pytest.raises(CombatError, match="move it first"):
        resolve_attack(state, options[0], ScriptedDice(values=[0, 0, 0, 0]))
    with pytest.raises(CombatError, match="is not free"):
        attack_options(state, "M", (2, 0))


def test_best_split_agrees_with_odds_for_the_seed_total():
    state = scene(ASSAULT, ASSAULT_LEGEND)
    targets = split_targets(state, state.figure("M"), DATA)
    assert dict(best_split(4, targets)) == {"A": 3, "G": 1}


def test_split_target_hidden_between_two_figures_at_a_corner_needs_both_dead():
    state = scene(
        """
+--+--+--+
|:A :X : |
+  +  +  +
|:Y :  : |
+  +  +  +
|:  :  :T|
+--+--+--+
""",
        {
            "A": marine("heavy_weapon_marine", weapons=["assault_cannon"]),
            "X": alien("gretchin"),
            "Y": alien("gretchin"),
            "T": alien("ork"),
        },
    )
    targets = {st.target.key: st for st in split_targets(state, state.figure("A"), DATA)}
    assert targets["T"].blocked_by == frozenset({"X", "Y"})
    session = start_split(
        state, option_for(state, "A", "assault_cannon"), ScriptedDice(values=[2, 2])
    )
    assert "T" not in session.eligible()
    session = session.assign("X", 1)
    assert "T" in session.eligible()  # one death opens the corner (the sight is doubtful)


def test_state_data_overrides_change_the_odds():
    legend = {"M": marine(), "G": alien("gretchin"), "O": alien("ork")}
    plain = scene(CORRIDOR, legend)
    tougher = plain.replace(data_overrides={"units": {"gretchin": {"armour": 4}}})
    assert option_for(plain, "M", "laser_rifle", target="G").odds.kill_probability("G") > 0
    assert option_for(tougher, "M", "laser_rifle", target="G").odds.kill_probability("G") == 0


def test_unclassed_dreadnought_is_a_malignant():
    from rules.engine.combat import dreadnought_class_of

    state = scene(DREAD, {"D": alien("dreadnought"), "M": marine(weapons=["bolter"])})
    assert dreadnought_class_of(DATA, state.figure("D")) == "malignant"


def test_dreadnought_crouched_in_a_doorway_cannot_fire():
    state = scene(
        """
+--+--+--+--+--+
|:DO:D :  :  :M|
+  +  +  +  +  +
|:D|:D :  :  : |
+--+--+--+--+--+
""",
        {"D": alien("dreadnought"), "M": marine()},
    )
    assert not [o for o in attack_options(state, "D") if o.kind == "shoot"]
    with pytest.raises(CombatError, match="cannot shoot now"):
        option_for(state, "D", "laser_rifle", target="M")


def test_dreadnought_volley_odds_combine_every_weapon():
    from rules.engine.combat import combined_odds

    state = scene(DREAD, {"D": alien("dreadnought"), "M": marine(weapons=["bolter"])})
    rifle = option_for(state, "D", "laser_rifle", target="M")
    cannon = option_for(state, "D", "assault_cannon")
    both = combined_odds([rifle, cannon])
    assert both.kill_probability("M") > max(
        rifle.odds.kill_probability("M"), cannon.odds.kill_probability("M")
    )
    # The rifles roll 3 (one life point), then the cannon's 3 finishes the marine.
    new, events = resolve_attacks(state, [rifle, cannon], ScriptedDice(values=[2, 1, 3, 0]))
    assert [e.life_points_lost for e in events if e.kind == "damage"] == [1, 1]
    assert killed(events) == ["M"]


def test_figures_in_a_docking_claw_are_safe():
    state = scene(
        """
+--+--+--+--+
|.M .  .G .1|
+--+--+--+--+

claw 1 Entry
""",
        {"M": marine(), "G": alien("gretchin")},
    )
    # The marine stands outside; the claw square holds nobody yet: put him there.
    inside = state.with_figure(replace(state.figure("M"), squares=((3, 0),)))
    assert [o.target for o in attack_options(state, "G") if o.kind == "shoot"] == ["M"]
    assert not [o for o in attack_options(inside, "G") if o.kind == "shoot"]
