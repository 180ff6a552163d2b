"""RULES §5 initiative, the roll-off helpers and §6/§8 session ranking."""

import pytest

from rules.engine.dice import ScriptedDice
from tournaments.domain.initiative import roll_initiative, roll_off, roll_off_order, roll_off_select
from tournaments.domain.ranking import (
    RankingError,
    SeatResult,
    StipulationKind,
    first_tie,
    rank_session,
)


def test_initiative_higher_roll_plays_first():
    result = roll_initiative(["a", "b", "c"], ScriptedDice(values=[2, 6, 4]))
    assert result.order == ("b", "c", "a")
    assert [(r.player, r.value) for r in result.rolls] == [("a", 2), ("b", 6), ("c", 4)]


def test_initiative_ties_re_roll_among_the_tied_only_keeping_order():
    # a and c tie on 5 (above b): they re-roll 3, 3, then 1, 6.
    dice = ScriptedDice(values=[5, 2, 5, 3, 3, 1, 6])
    result = roll_initiative(["a", "b", "c"], dice)
    assert result.order == ("c", "a", "b")
    assert [(r.purpose, r.player) for r in result.rolls] == [
        ("initiative", "a"),
        ("initiative", "b"),
        ("initiative", "c"),
        ("initiative (re-roll 1)", "a"),
        ("initiative (re-roll 1)", "c"),
        ("initiative (re-roll 2)", "a"),
        ("initiative (re-roll 2)", "c"),
    ]
    assert dice.remaining == 0


def test_initiative_all_tied_then_lower_tie_resolved_after_higher():
    # Round 1 all 4; re-roll: a 6, b 2, c 2 -> a first; b and c re-roll: 1, 5.
    dice = ScriptedDice(values=[4, 4, 4, 6, 2, 2, 1, 5])
    assert roll_initiative(["a", "b", "c"], dice).order == ("a", "c", "b")


def test_initiative_rejects_empty_or_repeated_players():
    with pytest.raises(ValueError, match="at least one"):
        roll_initiative([], ScriptedDice(values=[]))
    with pytest.raises(ValueError, match="same player twice"):
        roll_initiative(["a", "a"], ScriptedDice(values=[1, 2]))


def test_roll_off_ignores_ties_below_the_highest():
    dice = ScriptedDice(values=[2, 2, 5])
    assert roll_off(["a", "b", "c"], dice, "x") == "c"
    assert dice.remaining == 0


def test_roll_off_select_rolls_only_the_tie_across_the_cut():
    # Pick 2 of 4: a 6, b 3, c 3, d 1 -> a in; b/c tie for 1 place: 2 vs 4 -> c.
    dice = ScriptedDice(values=[6, 3, 3, 1, 2, 4])
    assert roll_off_select(["a", "b", "c", "d"], 2, dice, "x") == ("a", "c")
    assert roll_off_order(["x"], ScriptedDice(values=[]), "y") == ("x",)


def results(*items):
    return [SeatResult(seat, points, survived) for seat, points, survived in items]


def test_alien_hunt_and_catch_the_flag_rank_by_points():
    for kind in (StipulationKind.ALIEN_HUNT, StipulationKind.CATCH_THE_FLAG):
        ranking = rank_session(kind, results(("a", 10, True), ("b", 45, False), ("c", -5, True)))
        assert [(s.seat, s.position) for s in ranking.order] == [("b", 1), ("a", 2), ("c", 3)]


def test_tpk_last_squad_standing_wins_and_second_is_most_points_among_eliminated():
    ranking = rank_session(
        StipulationKind.TPK, results(("a", 60, False), ("b", 5, True), ("c", 30, False))
    )
    assert [s.seat for s in ranking.order] == ["b", "a", "c"]
    assert ranking.winner == "b"


def test_tpk_several_survivors_most_points_among_survivors_wins():
    ranking = rank_session(
        "extended_tpk", results(("a", 90, False), ("b", 10, True), ("c", 20, True))
    )
    assert [s.seat for s in ranking.order] == ["c", "b", "a"]


def test_tpk_with_nobody_left_ranks_by_points():
    ranking = rank_session("tpk", results(("a", 1, False), ("b", 2, False)))
    assert [s.seat for s in ranking.order] == ["b", "a"]


def test_ties_that_matter_are_settled_by_a_recorded_roll_off():
    dice = ScriptedDice(values=[2, 5])
    ranking = rank_session(
        "alien_hunt", results(("a", 20, True), ("b", 20, True), ("c", 0, True)), dice
    )
    assert [(s.seat, s.position, s.by_roll_off) for s in ranking.order] == [
        ("b", 1, True),
        ("a", 2, True),
        ("c", 3, False),
    ]
    assert [(r.purpose, r.player, r.value) for r in ranking.rolls] == [
        ("session ranking: tie for position 1", "a", 2),
        ("session ranking: tie for position 1", "b", 5),
    ]


def test_ties_that_do_not_matter_keep_a_shared_position_without_dice():
    ranking = rank_session(
        "alien_hunt",
        results(("a", 30, True), ("b", 10, True), ("c", 10, True)),
        dice=None,
        settle={1},
    )
    assert [(s.seat, s.position, s.tied) for s in ranking.order] == [
        ("a", 1, False),
        ("b", 2, True),
        ("c", 2, True),
    ]
    assert ranking.seat_at(2) is None and ranking.seat_at(1).seat == "a"


def test_a_tie_that_matters_without_dice_is_an_error():
    with pytest.raises(RankingError, match="roll-off is needed"):
        rank_session("alien_hunt", results(("a", 1, True), ("b", 1, True)))


def test_bad_ranking_input():
    with pytest.raises(RankingError, match="unknown stipulation"):
        rank_session("deathmatch", results(("a", 1, True)))
    with pytest.raises(RankingError, match="twice"):
        rank_session("tpk", results(("a", 1, True), ("a", 2, True)))
    with pytest.raises(RankingError, match="no results"):
        rank_session("tpk", [])


def test_results_serialise_to_json_ready_dicts():
    initiative = roll_initiative(["a", "b"], ScriptedDice(values=[1, 2]))
    assert initiative.as_dict() == {
        "order": ["b", "a"],
        "rolls": [
            {"purpose": "initiative", "player": "a", "value": 1},
            {"purpose": "initiative", "player": "b", "value": 2},
        ],
    }
    ranking = rank_session("tpk", results(("a", 5, False), ("b", 0, True)))
    assert ranking.as_dict()["order"][0] == {
        "seat": "b",
        "position": 1,
        "points": 0,
        "survived": True,
        "tied": False,
        "by_roll_off": False,
    }
    assert ranking.position_of("a") == 2


def test_first_tie_is_the_highest_tied_group_in_seat_order():
    # Under TPK the survivor's ranking comes first: c survives alone, b and a tie below.
    tpk = results(("a", 10, False), ("b", 10, False), ("c", 3, True))
    assert first_tie(StipulationKind.TPK, tpk) == ["a", "b"]
    hunt = results(("a", 4, False), ("b", 9, False), ("c", 4, False), ("d", 9, False))
    assert first_tie(StipulationKind.ALIEN_HUNT, hunt) == ["b", "d"]
    assert first_tie(StipulationKind.ALIEN_HUNT, results(("a", 1, False), ("b", 2, False))) == []
