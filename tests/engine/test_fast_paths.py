"""The fast paths give the same answers as the reference functions they stand in for.

Precompiled sight lines (``los.firing_sight``, ``los.layout_sight``, ``los.figure_sees``)
against ``los.line_of_sight`` / ``los.figure_sight``; ``movement.stop_table`` against the
distance field's own table; ``combat.blast_option`` against ``combat.attack_options``; the
Alien AI's reused assessments against fresh ones, its plan ranking against the plan key;
relaxed distance fields against new searches; the AI's trusted moves against
``movement.move``; turns with cold and warm caches.
"""

from __future__ import annotations

import gc
import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.engine import movement
from rules.engine.ai import readiness
from rules.engine.ai.plans import Plan, rank_plans
from rules.engine.ai.policies import policy_named
from rules.engine.ai.reach import (
    _players_table,
    alien_field,
    assess,
    assess_focus,
    attack_indices,
    attack_squares,
    field_layout_key,
)
from rules.engine.ai.turn import resolve_alien_turn
from rules.engine.board import DoorState
from rules.engine.caches import clear_caches
from rules.engine.collector import cycle_collector_paused
from rules.engine.combat import attack_options, blast_option
from rules.engine.dice import SeededDice
from rules.engine.geometry import Facing, Square, block_2x2, edge
from rules.engine.los import (
    figure_sees,
    figure_sight,
    firing_sight,
    layout_sight,
    line_of_sight,
)
from rules.engine.maps import load_map
from rules.engine.movement import (
    UNREACHABLE,
    DistanceField,
    distance_field,
    follow_path,
    move,
    passable_table,
    stop_table,
)
from rules.engine.play.targets import targets_of
from rules.engine.state import Figure, GameState, Player, carry_memo
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
def test_assessed_fields_match_distance_fields(map_name):
    """An assessment's field, built from its shared distances and its side's table of
    free squares (also once carried to a state where another alien left), is the alien's
    distance field in that state."""
    state = crowded_state(map_name, 4)
    *aliens, gone = [f for f in state.figures if f.side == "alien"][:13]
    moved = state.without_figure(gone.id)  # aliens never change an alien's distances
    for alien in aliens:
        reach = assess(state, alien, RULES, 6)
        for on, got in ((state, reach), (moved, reach.on_state(moved))):
            expected = distance_field(on, alien.id)
            assert got.field.dist == expected.dist
            assert got.field.start == expected.start
            assert bytes(got.field.stoppable) == bytes(expected.stoppable)


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


def check_widened_field(
    state: GameState, alien: Figure, gone: list[Figure]
) -> tuple[DistanceField, DistanceField]:
    """Relax ``alien``'s field through the squares of the figures ``gone`` and check it
    against a new search of the state without them (distances and improved positions);
    returns (relaxed field, new field)."""
    w = state.board.width
    before = distance_field(state, alien.id)
    after_state = state.replace(figures=tuple(f for f in state.figures if f not in gone))
    freed = [sq[0] + sq[1] * w for f in gone for sq in f.squares]
    widened, improved = before.with_freed(freed, passable_table(after_state, alien.id))
    fresh = distance_field(after_state, alien.id)
    assert widened.dist == fresh.dist
    assert set(improved) == {i for i, d in enumerate(fresh.dist) if d < before.dist[i]}
    return widened, fresh


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
        gone = rng.sample(marines, k=min(len(marines), rng.randint(1, 6)))
        widened, fresh = check_widened_field(state, alien, gone)
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


def reference_turn_state() -> GameState:
    """The benchmark's position: 24 aliens of every type and 15 marines of three players."""
    from benchmarks.reference_position import reference_state

    return reference_state()


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**6), allowance=st.integers(0, 8), density=st.floats(0.0, 1.0))
def test_stops_in_a_mask_keep_the_stop_order(seed, allowance, density):
    """Reading a sparse mask bit by bit gives the stops a scan of every stop gives."""
    rng = random.Random(seed)
    state = mixed_state()
    alien = rng.choice([f for f in state.figures if f.side == "alien"])
    reach = assess(state, alien, RULES, allowance)
    w = state.board.width
    mask, expected = random_stop_mask(rng, reach.stops, w, density)
    assert reach.stops_in(mask, w) == expected


def random_stop_mask(
    rng: random.Random, stops: list[tuple[int, Square]], width: int, density: float
) -> tuple[int, list[tuple[int, Square]]]:
    """A bit mask of about ``density`` of ``stops``, and those stops in their order (read
    by scanning every stop)."""
    mask = 0
    for _, (x, y) in stops:
        if rng.random() < density:
            mask |= 1 << (x + y * width)
    return mask, [s for s in stops if mask >> (s[1][0] + s[1][1] * width) & 1]


def test_fields_after_deaths_list_the_near_positions_of_a_fresh_search():
    """A field relaxed after marines died (and its positions within reach of any turn,
    updated rather than listed again) equals a new search."""
    clear_caches()
    rng = random.Random(3)
    state = mixed_state()
    aliens = [f for f in state.figures if f.side == "alien"]
    marines = [f for f in state.figures if f.side == "marine"]
    for alien in aliens:
        alien_field(state, alien)
    for _ in range(4):
        gone = {f.id for f in rng.sample(marines, k=3)}
        thinner = state.replace(figures=tuple(f for f in state.figures if f.id not in gone))
        for alien in aliens:
            dfield, near = alien_field(thinner, alien)
            fresh = distance_field(thinner, alien.id)
            assert dfield.dist == fresh.dist
            assert bytes(dfield.stoppable) == bytes(fresh.stoppable)
            listed = [i for i, d in enumerate(fresh.dist) if 0 < d <= 24]
            listed.sort(key=fresh.dist.__getitem__)
            assert near == listed
    clear_caches()


