"""The judge's typed dice: every bad value named at once, and how many dice a roll still
needs for what is typed so far."""

from __future__ import annotations

import pytest

from rules.engine.dice import DiceError, DieKind
from tournaments.domain.draw import DrawPlayer, squad_draw
from tournaments.domain.initiative import roll_initiative
from tournaments.domain.typed_dice import dice_needed, impossible_dice, parse_typed_dice

SQUADS = ("ultramarines", "blood-angels", "imperial-fists")
NAMES = {"1": "Anna", "2": "Bruno", "3": "Carla"}
SQUAD_NAMES = {"ultramarines": "Ultramarines", "blood-angels": "Blood Angels"}


def test_every_impossible_die_is_named():
    assert impossible_dice([3, 6, 5]) == ""
    message = impossible_dice([0, 7, 3])
    assert message.startswith("die 1 is 0, die 2 is 7, which a d6 cannot show")
    assert "(allowed: 1, 2, 3, 4, 5, 6); retype them." in message
    assert impossible_dice([3], DieKind.WHITE).startswith("die 1 is 3, which a white")


def test_every_item_that_is_no_number_is_named():
    with pytest.raises(DiceError) as refused:
        parse_typed_dice("3, x, 4,, five")
    assert str(refused.value) == (
        "die 2 is “x”, which is not a whole number; die 5 is “five”, which is not a whole number"
    )
    assert parse_typed_dice("3, 4,,5") == [3, 4, 5]


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
