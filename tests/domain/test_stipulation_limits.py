"""A result is checked against the stipulation it was played with (RULES §6, §7, §10):
the stall breaker, the flags, the vehicles special equipment hides, forfeits and the last
squad standing; and the alien tokens against the markers and the reinforcements."""

from __future__ import annotations

from django.utils import translation

from rules.engine.maps import load_map
from tournaments.domain.plausibility import (
    AlienPool,
    SessionLimits,
    check_result,
    equipment_markers,
    session_limits,
)
from tournaments.domain.scoring import (
    AlienTokens,
    DreadnoughtKill,
    LossCause,
    MarineClass,
    MarineKill,
    MarineLoss,
    ObjectivePoints,
    SeatBreakdown,
    StallBreakerRound,
    TarantulaKill,
)
from tournaments.domain.stipulation_limits import StallBreaker, stipulation_scoring

A, B, C = "1", "2", "3"
NAMES = {A: "Anna", B: "Bruno", C: "Carla"}
STALL = {"from_round": 5, "points": 10, "growth": 5, "max_extra_rounds": 3}


def seats(**entries: dict) -> list[SeatBreakdown]:
    return [
        SeatBreakdown(seat=seat, **entries.get(key, {}))
        for seat, key in ((A, "a"), (B, "b"), (C, "c"))
    ]


def limits(kind: str, params: dict | None = None, **more) -> SessionLimits:
    return session_limits(kind, params or {}, "", None, **more)


def where(problems) -> list[tuple[str, str, str, int | None, str | None]]:
    return [(p.code, p.seat, p.entry, p.index, p.part) for p in problems]


# -- the stall breaker --------------------------------------------------------------------


def test_no_stall_breaker_points_where_the_stipulation_has_none():
    breakdowns = seats(a={"stall_breaker": (StallBreakerRound(3, 50),)})
    for kind, params in (("alien_hunt", {}), ("catch_the_flag", {"flag_value": 30}), ("tpk", {})):
        problems = check_result(breakdowns, [], limits(kind, params), NAMES)
        assert where(problems) == [("stall_without_rule", A, "stall_breaker", 0, "points")]
    assert "50 stall-breaker points are recorded for round 3, but this session's" in (
        problems[0].message
    )


def test_stall_breaker_points_are_plus_or_minus_b_of_their_round_once_a_round():
    rule = limits("tpk", {"stall_breaker": STALL})
    assert rule.scoring is not None
    assert rule.scoring.stall_breaker == StallBreaker(5, 10, 5, 3)
    good = seats(
        a={"stall_breaker": (StallBreakerRound(5, 10), StallBreakerRound(8, -25))},
        b={"stall_breaker": (StallBreakerRound(6, -15),)},
    )
    assert check_result(good, [A, B], rule, NAMES) == []
    bad = seats(
        a={"stall_breaker": (StallBreakerRound(4, 10), StallBreakerRound(9, 30))},
        b={"stall_breaker": (StallBreakerRound(6, 10), StallBreakerRound(7, 20))},
        c={"stall_breaker": (StallBreakerRound(5, 10), StallBreakerRound(5, 10))},
    )
    problems = check_result(bad, [A, B], rule, NAMES)
    assert where(problems) == [
        ("stall_round", A, "stall_breaker", 0, "round"),
        ("stall_round", A, "stall_breaker", 1, "round"),
        ("stall_points", B, "stall_breaker", 0, "points"),
        ("stall_round_twice", C, "stall_breaker", 1, "round"),
    ]
    assert "scores from round 5 to round 8, so round 4 has no" in problems[0].message
    assert "In round 6 the stall breaker gives a squad +15 or -15, not 10" in problems[2].message


# -- flags ----------------------------------------------------------------------------------


def test_a_flag_is_worth_the_stipulations_flag_value():
    rule = limits("catch_the_flag", {"flag_value": 30})
    good = seats(a={"objectives": (ObjectivePoints("Flag brought home", 60),)})
    assert check_result(good, [], rule, NAMES) == []
    bad = seats(
        a={"objectives": (ObjectivePoints("Flag brought home", 25),)},
        b={"objectives": (ObjectivePoints("x", -30),)},
    )
    problems = check_result(bad, [], rule, NAMES)
    assert where(problems) == [
        ("flag_value", A, "objectives", 0, "points"),
        ("flag_value", B, "objectives", 0, "points"),
    ]
    assert "A flag brought home is worth 30 points in this session, so 25" in problems[0].message


