"""Readable combat scenarios: a map drawing (docs/maps.md format) with figures on it.

In a square's second character an upper-case letter other than R and F (reinforcement
square and flag spot in the map format) places a figure;
``legend`` says what each letter is. A letter drawn on four squares is a Dreadnought, on
two squares a Tarantula. Everything else is the BOARD helper's map format.
"""

from __future__ import annotations

from rules.engine.geometry import Facing
from rules.engine.maps import parse_map
from rules.engine.state import ALIEN, MARINE, Figure, GameState, Player
from rules.engine.units import load_rules_data

RESERVED = set("RF")


def scene(drawing: str, legend: dict[str, dict], players: tuple[str, ...] = ("p1", "p2")):
    data = load_rules_data()
    lines = drawing.strip("\n").splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("+"))
    placed: dict[str, list[tuple[int, int]]] = {}
    clean = list(lines)
    row = 0
    for i in range(start, len(lines)):
        line = lines[i]
        if not line.strip():
            break
        if (i - start) % 2 == 1:
            chars = list(line)
            for x in range((len(line) - 1) // 3):
                col = 3 * x + 2
                c = chars[col] if col < len(chars) else " "
                if c.isupper() and c not in RESERVED:
                    placed.setdefault(c, []).append((x, row))
                    chars[col] = " "
            clean[i] = "".join(chars)
            row += 1
    board = parse_map("\n".join(clean))
    figures = []
    for letter, squares in sorted(placed.items()):
        if letter not in legend:
            raise ValueError(f"figure letter {letter!r} is drawn but missing from the legend")
        spec = dict(legend[letter])
        unit = spec["unit"]
        side = spec.get("side", data.unit(unit).side)
        weapons = tuple(spec.get("weapons", data.unit(unit).weapons))
        figures.append(
            Figure(
                id=spec.get("id", letter),
                side=side,
                player=spec.get("player", "p1" if side == MARINE else None),
                unit=unit,
                squares=tuple(sorted(squares, key=lambda s: (s[1], s[0]))),
                life_points=spec.get("life_points", data.max_life_points(unit, weapons)),
                facing=Facing(spec.get("facing", "N")),
                weapons=weapons,
                equipment=tuple(spec.get("equipment", ())),
                piloting=spec.get("piloting"),
            )
        )
    for spec in legend.values():
        if spec.get("inside"):
            figures.append(
                Figure(
                    id=spec["id"],
                    side=MARINE,
                    player=spec.get("player", "p1"),
                    unit=spec["unit"],
                    squares=(),
                    life_points=data.unit(spec["unit"]).life_points,
                    weapons=tuple(spec.get("weapons", ())),
                    piloting=spec["piloting"],
                )
            )
    return GameState(
        board=board,
        figures=tuple(figures),
        players=tuple(Player(p) for p in players),
        initiative=players,
    )


def put(drawing: str, square: tuple[int, int], letter: str) -> str:
    """``drawing`` with ``letter`` drawn on ``square``."""
    lines = drawing.strip("\n").splitlines()
    row = list(lines[2 * square[1] + 1])
    row[3 * square[0] + 2] = letter
    lines[2 * square[1] + 1] = "".join(row)
    return "\n".join(lines) + "\n"


def alien(unit: str, **extra) -> dict:
    return {"unit": unit, "side": ALIEN, **extra}


def marine(unit: str = "marine", player: str = "p1", **extra) -> dict:
    return {"unit": unit, "side": MARINE, "player": player, **extra}


def piloted_dreadnought(**extra_legend) -> dict[str, dict]:
    """A legend with ``D``, a Predator-class Dreadnought of p1 piloted by a plasma-gun
    marine (id ``pilot``), and ``extra_legend``."""
    return {
        "D": marine("dreadnought", equipment=["predator"]),
        "P": {
            "inside": True,
            "id": "pilot",
            "unit": "heavy_weapon_marine",
            "piloting": "D",
            "weapons": ["plasma_gun"],
        },
        **extra_legend,
    }
