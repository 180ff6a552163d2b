"""Which parts of a result a session can hold (decision 79): the judge's form and the printed
score sheet offer these, and the checks refuse exactly what a session cannot hold."""

from __future__ import annotations

import pytest

from tournaments.domain.plausibility import check_result, session_limits
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
from tournaments.domain.stipulation_limits import ResultParts, result_parts

A, B = "1", "2"
STALL = {"from_round": 5, "points": 10, "max_extra_rounds": 3}
VEHICLES = {"1,1": "tarantula", "2,2": "abandoned_dreadnought"}


def parts(kind: str, params: dict | None = None) -> ResultParts:
    return session_limits(kind, params or {}, "", None).parts


@pytest.mark.parametrize(
    ("kind", "params", "expected"),
    [
        # An Alien Hunt always has aliens (decision 30), whatever its parameters say.
        ("alien_hunt", {}, ResultParts(True, False, False, False, False)),
        ("alien_hunt", {"aliens": False}, ResultParts(True, False, False, False, False)),
        (
            "alien_hunt",
            {"equipment_blips": VEHICLES},
            ResultParts(True, False, True, True, False),
        ),
        ("catch_the_flag", {"flag_value": 30}, ResultParts(False, True, False, False, False)),
        (
            "catch_the_flag",
            {"flag_value": 30, "aliens": True},
            ResultParts(True, True, False, False, False),
        ),
        ("tpk", {}, ResultParts(False, False, False, False, False)),
        ("tpk", {"stall_breaker": STALL}, ResultParts(False, False, False, False, True)),
        ("extended_tpk", {"aliens": True}, ResultParts(True, False, False, False, False)),
        (
            "extended_tpk",
            {"stall_breaker": STALL, "equipment_blips": VEHICLES},
            ResultParts(False, False, True, True, True),
        ),
    ],
)
def test_each_stipulation_holds_only_what_it_can_produce(kind, params, expected):
    assert parts(kind, params) == expected


def test_a_stipulation_the_app_does_not_know_rules_nothing_out():
    assert result_parts(None, aliens=True) == ResultParts()
    assert not result_parts(None, aliens=False).allows("alien_tokens")
    assert result_parts(None, aliens=False).allows("objectives")


def test_kills_and_losses_are_always_allowed():
    nothing = ResultParts(False, False, False, False, False)
    assert nothing.allows("kills") and nothing.allows("losses")
    assert not any(
        nothing.allows(entry)
        for entry in ("alien_tokens", "objectives", "tarantulas", "dreadnoughts", "stall_breaker")
    )


#: One entry in each part a session may rule out, with the code the checks refuse it by.
ENTRIES = {
    "alien_tokens": ({"alien_tokens": (AlienTokens("ork", 2, 1),)}, "tokens_without_aliens"),
    "objectives": ({"objectives": (ObjectivePoints("flag", 30),)}, "objective_without_rule"),
    "tarantulas": ({"tarantulas": (TarantulaKill(B, 1),)}, "tarantulas_over"),
    "dreadnoughts": (
        {"dreadnoughts": (DreadnoughtKill(B, 25, MarineClass.HEAVY),)},
        "dreadnoughts_over",
    ),
    "stall_breaker": ({"stall_breaker": (StallBreakerRound(5, 10),)}, "stall_without_rule"),
}


@pytest.mark.parametrize(
    ("kind", "params"),
    [
        ("alien_hunt", {}),
        ("catch_the_flag", {"flag_value": 30}),
        ("tpk", {}),
        ("tpk", {"stall_breaker": STALL, "aliens": True}),
        ("extended_tpk", {"equipment_blips": VEHICLES}),
    ],
)
def test_the_checks_refuse_exactly_the_parts_a_session_cannot_hold(kind, params):
    """One source: what :func:`result_parts` rules out is what the checks refuse."""
    limits = session_limits(kind, params, "", None)
    for entry, (fields, code) in ENTRIES.items():
        breakdowns = [
            SeatBreakdown(seat=A, **fields),
            SeatBreakdown(
                seat=B,
                losses=(MarineLoss(MarineClass.HEAVY, LossCause.PLAYER, A, 1),)
                if entry == "dreadnoughts"
                else (),
            ),
        ]
        codes = {problem.code for problem in check_result(breakdowns, [], limits, {})}
        assert (code in codes) is not limits.parts.allows(entry), (entry, codes)
    gunner = [
        SeatBreakdown(seat=A, kills=(MarineKill(B, MarineClass.GUNNER, 1),)),
        SeatBreakdown(seat=B, losses=(MarineLoss(MarineClass.GUNNER, LossCause.PLAYER, A, 1),)),
    ]
    codes = {problem.code for problem in check_result(gunner, [], limits, {})}
    assert ("gunner_without_tarantula" in codes) is not limits.parts.tarantulas
