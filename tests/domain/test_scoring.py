"""RULES §7: every scoring rule, the breakdown's JSON form and the consistency checks."""

import json

import pytest

from tournaments.domain.scoring import (
    AlienTokens,
    DreadnoughtKill,
    LossCause,
    MarineClass,
    MarineKill,
    MarineLoss,
    ObjectivePoints,
    ScoringError,
    ScoringValues,
    SeatBreakdown,
    StallBreakerRound,
    TarantulaKill,
    score_session,
)

PLAYER, ALIEN, OWN = LossCause.PLAYER, LossCause.ALIEN, LossCause.OWN_FIRE


def totals(cards):
    return {seat: card.total for seat, card in cards.items()}


def problem_codes(cards):
    return {seat: [p.code for p in card.problems] for seat, card in cards.items()}


@pytest.mark.parametrize(
    ("marine_class", "value"),
    [
        (MarineClass.LIGHT, 5),
        (MarineClass.UNARMED, 5),
        (MarineClass.HEAVY, 10),
        (MarineClass.COMMANDER, 10),
        (MarineClass.EXTRA_HEAVY, 15),
        (MarineClass.GUNNER, 5),
    ],
)
def test_killing_an_enemy_marine_gains_the_value_and_the_owner_loses_it(marine_class, value):
    cards = score_session(
        [
            SeatBreakdown("a", kills=(MarineKill("b", marine_class),)),
            SeatBreakdown("b", losses=(MarineLoss(marine_class, PLAYER, "a"),)),
        ]
    )
    assert totals(cards) == {"a": value, "b": -value}
    assert problem_codes(cards) == {"a": [], "b": []}


def test_losses_to_aliens_or_own_fire_cost_the_owner_and_nobody_gains():
    cards = score_session(
        [
            SeatBreakdown(
                "a",
                losses=(
                    MarineLoss(MarineClass.HEAVY, ALIEN, count=2),
                    MarineLoss(MarineClass.LIGHT, OWN),
                ),
            ),
            SeatBreakdown("b"),
        ]
    )
    assert totals(cards) == {"a": -25, "b": 0}
    assert [line.code for line in cards["a"].lines] == ["marine_lost", "marine_lost"]


def test_totals_may_be_negative_and_lines_explain_them():
    cards = score_session(
        [
            SeatBreakdown(
                "a",
                kills=(MarineKill("b", MarineClass.LIGHT),),
                losses=(
                    MarineLoss(MarineClass.COMMANDER, PLAYER, "b"),
                    MarineLoss(MarineClass.EXTRA_HEAVY, ALIEN),
                ),
            ),
            SeatBreakdown(
                "b",
                kills=(MarineKill("a", MarineClass.COMMANDER),),
                losses=(MarineLoss(MarineClass.LIGHT, PLAYER, "a"),),
            ),
        ]
    )
    assert totals(cards) == {"a": 5 - 10 - 15, "b": 10 - 5}
    assert [line.points for line in cards["a"].lines] == [5, -10, -15]


def test_tarantula_destroyed_gives_ten_and_costs_the_owner_nothing():
    cards = score_session(
        [SeatBreakdown("a", tarantulas=(TarantulaKill("b"),)), SeatBreakdown("b")]
    )
    assert totals(cards) == {"a": 10, "b": 0}


def test_tarantula_gunner_is_worth_five_whatever_his_weapon():
    cards = score_session(
        [
            SeatBreakdown("a", kills=(MarineKill("b", MarineClass.GUNNER),)),
            SeatBreakdown("b", losses=(MarineLoss(MarineClass.GUNNER, PLAYER, "a"),)),
        ]
    )
    assert totals(cards) == {"a": 5, "b": -5}


def test_piloted_dreadnought_gives_class_value_plus_pilot_and_owner_loses_the_pilot():
    cards = score_session(
        [
            SeatBreakdown("a", dreadnoughts=(DreadnoughtKill("b", 30, MarineClass.HEAVY),)),
            SeatBreakdown("b", losses=(MarineLoss(MarineClass.HEAVY, PLAYER, "a"),)),
        ]
    )
    assert totals(cards) == {"a": 40, "b": -10}
    assert problem_codes(cards) == {"a": [], "b": []}