def test_one_flag_for_all_is_brought_home_by_one_squad():
    rule = limits("catch_the_flag", {"flags": "one_for_all", "flag_value": 30})
    two = seats(
        a={"objectives": (ObjectivePoints("Flag brought home", 30),)},
        c={"objectives": (ObjectivePoints("Flag brought home", 30),)},
    )
    problems = check_result(two, [], rule, NAMES)
    assert where(problems) == [
        ("flags_over", A, "objectives", 0, "points"),
        ("flags_over", C, "objectives", 0, "points"),
    ]
    assert (
        "2 flags are recorded brought home in all (Anna 1, Carla 1), but this session "
        "places only 1 flag" in problems[0].message
    )
    per_squad = limits("catch_the_flag", {"flag_value": 30})
    assert check_result(two, [], per_squad, NAMES) == []
    board = load_map("flag-relay")
    assert len(board.flag_spots) >= 1
    on_map = limits("catch_the_flag", {"flag_value": 30}, board=board)
    assert on_map.flag_spots == len(board.flag_spots)


def test_alien_hunt_and_the_tpks_give_no_objective_points():
    """Only Catch the Flag sets an objective (decisions 71-73): anywhere else a row of
    objective points is refused, naming the points, the seat and why; a row of 0 is
    nothing."""
    breakdowns = seats(
        a={"objectives": (ObjectivePoints("Reached the claws", 10),)},
        b={"objectives": (ObjectivePoints("objective", 0),)},
        c={"objectives": (ObjectivePoints("objective", -1),)},
    )
    for kind, params in (
        ("alien_hunt", {"rounds": 8}),
        ("tpk", {}),
        ("tpk", {"stall_breaker": STALL}),
        ("extended_tpk", {"aliens": True}),
    ):
        problems = check_result(breakdowns, [], limits(kind, params), NAMES)
        assert where(problems) == [
            ("objective_without_rule", A, "objectives", 0, "points"),
            ("objective_without_rule", C, "objectives", 0, "points"),
        ], kind
    hunt = check_result(breakdowns, [], limits("alien_hunt", {"rounds": 8}), NAMES)
    assert hunt[0].message.startswith(
        "10 objective points are recorded for Anna, but Alien Hunt sets no objective: a squad "
        "scores only by killing marines and aliens (their tokens), and reaching the docking "
        "claws at the end scores nothing; remove the row."
    )
    assert hunt[1].message.startswith("-1 objective point is recorded for Carla")
    tpk = check_result(breakdowns, [], limits("extended_tpk"), NAMES)
    assert "but Extended TPK sets no objective" in tpk[0].message
    assert "stall breaker" in tpk[0].message
    flags = check_result(
        seats(a={"objectives": (ObjectivePoints("Flag brought home", 30),)}),
        [],
        limits("catch_the_flag", {"flag_value": 30}),
        NAMES,
    )
    assert flags == []


def test_no_objective_message_reads_in_italian():
    breakdowns = seats(a={"objectives": (ObjectivePoints("x", 10),)})
    with translation.override("it"):
        hunt = check_result(breakdowns, [], limits("alien_hunt", {"rounds": 8}), NAMES)
        tpk = check_result(breakdowns, [], limits("extended_tpk"), NAMES)
    assert "Anna" in hunt[0].message and "Caccia all'Alieno" in hunt[0].message
    assert "TPK Esteso" in tpk[0].message
    assert all("recorded" not in p.message for p in (*hunt, *tpk))


# -- vehicles -------------------------------------------------------------------------------