@pytest.mark.parametrize("map_name", MAPS)
def test_player_distances_match_adjacent_stops(map_name):
    """The focus distance read off the shared free squares next to a player's figures is
    the nearest stop next to any of them, measured target by target."""
    state = crowded_state(map_name, 4)
    aliens = [f for f in state.figures if f.side == "alien" and not f.is_dreadnought]
    for alien in aliens[:12]:
        assessment = assess_focus(state, alien, RULES, 6)
        for r in assessment.reaches:
            expected = min(
                (assessment.reach.adjacent_stop(state, t)[0] for t in targets_of(state, r.player)),
                default=UNREACHABLE,
            )
            assert r.distance == expected


def _goals_from_scratch(state, figure_id, player, open_doors):
    """Movement's adjacency goals computed directly, square by square."""
    board = state.board
    mover = distance_field(state, figure_id, open_doors=open_doors)
    me = state.figure(figure_id)
    targets = {
        sq
        for f in state.figures
        if f.player == player and f.on_board and f.id != me.id
        for sq in f.squares
    }
    goals = set()
    for t in targets:
        for s in ((t[0] + 1, t[1]), (t[0] - 1, t[1]), (t[0], t[1] + 1), (t[0], t[1] - 1)):
            if not board.in_bounds(s) or s in targets or board.has_wall(s, t):
                continue
            door = state.doors.get(edge(s, t))
            if door is not None and not (
                door.passable or (door is DoorState.CLOSED and open_doors)
            ):
                continue
            anchors = (
                [s]
                if not me.is_dreadnought
                else [(s[0] - dx, s[1] - dy) for dx in (0, 1) for dy in (0, 1)]
            )
            for a in anchors:
                if (
                    board.in_bounds(a)
                    and mover.can_stop(a)
                    and (not me.is_dreadnought or t not in block_2x2(a))
                ):
                    goals.add(board.index(a))
    return sorted(goals)


@pytest.mark.parametrize("map_name", MAPS)
def test_adjacency_goals_match_a_fresh_count(map_name):
    """The squares next to a player's figures, on a state and after an alien's move, give
    the goals counted square by square."""
    state = crowded_state(map_name, 6)
    state = state.replace(
        figures=tuple(
            replace(f, player="p2") if f.side == "marine" and i % 4 == 0 else f
            for i, f in enumerate(state.figures)
        ),
        players=(Player("p1"), Player("p2")),
    )
    aliens = [f for f in state.figures if f.side == "alien"]
    marine = next(f for f in state.figures if f.side == "marine")
    for open_doors in (True, False):
        for player in ("p1", "p2"):
            for mover in aliens[:6] + [marine]:
                goals = movement._mover(state, mover.id, open_doors, ()).adjacency_goals(player)
                assert goals == _goals_from_scratch(state, mover.id, player, open_doors)
    # Carried over a move: still the same as counted on the new state.
    alien = next(a for a in aliens if not a.is_dreadnought)
    dfield = distance_field(state, alien.id)
    target = next(sq for sq, d in dfield.reachable(4).items() if d == 3)
    moved, _ = follow_path(state, alien.id, dfield.path_to(target))
    carry_memo(state, moved)
    for other in aliens[:6]:
        if moved.has_figure(other.id):
            goals = movement._mover(moved, other.id, True, ()).adjacency_goals("p1")
            assert goals == _goals_from_scratch(moved, other.id, "p1", True)


def test_marine_side_memo_shared_after_an_alien_move_is_still_true():
    """The marine-side entries an alien's move shares with the new state (one dict for
    both) are the ones built from scratch on either state, whichever state filled them."""
    state = mixed_state()
    alien = next(f for f in state.figures if f.side == "alien")
    dfield = distance_field(state, alien.id)
    target = next(sq for sq, d in dfield.reachable(4).items() if d == 3)
    moved, _ = follow_path(state, alien.id, dfield.path_to(target))
    before = state.replace()
    attack_indices(before, "p0")  # filled before the move, the rest after it
    carry_memo(before, moved)
    assert moved.memo.marine_side() is before.memo.marine_side()
    for on in (moved, before):
        fresh = on.replace()
        for player in on.initiative:
            assert targets_of(on, player) == targets_of(fresh, player)
            assert attack_indices(on, player) == attack_indices(fresh, player)
        assert field_layout_key(on, alien)[2] == field_layout_key(fresh, alien)[2]
        assert _players_table(on) == _players_table(fresh)


def test_moved_figure_equals_moved_to():
    state = mixed_state()
    for figure in state.figures[:10]:
        for facing in (None, *Facing):
            for squares in (((3, 4),), block_2x2((3, 4))):
                moved = movement._moved_figure(figure, squares, facing)
                assert moved == figure.moved_to(squares, facing)
                assert moved.is_dreadnought == figure.moved_to(squares, facing).is_dreadnought


def test_memo_carried_after_an_attack_is_still_true():
    """After an attack (aliens or marines hurt or killed), the memo entries carried over
    equal the ones built from scratch on the new state."""
    state = reference_turn_state()
    alien = next(f for f in state.figures if f.side == "alien" and not f.is_dreadnought)
    marine = next(f for f in state.figures if f.side == "marine")
    mover = next(f for f in state.figures if f.side == "alien" and f.id != alien.id)
    afters = (
        state.with_figure(replace(alien, life_points=alien.life_points - 1)),
        state.without_figure(alien.id),
        state.with_figure(replace(marine, life_points=marine.life_points - 1)),
        state.without_figure(marine.id),
    )
    for n, after in enumerate(afters):
        before = state.replace()
        for player in before.initiative:
            for target in targets_of(before, player):
                attack_squares(before, target)
            attack_indices(before, player)
            movement._mover(before, mover.id, True, ()).adjacency_goals(player)
        viewers = [mover.id, next(f.id for f in after.figures if f.side == "marine")]
        for fid in viewers:
            stop_table(before, fid)
        carry_memo(before, after)
        occupancy_carried = occupancy_kept(after)
        carried_targets = set(after.memo.marine_side().targets)
        fresh = after.replace()
        for fid in viewers:
            assert stop_table(after, fid) == stop_table(fresh, fid)
            assert passable_table(after, fid) == passable_table(fresh, fid)
        # Movement's occupancy tables are carried while no figure left.
        assert occupancy_carried is (n % 2 == 0)
        for player in after.initiative:
            assert targets_of(after, player) == targets_of(fresh, player)
            assert attack_indices(after, player) == attack_indices(fresh, player)
            for target in targets_of(fresh, player):
                assert attack_squares(after, target) == attack_squares(fresh, target)
            goals = movement._mover(after, mover.id, True, ()).adjacency_goals(player)
            assert goals == movement._mover(fresh, mover.id, True, ()).adjacency_goals(player)
        if after.has_figure(alien.id):
            assert field_layout_key(after, alien) == field_layout_key(fresh, alien)
        # The marine's player's entries are carried only while its figures are unhurt.
        assert (marine.player in carried_targets) is (n < 2)
        assert all(p in carried_targets for p in after.initiative if p != marine.player)