def test_dreadnought_class_value_below_25_is_reported():
    cards = score_session(
        [
            SeatBreakdown("a", dreadnoughts=(DreadnoughtKill("b", 20, MarineClass.LIGHT),)),
            SeatBreakdown("b", losses=(MarineLoss(MarineClass.LIGHT, PLAYER, "a"),)),
        ]
    )
    assert problem_codes(cards)["a"] == ["dreadnought_value_too_low"]


def test_commander_cannot_pilot_a_dreadnought():
    cards = score_session(
        [
            SeatBreakdown("a", dreadnoughts=(DreadnoughtKill("b", 30, MarineClass.COMMANDER),)),
            SeatBreakdown("b"),
        ]
    )
    assert problem_codes(cards)["a"] == ["bad_pilot"]
    assert cards["a"].total == 0


def test_alien_tokens_score_their_printed_value_and_genestealers_nothing():
    cards = score_session(
        [
            SeatBreakdown(
                "a",
                alien_tokens=(
                    AlienTokens("ork", 5, count=3),
                    AlienTokens("android", 15),
                    AlienTokens("genestealer", 10),
                ),
            )
        ]
    )
    assert cards["a"].total == 30
    assert problem_codes(cards)["a"] == ["tokenless_alien"]


def test_objectives_and_stall_breaker_points():
    cards = score_session(
        [
            SeatBreakdown(
                "a",
                objectives=(ObjectivePoints("Flag returned to the claw", 50),),
                stall_breaker=(StallBreakerRound(8, 5), StallBreakerRound(9, -10)),
            )
        ]
    )
    assert cards["a"].total == 45
    assert [(line.code, line.points) for line in cards["a"].lines] == [
        ("objective", 50),
        ("stall_breaker", 5),
        ("stall_breaker", -10),
    ]


def test_a_kill_without_the_matching_loss_is_reported_on_both_seats():
    cards = score_session(
        [
            SeatBreakdown("a", kills=(MarineKill("b", MarineClass.HEAVY, count=2),)),
            SeatBreakdown("b", losses=(MarineLoss(MarineClass.HEAVY, PLAYER, "a"),)),
        ]
    )
    assert problem_codes(cards) == {"a": ["kill_loss_mismatch"], "b": ["kill_loss_mismatch"]}
    assert "2 kills" in cards["a"].problems[0].message
    # Recorded points are not silently corrected.
    assert totals(cards) == {"a": 20, "b": -10}


def test_a_loss_to_a_player_without_the_matching_kill_is_reported():
    cards = score_session(
        [
            SeatBreakdown("a"),
            SeatBreakdown("b", losses=(MarineLoss(MarineClass.LIGHT, PLAYER, "a"),)),
        ]
    )
    assert problem_codes(cards) == {"a": ["kill_loss_mismatch"], "b": ["kill_loss_mismatch"]}


def test_a_kill_of_the_wrong_class_is_a_mismatch():
    cards = score_session(
        [
            SeatBreakdown("a", kills=(MarineKill("b", MarineClass.HEAVY),)),
            SeatBreakdown("b", losses=(MarineLoss(MarineClass.LIGHT, PLAYER, "a"),)),
        ]
    )
    assert len(cards["a"].problems) == 2