def test_tarantulas_dreadnoughts_and_gunners_need_the_special_equipment():
    breakdowns = seats(
        a={
            "tarantulas": (TarantulaKill(B, 2),),
            "dreadnoughts": (DreadnoughtKill(C, 25, MarineClass.HEAVY),),
            "kills": (MarineKill(B, MarineClass.GUNNER, 1),),
        },
        b={"losses": (MarineLoss(MarineClass.GUNNER, LossCause.PLAYER, A, 1),)},
        c={"losses": (MarineLoss(MarineClass.HEAVY, LossCause.PLAYER, A, 1),)},
    )
    problems = check_result(breakdowns, [], limits("alien_hunt"), NAMES)
    assert where(problems) == [
        ("tarantulas_over", A, "tarantulas", 0, "count"),
        ("dreadnoughts_over", A, "dreadnoughts", 0, "owner"),
        ("gunner_without_tarantula", A, "kills", 0, "count"),
        ("gunner_without_tarantula", B, "losses", 0, "count"),
    ]
    assert "2 Tarantulas are recorded destroyed (Anna 2), but no Tarantula" in problems[0].message
    hidden = {"3,4": "tarantula", "5,6": "abandoned_dreadnought", "7,8": "lascannon"}
    equipped = limits("alien_hunt", {"equipment_blips": hidden})
    problems = check_result(breakdowns, [], equipped, NAMES)
    assert where(problems) == [("tarantulas_over", A, "tarantulas", 0, "count")]
    assert "hides only 1 Tarantula" in problems[0].message


def test_a_piloted_dreadnought_scores_the_session_s_class_value():
    """RULES §7: destroying a marine-piloted Dreadnought scores its class value, set for the
    session: the stipulation's ``dreadnought_value``, else its class's in the rules data."""
    hidden = {"equipment_blips": {"5,6": "abandoned_dreadnought"}}

    def destroyed(value: int) -> list[SeatBreakdown]:
        return seats(
            a={"dreadnoughts": (DreadnoughtKill(C, value, MarineClass.HEAVY),)},
            c={"losses": (MarineLoss(MarineClass.HEAVY, LossCause.PLAYER, A, 1),)},
        )

    first_class = limits("alien_hunt", hidden)
    assert check_result(destroyed(25), [A], first_class, NAMES) == []
    problems = check_result(destroyed(40), [A], first_class, NAMES)
    assert where(problems) == [("dreadnought_class_value", A, "dreadnoughts", 0, "value")]
    with translation.override("en"):
        message = check_result(destroyed(40), [A], first_class, NAMES)[0].message
    assert "has class value 25, not 40" in message
    with translation.override("it"):
        message = check_result(destroyed(40), [A], first_class, NAMES)[0].message
    assert "ha valore della classe 25, non 40" in message
    named = limits("alien_hunt", {**hidden, "dreadnought_class": "abominable"})
    assert check_result(destroyed(40), [A], named, NAMES) == []
    assert where(check_result(destroyed(25), [A], named, NAMES))[0][0] == "dreadnought_class_value"
    typed = {**hidden, "dreadnought_class": "abominable", "dreadnought_value": 50}
    assert check_result(destroyed(50), [A], limits("alien_hunt", typed), NAMES) == []
    overridden = session_limits(
        "alien_hunt", hidden, "", {"dreadnought_classes": {"malignant": {"class_value": 33}}}
    )
    assert check_result(destroyed(33), [A], overridden, NAMES) == []


def test_a_dreadnought_class_the_tournament_removed_is_said_unknown():
    """A session naming a class its house rules added, then removed, was checked against
    the first class's value (25, the Malignant's): one typed 25 passed, whatever the
    removed class was worth. Now the class is said unknown, naming it (decision 78); a
    value the stipulation gives itself is still checked."""
    hidden = {"equipment_blips": {"5,6": "abandoned_dreadnought"}}
    removed: dict = {}
    breakdowns = seats(
        a={"dreadnoughts": (DreadnoughtKill(C, 25, MarineClass.HEAVY),)},
        c={"losses": (MarineLoss(MarineClass.HEAVY, LossCause.PLAYER, A, 1),)},
    )
    named = {**hidden, "dreadnought_class": "warlord"}
    gone = session_limits("alien_hunt", named, "", removed)
    with translation.override("en"):
        problems = check_result(breakdowns, [A], gone, NAMES)
    assert where(problems) == [("dreadnought_class_unknown", A, "dreadnoughts", 0, "value")]
    assert "names the Dreadnought class “warlord”" in problems[0].message
    with translation.override("it"):
        assert "warlord" in check_result(breakdowns, [A], gone, NAMES)[0].message
    typed = session_limits("alien_hunt", {**named, "dreadnought_value": 25}, "", removed)
    assert check_result(breakdowns, [A], typed, NAMES) == []


# -- who was in play at the end -------------------------------------------------------------


