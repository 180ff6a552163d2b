"""Results the game cannot produce are found, each at the entry that holds the value."""

from __future__ import annotations

import pytest

from rules.engine.maps import load_map
from tournaments.domain.plausibility import (
    AlienPool,
    SessionLimits,
    aliens_in_play,
    check_result,
    map_markers,
    session_limits,
    squad_figures,
)
from tournaments.domain.scoring import (
    AlienTokens,
    DreadnoughtKill,
    LossCause,
    MarineClass,
    MarineKill,
    MarineLoss,
    SeatBreakdown,
)

A, B, C = "1", "2", "3"
NAMES = {A: "Anna", B: "Bruno", C: "Carla"}
FIVE = SessionLimits()


def seats(**entries: dict) -> list[SeatBreakdown]:
    """Breakdowns of seats A, B and C; ``entries`` by seat name (a, b, c)."""
    return [
        SeatBreakdown(seat=seat, **entries.get(key, {}))
        for seat, key in ((A, "a"), (B, "b"), (C, "c"))
    ]


def kill(victim: str, count: int, marine_class=MarineClass.LIGHT) -> MarineKill:
    return MarineKill(victim, marine_class, count)


def loss(count: int, cause=LossCause.ALIEN, marine_class=MarineClass.LIGHT, killer=None):
    return MarineLoss(marine_class, cause, killer, count)


def where(problems) -> list[tuple[str, str, str, int | None, str | None]]:
    return [(p.code, p.seat, p.entry, p.index, p.part) for p in problems]


def test_a_plausible_result_has_no_problem():
    breakdowns = seats(
        a={"kills": (kill(B, 2), kill(B, 1, MarineClass.COMMANDER), kill(C, 2))},
        b={"losses": (loss(2, LossCause.OWN_FIRE),)},
        c={"alien_tokens": (AlienTokens("ork", 2, 1),)},
    )
    assert check_result(breakdowns, [A, C], FIVE, NAMES) == []


def test_one_seat_cannot_kill_more_figures_than_a_squad_has():
    breakdowns = seats(a={"kills": (kill(B, 50),)})
    problems = check_result(breakdowns, [], FIVE, NAMES)
    assert where(problems) == [("kills_over_figures", A, "kills", 0, "count")]
    assert "Anna is recorded killing 50 figures of Bruno" in problems[0].message
    assert "only 5" in problems[0].message


def test_kills_split_over_classes_and_dreadnought_pilots_add_up():
    breakdowns = seats(
        a={
            "kills": (kill(B, 3), kill(B, 2, MarineClass.HEAVY)),
            "dreadnoughts": (DreadnoughtKill(B, 25, MarineClass.HEAVY),),
        }
    )
    problems = check_result(breakdowns, [], FIVE, NAMES)
    assert where(problems) == [
        ("kills_over_figures", A, "kills", 0, "count"),
        ("kills_over_figures", A, "kills", 1, "count"),
        ("kills_over_figures", A, "dreadnoughts", 0, "count"),
    ]


def test_extended_tpk_squads_have_seven_figures():
    breakdowns = seats(a={"kills": (kill(B, 7),)})
    assert check_result(breakdowns, [], SessionLimits(figures=7), NAMES) == []
    assert check_result(seats(a={"kills": (kill(B, 8),)}), [], SessionLimits(figures=7), NAMES)
    assert squad_figures("extended_tpk") == 7
    assert squad_figures("tpk") == squad_figures("alien_hunt") == 5


def test_every_death_of_a_squad_counts_towards_its_figures():
    breakdowns = seats(
        a={"kills": (kill(C, 3),)},
        b={"kills": (kill(C, 2),)},
        c={"losses": (loss(1),)},
    )
    problems = check_result(breakdowns, [], FIVE, NAMES)
    assert where(problems) == [
        ("deaths_over_figures", A, "kills", 0, "count"),
        ("deaths_over_figures", B, "kills", 0, "count"),
        ("deaths_over_figures", C, "losses", 0, "count"),
    ]
    assert "6 figures of Carla are recorded dead in all (Anna 3, Bruno 2" in problems[0].message


def test_both_records_of_one_kill_count_once():
    """The API records a kill on both sides: the killer's kill and the victim's loss."""
    breakdowns = seats(
        a={"kills": (kill(B, 4),)},
        b={"losses": (loss(4, LossCause.PLAYER, killer=A), loss(1))},
    )
    assert check_result(breakdowns, [], FIVE, NAMES) == []


def test_a_squad_has_one_commander():
    breakdowns = seats(a={"kills": (kill(B, 2, MarineClass.COMMANDER),)})
    assert [p.code for p in check_result(breakdowns, [], FIVE, NAMES)] == ["commander_twice"]
    breakdowns = seats(
        a={"kills": (kill(B, 1, MarineClass.COMMANDER),)},
        b={"losses": (loss(1, marine_class=MarineClass.COMMANDER),)},
    )
    problems = check_result(breakdowns, [], FIVE, NAMES)
    assert {p.code for p in problems} == {"commander_dead_twice"}
    assert len(problems) == 2