def test_reused_firing_answers_equal_fresh_ones(monkeypatch):
    """Firing answers kept when only where an alien may stop changed are the answers of
    a fresh assessment, and the path that keeps them is taken."""
    original = readiness.ReadinessMemo.assess
    kept = []

    def both(self, state, figure, rules, allowance):
        got = original(self, state, figure, rules, allowance)
        fresh = assess_focus(state, figure, rules, allowance)
        assert got.readiness() == fresh.readiness()
        assert got.reaches == fresh.reaches and got.criterion == fresh.criterion
        for target_id, stop in got.reach._shoot_cache.items():
            assert fresh.reach.shooting_stop(state, state.figure(target_id)) == stop
        return got

    still_true = readiness._shots_still_true

    def counted(*args):
        answers = still_true(*args)
        kept.extend(answers)
        return answers

    monkeypatch.setattr(readiness.ReadinessMemo, "assess", both)
    monkeypatch.setattr(readiness, "_shots_still_true", counted)
    state = reference_turn_state()
    for seed in range(4):
        resolve_alien_turn(state, policy_named("bob"), SeededDice(seed=seed))
    assert kept  # some answers were carried over, and each was checked


def test_a_turn_leaves_no_reference_cycles():
    """A caller may pause the cyclic collector around turns because a turn makes no cycles:
    reference counting alone frees everything it drops."""
    state = reference_turn_state()
    for policy in ("bob", "solitaire", "priority"):
        resolve_alien_turn(state, policy_named(policy), SeededDice(seed=0))
    gc.collect()
    gc.disable()
    try:
        for policy in ("bob", "solitaire", "priority"):
            for seed in range(1, 4):
                resolve_alien_turn(state, policy_named(policy), SeededDice(seed=seed))
        assert gc.collect() == 0
    finally:
        gc.enable()
    assert gc.isenabled()


def test_firing_answers_are_dropped_when_a_stop_that_sees_the_target_changes(monkeypatch):
    """Another alien stepping onto the square an alien would have fired from: that
    answer is found again, the others are kept, and all equal a fresh assessment's."""
    still_true = readiness._shots_still_true
    partial = []

    def counted(*args):
        answers = still_true(*args)
        partial.append(answers)
        return answers

    monkeypatch.setattr(readiness, "_shots_still_true", counted)
    state = reference_turn_state()
    aliens = [f for f in state.figures if f.side == "alien" and not f.is_dreadnought]
    targets = [t for p in state.initiative for t in targets_of(state, p)]
    checked = 0
    for alien in aliens:
        allowance = RULES.movement(alien.unit, alien.equipment)
        memo = readiness.ReadinessMemo()
        reach = memo.assess(state, alien, RULES, allowance).reach
        answers = {t.id: reach.shooting_stop(state, t) for t in targets}
        anchors = {a[1] for a in answers.values() if a is not None and a[0] > 0}
        for other in aliens:
            dfield = distance_field(state, other.id)
            reachable = [a for a in anchors if other is not alien and dfield.can_stop(a)]
            if not reachable or dfield.distance(reachable[0]) >= UNREACHABLE:
                continue
            moved, _ = follow_path(state, other.id, dfield.path_to(reachable[0]))
            got = memo.assess(moved, moved.figure(alien.id), RULES, allowance)
            fresh = assess_focus(moved, moved.figure(alien.id), RULES, allowance)
            assert got.readiness() == fresh.readiness()
            for target_id, stop in got.reach._shoot_cache.items():
                assert fresh.reach.shooting_stop(moved, moved.figure(target_id)) == stop
            checked += 1
            break
    assert checked and partial  # the answers were kept through the partial path


def test_an_alien_that_may_not_see_a_player_shoots_none_of_its_figures():
    """The walls-only test that skips a player's firing lines never skips one that sees."""
    states = [reference_turn_state(), mixed_state()]
    for map_name in MAPS:
        state = crowded_state(map_name, 8)
        states.append(
            state.replace(
                figures=tuple(
                    replace(f, player=f"p{i % 3}") if f.side == "marine" else f
                    for i, f in enumerate(state.figures)
                ),
                players=tuple(Player(f"p{i}") for i in range(3)),
            )
        )
    skipped = 0
    for state in states:
        players = [p.id for p in state.players]
        for alien in [f for f in state.figures if f.side == "alien"][:15]:
            reach = assess(state, alien, RULES, 6)
            for player in players:
                targets = targets_of(state, player)
                if not reach.may_see(state, targets):
                    skipped += 1
                    assert all(reach.shooting_stop(state, t) is None for t in targets)
    assert skipped


def test_a_paused_turn_keeps_the_objects_a_caller_froze_frozen():
    """A turn with the collector paused moves its survivors to the oldest generation with
    ``gc.freeze`` and ``gc.unfreeze`` only when nothing is frozen: a caller's frozen
    objects stay frozen."""
    state = reference_turn_state()
    gc.freeze()
    try:
        frozen = gc.get_freeze_count()
        with cycle_collector_paused():
            resolve_alien_turn(state, policy_named("bob"), SeededDice(seed=0))
        # Nothing was unfrozen (that would empty the permanent generation) and nothing
        # was added; a frozen object may still die meanwhile, freed by reference counting.
        assert 0 < gc.get_freeze_count() <= frozen
        assert gc.isenabled()
    finally:
        gc.unfreeze()
    with cycle_collector_paused():
        resolve_alien_turn(state, policy_named("bob"), SeededDice(seed=1))
    assert gc.get_freeze_count() == 0
    assert gc.get_count()[0] < 100  # the turn's survivors were not left in the youngest


