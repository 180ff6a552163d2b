"""Benchmark: how long exact attack distributions take (rules/engine/odds.py, combat.py).

Measures, on one core, the median time of:
* the distribution of one roll (2 red dice; 3 red dice), cold (caches cleared) and warm;
* one ordinary shot's outcome odds, a plasma line with 4 figures, a missile blast with 5,
  a melta line with 4, a conversion beam, a lascannon with three areas, an assault-cannon
  split among 6 targets (one revealed by a kill), hand-to-hand;
* ``attack_options`` for typical attackers on a small board (every legal option with its
  exact odds), with the odds caches cleared before every call.

Prints human-readable lines, then one JSON line with every median in microseconds.
Run: ``.venv/bin/python benchmarks/engine_odds.py [--repeat N]``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rules.engine.caches import clear_caches  # noqa: E402
from rules.engine.combat import attack_options  # noqa: E402
from rules.engine.geometry import Facing  # noqa: E402
from rules.engine.maps import parse_map  # noqa: E402
from rules.engine.odds import (  # noqa: E402
    SplitTarget,
    TargetInfo,
    blast_odds,
    conversion_odds,
    dice_sum,
    hand_to_hand_odds,
    lascannon_odds,
    line_odds,
    melta_odds,
    shot_odds,
    split_odds,
)
from rules.engine.state import Figure, GameState, Player  # noqa: E402
from rules.engine.units import DiceSpec, load_rules_data  # noqa: E402

BOARD = """
+--+--+--+--+--+--+--+--+--+--+
|:  :  :  :  :  :  :  :  :  : |
+  +  +  +  +  +  +  +  +  +  +
|:  :  :  :  :  :  :  :  :  : |
+  +  +  +  +  +  +  +  +  +  +
|:  :  :  :  :  :  :  :  :  : |
+  +  +  +--+--+  +  +  +  +  +
|:  :  :  :  :  :  :  :  :  : |
+  +  +  +  +  +  +  +  +  +  +
|:  :  :  :  :  :  :  :  :  : |
+  +  +  +  +  +  +  +  +  +  +
|:  :  :  :  :  :  :  :  :  : |
+--+--+--+--+--+--+--+--+--+--+
"""

PLACEMENT = [
    ("m1", "marine", "p1", "heavy_weapon_marine", (0, 0), ("assault_cannon",)),
    ("m2", "marine", "p1", "heavy_weapon_marine", (0, 2), ("missile_launcher",)),
    ("m3", "marine", "p1", "heavy_weapon_marine", (0, 4), ("plasma_gun",)),
    ("m4", "marine", "p1", "marine", (1, 5), ("laser_rifle",)),
    ("m5", "marine", "p1", "commander", (1, 1), ("power_axe", "laser_pistol")),
    ("x1", "marine", "p2", "extra_heavy_weapon_marine", (9, 5), ("lascannon",)),
    ("a1", "alien", None, "chaos_marine_heavy", (6, 1), ("missile_launcher",)),
    ("a2", "alien", None, "ork", (5, 3), ("ork_weapon",)),
    ("a3", "alien", None, "gretchin", (4, 4), ("gretchin_weapon",)),
    ("a4", "alien", None, "android", (6, 4), ("android_weapon",)),
    ("a5", "alien", None, "gretchin", (7, 2), ("gretchin_weapon",)),
    ("a6", "alien", None, "genestealer", (2, 1), ()),
]


def build_state() -> GameState:
    data = load_rules_data()
    board = parse_map(BOARD.strip("\n"))
    figures = [
        Figure(
            fid,
            side,
            player,
            unit,
            (sq,),
            data.max_life_points(unit, weapons),
            Facing.NORTH,
            weapons,
        )
        for fid, side, player, unit, sq, weapons in PLACEMENT
    ]
    dread = ("assault_cannon", "missile_launcher", "laser_rifle")
    figures.append(
        Figure(
            "d1",
            "alien",
            None,
            "dreadnought",
            ((8, 0), (9, 0), (8, 1), (9, 1)),
            3,
            Facing.WEST,
            dread,
        )
    )
    return GameState(board=board, figures=tuple(figures), players=(Player("p1"), Player("p2")))


def clear() -> None:
    clear_caches("odds.")


def median_us(function, repeat: int, cold: bool) -> float:
    times = []
    for _ in range(repeat):
        if cold:
            clear()
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=200, help="timed runs per measurement")
    args = parser.parse_args()
    repeat = max(1, args.repeat)

    def alien(key, lp=1, value=1):
        return TargetInfo(key, lp, value, "alien")

    marine = TargetInfo("m", 2, 10, "p1")
    red2, red3 = DiceSpec(red=2), DiceSpec(red=3)
    split_targets = (
        SplitTarget(alien("g1"), 0),
        SplitTarget(alien("g2"), 0),
        SplitTarget(alien("g3"), 0),
        SplitTarget(alien("o1", value=2), 1),
        SplitTarget(alien("a1", value=5), 2),
        SplitTarget(alien("o2", value=2), 1, frozenset({"o1"})),
    )
    cases = {
        "dice_sum 2 red": lambda: dice_sum(red2),
        "dice_sum 3 red": lambda: dice_sum(red3),
        "single shot (bolter vs marine)": lambda: shot_odds(red2, marine, 2, "alien"),
        "hand-to-hand (2 red+2 white vs 2 white)": lambda: hand_to_hand_odds(
            alien("gs"), DiceSpec(2, 2), marine, DiceSpec(white=2)
        ),
        "plasma line, 4 figures": lambda: line_odds(
            red2, [(alien(f"f{i}"), i % 3) for i in range(4)]
        ),
        "missile blast, 5 figures": lambda: blast_odds(
            red2, [(alien("c"), 2)], [(alien(f"n{i}"), i % 3) for i in range(4)]
        ),
        "melta, 4 figures": lambda: melta_odds(red3, [(alien(f"f{i}"), i % 3) for i in range(4)]),
        "conversion beam, 6 figures": lambda: conversion_odds(
            red3, [(alien(f"f{i}"), 1, i) for i in range(6)]
        ),
        "lascannon, 3 areas": lambda: lascannon_odds(
            DiceSpec(red=1),
            [(1, [(alien(f"a{i}{j}"), j) for j in range(3)]) for i in range(3)],
        ),
        "assault cannon split, 6 targets": lambda: split_odds(red2, split_targets),
    }
    results: dict[str, dict[str, float]] = {}
    print(f"exact odds, median of {repeat} runs (cold = caches cleared first)")
    for name, function in cases.items():
        cold = median_us(function, repeat, cold=True)
        warm = median_us(function, repeat, cold=False)
        results[name] = {"cold_us": round(cold, 1), "warm_us": round(warm, 1)}
        print(f"  {name:42s} cold {cold:9.1f} us   warm {warm:9.1f} us")

    state = build_state()
    print("attack_options on a 10x6 room (every option with its exact odds)")
    for fid in ("m1", "m2", "m3", "m5", "x1", "a1", "a2", "d1"):
        count = len(attack_options(state, fid))
        cold = median_us(lambda fid=fid: attack_options(state, fid), max(1, repeat // 4), True)
        warm = median_us(lambda fid=fid: attack_options(state, fid), max(1, repeat // 4), False)
        unit = state.figure(fid).unit
        results[f"attack_options {fid} ({unit})"] = {
            "options": count,
            "cold_us": round(cold, 1),
            "warm_us": round(warm, 1),
        }
        print(f"  {fid} {unit:26s} {count:3d} options   cold {cold:9.1f} us   warm {warm:9.1f} us")
    print(json.dumps({"benchmark": "engine_odds", "repeat": repeat, "results": results}))


if __name__ == "__main__":
    main()
