"""Invariants of combat on random dice: nobody stays on the board at 0 life points, and
every option's exact distribution sums to 1 and agrees with what resolution can produce."""

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.engine.combat import attack_options, resolve_attack
from rules.engine.dice import SeededDice
from tests.engine.combat_scenes import alien, marine, scene

MELEE = """
+--+--+--+--+--+--+--+
|:A :  :  :  :G :O : |
+  +  +  +  +  +  +  +
|:B :  :D :D :H :I : |
+  +  +  +  +  +  +  +
|:C :  :D :D :J :K : |
+  +  +  +--+  +  +  +
|:E :M :  :L :  :N : |
+--+--+--+--+--+--+--+
"""
LEGEND = {
    "A": marine("heavy_weapon_marine", weapons=["assault_cannon"]),
    "B": marine("heavy_weapon_marine", weapons=["missile_launcher"]),
    "C": marine("heavy_weapon_marine", weapons=["plasma_gun"]),
    "E": marine("extra_heavy_weapon_marine", player="p2", weapons=["conversion_beamer"]),
    "M": marine("extra_heavy_weapon_marine", player="p2", weapons=["melta"]),
    "L": marine("extra_heavy_weapon_marine", player="p2", weapons=["lascannon"]),
    "N": marine("commander", player="p2", weapons=["power_sword", "power_glove"]),
    "D": alien("dreadnought"),
    "G": alien("gretchin"),
    "O": alien("ork"),
    "H": alien("android"),
    "I": alien("chaos_marine_heavy"),
    "J": alien("genestealer"),
    "K": alien("chaos_commander"),
}


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32), st.lists(st.integers(0, 10_000), min_size=1, max_size=6))
def test_damage_never_leaves_a_figure_at_zero_life_points(seed, picks):
    state = scene(MELEE, LEGEND)
    dice = SeededDice(seed=seed)
    for pick in picks:
        attackers = [f for f in state.figures if f.on_board]
        attacker = attackers[pick % len(attackers)]
        options = attack_options(state, attacker.id)
        if not options:
            continue
        option = options[pick % len(options)]
        assert option.odds.losses.total() == 1
        before = {f.id: f.life_points for f in state.figures}
        state, events = resolve_attack(state, option, dice)
        for figure in state.figures:
            assert figure.life_points >= 1, figure
            assert figure.life_points <= before[figure.id]
        # Every damage the roll produced is one the exact distribution allows.
        lost = {e.figure_id: e.life_points_lost for e in events if e.kind == "damage"}
        if option.weapon is not None and option.kind == "shoot":
            vector = tuple(lost.get(t.key, 0) for t in option.odds.targets)
            if set(lost) <= set(option.target_keys) and "assault" not in option.weapon:
                assert option.odds.losses.probability(vector) > 0, (option.description, lost)
        for roll in dice.log:
            assert roll.purpose


ROOM = """
+--+--+--+--+--+--+
|:  :  :  :  :  : |
+  +  +  +--+  +  +
|:  :  :  :  :  : |
+  +  +  +  +  +  +
|:  : |:  :  :  : |
+  +  +  +  +DD+  +
|:  :  :  :  :  : |
+--+--+--+--+--+--+
"""
LOADOUTS = [
    ("marine", "heavy_weapon_marine", ["assault_cannon"]),
    ("marine", "heavy_weapon_marine", ["missile_launcher"]),
    ("marine", "heavy_weapon_marine", ["plasma_gun"]),
    ("marine", "extra_heavy_weapon_marine", ["lascannon"]),
    ("marine", "extra_heavy_weapon_marine", ["melta"]),
    ("marine", "extra_heavy_weapon_marine", ["conversion_beamer"]),
    ("marine", "commander", ["power_axe", "laser_pistol"]),
    ("marine", "marine", ["laser_rifle"]),
    ("alien", "gretchin", ["gretchin_weapon"]),
    ("alien", "ork", ["ork_weapon"]),
    ("alien", "android", ["android_weapon"]),
    ("alien", "chaos_marine_heavy", ["missile_launcher"]),
    ("alien", "genestealer", []),
]


@st.composite
def random_scenes(draw):
    squares = [(x, y) for y in range(4) for x in range(6)]
    chosen = draw(st.lists(st.sampled_from(squares), min_size=2, max_size=7, unique=True))
    letters = "ABCEGHIJKLMN"
    drawing = ROOM.strip("\n").splitlines()
    legend = {}
    for letter, (x, y) in zip(letters, chosen, strict=False):
        side, unit, weapons = draw(st.sampled_from(LOADOUTS))
        player = draw(st.sampled_from(["p1", "p2"]))
        row = list(drawing[1 + 2 * y])
        row[3 * x + 2] = letter
        drawing[1 + 2 * y] = "".join(row)
        spec = {"unit": unit, "side": side, "weapons": weapons}
        if side == "marine":
            spec["player"] = player
        legend[letter] = spec
    return scene("\n".join(drawing), legend)


@settings(max_examples=60, deadline=None)
@given(random_scenes(), st.integers(0, 2**32), st.lists(st.integers(0, 10_000), max_size=5))
def test_random_positions_keep_life_points_consistent(state, seed, picks):
    dice = SeededDice(seed=seed)
    for pick in picks or [0]:
        attackers = [f for f in state.figures if f.on_board]
        if not attackers:
            break
        attacker = attackers[pick % len(attackers)]
        options = attack_options(state, attacker.id)
        if not options:
            continue
        option = options[pick % len(options)]
        assert option.odds.losses.total() == 1
        before = {f.id: f.life_points for f in state.figures}
        state, events = resolve_attack(state, option, dice)
        dead = {e.figure_id for e in events if e.kind == "killed"}
        assert all(not state.has_figure(fid) for fid in dead)
        assert set(before) - {f.id for f in state.figures} == dead
        for figure in state.figures:
            assert 1 <= figure.life_points <= before[figure.id]
