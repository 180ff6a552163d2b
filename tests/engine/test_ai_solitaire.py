"""Solitaire policy: every d6 branch, fixed behaviours, shoot-then-hide, blips, phases."""

import pytest

from rules.engine.ai.solitaire_policy import SolitairePolicy, survey
from rules.engine.ai.turn import resolve_alien_turn
from rules.engine.board import Section, SectionKind
from rules.engine.dice import ScriptedDice, SeededDice
from rules.engine.state import Blip
from tests.engine.ai_support import alien, make_board, make_state, marine, steps_of


class RecordingDice(SeededDice):
    """Seeded dice that force the Solitaire behaviour roll."""

    def __init__(self, behaviour, seed=1):
        super().__init__(seed=seed)
        self.behaviour = behaviour

    def _face(self, kind, purpose, params):
        if purpose == "solitaire_behaviour":
            return self.behaviour
        return super()._face(kind, purpose, params)


def duel_state(unit, weapons=None):
    # Marine 3 squares away in a corridor: the alien can both shoot and reach it.
    board = make_board(8, 1)
    return make_state(
        board,
        [alien("x1", unit, (0, 0), weapons=weapons), marine("a1", "p1", (4, 0), life_points=2)],
        players=("p1",),
    )


def behaviour(steps):
    rolled = steps_of(steps, "behaviour_roll") + steps_of(steps, "behaviour_fixed")
    return rolled[0]["mode"]


def attack_kind(steps):
    return steps_of(steps, "attack_chosen")[0]["weapon"]


@pytest.mark.parametrize("unit", ["gretchin", "ork"])
@pytest.mark.parametrize(
    ("roll", "mode"),
    [(1, "close"), (2, "close"), (3, "close"), (4, "close"), (5, "shoot"), (6, "shoot")],
)
def test_gretchin_and_ork_branches(unit, roll, mode):
    _, steps = resolve_alien_turn(duel_state(unit), SolitairePolicy(), RecordingDice(roll))
    assert behaviour(steps) == mode
    assert (attack_kind(steps) == "hand_to_hand") == (mode == "close")


@pytest.mark.parametrize("unit", ["chaos_marine", "android"])
@pytest.mark.parametrize(
    ("roll", "mode"),
    [(1, "close"), (2, "close"), (3, "close"), (4, "shoot"), (5, "shoot"), (6, "shoot")],
)
def test_light_chaos_marine_and_android_branches(unit, roll, mode):
    _, steps = resolve_alien_turn(duel_state(unit), SolitairePolicy(), RecordingDice(roll))
    assert behaviour(steps) == mode
    assert (attack_kind(steps) == "hand_to_hand") == (mode == "close")


def test_genestealer_always_closes():
    _, steps = resolve_alien_turn(duel_state("genestealer"), SolitairePolicy(), SeededDice(seed=1))
    assert behaviour(steps) == "close" and attack_kind(steps) == "hand_to_hand"
    assert not steps_of(steps, "behaviour_roll")


@pytest.mark.parametrize("unit", ["chaos_commander", "chaos_marine_heavy"])
def test_heavy_and_commander_always_shoot(unit):
    board = make_board(10, 3)
    state = make_state(
        board, [alien("x1", unit, (0, 1)), marine("a1", "p1", (9, 1))], players=("p1",)
    )
    _, steps = resolve_alien_turn(state, SolitairePolicy(), SeededDice(seed=1))
    assert behaviour(steps) == "shoot" and attack_kind(steps) != "hand_to_hand"


@pytest.mark.parametrize(("life", "mode"), [(3, "shoot"), (2, "shoot"), (1, "close")])
def test_dreadnought_by_life_points(life, mode):
    board = make_board(10, 4)
    state = make_state(
        board,
        [alien("d1", "dreadnought", (0, 1), life_points=life), marine("a1", "p1", (5, 1))],
        players=("p1",),
    )
    _, steps = resolve_alien_turn(state, SolitairePolicy(), SeededDice(seed=1))
    assert behaviour(steps) == mode


