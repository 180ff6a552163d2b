"""Telling a judge with real dice which dice an Alien turn needs next, and the event card
drawn from the real deck (RULES §12, §14)."""

from __future__ import annotations

import pytest

from rules.engine.ai.policies import policy_named
from rules.engine.ai.turn import resolve_alien_turn
from rules.engine.dice import DiceError, DieKind, ScriptedDice
from rules.engine.dice_ahead import dice_ahead
from rules.engine.event_cards import default_cards
from rules.engine.play.chance import random_index
from rules.engine.play.events import EventCardNotInDeck, cards_left
from tests.engine.ai_support import alien, make_board, make_state, marine, steps_of


def _ork_next_to_a_marine(**switches):
    """An ork beside a marine of p1 in the open: it attacks hand to hand (2 red dice),
    the marine defends; with ``switches`` the event deck is drawn first."""
    board = make_board(6, 3)
    figures = [marine("p1-m1", "p1", (1, 1)), alien("ork-1", "ork", (2, 1))]
    return make_state(board, figures, switches=switches)


def _turn(state, event_card=None):
    def run(dice):
        return resolve_alien_turn(state, policy_named("bob"), dice, event_card=event_card)

    return run


def _kinds(plan):
    return [(die.kind, die.purpose) for die in plan.next]


def test_every_die_known_before_the_first_that_depends_on_a_roll_is_listed():
    state = _ork_next_to_a_marine(event_deck=True, event_cards=["wrath", "report"])
    # The card drawn decides what follows (a target die or none): only the draw is known.
    plan = dice_ahead(_turn(state), lambda: ScriptedDice(values=[]))
    assert not plan.complete and plan.typed == 0 and plan.used == 0
    assert _kinds(plan) == [(DieKind.D6, "event_draw")] and plan.more_after
    # The card named, the target die, the ork's attack and the marine's defence do not
    # depend on one another's faces: all listed at once, in rolling order, and nothing
    # follows them.
    plan = dice_ahead(_turn(state, "report"), lambda: ScriptedDice(values=[]))
    assert _kinds(plan) == [
        (DieKind.D6, "event_target"),
        (DieKind.WHITE, "hand_to_hand_attack"),
        (DieKind.WHITE, "hand_to_hand_attack"),
        (DieKind.WHITE, "hand_to_hand_defence"),
        (DieKind.WHITE, "hand_to_hand_defence"),
    ]
    assert [die.position for die in plan.next] == [1, 2, 3, 4, 5]
    assert plan.next[1].params == {"attacker": "ork-1", "defender": "p1-m1"}
    assert plan.next[3].subject == "p1-m1"
    assert not plan.more_after
    # Typed, they settle the turn.
    assert dice_ahead(_turn(state, "report"), lambda: ScriptedDice(values=[1, 0, 0, 0, 0])).complete


def test_the_list_stops_where_a_die_decides_what_comes_next():
    # Five cards: one d6 draws, but a 6 is rolled again (it would favour a card).
    def run(dice):
        return random_index(dice, 5, "event_draw"), dice.d6("event_target")

    plan = dice_ahead(run, lambda: ScriptedDice(values=[]))
    assert [(die.kind, die.purpose) for die in plan.next] == [(DieKind.D6, "event_draw")]
    assert plan.more_after
    # Typed 3: no re-roll, so the target die is certain now.
    plan = dice_ahead(run, lambda: ScriptedDice(values=[3]))
    assert [(die.position, die.purpose) for die in plan.next] == [(2, "event_target")]
    assert not plan.more_after and plan.used == 1
    # Typed 6: the draw is rolled again before the target.
    plan = dice_ahead(run, lambda: ScriptedDice(values=[6]))
    assert [(die.position, die.purpose) for die in plan.next] == [(2, "event_draw")]


def test_typed_dice_that_settle_the_rule_are_complete_and_extra_ones_counted():
    def run(dice):
        return dice.roll(DieKind.RED, 2, "hand_to_hand_attack")

    assert dice_ahead(run, lambda: ScriptedDice(values=[3, 0])).complete
    plan = dice_ahead(run, lambda: ScriptedDice(values=[3, 0, 1]))
    assert plan.complete and plan.extra == 1 and plan.next == ()


def test_a_typed_face_the_die_cannot_show_is_refused_as_the_typed_dice_say():
    def run(dice):
        return dice.roll(DieKind.WHITE, 1, "shot")

    with pytest.raises(DiceError, match="white die cannot show"):
        dice_ahead(run, lambda: ScriptedDice(values=[5]))


def test_a_rule_rolling_the_same_face_again_for_ever_is_still_told():
    # Two of six items: the highest face never settles a 1-in-5 choice, so the made-up
    # highest faces give way to seeded ones instead of looping.
    def run(dice):
        return random_index(dice, 5, "event_draw")

    plan = dice_ahead(run, lambda: ScriptedDice(values=[]))
    assert plan.next[0].purpose == "event_draw"


def test_the_judge_names_the_card_drawn_from_the_real_deck():
    state = _ork_next_to_a_marine(event_deck=True, event_cards=["wrath", "report"])
    dice = ScriptedDice(values=[1, 0, 0, 0, 0])
    new_state, steps = resolve_alien_turn(state, policy_named("bob"), dice, event_card="report")
    assert steps_of(steps, "event_drawn") == [{"card": "report"}]
    assert new_state.progress.events_drawn == ("report",)
    assert all(roll.purpose != "event_draw" for roll in dice.log)
    # Named, the card needs no draw die: the dice listed start with what follows.
    plan = dice_ahead(_turn(state, "report"), lambda: ScriptedDice(values=[]))
    assert all(die.purpose != "event_draw" for die in plan.next)


@pytest.mark.parametrize(
    ("switches", "card"),
    [
        ({"event_deck": True, "event_cards": ["wrath"]}, "report"),  # left out
        ({}, "report"),  # no deck drawn in this session
        ({"event_deck": True}, "no_such_card"),
    ],
)
def test_a_card_not_in_the_deck_is_refused_saying_why(switches, card):
    state = _ork_next_to_a_marine(**switches)
    with pytest.raises(EventCardNotInDeck) as refused:
        resolve_alien_turn(
            state, policy_named("bob"), ScriptedDice(values=[1, 0, 0, 0, 0]), event_card=card
        )
    assert "not in the deck now" in str(refused.value)
    assert "non è nel mazzo" in refused.value.text_in("it")


def test_a_card_drawn_already_is_no_longer_left():
    cards = default_cards()
    left = cards_left(cards, ["wrath", "genestealer"], None)
    assert "wrath" not in {card.id for card in left}
    # 28 cards (RULES §12): the two other Genestealer copies are still left.
    assert [card.id for card in left].count("genestealer") == 2
    assert len(left) == 28 - 2
