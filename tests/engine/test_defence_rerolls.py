"""The defending commander's re-roll (RULES §5: Bionic Arm, Digital Weapons; docs/decisions.md):
offered to his player after a fight between marines, taken, refused a second time naming the
rule; and in the Alien turn taken by the engine for him when it can help, under every policy."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import pytest

from rules.engine.ai.policies import policy_named
from rules.engine.ai.turn import resolve_alien_turn
from rules.engine.combat import attack_options, resolve_attack
from rules.engine.dice import Dice, DieKind, ScriptedDice, SeededDice
from rules.engine.narration import render
from rules.engine.rerolls import (
    DEFENCE_OFFER,
    OFFER,
    RerollError,
    automatic_defence_reroll,
    find_offer,
    find_offers,
    replay_dice,
    reroll_offers,
    reroll_step,
    taken,
)
from rules.engine.state import Figure, GameState, Player, build_state
from rules.engine.units import load_rules_data

RULES = load_rules_data()

DECK = """
+--+--+--+--+--+--+
|.  .  .  .  .  . |
+  +  +  +  +  +  +
|.  .  .  .  .  . |
+  +  +  +  +  +  +
|.  .  .  .  .  . |
+--+--+--+--+--+--+
"""


def commander(fid: str, player: str, sq) -> Figure:
    return Figure(fid, "marine", player, "commander", (sq,), 6, weapons=("bolter",))


def duel(p1_cards=(), p2_cards=()) -> GameState:
    """p1's commander beside p2's (TPK): p1 plays and fights."""
    figures = (commander("p1-cmd", "p1", (1, 1)), commander("p2-cmd", "p2", (2, 1)))
    players = (Player("p1", cards=tuple(p1_cards)), Player("p2", cards=tuple(p2_cards)))
    return build_state(DECK, figures, players=players, active_player="p1")


def fight(state: GameState):
    options = attack_options(state, "p1-cmd", data=RULES)
    option = next(o for o in options if o.kind == "hand_to_hand" and o.target == "p2-cmd")
    return option, options.index(option)


def texts(steps, lang="en") -> list[str]:
    return [render(s.code, s.params, lang) for s in steps]


# --- a fight between marines: the offer to the defender --------------------------------------


def test_the_defending_commander_is_offered_his_own_dice_and_the_offer_says_whose():
    state = duel(p2_cards=("bionic_arm",))
    option, choice = fight(state)
    # p1-cmd rolls 2 + 1, p2-cmd 0 + 0: p2-cmd would lose 3 life points.
    dice = ScriptedDice(values=[2, 1, 0, 0])
    after, _ = resolve_attack(state, option, dice, data=RULES)
    assert after.figure("p2-cmd").life_points == 3
    offers = reroll_offers(state, option, choice, 4, dice.log, RULES)
    assert len(offers) == 1
    offer = offers[0]
    assert (offer.roller, offer.defender, offer.dice) == ("p2-cmd", "p2-cmd", (3, 4))
    step = offer.step()
    assert step.code == DEFENCE_OFFER
    assert render(step.code, step.params, "en") == (
        "Bionic Arm: p2-cmd, who defends, may roll one of his own dice (1: 0, 2: 0) again "
        "before anything else happens (his player chooses)"
    )
    assert render(step.code, step.params, "it") == (
        "Bionic Arm: p2-cmd, che si difende, può ritirare uno dei suoi dadi (1: 0, 2: 0) "
        "prima di ogni altra azione (sceglie il suo giocatore)"
    )
    # Without a card, or for a figure other than a commander, nothing is offered.
    assert reroll_offers(duel(), option, choice, 4, dice.log, RULES) == ()


def test_both_commanders_may_take_theirs_each_card_once_per_fight():
    state = duel(p1_cards=("digital_weapons",), p2_cards=("digital_weapons",))
    option, choice = fight(state)
    dice = ScriptedDice(values=[0, 0, 2, 0])  # p1-cmd 0 against 2: p1-cmd would lose 2
    resolve_attack(state, option, dice, data=RULES)
    offers = reroll_offers(state, option, choice, 4, dice.log, RULES)
    # p2-cmd's die 3 shows 2, a white die's best: rolling it again cannot help him.
    assert [(o.roller, o.dice) for o in offers] == [("p1-cmd", (1, 2)), ("p2-cmd", (4,))]
    assert [o.step().code for o in offers] == [OFFER, DEFENCE_OFFER]
    steps = [o.step().as_dict() for o in offers]
    # The defender takes his die 4 first: 0 → 2, now 0 against 4.
    defender = find_offer(steps, "p1-cmd", 4)
    assert defender.roller == "p2-cmd"
    fresh = ScriptedDice(values=[2])
    replay = replay_dice(defender, 4, fresh)
    after, _ = resolve_attack(state, option, replay, data=RULES)
    assert after.figure("p1-cmd").life_points == 2
    assert [r.purpose for r in fresh.log] == ["reroll"] and fresh.log[0].subject == "p2-cmd"
    done = reroll_step(defender, replay)
    assert texts([done], "en") == [
        "Digital Weapons: p2-cmd rolls die 2 again (0 → 2); the attack is resolved again"
    ]
    # The attacker's offer is made again on the new dice; the defender's is gone.
    used = taken(defender, replay)
    again = reroll_offers(state, option, choice, 4, replay.log, RULES, used)
    assert [(o.roller, o.values) for o in again] == [("p1-cmd", (0, 0, 2, 2))]
    stored = [done.as_dict(), *(o.step().as_dict() for o in again)]
    # A second re-roll of the defender is refused, naming the rule.
    with pytest.raises(RerollError) as second:
        find_offer(stored, "p1-cmd", 3)
    assert second.value.code == "reroll_used"
    assert "p2-cmd has already rolled a die again in this attack with Digital Weapons" in str(
        second.value
    )
    assert "one die per card and attack" in str(second.value)
    # The attacker still takes his: die 1, 0 → 2.
    attacker = find_offer(stored, "p1-cmd", 1)
    replay2 = replay_dice(attacker, 1, ScriptedDice(values=[2]))
    resolve_attack(state, option, replay2, data=RULES)
    assert replay2.exhausted
    assert (
        reroll_offers(state, option, choice, 4, replay2.log, RULES, taken(attacker, replay2)) == ()
    )
    last = reroll_step(attacker, replay2).as_dict()
    with pytest.raises(RerollError) as third:
        find_offer([last], "p1-cmd", 2)
    assert third.value.code == "reroll_used" and "p1-cmd" in str(third.value)


def test_a_die_offered_to_nobody_is_refused_with_every_choice():
    state = duel(p1_cards=("bionic_arm",), p2_cards=("bionic_arm",))
    option, choice = fight(state)
    dice = ScriptedDice(values=[0, 0, 0, 0])
    resolve_attack(state, option, dice, data=RULES)
    steps = [o.step().as_dict() for o in reroll_offers(state, option, choice, 4, dice.log, RULES)]
    with pytest.raises(RerollError) as refused:
        find_offer(steps, "p1-cmd", 5)
    assert refused.value.code == "reroll_bad_die_any"
    assert "choose one of p1-cmd: 1, 2; p2-cmd: 3, 4" in str(refused.value)
    assert len(find_offers(steps, "p1-cmd")) == 2


def test_an_offer_stored_before_defenders_could_reroll_is_still_read():
    old = {
        "code": OFFER,
        "params": {
            "figure": "p1-cmd",
            "chapter_cards": ["digital_weapons"],
            "choice": 0,
            "base": 3,
            "values": [0, 0, 1, 0],
            "numbers": [1, 2],
            "used": ["bionic_arm"],
        },
    }
    offer = find_offer([old], "p1-cmd", 2)
    assert offer.roller == "p1-cmd" and offer.defender is None
    assert offer.used == (("p1-cmd", "bionic_arm"),)


# --- the Alien turn: the engine takes it for him ---------------------------------------------


@dataclass
class FightDice(Dice):
    """Scripted fight dice by purpose (the alien's, the commander's, the re-rolled die);
    every other die (behaviour, events) from a seed, so that each policy reaches the
    fight whatever else it rolls."""

    fight: Mapping[str, list[int]] = field(default_factory=dict)
    rest: SeededDice = field(default_factory=lambda: SeededDice(seed=3))

    source = "scripted"

    def _face(self, kind: DieKind, purpose: str, params: Mapping[str, Any]) -> int:
        queue = self.fight.get(purpose)
        if queue is None:
            return self.rest._face(kind, purpose, params)
        assert queue, f"no scripted die left for {purpose}"
        return queue.pop(0)


def alien_turn_state(cards=("bionic_arm",)) -> GameState:
    figures = (
        commander("p1-cmd", "p1", (1, 1)),
        Figure("o1", "alien", None, "ork", ((2, 1),), 1, weapons=("ork_weapon",)),
    )
    return build_state(DECK, figures, players=(Player("p1", cards=tuple(cards)),))


def alien_turn(policy: str, state: GameState, attack, defence, reroll=()):
    dice = FightDice(
        fight={
            "hand_to_hand_attack": list(attack),
            "hand_to_hand_defence": list(defence),
            "reroll": list(reroll),
        }
    )
    after, steps = resolve_alien_turn(state, policy_named(policy), dice)
    assert any(r.purpose == "hand_to_hand_attack" for r in dice.log), "the ork did not fight"
    return after, steps, dice


POLICIES = ["bob", "solitaire", "priority"]


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("card", ["bionic_arm", "digital_weapons"])
def test_the_engine_rerolls_the_commanders_weakest_die_when_he_would_lose(policy, card):
    # The ork rolls 2 + 2, the commander 1 + 0: he would lose 3. His 0 is furthest below
    # a light die's average (0.5), so it is rolled again: a 2, and he loses 1 only.
    after, steps, dice = alien_turn(policy, alien_turn_state((card,)), [2, 2], [1, 0], [2])
    assert after.figure("p1-cmd").life_points == 5
    rerolled = [r for r in dice.log if r.purpose == "reroll"]
    assert len(rerolled) == 1 and rerolled[0].values == (2,)
    assert rerolled[0].subject == "p1-cmd" and rerolled[0].params["die"] == 4
    name = {"bionic_arm": "Bionic Arm", "digital_weapons": "Digital Weapons"}[card]
    nome = {"bionic_arm": "Bionic Arm", "digital_weapons": "Digital Weapons"}[card]
    english, italian = texts(steps, "en"), texts(steps, "it")
    note = (
        f"{name}: p1-cmd would lose life points, so the engine rolls his die 4 (0) again for "
        "him, the one furthest below its average."
    )
    assert note in english
    assert (
        f"{nome}: p1-cmd perderebbe punti vita, quindi il motore ritira per lui il dado 4 (0), "
        "quello più sotto la media."
    ) in italian
    # Told after the fight's dice and before the re-rolled die and the damage.
    at = english.index(note)
    assert english[at - 1] == "hand-to-hand: p1-cmd defends against o1: white 1, 0."
    assert english[at + 1 : at + 3] == [
        f"p1-cmd rolls die 4 again ({name}): white 2.",
        "p1-cmd loses 1 life point (5 left).",
    ]


@pytest.mark.parametrize("policy", POLICIES)
def test_no_reroll_when_it_cannot_help(policy):
    # He wins the fight: nothing to take back.
    won, steps, dice = alien_turn(policy, alien_turn_state(), [0, 0], [1, 0])
    assert not won.has_figure("o1") and "reroll" not in [r.purpose for r in dice.log]
    # He loses, but both his dice are above a light die's average: no die would gain.
    lost, steps, dice = alien_turn(policy, alien_turn_state(), [2, 2], [1, 1])
    assert lost.figure("p1-cmd").life_points == 4
    assert "reroll" not in [r.purpose for r in dice.log]
    assert "reroll_auto" not in [s.code for s in steps]
    # Without the card, never.
    bare, steps, dice = alien_turn(policy, alien_turn_state(()), [2, 2], [0, 0])
    assert bare.figure("p1-cmd").life_points == 2
    assert "reroll" not in [r.purpose for r in dice.log]


def test_the_choice_takes_the_die_furthest_below_its_kinds_average():
    state = alien_turn_state()
    ork_option = next(
        o for o in attack_options(state, "o1", data=RULES) if o.kind == "hand_to_hand"
    )
    dice = ScriptedDice(values=[2, 2, 1, 0])
    _, events = resolve_attack(state, ork_option, dice, data=RULES)
    assert automatic_defence_reroll(state, ork_option, dice.log, events) == ("bionic_arm", 3)
    blocked = ScriptedDice(values=[0, 0, 1, 0])  # he wins: no re-roll
    _, events = resolve_attack(state, ork_option, blocked, data=RULES)
    assert automatic_defence_reroll(state, ork_option, blocked.log, events) is None