def test_a_squad_that_forfeited_has_no_marine_in_play_and_a_no_show_nothing_at_all():
    breakdowns = seats(
        a={"kills": (MarineKill(C, MarineClass.LIGHT, 1),)},
        b={"alien_tokens": (AlienTokens("ork", 2, 1),)},
        c={"losses": (MarineLoss(MarineClass.LIGHT, LossCause.PLAYER, A, 1),)},
    )
    rule = limits("alien_hunt", forfeits={B: "withdrawn", C: "no_show"})
    problems = check_result(breakdowns, [A, B], rule, NAMES)
    assert where(problems) == [
        ("forfeit_survivor", B, "survived", None, None),
        ("no_show_recorded", A, "kills", 0, "count"),
        ("no_show_recorded", C, "losses", 0, "count"),
    ]
    assert "Bruno forfeited this session" in problems[0].message
    assert "Carla did not show up for this session" in problems[1].message
    assert check_result(breakdowns[:2] + [SeatBreakdown(C)], [A], rule, NAMES)[0].code == (
        "no_show_recorded"
    ), "what Anna recorded against Carla"


def test_a_tpk_without_the_stall_breaker_has_one_survivor_at_most():
    breakdowns = seats()
    problems = check_result(breakdowns, [A, C], limits("extended_tpk"), NAMES)
    assert where(problems) == [
        ("tpk_survivors", A, "survived", None, None),
        ("tpk_survivors", C, "survived", None, None),
    ]
    assert "Anna, Carla are all marked as still having a marine in play" in problems[0].message
    assert check_result(breakdowns, [A], limits("tpk"), NAMES) == []
    assert check_result(breakdowns, [], limits("tpk"), NAMES) == []
    with_stall = limits("tpk", {"stall_breaker": STALL})
    assert check_result(breakdowns, [A, B, C], with_stall, NAMES) == []
    assert check_result(breakdowns, [A, B, C], limits("alien_hunt"), NAMES) == []


def test_an_unknown_stipulation_checks_only_the_forfeits():
    assert stipulation_scoring("", {}) is None
    breakdowns = seats(a={"stall_breaker": (StallBreakerRound(1, 7),)})
    assert check_result(breakdowns, [A, B], limits(""), NAMES) == []


# -- tokens: the markers, the equipment they hide and the reinforcements ---------------------


def test_reinforcement_tokens_add_to_the_markers_and_equipment_blips_take_theirs():
    board = load_map("flag-relay")
    ork = next(square for square, alien in board.markers.items() if alien == "ork")
    params = {"aliens": True, "reinforcements": {"ork": 2}}
    rule = limits("tpk", params, board=board)
    markers = rule.aliens.markers["ork"]
    three = seats(a={"alien_tokens": (AlienTokens("ork", 2, markers + 2),)})
    assert check_result(three, [A], rule, NAMES) == [], "the markers and 2 reinforcements"
    hidden = {f"{ork[0]},{ork[1]}": "tarantula"}
    assert equipment_markers({"equipment_blips": hidden}, board) == {"ork": 1}
    assert markers == 1
    rule = session_limits("tpk", {**params, "equipment_blips": hidden}, "Relay", None, board)
    problems = check_result(three, [A], rule, NAMES)
    assert where(problems) == [("tokens_over_markers", A, "alien_tokens", 0, "count")]
    assert problems[0].message == (
        "3 Ork tokens are recorded in all (Anna 3), but this session has only 2 Ork tokens "
        "to take (1 marker on the map Relay, 1 of them hiding special equipment, 2 "
        "reinforcement tokens); correct the counts."
    )


def test_the_new_messages_read_in_italian():
    breakdowns = seats(
        a={"stall_breaker": (StallBreakerRound(3, 50),)},
        b={"tarantulas": (TarantulaKill(A, 1),)},
    )
    with translation.override("it"):
        found = [p.message for p in check_result(breakdowns, [A, C], limits("tpk"), NAMES)]
    assert len(found) == 4
    assert all("recorded" not in message and "marked" not in message for message in found)


def test_a_plausible_pool_without_a_stipulation_keeps_the_old_checks():
    pool = SessionLimits(aliens=AlienPool(markers={"ork": 1}))
    assert check_result(seats(a={"alien_tokens": (AlienTokens("ork", 2, 1),)}), [], pool) == []
