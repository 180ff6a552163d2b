"""Benchmark: one BoB Alien turn on the reference map (24 revealed aliens, 15 marines).

Prints, measured in the same run on one core, in one process, without any database:
* the median time of one whole BoB Alien turn (goal: at most 20 ms);
* the ratio of that median to (number of aliens x the median time of one distance field)
  (goal: at most 3);
* Monte Carlo throughput: whole turns per second, each from the same start position with
  a different seed, never one an earlier round played (goal: at least 200).

The AI keeps memos between turns (distances, layout sight, missile templates, and in the
start state's own memo the assessments of its first activation), which a Monte Carlo
run from one position reuses; the cold median clears every declared cache
(``rules.engine.caches.clear_caches``) before every turn and starts from an equal state
with an empty memo (the rules data, read once, are passed in).

The click path is what the judge's "Alien turn" click costs the server: the state parsed
from its stored JSON (as the web reads a snapshot: not checked against the schema again,
it was checked before it was saved; the board is shared by the map's content hash,
``maps.boards``), the turn, and the new state and step log turned to JSON
for storing. It is printed twice: with the boards shared as the web now does, and with
the board cache cleared before every click (each request building its own board and the
tables keyed by it, as the web did before boards were shared). Then the click from a
state the process read before (the board page the judge looked at): parsed again, and
read through the per-process cache of parsed states kept by content (``state.parsed``,
as ``table.actions.snapshot_state`` reads a snapshot). Last, the first click of a new
worker process, forked from this one with every cache emptied, as a server forks a worker
(at start, or to replace one renewed or killed): with the bundled maps' boards built by
its parent before the fork (``maps.share_bundled_maps``, as Gunicorn's master and Celery's
main process do, bob/warm_up.py), and with the worker building its own. Either way the
memos a game fills (sight lines, distances, odds) are each process's own.

Python's cyclic garbage collector is paused around every timed turn, as a Monte Carlo run
would (``rules.engine.collector.cycle_collector_paused``; the engine leaves it alone).

Run: ``.venv/bin/python benchmarks/alien_turn.py [--turns N] [--rounds R]``. With
``--rounds`` the warm measurement (distance fields and turns) is repeated R times in a row
and the median and the lowest and highest value over the rounds are printed too: on a
shared machine one round can be far off. The numbers are printed as measured, whatever
they are.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import struct
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.reference_position import reference_state  # noqa: E402
from rules.engine.ai.bob_policy import BobPolicy  # noqa: E402
from rules.engine.ai.turn import resolve_alien_turn  # noqa: E402
from rules.engine.caches import clear_caches  # noqa: E402
from rules.engine.collector import cycle_collector_paused  # noqa: E402
from rules.engine.dice import SeededDice  # noqa: E402
from rules.engine.maps import share_bundled_maps  # noqa: E402
from rules.engine.movement import distance_field  # noqa: E402
from rules.engine.state import GameState, keep_parsed, parsed_state  # noqa: E402
from rules.engine.units import load_rules_data  # noqa: E402


def measure_round(
    state: GameState, policy: BobPolicy, turns: int, first_seed: int = 1
) -> tuple[float, float, float]:
    """One warm measurement: (median distance field, median turn, turns per second), in
    seconds and turns per second, over the seeds from ``first_seed`` on. Before every 10
    turns each alien's distance field is timed once, so the fields are timed over the same
    stretch as the turns: on a machine shared with other work, a change of load between a
    block of fields and a block of turns would otherwise change the ratio."""
    aliens = [f for f in state.figures if f.side == "alien"]
    field_times = []
    turn_times = []
    elapsed = 0.0
    for n, seed in enumerate(range(first_seed, first_seed + turns)):
        if n % 10 == 0:
            for figure in aliens:
                t0 = time.perf_counter()
                distance_field(state, figure.id)
                field_times.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        with cycle_collector_paused():
            resolve_alien_turn(state, policy, SeededDice(seed=seed))
        turn_times.append(time.perf_counter() - t0)
        elapsed += turn_times[-1]
    return statistics.median(field_times), statistics.median(turn_times), turns / elapsed


def measure_clicks(
    state: GameState, policy: BobPolicy, turns: int, *, shared_boards: bool
) -> float:
    """The median click path over ``turns`` seeds: parse the stored JSON, play the turn,
    turn the new state and the step log to JSON (see the module's docstring)."""
    stored = json.loads(json.dumps(state.to_json()))
    times = []
    for seed in range(1, turns + 1):
        if not shared_boards:
            clear_caches("maps.")
        t0 = time.perf_counter()
        with cycle_collector_paused():
            parsed = GameState.from_json(stored, checked=False)
            new_state, steps = resolve_alien_turn(parsed, policy, SeededDice(seed=seed))
            json.dumps(new_state.replace(round=parsed.round + 1).to_json())
            json.dumps([step.as_dict() for step in steps])
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def measure_seen_clicks(state: GameState, policy: BobPolicy, turns: int, *, kept: bool) -> float:
    """The median click path from a state the process has read before the click (the board
    page the judge looked at), each click from another stored state of the same position
    (its round differs, so no click finds a state an earlier click warmed). ``kept``: read
    through the per-process cache of parsed states (``state.parsed``, as
    ``table.actions.snapshot_state`` reads a snapshot), else parsed from its JSON."""
    clear_caches("state.parsed")
    times = []
    for seed in range(1, turns + 1):
        stored = json.loads(json.dumps(state.replace(round=state.round + seed).to_json()))
        if kept:  # the board page, shown before the click (not timed)
            parsed_state(stored, checked=False)
        t0 = time.perf_counter()
        with cycle_collector_paused():
            parsed = (
                parsed_state(stored, checked=False)
                if kept
                else GameState.from_json(stored, checked=False)
            )
            new_state, steps = resolve_alien_turn(parsed, policy, SeededDice(seed=seed))
            new_state = new_state.replace(round=parsed.round + 1)
            new_json = new_state.to_json()
            json.dumps(new_json)
            json.dumps([step.as_dict() for step in steps])
            if kept:
                keep_parsed(new_state, new_json)
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def measure_new_process_clicks(stored: dict, forks: int, *, parent_shares: bool) -> float:
    """The median first click of a process forked from this one, as a server forks its
    workers (see the module's docstring): every declared cache emptied first, so the child
    starts with no game's memos, and with ``parent_shares`` the bundled maps' boards built
    first (:func:`share_bundled_maps`, as Gunicorn's master and Celery's main process do)."""
    times = []
    for seed in range(1, forks + 1):
        clear_caches()
        if parent_shares:
            share_bundled_maps()
        reading, writing = os.pipe()
        child = os.fork()
        if child == 0:  # the worker: one click, its time sent back, then gone
            os.close(reading)
            t0 = time.perf_counter()
            with cycle_collector_paused():
                parsed = GameState.from_json(stored, checked=False)
                new_state, steps = resolve_alien_turn(parsed, BobPolicy(), SeededDice(seed=seed))
                json.dumps(new_state.replace(round=parsed.round + 1).to_json())
                json.dumps([step.as_dict() for step in steps])
            os.write(writing, struct.pack("d", time.perf_counter() - t0))
            os._exit(0)
        os.close(writing)
        with os.fdopen(reading, "rb") as answer:
            times.append(struct.unpack("d", answer.read())[0])
        os.waitpid(child, 0)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=60, help="turns to time (default 60)")
    parser.add_argument(
        "--rounds",
        type=int,
        default=1,
        help="measure this many times in a row and also print the spread (default 1)",
    )
    args = parser.parse_args()
    state = reference_state()
    aliens = [f for f in state.figures if f.side == "alien"]
    marines = [f for f in state.figures if f.side == "marine"]
    policy = BobPolicy()
    with cycle_collector_paused():
        resolve_alien_turn(state, policy, SeededDice(seed=0))  # warm the caches

    # Every round plays new seeds: a round never replays a turn an earlier one played, so
    # the AI's memos help it only as much as they would a longer Monte Carlo run.
    rounds = [
        measure_round(state, policy, args.turns, first_seed=1 + r * args.turns)
        for r in range(max(1, args.rounds))
    ]
    field_median, turn_median, throughput = rounds[-1]
    ratio = turn_median / (len(aliens) * field_median)

    cold_times = []
    rules = load_rules_data()
    for seed in range(1, min(args.turns, 20) + 1):
        clear_caches()
        fresh = state.replace()  # an equal state whose per-state memo is empty
        t0 = time.perf_counter()
        with cycle_collector_paused():
            resolve_alien_turn(fresh, policy, SeededDice(seed=seed), rules=rules)
        cold_times.append(time.perf_counter() - t0)
    cold_median = statistics.median(cold_times)

    print(f"reference map: {len(aliens)} revealed aliens, {len(marines)} marines")
    print(f"one distance field, median: {field_median * 1000:.3f} ms")
    print(f"one BoB Alien turn, median: {turn_median * 1000:.1f} ms (goal <= 20 ms)")
    print(f"ratio turn / (aliens x distance field): {ratio:.2f} (goal <= 3)")
    cold_ratio = cold_median / (len(aliens) * field_median)
    print(
        f"one BoB Alien turn with every AI memo cleared first, median: "
        f"{cold_median * 1000:.1f} ms (ratio {cold_ratio:.2f})"
    )
    clicks = min(args.turns, 20)
    shared_click = measure_clicks(state, policy, clicks, shared_boards=True)
    cold_click = measure_clicks(state, policy, clicks, shared_boards=False)
    print(
        f"click path (state parsed from its stored JSON, turn, new state and log to JSON), "
        f"median of {clicks}: {shared_click * 1000:.1f} ms with boards shared by content "
        f"hash (goal <= 30 ms); {cold_click * 1000:.1f} ms with a new board every click"
    )
    seen_parsed = measure_seen_clicks(state, policy, clicks, kept=False)
    seen_kept = measure_seen_clicks(state, policy, clicks, kept=True)
    print(
        f"click path from a state the process read before (the board page), median of "
        f"{clicks}: {seen_parsed * 1000:.1f} ms parsing it again; {seen_kept * 1000:.1f} ms "
        f"with parsed states kept by content (state.parsed)"
    )
    stored = json.loads(json.dumps(state.to_json()))
    forks = min(args.turns, 9)
    shared_first = measure_new_process_clicks(stored, forks, parent_shares=True)
    own_first = measure_new_process_clicks(stored, forks, parent_shares=False)
    print(
        f"first click of a new worker process (forked, no game's memos), median of {forks}: "
        f"{shared_first * 1000:.1f} ms with the bundled maps' boards built by its parent "
        f"(each later click: the click path above); {own_first * 1000:.1f} ms building its own"
    )
    print(f"Monte Carlo throughput: {throughput:.1f} turns per second on one core (goal >= 200)")
    if len(rounds) > 1:
        turns_ms = [r[1] * 1000 for r in rounds]
        ratios = [r[1] / (len(aliens) * r[0]) for r in rounds]
        rates = [r[2] for r in rounds]
        print(f"over {len(rounds)} rounds (median, lowest-highest):")
        for name, values, unit in (
            ("turn median", turns_ms, " ms"),
            ("ratio", ratios, ""),
            ("throughput", rates, " turns/s"),
        ):
            print(
                f"  {name}: {statistics.median(values):.2f}{unit} "
                f"({min(values):.2f}-{max(values):.2f})"
            )


if __name__ == "__main__":
    main()