def test_a_turn_leaves_the_collector_alone():
    """The engine never pauses, freezes or re-enables the collector itself."""

    class Watching:
        name = "bob"

        def run(self, ctx):
            seen.append(gc.isenabled())
            policy_named("bob").run(ctx)
            seen.append(gc.isenabled())

    seen: list[bool] = []
    state = reference_turn_state()
    resolve_alien_turn(state, Watching(), SeededDice(seed=2))
    assert seen == [True, True] and gc.get_freeze_count() == 0
    gc.disable()
    try:
        resolve_alien_turn(state, Watching(), SeededDice(seed=3))
        assert not gc.isenabled()
    finally:
        gc.enable()
    assert seen[2:] == [False, False]


def rebuilt(state: GameState) -> GameState:
    """An equal state built from scratch, with no derived table."""
    return GameState(**{name: getattr(state, name) for name in GameState.__dataclass_fields__})


def test_figure_lookups_carried_to_a_new_state_equal_fresh_ones():
    """A state made by replacing, removing or keeping figures inherits the old state's
    figure lookups (changed where a figure changed): the same as built from scratch."""
    state = mixed_state()
    assert state.occupant and state.has_figure(state.figures[0].id)  # lookups to carry
    fresh = rebuilt

    for figure in state.figures[:8]:
        news = [
            state.with_figure(replace(figure, life_points=figure.life_points + 1)),
            state.with_figure(replace(figure, life_points=9), round=state.round + 1),
            state.without_figure(figure.id),
            state.replace(round=state.round + 1),
        ]
        for new in news:
            plain = fresh(new)
            for f in plain.figures:
                assert new.figure(f.id) is f
            assert new._slot == plain._slot
            assert new._by_id == plain._by_id
            assert new.occupant == plain.occupant


def test_occupancy_tables_kept_by_a_new_state_equal_fresh_ones():
    """A state where every figure stands as before (a figure hurt, a door opened, scores
    changed) keeps movement's occupancy tables: the same as built from scratch."""
    state = mixed_state()
    figures = state.figures
    for f in figures:
        stop_table(state, f.id)
    marine = next(f for f in figures if f.side == "marine")
    alien = next(f for f in figures if f.side == "alien")
    door = next(iter(state.doors))
    news = [
        state.with_figure(replace(marine, life_points=marine.life_points + 1)),
        state.with_figure(replace(alien, weapons=())),
        state.with_door(*door, DoorState.OPEN),
        state.replace(round=state.round + 1),
        state.with_player(replace(state.players[0], score=3)),
    ]
    for new in news:
        assert occupancy_kept(new)
        plain = rebuilt(new)
        assert new.occupant == plain.occupant
        for f in figures:
            assert stop_table(new, f.id) == stop_table(plain, f.id)
            assert passable_table(new, f.id) == passable_table(plain, f.id)
    empty = next(
        sq
        for sq in state.board.squares()
        if not state.board.is_solid(sq) and state.figure_at(sq) is None
    )
    elsewhere = state.with_figure(marine.moved_to([empty]))
    assert not occupancy_kept(elsewhere)


def occupancy_kept(state: GameState) -> bool:
    """The state's memo holds movement's occupancy tables."""
    return state.memo.alien_occupancy is not None


def test_door_slots_read_off_a_door_table_equal_lookups_by_edge():
    """The door slots a state reads off its door table's values are the board's doors
    looked up one by one, whichever doors were opened or closed."""
    state = mixed_state()
    rng = random.Random(3)
    for _ in range(20):
        a, b = rng.choice(state.board.door_edges)
        if state.doors[(a, b)] in (DoorState.OPEN, DoorState.CLOSED):
            state = state.with_door(a, b, rng.choice((DoorState.OPEN, DoorState.CLOSED)))
        expected = tuple(state.doors[e] for e in state.board.door_edges)
        assert state.door_open_slots == expected
        assert rebuilt(state).door_open_slots == expected


@pytest.mark.parametrize("map_name", MAPS)
def test_squares_next_to_a_player_read_off_the_board_steps_match_a_plain_walk(map_name):
    """The squares next to a player's figures, read off the board's orthogonal steps, are
    the in-bounds, non-solid neighbours across no wall and no door that cannot be opened
    (or passed, when closed doors may not be opened), that hold none of its figures."""
    state = crowded_state(map_name, 4)
    board = state.board
    mover = next(f for f in state.figures if f.side == "alien")
    for player in {f.player for f in state.figures if f.player is not None}:
        targets = {sq for f in state.figures if f.player == player for sq in f.squares}
        for open_doors in (True, False):
            plain = set()
            for t in targets:
                for s in ((t[0] + 1, t[1]), (t[0] - 1, t[1]), (t[0], t[1] + 1), (t[0], t[1] - 1)):
                    if board.is_solid(s) or s in targets or board.has_wall(s, t):
                        continue
                    door = state.doors.get(edge(s, t))
                    if door is None or door.passable or (open_doors and door is DoorState.CLOSED):
                        plain.add((s, t))
            pairs = movement._adjacent_squares(state, player, mover, open_doors)
            assert sorted(pairs) == sorted(plain)