def test_shoot_without_moving_then_hide():
    # The Chaos Commander sees the marine from where it stands; a side room hides it.
    board = make_board(10, 3, walls=[((x, 0), (x, 1)) for x in range(1, 10)])
    state = make_state(
        board,
        [
            alien("x1", "chaos_commander", (0, 1)),
            marine("a1", "p1", (9, 1), unit="commander", weapons=("bolter",)),
        ],
        players=("p1",),
    )
    new_state, steps = resolve_alien_turn(state, SolitairePolicy(), SeededDice(seed=1))
    chosen = steps_of(steps, "attack_chosen")[0]
    assert chosen["square"] == [0, 1]
    hide = steps_of(steps, "hide_move")[0]
    assert hide["square"] in ([0, 0], [1, 0])
    assert new_state.figure("x1").square == tuple(hide["square"])


def test_blip_moves_towards_the_nearest_marine_and_acts_when_seen():
    walls = [((4, 0), (5, 0)), ((4, 1), (5, 1))]
    board = make_board(12, 3, walls=walls)
    state = make_state(board, [marine("a1", "p1", (11, 2))], players=("p1",))
    state = state.replace(blips=(Blip("b1", (0, 0), "genestealer"),))
    new_state, steps = resolve_alien_turn(state, SolitairePolicy(), SeededDice(seed=1))
    moves = steps_of(steps, "blip_moves")
    assert moves and len(moves[0]["path"]) - 1 <= 5
    if steps_of(steps, "blip_revealed"):
        assert steps_of(steps, "activation")
        assert not new_state.blips


def test_reinforcement_phase_roll_fails():
    board = make_board(10, 3, reinforcement=[(0, 0)])
    state = make_state(
        board, [alien("g1", "genestealer", (9, 2)), marine("a1", "p1", (9, 0))], players=("p1",)
    )
    state = state.replace(reinforcements=("ork",))
    # Genestealer fight: 4 dice (2 white, 2 red) vs 2 white, then the reinforcement d6 = 3.
    dice = ScriptedDice(values=[0, 0, 0, 0, 0, 0, 3])
    new_state, steps = resolve_alien_turn(state, SolitairePolicy(), dice)
    assert steps_of(steps, "reinforcement_roll")[0]["roll"] == 3
    assert new_state.reinforcements == ("ork",)


def test_reinforcement_phase_empty_board_draws_six():
    walls = [((x, 0), (x, 1)) for x in range(10)]
    board = make_board(10, 3, reinforcement=[(0, 0), (5, 0)], walls=walls)
    state = make_state(board, [marine("a1", "p1", (9, 2))], players=("p1",))
    state = state.replace(reinforcements=("ork", "gretchin"))
    new_state, steps = resolve_alien_turn(state, SolitairePolicy(), SeededDice(seed=3))
    assert steps_of(steps, "reinforcement_count")[0]["count"] == 6
    assert not steps_of(steps, "reinforcement_roll")
    assert not new_state.reinforcements


def test_reinforcement_phase_success():
    walls = [((x, 0), (x, 1)) for x in range(10)]
    board = make_board(10, 3, reinforcement=[(0, 0), (5, 0)], walls=walls)
    state = make_state(board, [marine("a1", "p1", (9, 2))], players=("p1",))
    state = state.replace(reinforcements=("ork", "gretchin"), blips=(Blip("b1", (3, 0), "ork"),))
    dice = ScriptedDice(values=[5, 2] + [1] * 40)
    _, steps = resolve_alien_turn(state, SolitairePolicy(), dice)
    assert steps_of(steps, "reinforcement_roll")[0]["roll"] == 5
    assert steps_of(steps, "reinforcement_count")[0]["count"] == 2


def survey_board():
    sections = [
        Section("A", SectionKind.BOARD, "a", ((0, 0, 11, 11),)),
        Section("B", SectionKind.BOARD, "b", ((12, 0, 23, 11),)),
    ]
    walls = [((11, y), (12, y)) for y in range(12)]
    return make_board(24, 12, walls=walls, sections=sections)