@pytest.mark.parametrize(
    ("breakdown", "code"),
    [
        (SeatBreakdown("a", kills=(MarineKill("a", MarineClass.LIGHT),)), "own_seat"),
        (SeatBreakdown("a", kills=(MarineKill("zz", MarineClass.LIGHT),)), "unknown_seat"),
        (SeatBreakdown("a", kills=(MarineKill("b", MarineClass.LIGHT, count=0),)), "bad_count"),
        (SeatBreakdown("a", tarantulas=(TarantulaKill("a"),)), "own_seat"),
        (
            SeatBreakdown("a", losses=(MarineLoss(MarineClass.LIGHT, PLAYER),)),
            "loss_without_killer",
        ),
        (
            SeatBreakdown("a", losses=(MarineLoss(MarineClass.LIGHT, ALIEN, "b"),)),
            "killer_without_player_cause",
        ),
    ],
)
def test_unusable_entries_are_reported(breakdown, code):
    cards = score_session([breakdown, SeatBreakdown("b")])
    assert code in problem_codes(cards)["a"]


def test_invalid_kills_are_not_counted():
    cards = score_session([SeatBreakdown("a", kills=(MarineKill("a", MarineClass.HEAVY),))])
    assert cards["a"].total == 0


def test_house_values_are_used():
    values = ScoringValues(light=3, tarantula=20)
    cards = score_session(
        [
            SeatBreakdown(
                "a", kills=(MarineKill("b", MarineClass.LIGHT),), tarantulas=(TarantulaKill("b"),)
            ),
            SeatBreakdown("b", losses=(MarineLoss(MarineClass.LIGHT, PLAYER, "a"),)),
        ],
        values=values,
    )
    assert totals(cards) == {"a": 23, "b": -3}


def test_labels_use_display_names():
    cards = score_session(
        [
            SeatBreakdown("a", kills=(MarineKill("b", MarineClass.HEAVY),)),
            SeatBreakdown("b", losses=(MarineLoss(MarineClass.HEAVY, PLAYER, "a"),)),
        ],
        names={"a": "Anna", "b": "Bruno"},
    )
    assert "Bruno" in cards["a"].lines[0].label
    assert "Anna" in cards["b"].lines[0].label


def test_duplicate_seats_raise():
    with pytest.raises(ScoringError, match="appears twice"):
        score_session([SeatBreakdown("a"), SeatBreakdown("a")])


def test_breakdown_round_trips_through_json():
    breakdown = SeatBreakdown(
        "a",
        kills=(MarineKill("b", MarineClass.EXTRA_HEAVY, 2),),
        losses=(MarineLoss(MarineClass.GUNNER, PLAYER, "b"), MarineLoss(MarineClass.LIGHT, ALIEN)),
        tarantulas=(TarantulaKill("b"),),
        dreadnoughts=(DreadnoughtKill("c", 25, MarineClass.LIGHT),),
        alien_tokens=(AlienTokens("ork", 5, 2),),
        objectives=(ObjectivePoints("flag", 40),),
        stall_breaker=(StallBreakerRound(7, -5),),
    )
    text = json.dumps(breakdown.to_dict())
    assert SeatBreakdown.from_dict(json.loads(text)) == breakdown


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([], "must be a JSON object"),
        ({"kills": []}, "needs 'seat'"),
        ({"seat": "a", "bonus": []}, "unknown breakdown field"),
        ({"seat": "a", "kills": {}}, "'kills' must be a list"),
        ({"seat": "a", "kills": [{"victim": "b", "marine_class": "laser"}]}, "use one of"),
        ({"seat": "a", "kills": [{"victim": "b"}]}, "missing marine_class"),
        (
            {"seat": "a", "kills": [{"victim": "b", "marine_class": "light", "count": "2"}]},
            "whole number",
        ),
        ({"seat": "a", "objectives": [{"label": "x", "points": 1, "x": 2}]}, "unknown key"),
    ],
)
def test_malformed_json_breakdowns_raise_clear_errors(data, message):
    with pytest.raises(ScoringError, match=message):
        SeatBreakdown.from_dict(data)


def test_score_card_as_dict_is_json_ready():
    cards = score_session([SeatBreakdown("a", objectives=(ObjectivePoints("flag", 50),))])
    data = json.loads(json.dumps(cards["a"].as_dict()))
    assert data == {
        "seat": "a",
        "total": 50,
        "lines": [{"code": "objective", "label": "flag", "points": 50}],
        "problems": [],
    }