@pytest.mark.parametrize("seed", range(6))
def test_a_field_relaxed_through_many_freed_squares_equals_a_fresh_search(seed):
    """Relaxing a distance at a time, with freed positions waiting at several distances
    (some reached sooner through another freed one), gives a new search's distances."""
    rng = random.Random(seed)
    state = crowded_state(MAPS[seed % len(MAPS)], 20 + seed)
    aliens = [f for f in state.figures if f.side == "alien" and len(f.squares) == 1]
    others = [f for f in state.figures if f.side == "marine"]
    for alien in aliens[:6]:
        gone = rng.sample(others, k=rng.randint(len(others) // 2, len(others)))
        check_widened_field(state, alien, gone)


@settings(max_examples=80, deadline=None)
@given(
    rows=st.lists(
        st.tuples(
            st.integers(0, 3),
            st.fractions(min_value=0, max_value=3, max_denominator=40),
            st.fractions(min_value=0, max_value=3, max_denominator=40),
            st.integers(0, 4),
            st.integers(0, 4),
            st.sampled_from(["m1", "m2", "m3"]),
        ),
        max_size=12,
    ),
    area=st.booleans(),
)
def test_ranked_plans_follow_the_plan_key(rows, area):
    """Two stable sorts order plans as their key does, equal keys keeping their order."""
    plans = [
        Plan("shoot", (i, 0), steps, "bolter", target, None, points, life, hit, distance)
        for i, (hit, points, life, distance, steps, target) in enumerate(rows)
    ]
    ranked = list(plans)
    rank_plans(ranked, area)
    assert ranked == sorted(plans, key=lambda p: p.key(area))


@pytest.mark.parametrize("small", [False, True])
def test_kept_missile_aims_equal_fresh_ones(small, monkeypatch):
    """Missile aims kept by the figures near the targets equal aims worked out afresh, as
    an alien moves near or far from the marines, or a marine loses a life point."""
    from rules.engine.ai import area
    from rules.engine.play.turn_context import TurnContext

    rng = random.Random(5)
    start = reference_turn_state()
    board = start.board
    taken = {sq for f in start.figures for sq in f.squares}
    free = [
        sq
        for sq in board.squares()
        if not board.is_solid(sq) and not board.claw_of(sq) and sq not in taken
    ]
    firers = ("chaos_marine_heavy-2", "dreadnought-0")
    movers = [f.id for f in start.figures if f.side == "alien" and f.id not in firers]
    if small:  # tables forgotten again and again
        monkeypatch.setattr(area, "_MAX_BLASTS", 4)  # each firer's shots and ranked aims
        for cache, limit in (
            (area._BLASTS, 3),
            (area._FIGURE_TOKENS, 100),
            (area._AIM_AREAS, 2),
        ):
            monkeypatch.setattr(cache, "bound", limit)
    marines = [f.id for f in start.figures if f.side == "marine" and f.life_points > 1]
    clear_caches("area.")
    reused = 0
    for i in range(40):
        if i % 5 == 4:
            hurt = start.figure(rng.choice(marines))
            changed = replace(hurt, life_points=hurt.life_points - 1)
        else:
            changed = start.figure(rng.choice(movers)).moved_to([rng.choice(free)])
        state = start.with_figure(changed)
        ctx = TurnContext(state=state, dice=SeededDice(seed=0), rules=RULES)
        for fid in firers:
            firer = state.figure(fid)
            lists = sum(len(k.ranked) for k in area._BLASTS.values())
            kept = area._blast_aims(ctx, firer, "missile_launcher", firer.squares)
            reused += lists == sum(len(k.ranked) for k in area._BLASTS.values())
            warm = dict(area._BLASTS)
            area._BLASTS.clear()
            assert kept == area._blast_aims(ctx, firer, "missile_launcher", firer.squares)
            area._BLASTS.clear()
            area._BLASTS.update(warm)
            if small:
                assert len(area._FIGURE_TOKENS) <= 100
                assert len(area._AIM_AREAS) <= 3
    assert reused >= (2 if small else 10)


@pytest.mark.parametrize("map_name", MAPS)
def test_blast_squares_kept_per_door_table_match_the_doors(map_name):
    """The squares a blast reaches, kept per door table, are those its doors let it reach,
    also once doors changed."""
    from rules.engine.combat import _step_open, blast_squares
    from rules.engine.geometry import neighbours8

    rng = random.Random(map_name)
    state = crowded_state(map_name, 3)
    board = state.board
    squares = [sq for sq in board.squares() if not board.is_solid(sq)]
    doors = list(state.doors)
    for _ in range(6):
        for centre in rng.sample(squares, 60) * 2:
            expected = [
                n
                for n in neighbours8(centre)
                if board.in_bounds(n) and _step_open(state, centre, n)
            ]
            assert blast_squares(state, centre) == expected
        door = rng.choice(doors)
        shut = state.doors[door] is not DoorState.CLOSED
        state = state.with_door(*door, DoorState.CLOSED if shut else DoorState.OPEN)


def test_kept_dice_equal_the_rules_data():
    """Dice kept per rules data object are the ones the data gives."""
    from rules.engine.combat import hand_to_hand_dice, shot_dice

    for data in (RULES, load_rules_data({"weapons": {"bolter": {"shots": 2}}})):
        for _ in range(2):
            for key, unit in data.units.items():
                weapons = tuple(unit.weapons)
                assert hand_to_hand_dice(data, key, weapons) == data.hand_to_hand_dice(key, weapons)
            for key, weapon in data.weapons.items():
                assert shot_dice(data, key) == weapon.dice.times(max(1, weapon.shots))


def test_direct_options_match_the_listed_options():
    """The option the AI builds to carry out a fight or a single shot (its odds kept by
    their plain values) is the one combat lists, the second time as the first."""
    from fractions import Fraction

    from rules.engine.ai.plans import Shot
    from rules.engine.ai.strike import direct_option
    from rules.engine.play.turn_context import TurnContext

    checked = {"hand_to_hand": 0, "single": 0}
    for seed in range(4):
        state = crowded_state("reference", seed)
        ctx = TurnContext(state=state, dice=SeededDice(seed=0), rules=RULES)
        for alien in [f for f in state.figures if f.side == "alien" and len(f.squares) == 1]:
            alien = replace(alien, unit="chaos_marine", weapons=("bolter",), life_points=2)
            ctx.state = state.with_figure(alien)
            for option in attack_options(ctx.state, alien.id, data=RULES, include_doors=False):
                pattern = "hand_to_hand" if option.kind == "hand_to_hand" else "single"
                if option.target is None or (
                    pattern == "single" and option.odds.touches_friendly()
                ):
                    continue
                shot = Shot(
                    option.weapon or pattern,
                    pattern,
                    option.target,
                    None,
                    Fraction(0),
                    Fraction(0),
                )
                for _ in range(2):
                    direct = direct_option(ctx, alien, shot)
                    assert direct is not None
                    assert (direct.kind, direct.weapon, direct.target, direct.from_squares) == (
                        option.kind,
                        option.weapon,
                        option.target,
                        option.from_squares,
                    )
                    assert direct.target_keys == option.target_keys
                    assert direct.odds.losses == option.odds.losses
                    assert direct.odds.expected_points() == option.odds.expected_points()
                checked[pattern] += 1
    assert min(checked.values()) >= 5, checked


def test_rounded_scores_kept_by_object_equal_plain_rounding():
    """Scores rounded for the log and kept by the Fraction object (whose id a new object
    may take once it is gone) equal plain rounding."""
    from fractions import Fraction

    from rules.engine.ai.plans import rounded

    rng = random.Random(3)
    kept = [Fraction(rng.randint(0, 999), rng.randint(1, 999)) for _ in range(50)]
    for _ in range(3000):
        value = rng.choice(kept) if rng.random() < 0.5 else Fraction(rng.randint(0, 99), 7)
        assert rounded(value) == round(float(value), 3)


# --- Engineer B, round two: assessing and re-ranking aliens ---------------------------


def _adjacent_stop_plainly(state: GameState, alien: Figure, target: Figure) -> tuple:
    """The nearest square next to ``target`` where the alien may stop (its own square
    included), nearest by steps, then row, then column, from a fresh distance field."""
    field = movement.distance_field(state, alien.id)
    free = movement.stop_table(state, alien.id)
    w = state.board.width
    best = (UNREACHABLE, 0, 0, None)
    for anchor in attack_squares(state, target):
        i = anchor[0] + anchor[1] * w
        d = 0 if anchor == field.start else field.dist[i]
        if (anchor == field.start or free[i]) and d < UNREACHABLE:
            best = min(best, (d, anchor[1], anchor[0], anchor), key=lambda k: k[:3])
    return best[0], best[3]


@pytest.mark.parametrize("map_name", MAPS)
def test_adjacent_stops_read_off_the_field_tables_match_a_plain_scan(map_name):
    """A 1x1 alien's nearest stop next to a target, read off the attack squares sorted
    once per distance field (and shared by every state the field serves), is the one a
    plain scan of a fresh field finds, also once other aliens moved."""
    state = crowded_state(map_name, 7)
    aliens = [f for f in state.figures if f.side == "alien" and not f.is_dreadnought]
    targets = targets_of(state, "p1")
    free = [
        sq
        for sq in state.board.squares()
        if not state.board.is_solid(sq) and state.figure_at(sq) is None
    ]
    moved = state
    for other in aliens[12:18]:
        moved = moved.with_figure(replace(other, squares=(free.pop(),)))
    for alien in aliens[:12]:
        for now in (state, moved):
            reach = assess(now, alien, RULES, 6)
            for target in targets:
                for _ in range(2):
                    assert reach.adjacent_stop(now, target) == _adjacent_stop_plainly(
                        now, alien, target
                    )


def test_changes_between_states_sharing_their_marine_side_memo_equal_fresh_ones():
    """The readiness memo takes a shared marine-side memo (an alien moved) for the same
    layout and marine side without comparing them: the comparison on rebuilt states
    (each with a memo of its own) says the same."""
    state = mixed_state()
    aliens = [f for f in state.figures if f.side == "alien"]
    for alien in aliens[:4]:
        dfield = distance_field(state, alien.id)
        target = next(sq for sq, d in dfield.reachable(4).items() if d == 3)
        moved, _ = follow_path(state, alien.id, dfield.path_to(target))
        before = state.replace()
        attack_indices(before, "p0")
        carry_memo(before, moved)
        assert moved.memo.marine_side() is before.memo.marine_side()
        assert readiness._diff(before, moved) == readiness._diff(rebuilt(before), rebuilt(moved))


@pytest.mark.parametrize("map_name", MAPS)
def test_sight_of_a_one_square_target_matches_the_general_scan(map_name):
    """A 1x1 alien's nearest stop seeing a one-square target, scanned one line per stop,
    is the general scan's answer (over the same stops), read off the same lines."""
    state = crowded_state(map_name, 5)
    aliens = [f for f in state.figures if f.side == "alien" and not f.is_dreadnought]
    targets = [t for t in targets_of(state, "p1") if len(t.squares) == 1]
    found = 0
    for alien in aliens[:10]:
        quick, plain = (assess(state, alien, RULES, 8) for _ in range(2))
        for reach in (quick, plain):
            reach.reads, reach.door_reads = set(), set()
        for target in targets:
            open_from = quick._open_lines_from(state, target)
            if not open_from:
                continue
            scan = plain.stops_in(plain._open_lines_from(state, target), state.board.width)
            answer = quick._nearest_sight_of_square(state, target, open_from)
            assert answer == plain._nearest_sight(state, target, scan)
            found += answer is not None
        assert (quick.reads, quick.door_reads) == (plain.reads, plain.door_reads)
    assert found >= 5


# --- Attacks (choosing and carrying out): second round --------------------------------------


def _plain_focus_plans(ctx, assessment, players):
    """focus_plans as first written: every target's adjacent stop, scores from the odds."""
    from rules.engine.ai.plans import Shot
    from rules.engine.combat import hand_to_hand_dice, kill_value, shot_dice
    from rules.engine.odds import TargetInfo, hand_to_hand_odds, shot_odds

    reach = assessment.reach
    alien = reach.figure
    state, rules = ctx.state, ctx.rules
    mine = hand_to_hand_dice(rules, alien.unit, alien.weapons)
    single = [
        w
        for w in alien.weapons
        if rules.weapon(w).can_shoot and rules.weapon(w).pattern == "single"
    ]
    plans = []

    def plan(kind, weapon, target, anchor, steps, distance, doubtful, odds):
        points, life = odds.expected_points(), odds.expected_life_points()
        pattern = "single" if kind == "shoot" else weapon
        # A marine hit when some outcome takes a life point from the target ("t").
        hurts = (target.id,) if "t" in odds.damaged_keys() else ()
        shot = Shot(weapon, pattern, target.id, None, points, life, hurts=hurts)
        plans.append(
            Plan(
                kind,
                anchor,
                steps,
                weapon,
                target.id,
                None,
                points,
                life,
                len(hurts),
                distance,
                doubtful,
                (shot,),
            )
        )

    for player in players:
        for target in targets_of(state, player):
            value = kill_value(state, target, rules)
            info = TargetInfo("t", target.life_points, value, "marine")
            steps, anchor = reach.adjacent_stop(state, target)
            if mine.count > 0 and anchor is not None and steps <= reach.allowance:
                theirs = hand_to_hand_dice(rules, target.unit, target.weapons)
                me = TargetInfo("a", alien.life_points, 0, "alien")
                if target.unit == "tarantula":  # it rolls nothing: the total against armour 6
                    odds = shot_odds(mine, info, rules.unit(target.unit).armour, "alien")
                else:
                    odds = hand_to_hand_odds(me, mine, info, theirs)
                plan("hand_to_hand", "hand_to_hand", target, anchor, steps, steps, False, odds)
            if not single:
                continue
            stop = reach.shooting_stop(state, target)
            if stop is None:
                continue
            armour = rules.unit(target.unit).armour
            for weapon in single:
                odds = shot_odds(shot_dice(rules, weapon), info, armour, "alien")
                plan("shoot", weapon, target, stop[1], stop[0], steps, stop[2] == "doubtful", odds)
    return plans


@pytest.mark.parametrize("policy", ["bob", "priority", "solitaire"])
def test_focus_plans_equal_the_plain_plans(policy, monkeypatch):
    """Focus plans (alien and target data read once; no adjacent stop sought for a target
    that can neither be shot nor fought) equal the plans of the plain loop, in order,
    through turns of every policy that uses them."""
    from rules.engine.ai import attack_choice, priority_policy, solitaire_policy

    fast = attack_choice.focus_plans
    compared = []

    def checked(ctx, assessment, players):
        plain = _plain_focus_plans(ctx, assessment, players)
        plans = fast(ctx, assessment, players)
        assert plans == plain
        compared.append(len(plans))
        return plans

    for module in (attack_choice, priority_policy, solitaire_policy):
        monkeypatch.setattr(module, "focus_plans", checked)
    clear_caches()
    for seed in range(3):
        state = reference_turn_state()
        for turn in range(4):
            state, _ = resolve_alien_turn(
                state, policy_named(policy), SeededDice(seed=seed * 10 + turn)
            )
    assert len(compared) >= 10 and sum(compared) >= 10, compared


def test_seeded_combat_dice_rolled_together_equal_one_by_one():
    """Seeded white and red dice taken from the byte pool in one loop give the faces, and
    leave the pool, as rolling each die through ``_face`` does, mixed with other dice."""
    from rules.engine.dice import Dice, DieKind

    rng = random.Random(5)
    kinds = [DieKind.WHITE, DieKind.RED, DieKind.D6, DieKind.D3, DieKind.D12]
    for seed in range(20):
        fast, plain = SeededDice(seed=seed), SeededDice(seed=seed)
        for _ in range(60):
            kind, count = rng.choice(kinds), rng.randint(0, 9)
            expected = Dice._faces(plain, kind, count, "", {})
            assert fast.roll(kind, count) == expected
            assert fast._pool == plain._pool and fast._counter == plain._counter


def test_turns_after_the_attack_caches_are_cleared_equal_warm_turns():
    """Clearing the caches of choosing and carrying out attacks (each module's, by
    ``clear_caches``) changes no turn: the same steps and state as with warm caches."""

    def played() -> list:
        state, out = reference_turn_state(), []
        for seed in range(3):
            state, steps = resolve_alien_turn(state, policy_named("bob"), SeededDice(seed=seed))
            out.append(([s.as_dict() for s in steps], state.to_json()))
        return out

    warm = played()
    for module in ("strike.", "plans.", "area.", "combat.", "odds."):
        clear_caches(module)
    assert played() == warm


# -- Round two, state and movement (engineer A) ---------------------------------------------


def test_occupancy_tables_carried_past_a_removed_figure_equal_fresh_ones():
    """A state without one figure (a kill) gets the alien occupancy tables and the
    occupant table patched from the old state's: the same as built from scratch, for
    every kind of figure removed, one after another."""
    state = mixed_state()
    alien = next(f for f in state.figures if f.side == "alien")
    for figure in state.figures:
        stop_table(state, alien.id)
        assert state.occupant
        new = state.without_figure(figure.id)
        assert new.memo.alien_occupancy is not None and "occupant" in new.__dict__
        plain = rebuilt(new)
        assert new.occupant == plain.occupant
        assert new.memo.alien_occupancy == movement._occupancy_tables(plain, alien, frozenset())
        if figure.id != alien.id:
            state = new


def test_no_occupancy_table_is_carried_past_a_removed_figure_on_a_blip():
    """Tables are carried past a removal only when no blip lies under the figure."""
    state = mixed_state()
    alien = next(f for f in state.figures if f.side == "alien")
    marine = next(f for f in state.figures if f.side == "marine")
    from rules.engine.state import Blip

    stop_table(state, alien.id)
    assert state.occupant
    odd = state.replace(blips=(Blip("b-odd", marine.squares[0], "ork"),))
    stop_table(odd, alien.id)
    assert odd.occupant
    new = odd.without_figure(marine.id)
    assert new.memo.alien_occupancy is None and "occupant" not in new.__dict__


# --- Engineer B, round three: reach tables ---------------------------------------------


@settings(max_examples=200, deadline=None)
@given(
    st.integers(min_value=0, max_value=(1 << 300) - 1),
    st.integers(min_value=300, max_value=320),
)
def test_bit_flags_match_the_plain_bytes(mask: int, size: int) -> None:
    """The flags read off the mask's binary numeral are the plain per-bit bytes."""
    from rules.engine.ai import reach

    plain = bytes((mask >> i) & 1 for i in range(size))
    assert reach._bit_flags(mask, size) == plain


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), allowance=st.integers(0, 8))
def test_kept_stops_match_a_plain_scan_of_the_field(seed, allowance):
    """Stops kept per field and occupancy (asked again after figures left, and twice on a
    state) are those a scan of the distances and the free table lists."""
    from rules.engine.ai.reach import free_table

    rng = random.Random(seed)
    state = mixed_state()
    aliens = [f for f in state.figures if f.side == "alien"]
    w = state.board.width
    for _ in range(3):
        for alien in aliens:
            for reach in [assess(state, alien, RULES, allowance) for _ in range(2)]:
                free = free_table(state, alien)
                plain = [(0, reach.distances.start)] + sorted(
                    (
                        (d, (i % w, i // w))
                        for i, d in enumerate(reach.distances.dist)
                        if 0 < d <= allowance and free[i]
                    ),
                    key=lambda item: (item[0], item[1][1], item[1][0]),
                )
                assert reach.stops == plain
                assert reach.stops_mask(w) == sum({1 << (x + y * w) for _, (x, y) in plain})
        others = [f for f in state.figures if f.side != "alien"]
        if others:
            state = state.without_figure(rng.choice(others).id)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), allowance=st.integers(0, 8), density=st.floats(0.0, 1.0))
