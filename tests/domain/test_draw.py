"""RULES §3 and §4: the squad draw, its dice order and its errors."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.engine.dice import DiceError, ScriptedDice, SeededDice
from tournaments.domain.draw import DrawError, DrawPlayer, PreviousSession, RankTransfer, squad_draw

UM, BA, IF = "ultramarines", "blood-angels", "imperial-fists"
SQUADS = (UM, BA, IF)


def player(pid, *preferences, previous=None):
    return DrawPlayer(pid, tuple(preferences), previous)


def values(result):
    return [(roll["purpose"], roll["player"], roll["value"]) for roll in result.rolls]


def test_seed_example_a_first_choice_roll_off_then_fresh_second_choice_roll_off():
    players = [player("1", BA, UM, IF), player("2", BA, UM, IF), player("3", BA, UM, IF)]
    # 3, 6, 5 for Blood Angels; then a fresh roll-off for Ultramarines: 4 vs 2.
    result = squad_draw(SQUADS, players, ScriptedDice(values=[3, 6, 5, 4, 2]))
    assert result.assignments == {"1": UM, "2": BA, "3": IF}
    assert values(result) == [
        ("squad draw, choice 1: blood-angels", "1", 3),
        ("squad draw, choice 1: blood-angels", "2", 6),
        ("squad draw, choice 1: blood-angels", "3", 5),
        ("squad draw, choice 2: ultramarines", "1", 4),
        ("squad draw, choice 2: ultramarines", "3", 2),
    ]


def test_seed_example_a_earlier_rolls_are_not_reused():
    # Player 3 beat player 1 in the first roll-off (5 > 3) but loses the fresh one.
    players = [player("1", BA, UM, IF), player("2", BA, UM, IF), player("3", BA, UM, IF)]
    result = squad_draw(SQUADS, players, ScriptedDice(values=[3, 6, 5, 6, 1]))
    assert result.assignments["1"] == UM
    assert result.assignments["3"] == IF


def test_seed_example_b_first_choice_beats_second_choice():
    players = [player("1", IF, BA, UM), player("2", IF, UM, BA), player("3", UM, IF, BA)]
    result = squad_draw(SQUADS, players, ScriptedDice(values=[5, 2]))
    assert result.assignments == {"1": IF, "2": BA, "3": UM}
    assert [roll["player"] for roll in result.rolls] == ["1", "2"]


def test_uncontested_choices_roll_no_dice():
    players = [player("a", UM), player("b", BA), player("c", IF)]
    dice = ScriptedDice(values=[])
    result = squad_draw(SQUADS, players, dice)
    assert result.assignments == {"a": UM, "b": BA, "c": IF}
    assert result.rolls == [] and dice.log == []


def test_contested_squads_in_a_tier_roll_in_squad_order_and_claimants_in_seat_order():
    # Tier 1: d and a want Imperial Fists, c and b want Ultramarines (4 players, 4 squads).
    squads = (UM, BA, IF, "dark-angels")
    players = [
        player("d", IF, "dark-angels"),
        player("c", UM, BA),
        player("b", UM, "dark-angels"),
        player("a", IF, BA),
    ]
    result = squad_draw(squads, players, ScriptedDice(values=[6, 1, 2, 5, 3, 4]))
    assert [(r["purpose"], r["player"]) for r in result.rolls] == [
        ("squad draw, choice 1: ultramarines", "c"),
        ("squad draw, choice 1: ultramarines", "b"),
        ("squad draw, choice 1: imperial-fists", "d"),
        ("squad draw, choice 1: imperial-fists", "a"),
        ("squad draw, choice 2: dark-angels", "d"),
        ("squad draw, choice 2: dark-angels", "b"),
    ]
    # d lost both roll-offs and has no 3rd choice: the only free squad is left.
    assert result.assignments == {"d": BA, "c": UM, "b": "dark-angels", "a": IF}


def test_ties_need_several_re_rolls_only_among_the_tied():
    players = [player("1", BA, UM, IF), player("2", BA, IF, UM), player("3", BA, UM, IF)]
    # Round 1: 6, 2, 6 -> 1 and 3 tied; re-roll 1: 4, 4; re-roll 2: 1, 3 -> player 3.
    dice = ScriptedDice(values=[6, 2, 6, 4, 4, 1, 3])
    result = squad_draw(SQUADS, players, dice)
    assert result.assignments == {"1": UM, "2": IF, "3": BA}
    assert values(result) == [
        ("squad draw, choice 1: blood-angels", "1", 6),
        ("squad draw, choice 1: blood-angels", "2", 2),
        ("squad draw, choice 1: blood-angels", "3", 6),
        ("squad draw, choice 1: blood-angels (re-roll 1)", "1", 4),
        ("squad draw, choice 1: blood-angels (re-roll 1)", "3", 4),
        ("squad draw, choice 1: blood-angels (re-roll 2)", "1", 1),
        ("squad draw, choice 1: blood-angels (re-roll 2)", "3", 3),
    ]
    assert dice.remaining == 0


def test_leftover_players_roll_off_and_pick_in_preference_order():
    # Partial lists: both only want Blood Angels; the loser of that and the other
    # leftover take free squads after a leftover roll-off.
    players = [player("1", BA), player("2", BA), player("3", BA, IF)]
    dice = ScriptedDice(values=[2, 5, 1, 3, 6])
    result = squad_draw(SQUADS, players, dice)
    # 2 wins BA; tier 2: 3 takes IF alone; leftover: only 1 -> first free squad (UM).
    assert result.assignments == {"1": UM, "2": BA, "3": IF}
    assert dice.remaining == 2


def test_leftover_roll_off_highest_picks_first():
    players = [player("1", BA), player("2", BA), player("3", BA)]
    dice = ScriptedDice(values=[6, 1, 1, 2, 5])
    result = squad_draw(SQUADS, players, dice)
    # 1 takes BA; leftover roll-off: 2 rolls 2, 3 rolls 5 -> 3 picks first (UM), 2 gets IF.
    assert result.assignments == {"1": BA, "2": IF, "3": UM}
    assert values(result)[-2:] == [
        ("squad draw, leftover squads", "2", 2),
        ("squad draw, leftover squads", "3", 5),
    ]


def test_two_player_session():
    players = [player("1", UM, BA, IF), player("2", UM, IF, BA)]
    result = squad_draw(SQUADS, players, ScriptedDice(values=[1, 4]))
    assert result.assignments == {"1": BA, "2": UM}


def test_retention_winner_keeps_the_squad_and_displaced_takes_rank_along():
    players = [
        player("1", UM, BA, IF, previous=PreviousSession(UM, won=False, points=60, rank=0)),
        player("2", UM, IF, BA, previous=PreviousSession(UM, won=True, points=20, rank=1)),
        player("3", IF, UM, BA, previous=PreviousSession(IF, won=True, points=40, rank=1)),
    ]
    result = squad_draw(SQUADS, players, ScriptedDice(values=[]))
    assert result.assignments == {"1": BA, "2": UM, "3": IF}
    assert result.rank_transfers == (RankTransfer("1", UM, BA, 0),)
    assert result.ranks == {"1": 0, "2": 1, "3": 1}
    assert result.rolls == []


def test_retention_between_winners_goes_to_more_points():
    players = [
        player("1", BA, UM, IF, previous=PreviousSession(BA, won=True, points=30, rank=2)),
        player("2", BA, UM, IF, previous=PreviousSession(BA, won=True, points=45, rank=1)),
    ]
    result = squad_draw(SQUADS, players, ScriptedDice(values=[]))
    assert result.assignments == {"1": UM, "2": BA}
    assert result.rank_transfers == (RankTransfer("1", BA, UM, 2),)


def test_retention_when_nobody_won_goes_to_more_points():
    players = [
        player("1", BA, previous=PreviousSession(IF, won=False, points=10)),
        player("2", BA, previous=PreviousSession(IF, won=False, points=11)),
    ]
    result = squad_draw(SQUADS, players, ScriptedDice(values=[]))
    assert result.assignments == {"1": BA, "2": IF}


def test_retention_tie_goes_to_a_roll_off_then_displaced_draw_follows():
    players = [
        player("1", IF, UM, BA, previous=PreviousSession(UM, won=True, points=30, rank=1)),
        player("2", IF, BA, UM, previous=PreviousSession(UM, won=True, points=30, rank=1)),
        player("3", IF, BA, UM, previous=PreviousSession(UM, won=True, points=30, rank=1)),
    ]
    # Retention roll-off 2, 5, 5 -> re-roll 2 vs 3: 6, 3 -> player 2 keeps UM.
    # Displaced 1 and 3 both want Imperial Fists first: 1 rolls 2, 3 rolls 4 -> 3.
    dice = ScriptedDice(values=[2, 5, 5, 6, 3, 2, 4])
    result = squad_draw(SQUADS, players, dice)
    assert result.assignments == {"1": BA, "2": UM, "3": IF}
    assert [r["purpose"] for r in result.rolls] == [
        "squad retention: ultramarines",
        "squad retention: ultramarines",
        "squad retention: ultramarines",
        "squad retention: ultramarines (re-roll 1)",
        "squad retention: ultramarines (re-roll 1)",
        "squad draw, choice 1: imperial-fists",
        "squad draw, choice 1: imperial-fists",
    ]
    assert set(result.rank_transfers) == {
        RankTransfer("1", UM, BA, 1),
        RankTransfer("3", UM, IF, 1),
    }


def test_retention_conflicts_are_rolled_in_squad_order():
    prev = PreviousSession
    squads = (UM, BA, IF, "dark-angels")
    players = [
        player("1", previous=prev(IF, won=True, points=5)),
        player("2", previous=prev(IF, won=True, points=5)),
        player("3", previous=prev(UM, won=False, points=0)),
        player("4", previous=prev(UM, won=False, points=0)),
    ]
    result = squad_draw(squads, players, ScriptedDice(values=[6, 1, 6, 1, 2, 5]))
    assert [(r["purpose"], r["player"]) for r in result.rolls][:4] == [
        ("squad retention: ultramarines", "3"),
        ("squad retention: ultramarines", "4"),
        ("squad retention: imperial-fists", "1"),
        ("squad retention: imperial-fists", "2"),
    ]
    assert result.assignments["3"] == UM and result.assignments["1"] == IF
    # Displaced 2 and 4 list no preferences: leftover roll-off in seat order (2 then 4),
    # 4 rolls higher and takes the first free squad in squad order.
    assert [(r["purpose"], r["player"]) for r in result.rolls][4:] == [
        ("squad draw, leftover squads", "2"),
        ("squad draw, leftover squads", "4"),
    ]
    assert result.assignments["4"] == BA and result.assignments["2"] == "dark-angels"


def test_displaced_player_skips_kept_squads_in_original_tiers():
    # Player 2's first choice is kept by player 3, so 2 waits: player 1's 1st choice BA
    # beats player 2's 2nd choice BA without a roll.
    prev = PreviousSession
    players = [
        player("1", BA, IF, UM, previous=prev(UM, won=False, points=5)),
        player("2", IF, BA, UM, previous=prev(UM, won=False, points=1)),
        player("3", IF, UM, BA, previous=prev(IF, won=True, points=50)),
    ]
    result = squad_draw(SQUADS, players, ScriptedDice(values=[]))
    assert result.assignments == {"1": UM, "2": BA, "3": IF}


@pytest.mark.parametrize(
    ("squads", "players", "message"),
    [
        ((), [player("1", UM)], "no squads"),
        ((UM, UM), [player("1", UM)], "listed twice in the squad order"),
        (SQUADS, [], "no players"),
        ((UM, BA), [player("1"), player("2"), player("3")], "3 players but only 2 squads"),
        (SQUADS, [player("1", UM), player("1", BA)], "player '1' is listed twice"),
        (SQUADS, [player("1", "space-wolves")], "unknown squad 'space-wolves'"),
        (SQUADS, [player("1", UM, UM)], "lists squad 'ultramarines' twice"),
        (
            SQUADS,
            [player("1", previous=PreviousSession("space-wolves", won=True, points=1))],
            "previously played unknown squad",
        ),
    ],
)
def test_bad_input_raises_draw_error_with_a_one_line_message(squads, players, message):
    with pytest.raises(DrawError, match=message) as caught:
        squad_draw(squads, players, ScriptedDice(values=[1] * 10))
    assert "\n" not in str(caught.value)


def test_too_few_scripted_dice_is_a_dice_error():
    players = [player("1", UM), player("2", UM)]
    with pytest.raises(DiceError, match="not enough dice"):
        squad_draw(SQUADS, players, ScriptedDice(values=[3]))


preference_lists = st.permutations(SQUADS).map(tuple) | st.lists(
    st.sampled_from(SQUADS), unique=True, max_size=3
).map(tuple)


@st.composite
def draws(draw):
    count = draw(st.integers(min_value=1, max_value=3))
    players = []
    for index in range(count):
        previous = None
        if draw(st.booleans()):
            previous = PreviousSession(
                draw(st.sampled_from(SQUADS)),
                draw(st.booleans()),
                draw(st.integers(-50, 80)),
                draw(st.integers(0, 2)),
            )
        players.append(DrawPlayer(f"p{index}", draw(preference_lists), previous))
    return players


@settings(max_examples=150, deadline=None)
@given(players=draws(), seed=st.integers(min_value=0, max_value=2**64 - 1))
def test_every_player_gets_a_distinct_squad(players, seed):
    result = squad_draw(SQUADS, players, SeededDice(seed=seed))
    assert set(result.assignments) == {p.id for p in players}
    assert len(set(result.assignments.values())) == len(players)
    if any(p.previous for p in players):
        return
    for p in players:
        if p.preferences and p.preferences[0] not in result.assignments.values():
            pytest.fail("a first choice nobody else took must be assigned")


@settings(max_examples=150, deadline=None)
@given(players=draws(), seed=st.integers(min_value=0, max_value=2**64 - 1))
def test_same_scripted_dice_give_the_same_result(players, seed):
    seeded = squad_draw(SQUADS, players, SeededDice(seed=seed))
    script = [roll["value"] for roll in seeded.rolls]
    first = squad_draw(SQUADS, players, ScriptedDice(values=script))
    second = squad_draw(SQUADS, players, ScriptedDice(values=script))
    assert first == second
    assert first.assignments == seeded.assignments
    assert first.rolls == seeded.rolls