def test_survey_counts_and_placement_rerolls():
    board = survey_board()
    state = make_state(
        board, [marine("a1", "p1", (0, 0))], players=("p1",), switches={"blip_pile": ["ork"] * 12}
    )
    state = state.replace(surveyed_sections=())
    # First section: d3 = 1 -> 6 blips... the survey of section B (out of the marine's sight).
    state, steps = survey(state, "B", SeededDice(seed=4))
    count = steps_of(steps, "survey")[0]["count"]
    assert 6 <= count <= 8
    assert len(state.blips) == count
    assert all(12 <= b.square[0] <= 23 for b in state.blips)
    assert len(state.progress.blip_pile) == 12 - count


def test_survey_rerolls_squares_in_sight():
    sections = [
        Section("A", SectionKind.BOARD, "a", ((0, 0, 11, 11),)),
        Section("B", SectionKind.BOARD, "b", ((12, 0, 23, 11),)),
    ]
    board = make_board(24, 12, walls=[((11, y), (12, y)) for y in range(1, 12)], sections=sections)
    state = make_state(
        board, [marine("a1", "p1", (13, 0))], players=("p1",), switches={"blip_pile": ["ork"]}
    )
    state = state.replace(surveyed_sections=("B",))
    # Last section: all remaining (1). First try (2,0) is in the marine's sight: re-roll.
    state, steps = survey(state, "A", ScriptedDice(values=[3, 1, 12, 12]))
    assert steps_of(steps, "blip_placement_reroll")[0]["reason"] == "in_sight"
    assert [b.square for b in state.blips] == [(11, 11)]


def test_mission_holds_types_back_until_the_last_section():
    board = survey_board()
    state = make_state(
        board,
        [marine("a1", "p1", (0, 0))],
        players=("p1",),
        switches={"blip_pile": ["dreadnought", "android", "ork"], "solitaire_mission": 1},
    )
    state = state.replace(surveyed_sections=())
    state, _ = survey(state, "B", SeededDice(seed=2))
    assert [b.type for b in state.blips] == ["ork"]
    assert sorted(state.progress.blip_pile) == ["android", "dreadnought"]


def test_an_alien_that_fought_without_moving_does_not_hide():
    """Seed 000 hides an alien only after it fired without moving (docs/decisions.md)."""
    board = make_board(10, 3, walls=[((x, 0), (x, 1)) for x in range(2, 10)])
    state = make_state(
        board,
        [alien("x1", "ork", (0, 1)), marine("a1", "p1", (1, 1), life_points=6)],
        players=("p1",),
    )
    survived = 0
    for seed in range(12):
        after, steps = resolve_alien_turn(state, SolitairePolicy(), RecordingDice(1, seed))
        assert attack_kind(steps) == "hand_to_hand"
        if after.has_figure("x1"):  # it lived through the fight: it stays where it fought
            survived += 1
            assert not steps_of(steps, "hide_move")
            assert after.figure("x1").square == (0, 1)
    assert survived


def test_a_blip_revealed_under_psychic_attack_ends_its_turn_at_once():
    """Seed 000: under Psychic Attack a revealed Ork may not move, and its turn ends."""
    board = make_board(12, 1)
    state = make_state(
        board,
        [marine("a1", "p1", (6, 0))],
        players=("p1",),
        switches={"event_deck": True, "event_cards": ["psychic_attack"]},
    )
    state = state.replace(blips=(Blip("b1", (0, 0), "ork"),))
    new_state, steps = resolve_alien_turn(state, SolitairePolicy(), SeededDice(seed=1))
    revealed = [f for f in new_state.figures if f.side == "alien"]
    assert revealed and steps_of(steps, "skipped_by_event")
    assert not steps_of(steps, "attack_chosen") and new_state.figure("a1").life_points == 2
