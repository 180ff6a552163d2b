"""Benchmark: line of sight and distance fields on the reference map (rules/engine).

Measures, on one core, on the bundled ``reference`` map (28x28 with its ring, four
sections) with 40 figures (15 marines of three players and 25 aliens, one of them a
Dreadnought):

* all-pairs line of sight between the open squares, for firing (figures block), total
  time and mean time per pair;
* one distance field per figure (40 fields), mean and median time per field;
* one "distance to become adjacent to player P" field per figure (reverse search).

Prints human-readable lines, then one JSON line with the numbers.
Run: ``.venv/bin/python benchmarks/engine_board.py [--repeat N]``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rules.engine.geometry import block_2x2  # noqa: E402
from rules.engine.los import line_of_sight  # noqa: E402
from rules.engine.maps import load_map  # noqa: E402
from rules.engine.movement import distance_field, field_to_adjacent  # noqa: E402
from rules.engine.state import Figure, build_state  # noqa: E402

ALIENS = ["ork"] * 8 + ["gretchin"] * 8 + ["android"] * 4 + ["chaos_marine"] * 4


def reference_state():
    """The reference map with 40 figures spread over corridors and rooms."""
    board = load_map("reference")
    figures = [Figure("dread", "alien", None, "dreadnought", block_2x2((15, 2)), 3)]
    taken = set(figures[0].squares)
    free = [
        sq
        for sq in board.squares()
        if not board.is_solid(sq) and board.claw_of(sq) is None and sq not in taken
    ]
    # Deterministic spread: every k-th free square.
    step = len(free) // 40
    spots = free[::step]
    players = ["p1", "p2", "p3"]
    for i in range(15):
        player = players[i % 3]
        figures.append(Figure(f"{player}-m{i // 3}", "marine", player, "marine", (spots[i],), 2))
    for i, unit in enumerate(ALIENS):
        figures.append(Figure(f"a{i}", "alien", None, unit, (spots[15 + i],), 1))
    return build_state(board, figures)


def time_all_pairs_los(state) -> tuple[float, int, int, int]:
    board = state.board
    squares = [sq for sq in board.squares() if not board.is_solid(sq)]
    visible = doubtful = pairs = 0
    start = time.perf_counter()
    for i, a in enumerate(squares):
        for b in squares[i + 1 :]:
            sight = line_of_sight(state, a, b, for_firing=True)
            pairs += 1
            visible += sight.visible
            doubtful += sight.doubtful
    return time.perf_counter() - start, pairs, visible, doubtful


def time_fields(state, make) -> list[float]:
    times = []
    for figure in state.figures:
        start = time.perf_counter()
        make(state, figure)
        times.append(time.perf_counter() - start)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="distance-field rounds (default 3)")
    args = parser.parse_args()
    state = reference_state()
    board = state.board
    print(f"map: {board.name} {board.width}x{board.height}, figures: {len(state.figures)}")

    los_seconds, pairs, visible, doubtful = time_all_pairs_los(state)
    print(
        f"all-pairs line of sight: {pairs} pairs in {los_seconds:.2f} s "
        f"({los_seconds / pairs * 1e6:.1f} us per pair; {visible} visible, {doubtful} doubtful)"
    )

    field_times: list[float] = []
    adjacent_times: list[float] = []
    for _ in range(args.repeat):
        field_times += time_fields(state, lambda s, f: distance_field(s, f.id))
        adjacent_times += time_fields(
            state, lambda s, f: field_to_adjacent(s, f.id, "p1" if f.player != "p1" else "p2")
        )
    mean_ms = statistics.mean(field_times) * 1e3
    median_ms = statistics.median(field_times) * 1e3
    adj_ms = statistics.mean(adjacent_times) * 1e3
    print(
        f"distance field: {len(state.figures)} figures x {args.repeat} rounds, "
        f"mean {mean_ms:.3f} ms, median {median_ms:.3f} ms per field"
    )
    print(f"adjacency field (reverse search): mean {adj_ms:.3f} ms per field")
    print(
        json.dumps(
            {
                "benchmark": "engine_board",
                "map": board.name,
                "figures": len(state.figures),
                "los_pairs": pairs,
                "los_total_s": round(los_seconds, 4),
                "los_per_pair_us": round(los_seconds / pairs * 1e6, 2),
                "distance_field_mean_ms": round(mean_ms, 4),
                "distance_field_median_ms": round(median_ms, 4),
                "adjacency_field_mean_ms": round(adj_ms, 4),
            }
        )
    )


if __name__ == "__main__":
    main()
