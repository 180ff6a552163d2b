"""The benchmark's reference position: the bundled ``reference`` map with 24 revealed
aliens of every type in the rooms and 15 marines (3 squads of 5) in the corridors.

Shared by ``benchmarks/alien_turn.py`` and the engine tests that pin or measure the Alien
turn on it (``tests/engine/test_behaviour_hash.py``, ``tests/engine/test_fast_paths.py``).
"""

from __future__ import annotations

from rules.engine.maps import load_map
from rules.engine.state import Figure, GameState, Player
from rules.engine.units import load_rules_data

ALIEN_MIX = (
    ["dreadnought"]
    + ["chaos_commander"]
    + ["chaos_marine_heavy"] * 2
    + ["android"] * 3
    + ["genestealer"] * 3
    + ["chaos_marine"] * 4
    + ["ork"] * 5
    + ["gretchin"] * 5
)
MARINE_LOADOUT: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("commander", ("bolter",)),
    ("heavy_weapon_marine", ("missile_launcher",)),
    ("heavy_weapon_marine", ("assault_cannon",)),
    ("marine", ("laser_rifle",)),
    ("marine", ("laser_rifle",)),
)


def reference_state() -> GameState:
    """24 aliens in the rooms and 15 marines (3 squads of 5) in the corridors."""
    board = load_map("reference")
    rules = load_rules_data()
    open_squares = [sq for sq in board.squares() if not board.is_solid(sq)]
    rooms = [sq for sq in open_squares if board.kind(sq).value == "room"]
    corridors = [
        sq
        for sq in open_squares
        if board.kind(sq).value == "corridor" and board.claw_of(sq) is None
    ]
    taken: set = set()
    figures = []
    players = ("p1", "p2", "p3")
    # Marines: spread along the corridors, one squad per third of them.
    step = max(1, len(corridors) // 15)
    picks = corridors[::step][:15]
    for index, sq in enumerate(picks):
        player = players[index % 3]
        unit, weapons = MARINE_LOADOUT[index // 3]
        figures.append(
            Figure(
                f"{player}-{index // 3}",
                "marine",
                player,
                unit,
                (sq,),
                rules.unit(unit).life_points,
                weapons=weapons,
            )
        )
        taken.add(sq)
    # Aliens: spread over the rooms (the Dreadnought on a free 2x2 block).
    stride = max(1, len(rooms) // 40)
    candidates = [sq for sq in rooms[::stride] if sq not in taken]
    k = 0
    for n, unit in enumerate(ALIEN_MIX):
        weapons = rules.unit(unit).weapons
        squares: tuple[tuple[int, int], ...]
        while True:
            sq = candidates[k]
            k += 1
            if unit == "dreadnought":
                block = (
                    (sq[0], sq[1]),
                    (sq[0] + 1, sq[1]),
                    (sq[0], sq[1] + 1),
                    (sq[0] + 1, sq[1] + 1),
                )
                if board.dread_doors[board.index(sq)] == () and not taken & set(block):
                    squares = block
                    break
                continue
            if sq not in taken:
                squares = (sq,)
                break
        taken.update(squares)
        figures.append(
            Figure(
                f"{unit}-{n}",
                "alien",
                None,
                unit,
                squares,
                rules.max_life_points(unit, weapons),
                weapons=weapons,
            )
        )
    return GameState(
        board=board,
        figures=tuple(figures),
        players=tuple(Player(p) for p in players),
        initiative=players,
        map_ref="reference",
    )
