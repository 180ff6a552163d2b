"""The fast paths give the same answers as the reference functions they stand in for.

Precompiled sight lines (``los.firing_sight``, ``los.layout_sight``, ``los.figure_sees``)
against ``los.line_of_sight`` / ``los.figure_sight``; ``movement.stop_table`` against the
distance field's own table; ``combat.blast_option`` against ``combat.attack_options``; the
Alien AI's reused assessments against fresh ones; relaxed distance fields against new
searches; the AI's trusted moves against ``movement.move``; turns with cold and warm
caches.
"""

from __future__ import annotations

import random

import pytest

from rules.engine.ai import readiness
from rules.engine.ai.policies import policy_named
from rules.engine.ai.reach import assess_focus
from rules.engine.ai.turn import clear_caches, resolve_alien_turn
from rules.engine.board import DoorState
from rules.engine.combat import attack_options, blast_option
from rules.engine.dice import SeededDice
from rules.engine.los import (
    figure_sees,
    figure_sight,
    firing_sight,
    layout_sight,
    line_of_sight,
)
from rules.engine.maps import load_map
from rules.engine.movement import distance_field, follow_path, move, passable_table, stop_table
from rules.engine.state import Figure, GameState, Player
from rules.engine.units import load_rules_data

RULES = load_rules_data()
MAPS = ("reference", "hunt-derelict", "tpk-ring", "flag-relay")


def crowded_state(map_name: str, seed: int) -> GameState:
    """A board crowded with figures (some 2x2) and random door states."""
    rng = random.Random(seed)
    board = load_map(map_name)
    open_squares = [sq for sq in board.squares() if not board.is_solid(sq)]
    rng.shuffle(open_squares)
    taken: set = set()
    figures = []
    for sq in open_squares:
        if len(figures) >= 50:
            break
        x, y = sq
        block = ((x, y), (x + 1, y), (x, y + 1), (x + 1, y + 1))
        if len(figures) % 10 == 0 and all(
            board.in_bounds(s) and not board.is_solid(s) and s not in taken for s in block
        ):
            squares = block
        elif sq not in taken:
            squares = (sq,)
        else:
            continue
        taken.update(squares)
        side = "alien" if len(figures) % 2 else "marine"
        claw = any(board.claw_of(s) for s in squares)
        if side == "alien" and claw:
            side = "marine"
        figures.append(
            Figure(
                f"f{len(figures)}",
                side,
                None if side == "alien" else "p1",
                "dreadnought" if len(squares) == 4 else ("ork" if side == "alien" else "marine"),
                squares,
                1,
            )
        )
    doors = {
        e: rng.choice((DoorState.CLOSED, DoorState.OPEN))
        for e, d in board.doors.items()
        if d.state in (DoorState.CLOSED, DoorState.OPEN) and not d.always_open
    }
    return GameState(board=board, figures=tuple(figures), players=(Player("p1"),), doors=doors)


@pytest.mark.parametrize("map_name", MAPS)
def test_precompiled_lines_match_line_of_sight(map_name):
    rng = random.Random(map_name)
    for seed in range(3):
        state = crowded_state(map_name, seed)
        board = state.board
        squares = list(board.squares())
        for _ in range(1500):
            a = rng.choice(squares)
            if rng.random() < 0.5:
                b = rng.choice(squares)
            else:
                b = (
                    min(board.width - 1, max(0, a[0] + rng.randint(-5, 5))),
                    min(board.height - 1, max(0, a[1] + rng.randint(-5, 5))),
                )
            ignore = {
                fid for fid in (state.occupant[board.index(a)], state.occupant[board.index(b)])
            } - {None}
            if rng.random() < 0.3:
                ignore.add(rng.choice(state.figures).id)
            firing = line_of_sight(state, a, b, for_firing=True, ignore=ignore)
            layout = line_of_sight(state, a, b, for_firing=False)
            assert firing_sight(state, a, b, ignore) == (firing.visible, firing.doubtful)
            assert layout_sight(state, a, b) == (layout.visible, layout.doubtful)


@pytest.mark.parametrize("map_name", MAPS)
def test_figure_sees_matches_figure_sight(map_name):
    rng = random.Random(map_name)
    state = crowded_state(map_name, 7)
    squares = [sq for sq in state.board.squares()]
    for _ in range(600):
        viewer = rng.choice(state.figures)
        target = rng.choice(state.figures) if rng.random() < 0.5 else rng.choice(squares)
        for_firing = rng.random() < 0.8
        expected = figure_sight(state, viewer, target, for_firing).visible
        assert figure_sees(state, viewer, target, for_firing) == expected


@pytest.mark.parametrize("map_name", MAPS)
def test_stop_table_matches_distance_field(map_name):
    state = crowded_state(map_name, 3)
    for figure in state.figures[:20]:
        expected = distance_field(state, figure.id).stoppable
        assert stop_table(state, figure.id) == bytes(expected)


@pytest.mark.parametrize("map_name", MAPS)
def test_blast_option_matches_attack_options(map_name):
    rng = random.Random(map_name)
    state = crowded_state(map_name, 5)
    board = state.board
    missile = [f.id for f in state.figures if not f.is_dreadnought][:12]
    figures = tuple(
        Figure(
            f.id,
            f.side,
            f.player,
            "heavy_weapon_marine" if f.side == "marine" else "chaos_marine",
            f.squares,
            1,
            weapons=("missile_launcher",),
        )
        if f.id in missile
        else f
        for f in state.figures
    )
    state = state.replace(figures=figures)
    for fid in missile:
        listed = {
            o.aim: o
            for o in attack_options(state, fid, data=RULES, include_doors=False)
            if o.weapon == "missile_launcher"
        }
        squares = list(listed) + [rng.choice(list(board.squares())) for _ in range(40)]
        for aim in squares:
            assert blast_option(state, fid, "missile_launcher", aim, data=RULES) == listed.get(aim)