def test_kept_stops_in_a_mask_match_a_plain_pick(seed, allowance, density):
    """Stops in a mask kept with the stops (asked again of a second assessment of the same
    state, which shares them) are the stops of the mask, in their order."""
    rng = random.Random(seed)
    state = mixed_state()
    alien = rng.choice([f for f in state.figures if f.side == "alien"])
    first, second = (assess(state, alien, RULES, allowance) for _ in range(2))
    assert first._stops_by_mask is second._stops_by_mask is not None
    w = state.board.width
    mask, expected = random_stop_mask(rng, first.stops, w, density)
    assert first.stops_in(mask, w) == expected
    assert second.stops_in(mask, w) == expected
    assert second.on_state(state).stops_in(mask, w) == expected


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10**6), allowance=st.integers(0, 8))
def test_kept_open_lines_match_the_layout_lines(seed, allowance):
    """Open lines kept by target squares with the kept stops (asked of a first and a second
    assessment, after figures left) are the stops with an unblocked layout line to one of
    the target's squares."""
    from rules.engine.los import layout_line_to, layout_lines_to

    rng = random.Random(seed)
    state = mixed_state()
    alien = rng.choice([f for f in state.figures if f.side == "alien" and not f.is_dreadnought])
    w = state.board.width
    for _ in range(2):
        marines = [f for f in state.figures if f.side == "marine"]
        for target in marines:
            plain = 0
            reach = assess(state, alien, RULES, allowance)
            for _, a in reach.stops:
                for b in target.squares:
                    if not layout_line_to(state, layout_lines_to(state, b), a, b).blocked:
                        plain |= 1 << (a[0] + a[1] * w)
            assert reach._open_lines_from(state, target) == plain
            assert assess(state, alien, RULES, allowance)._open_lines_from(state, target) == plain
        state = state.without_figure(rng.choice(marines).id)