def test_a_squad_all_dead_has_no_marine_in_play():
    breakdowns = seats(a={"kills": (kill(B, 3),)}, c={"kills": (kill(B, 2),)})
    problems = check_result(breakdowns, [A, B], FIVE, NAMES)
    assert where(problems) == [("survivor_all_dead", B, "survived", None, None)]
    assert "untick it" in problems[0].message
    assert check_result(breakdowns, [A], FIVE, NAMES) == []


def test_no_tokens_without_aliens():
    pool = SessionLimits(aliens=AlienPool(in_play=False))
    breakdowns = seats(b={"alien_tokens": (AlienTokens("ork", 2, 1), AlienTokens("ork", 2, 1))})
    problems = check_result(breakdowns, [], pool, NAMES)
    assert where(problems) == [
        ("tokens_without_aliens", B, "alien_tokens", 0, "count"),
        ("tokens_without_aliens", B, "alien_tokens", 1, "count"),
    ]
    assert "played without aliens" in problems[0].message


def test_tokens_are_bounded_by_the_markers_of_the_map():
    pool = SessionLimits(aliens=AlienPool(markers={"ork": 2}, map_name="derelict"))
    breakdowns = seats(
        a={"alien_tokens": (AlienTokens("ork", 2, 2),)},
        b={"alien_tokens": (AlienTokens("ork", 2, 1), AlienTokens("android", 5, 1))},
    )
    problems = check_result(breakdowns, [], pool, NAMES)
    assert where(problems) == [
        ("tokens_over_markers", B, "alien_tokens", 1, "count"),
        ("tokens_over_markers", A, "alien_tokens", 0, "count"),
        ("tokens_over_markers", B, "alien_tokens", 0, "count"),
    ]
    assert "3 Ork tokens are recorded in all (Anna 2, Bruno 1)" in problems[1].message
    assert "the map derelict has only 0 Android markers" in problems[0].message


def test_token_values_come_from_the_rules_data():
    pool = SessionLimits(
        aliens=AlienPool(values={"ork": frozenset({2}), "dreadnought": frozenset({25, 30})})
    )
    breakdowns = seats(
        a={
            "alien_tokens": (
                AlienTokens("ork", 5, 1),
                AlienTokens("dreadnought", 30, 1),
                AlienTokens("dreadnought", 27, 1),
                AlienTokens("ork_boss", 8, 1),
                AlienTokens("genestealer", 0, 1),
            )
        }
    )
    problems = check_result(breakdowns, [], pool, NAMES)
    assert where(problems) == [
        ("token_value", A, "alien_tokens", 0, "value"),
        ("token_value", A, "alien_tokens", 2, "value"),
        ("unknown_alien", A, "alien_tokens", 3, "alien_type"),
    ]
    assert "Ork tokens are worth 2 points each in this tournament, not 5" in problems[0].message
    assert "25 or 30" in problems[1].message


def test_session_limits_read_the_stipulation_the_map_and_the_rules_data():
    assert not aliens_in_play("tpk", {"aliens": False})
    assert aliens_in_play("catch_the_flag", {"aliens": True})
    assert aliens_in_play("alien_hunt", {})
    board = load_map("hunt-derelict")
    limits = session_limits("alien_hunt", {}, "hunt-derelict", {"alien_tokens": {"ork": 3}}, board)
    assert limits.figures == 5
    assert limits.aliens.markers == map_markers(board)
    assert limits.aliens.markers["ork"] == 5
    assert limits.aliens.values["ork"] == frozenset({3})
    assert limits.aliens.values["dreadnought"] == frozenset({25, 30, 35, 40})
    assert "genestealer" not in limits.aliens.values
    assert limits.aliens.default_value("ork") == 3
    assert limits.aliens.default_value("dreadnought") is None
    unknown = session_limits("tpk", {"aliens": True}, "Mappa del circolo", None)
    assert unknown.aliens.markers is None
    broken = session_limits("alien_hunt", {}, "", {"units": {"nobody": 1}})
    assert broken.aliens.values is None
    assert session_limits("tpk", {}, "hunt-derelict", None, board).aliens.in_play is False


@pytest.mark.parametrize("count", [0, -1])
def test_counts_below_one_are_left_to_scoring(count):
    breakdowns = seats(
        a={"kills": (kill(B, count),), "alien_tokens": (AlienTokens("x", 1, count),)}
    )
    assert check_result(breakdowns, [], SessionLimits(aliens=AlienPool(in_play=False)), NAMES) == []