@pytest.mark.parametrize("map_name", MAPS)
def test_widened_field_matches_a_fresh_search(map_name):
    """A field relaxed through the squares of figures that left equals a new search, and
    so does every path read off it."""
    rng = random.Random(5)
    state = crowded_state(map_name, 7)
    aliens = [f for f in state.figures if f.side == "alien" and len(f.squares) == 1]
    marines = [f for f in state.figures if f.side == "marine"]
    w = state.board.width
    for alien in aliens[:8]:
        before = distance_field(state, alien.id)
        gone = rng.sample(marines, k=min(len(marines), rng.randint(1, 6)))
        after_state = state.replace(figures=tuple(f for f in state.figures if f not in gone))
        freed = [sq[0] + sq[1] * w for f in gone for sq in f.squares]
        widened, improved = before.with_freed(freed, passable_table(after_state, alien.id))
        fresh = distance_field(after_state, alien.id)
        assert widened.dist == fresh.dist
        assert set(improved) == {i for i, d in enumerate(fresh.dist) if d < before.dist[i]}
        for i, d in enumerate(fresh.dist):
            if 0 < d <= 8:
                sq = (i % w, i // w)
                assert widened.path_to(sq) == fresh.path_to(sq)


@pytest.mark.parametrize("map_name", MAPS)
def test_follow_path_matches_move(map_name):
    """The Alien AI's trusted move gives the state and events of the checked one."""
    state = crowded_state(map_name, 9)
    aliens = [f for f in state.figures if f.side == "alien"]
    assert state.occupant and stop_table(state, aliens[0].id)  # tables to carry over
    for alien in aliens[:10]:
        dfield = distance_field(state, alien.id)
        for sq in list(dfield.reachable(6))[:12]:
            path = dfield.path_to(sq)
            expected_state, expected_events = move(state, alien.id, path)
            got_state, got_events = follow_path(state, alien.id, path)
            assert got_state == expected_state
            assert got_events == expected_events
            # The occupancy it carried over is the one built from scratch.
            fresh = expected_state.replace()
            assert got_state.occupant == fresh.occupant
            for other in aliens[:6]:
                assert stop_table(got_state, other.id) == stop_table(fresh, other.id)


def test_cold_and_warm_caches_give_the_same_turn():
    """Whatever the AI remembers from earlier turns (fields, relaxed fields, sight lines,
    plans), a turn replays byte for byte."""
    state = mixed_state()
    policy = policy_named("bob")
    runs = []
    for seed in (1, 2, 1, 3, 2):
        new, steps = resolve_alien_turn(state.replace(), policy, SeededDice(seed=seed))
        runs.append((seed, new.to_json(), [s.as_dict() for s in steps]))
    clear_caches()
    for seed, expected_state, expected_steps in runs:
        new, steps = resolve_alien_turn(state.replace(), policy, SeededDice(seed=seed))
        assert new.to_json() == expected_state
        assert [s.as_dict() for s in steps] == expected_steps
        clear_caches()
    assert any("killed" in str(run[2]) for run in runs)  # marines died: fields were relaxed


def mixed_state() -> GameState:
    """The reference map with 12 marines of three players and 20 aliens of five types."""
    rng = random.Random(11)
    board = load_map("reference")
    free = [sq for sq in board.squares() if not board.is_solid(sq) and not board.claw_of(sq)]
    rng.shuffle(free)
    units = ("android", "genestealer", "chaos_marine", "ork", "gretchin")
    figures = [
        Figure(
            f"p{i % 3}-{i}",
            "marine",
            f"p{i % 3}",
            "marine",
            (free[i],),
            1,
            weapons=("laser_rifle",),
        )
        for i in range(12)
    ]
    for i in range(20):
        unit = units[i % len(units)]
        weapons = RULES.unit(unit).weapons
        figures.append(
            Figure(
                f"{unit}-{i}",
                "alien",
                None,
                unit,
                (free[12 + i],),
                RULES.max_life_points(unit, weapons),
                weapons=weapons,
            )
        )
    players = ("p0", "p1", "p2")
    return GameState(
        board=board,
        figures=tuple(figures),
        players=tuple(Player(p) for p in players),
        initiative=players,
    )


def test_reused_assessments_equal_fresh_ones(monkeypatch):
    """Every assessment the BoB policy takes from the readiness memo is the one a fresh
    assessment of the current state gives."""
    original = readiness.ReadinessMemo.assess
    checked = []

    def both(self, state, figure, rules, allowance):
        got = original(self, state, figure, rules, allowance)
        fresh = assess_focus(state, figure, rules, allowance)
        assert got.readiness() == fresh.readiness()
        assert got.reaches == fresh.reaches and got.criterion == fresh.criterion
        assert got.reach.stops == fresh.reach.stops
        assert bytes(got.reach.field.stoppable) == bytes(fresh.reach.field.stoppable)
        for target_id, stop in got.reach._shoot_cache.items():
            assert fresh.reach.shooting_stop(state, state.figure(target_id)) == stop
        checked.append(figure.id)
        return got

    monkeypatch.setattr(readiness.ReadinessMemo, "assess", both)
    reuse = readiness._on_state
    reused = []

    def counted(*args):
        reused.append(args[2].id)
        return reuse(*args)

    monkeypatch.setattr(readiness, "_on_state", counted)
    state = mixed_state()
    for seed in range(3):
        resolve_alien_turn(state, policy_named("bob"), SeededDice(seed=seed))
    assert len(checked) > 60
    assert reused  # the memo was exercised, not only bypassed