# --- Attacks (choosing and carrying out): third round ---------------------------------------


@pytest.mark.parametrize("map_name", MAPS)
def test_blast_squares_shared_by_equal_door_tables_match_the_doors(map_name):
    """A new door table with the door states of an older one reuses its blast squares,
    and they still are the squares its doors let a blast reach."""
    from rules.engine.combat import _BLAST_SQUARES, _step_open, blast_squares
    from rules.engine.geometry import neighbours8
    from rules.engine.los import door_blockers

    rng = random.Random(map_name + "-3")
    state = crowded_state(map_name, 3)
    board = state.board
    squares = [sq for sq in board.squares() if not board.is_solid(sq)]
    doors = list(state.doors)
    for _ in range(8):
        door = rng.choice(doors)
        shut = state.doors[door] is not DoorState.CLOSED
        toggled = state.with_door(*door, DoorState.CLOSED if shut else DoorState.OPEN)
        back = toggled.with_door(*door, state.doors[door])
        assert back.doors is not state.doors and back.doors == state.doors
        for each in (state, toggled, back):
            for centre in rng.sample(squares, 30):
                expected = [
                    n
                    for n in neighbours8(centre)
                    if board.in_bounds(n) and _step_open(each, centre, n)
                ]
                assert blast_squares(each, centre) == expected
        kept = {id(_BLAST_SQUARES[board, door_blockers(each)]) for each in (state, back)}
        assert len(kept) == 1
        if door_blockers(toggled) != door_blockers(state):
            assert (
                _BLAST_SQUARES[board, door_blockers(toggled)]
                is not (_BLAST_SQUARES[board, door_blockers(state)])
            )
        state = toggled


# -- Round three, state and movement (engineer A) -------------------------------------------


def test_move_steps_list_the_path_they_reuse_from_the_moved_event():
    """A move step's path is the moved event's list of squares after the start (shared, not
    listed again): it must still run from the step's start to its end, one entry a step."""
    state = mixed_state()
    moves = 0
    for seed in range(1, 6):
        _, steps = resolve_alien_turn(state, policy_named("bob"), SeededDice(seed=seed))
        for step in steps:
            if step.code != "move":
                continue
            moves += 1
            path = step.params["path"]
            assert path[0] == step.params["from"] and path[-1] == step.params["to"]
            assert len(path) == step.params["steps"] + 1
            assert all(type(sq) is list and len(sq) == 2 for sq in path)
    assert moves
