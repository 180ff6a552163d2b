"""The judge's typed dice: every bad value named at once, and how many dice a roll still
needs for what is typed so far."""

from __future__ import annotations

import pytest

from rules.engine.dice import DiceError, DieKind
from tournaments.domain.draw import DrawPlayer, squad_draw
from tournaments.domain.initiative import roll_initiative
from tournaments.domain.typed_dice import dice_needed, parse_typed_dice

SQUADS = ("ultramarines", "blood-angels", "imperial-fists")
NAMES = {"1": "Anna", "2": "Bruno", "3": "Carla"}
SQUAD_NAMES = {"ultramarines": "Ultramarines", "blood-angels": "Blood Angels"}


def refusal(text: str, die: DieKind | None = None) -> str:
    with pytest.raises(DiceError) as refused:
        parse_typed_dice(text, die)
    return str(refused.value)


def test_every_impossible_die_is_named():
    assert parse_typed_dice("3,6,5", DieKind.D6) == [3, 6, 5]
    assert refusal("0,7,3", DieKind.D6) == (
        "die 1 is 0, die 2 is 7, which a d6 cannot show (allowed: 1, 2, 3, 4, 5, 6); retype them."
    )
    assert refusal("3", DieKind.WHITE).startswith("die 1 is 3, which a white")
    assert parse_typed_dice("0,7") == [0, 7], "no die named: only numbers are checked"


def test_every_item_that_is_no_number_is_named():
    assert refusal("3, x, 4,, five") == (
        "die 2 is “x”, die 4 is “five”, which are not whole numbers; retype them: each die "
        "as a number, separated by commas (e.g. 3,6,5)."
    )
    assert refusal("x").startswith("die 1 is “x”, which is not a whole number; retype it:")
    assert parse_typed_dice("3, 4,,5") == [3, 4, 5]


def test_an_impossible_die_and_an_item_that_is_no_number_are_named_together():
    """QA: "3,7,x" named only the "x"; the 7 came up after it was fixed."""
    assert refusal("3,7,x", DieKind.D6) == (
        "die 2 is 7, which a d6 cannot show (allowed: 1, 2, 3, 4, 5, 6); die 3 is “x”, which "
        "is not a whole number; retype them: each die as a number, separated by commas "
        "(e.g. 3,6,5)."
    )
    # Dice are numbered as typed dice, an empty item being no die: the rolls' numbering.
    assert refusal("x,,9", DieKind.D6).startswith("die 2 is 9, which a d6 cannot show")


def draw(players):
    return lambda dice: squad_draw(SQUADS, players, dice)


def test_the_draw_says_who_rolls_next_for_which_squad():
    everyone = [DrawPlayer(pid, ("blood-angels", "ultramarines")) for pid in ("1", "2", "3")]
    need = dice_needed(draw(everyone), [], NAMES, SQUAD_NAMES)
    assert not need.complete and need.given == 0
    assert need.purpose == "squad draw, choice 1: Blood Angels"
    assert need.rollers == ("Anna", "Bruno", "Carla")
    assert need.more_after, "Ultramarines are contested next"
    # Anna and Bruno rolled: Carla's die is next; then a tie of 6s means a re-roll.
    assert dice_needed(draw(everyone), [6, 3], NAMES, SQUAD_NAMES).rollers == ("Carla",)
    tie = dice_needed(draw(everyone), [6, 3, 6], NAMES, SQUAD_NAMES)
    assert tie.purpose == "squad draw, choice 1: Blood Angels (re-roll 1)"
    assert tie.rollers == ("Anna", "Carla")
    # 6, 3, 5 gives Anna Blood Angels; Bruno and Carla roll for Ultramarines: 2, 4 settles it.
    done = dice_needed(draw(everyone), [6, 3, 5, 2, 4], NAMES, SQUAD_NAMES)
    assert (done.complete, done.used, done.extra) == (True, 5, 0)
    extra = dice_needed(draw(everyone), [6, 3, 5, 2, 4, 1], NAMES, SQUAD_NAMES)
    assert (extra.complete, extra.extra) == (True, 1)


def test_a_draw_without_contests_needs_no_dice():
    players = [DrawPlayer("1", (SQUADS[0],)), DrawPlayer("2", (SQUADS[1],))]
    need = dice_needed(draw(players), [], NAMES)
    assert need.complete and need.used == 0


def test_initiative_needs_one_die_each_then_the_tied():
    def initiative(dice):
        return roll_initiative(["1", "2", "3"], dice)

    assert dice_needed(initiative, [], NAMES).rollers == ("Anna", "Bruno", "Carla")
    assert dice_needed(initiative, [4, 4, 1], NAMES).rollers == ("Anna", "Bruno")
    assert dice_needed(initiative, [4, 5, 1], NAMES).complete
