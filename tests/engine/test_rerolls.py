"""Rolling one die of an attack again (RULES §5: Targeter, Bionic Eye, Digital Weapons,
Bionic Arm): which card allows it, the attack resolved again with the chosen die rolled
again, and the refusals naming the rule."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rules.engine import rerolls
from rules.engine.combat import attack_options, resolve_attack
from rules.engine.dice import FACES, ScriptedDice
from rules.engine.narration import render
from rules.engine.rerolls import (
    RerollError,
    find_offer,
    replay_dice,
    reroll_cards,
    reroll_offers,
    reroll_step,
)
from rules.engine.state import Figure, GameState, Player, build_state
from rules.engine.units import load_rules_data

RULES = load_rules_data()


def reroll_offer(*args):
    """The attacker's offer (an ork defends here: no other offer), or None."""
    offers = reroll_offers(*args)
    assert all(offer.defender is None for offer in offers)
    return offers[0] if offers else None


DECK = """
+--+--+--+--+--+--+--+--+
|.  .  .  .  .  .  .  . |
+  +  +  +  +  +  +  +  +
|.  .  .  .  .  .  .  . |
+  +  +  +  +  +  +  +  +
|.  .  .  .  .  .  .  . |
+  +  +  +  +  +  +  +  +
|.  .  .  .  .  .  .  . |
+--+--+--+--+--+--+--+--+
"""


HEAVY, XH = ("missile_launcher",), ("lascannon",)


def board(cards=(), marks=(), commander_weapons=("bolter",)) -> GameState:
    figures = (
        Figure("p1-cmd", "marine", "p1", "commander", ((0, 0),), 6, weapons=commander_weapons),
        Figure("p1-hw", "marine", "p1", "heavy_weapon_marine", ((3, 3),), 2, weapons=HEAVY),
        Figure("p1-xh", "marine", "p1", "extra_heavy_weapon_marine", ((3, 1),), 2, weapons=XH),
        Figure("o1", "alien", None, "ork", ((1, 0),), 1, weapons=("ork_weapon",)),
        Figure("o2", "alien", None, "ork", ((0, 3),), 1, weapons=("ork_weapon",)),
    )
    players = (Player("p1", cards=tuple(cards), targeter_marks=tuple(marks)),)
    return build_state(DECK, figures, players=players, active_player="p1")


def first(state, attacker, kind, target=None):
    return next(
        o
        for o in attack_options(state, attacker, data=RULES)
        if o.kind == kind and (target is None or target in o.target_keys)
    )


def cards_for(state, attacker, kind, target=None):
    option = first(state, attacker, kind, target)
    return reroll_cards(state, state.figure(attacker), option, RULES)


def test_each_card_allows_a_reroll_on_its_own_attacks():
    every = ("bionic_eye", "bionic_arm", "digital_weapons", "targeter")
    state = board(every, marks=("missile_launcher",))
    assert cards_for(state, "p1-cmd", "shoot", "o2") == ("bionic_eye", "digital_weapons")
    assert cards_for(state, "p1-cmd", "hand_to_hand") == ("bionic_arm", "digital_weapons")
    assert cards_for(state, "p1-hw", "shoot", "o2") == ("targeter",)
    assert cards_for(board(), "p1-cmd", "shoot", "o2") == ()


def test_targeter_marks_a_weapon_type_and_never_an_extra_heavy_one():
    unmarked = board(("targeter",), marks=("laser_rifle",))
    assert cards_for(unmarked, "p1-hw", "shoot", "o2") == ()
    extra = board(("targeter",), marks=("lascannon",))
    assert cards_for(extra, "p1-xh", "shoot", "o2") == ()


def _fight(state):
    option = first(state, "p1-cmd", "hand_to_hand")
    choice = attack_options(state, "p1-cmd", data=RULES).index(option)
    return option, choice


def test_a_rerolled_die_resolves_the_attack_again_with_the_other_dice_as_they_fell():
    state = board(("bionic_arm",))
    option, choice = _fight(state)
    dice = ScriptedDice(values=[0, 0, 2, 0])  # the commander 0+0 against the ork's 2+0
    lost, _ = resolve_attack(state, option, dice, data=RULES)
    assert lost.figure("p1-cmd").life_points == 4
    offer = reroll_offer(state, option, choice, 7, dice.log, RULES)
    assert offer is not None and offer.dice == (1, 2) and offer.cards == ("bionic_arm",)
    step = offer.step()
    assert "Bionic Arm: p1-cmd may roll one of its dice (1: 0, 2: 0) again" in render(
        step.code, step.params, "en"
    )
    fresh = ScriptedDice(values=[2])
    replay = replay_dice(find_offer([step.as_dict()], "p1-cmd"), 2, fresh)
    won, events = resolve_attack(state, option, replay, data=RULES)
    assert won.figure("p1-cmd").life_points == 6 and won.figure("o1").life_points == 1
    assert [r.purpose for r in fresh.log] == ["reroll"]  # only the new die is recorded
    done = reroll_step(offer, replay)
    assert render(done.code, done.params, "it") == (
        "Bionic Arm: p1-cmd ritira il dado 2 (0 → 2); l'attacco è risolto di nuovo"
    )
    # With its only card used, nothing more is offered.
    used = (("p1-cmd", "bionic_arm"),)
    assert reroll_offer(state, option, choice, 7, replay.log, RULES, used) is None


def test_refusals_name_the_rule():
    state = board(("bionic_arm",))
    option, choice = _fight(state)
    dice = ScriptedDice(values=[0, 0, 2, 0])
    resolve_attack(state, option, dice, data=RULES)
    offer = reroll_offer(state, option, choice, 7, dice.log, RULES)
    assert offer is not None
    with pytest.raises(RerollError) as no_attack:
        find_offer([], None)
    assert "before anything else happens" in str(no_attack.value)
    with pytest.raises(RerollError) as no_card:
        find_offer([], "p1-cmd")
    assert "only Targeter, Bionic Eye, Digital Weapons and Bionic Arm" in str(no_card.value)
    done = reroll_step(offer, _replayed(state, option, offer))
    with pytest.raises(RerollError) as second:
        find_offer([done.as_dict()], "p1-cmd")
    assert second.value.code == "reroll_used" and "one die per card" in str(second.value)
    with pytest.raises(RerollError) as theirs:
        replay_dice(offer, 3, ScriptedDice(values=[1]))  # die 3 is the ork's
    assert theirs.value.code == "reroll_bad_die" and "choose one of 1, 2" in str(theirs.value)
    with pytest.raises(RerollError):
        replay_dice(replace(offer, cards=()), 1, ScriptedDice(values=[1]))


def _replayed(state, option, offer):
    replay = replay_dice(offer, 1, ScriptedDice(values=[1]))
    resolve_attack(state, option, replay, data=RULES)
    return replay


@pytest.mark.parametrize(
    ("card", "attacker", "kind", "dice", "name"),
    [
        ("targeter", "p1-hw", "shoot", [0, 0], "Targeter"),
        ("bionic_eye", "p1-cmd", "shoot", [0, 0], "Bionic Eye"),
        ("digital_weapons", "p1-cmd", "shoot", [0, 0], "Digital Weapons"),
        ("digital_weapons", "p1-cmd", "hand_to_hand", [0, 0, 0, 0], "Digital Weapons"),
        ("bionic_arm", "p1-cmd", "hand_to_hand", [0, 0, 0, 0], "Bionic Arm"),
    ],
)
def test_each_reroll_card_rolls_a_die_of_its_attack_again(card, attacker, kind, dice, name):
    state = board((card,), marks=HEAVY)
    target = "o2" if kind == "shoot" else "o1"
    options = attack_options(state, attacker, data=RULES)
    option = first(state, attacker, kind, target)
    rolled = ScriptedDice(values=dice)
    missed, _ = resolve_attack(state, option, rolled, data=RULES)
    assert missed.has_figure(target)
    offer = reroll_offer(state, option, options.index(option), 1, rolled.log, RULES)
    assert offer is not None and offer.cards == (card,)
    replay = replay_dice(offer, 1, ScriptedDice(values=[3 if kind == "shoot" else 2]))
    after, _ = resolve_attack(state, option, replay, data=RULES)
    done = reroll_step(offer, replay)
    assert render(done.code, done.params, "en").startswith(f"{name}: {attacker} rolls die 1 again")
    # A shot of 3 + 0 gets through the ork's armour 1; a fight of 2 + 0 beats 0 + 0.
    assert not after.has_figure(target)


def test_the_attack_as_the_dice_fell_is_resolved_once_for_all_its_dice(monkeypatch):
    """Whether a re-roll can help tries each other face of each die against the attack as
    the dice fell, resolved once (not once per die)."""
    state = board(("targeter",), marks=HEAVY)
    options = attack_options(state, "p1-hw", data=RULES)
    shot = first(state, "p1-hw", "shoot", "o2")
    killed = ScriptedDice(values=[3, 0])  # nothing to gain: every other face is tried
    resolve_attack(state, shot, killed, data=RULES)
    resolved: list[list[int]] = []

    def counted(state, option, dice, **kwargs):
        resolved.append(list(dice.values))
        return resolve_attack(state, option, dice, **kwargs)

    monkeypatch.setattr(rerolls, "resolve_attack", counted)
    assert reroll_offers(state, shot, options.index(shot), 1, killed.log, RULES) == ()
    assert resolved.count([3, 0]) == 1
    others = sum(len(set(FACES[roll.kind])) - 1 for roll in killed.log for _ in roll.values)
    assert len(resolved) == 1 + others


def test_a_reroll_that_cannot_help_is_not_offered():
    """A shot that killed its target has nothing left to gain: Targeter offers nothing; a
    die already showing its best face is not offered, the others are."""
    state = board(("targeter",), marks=HEAVY)
    options = attack_options(state, "p1-hw", data=RULES)
    shot = first(state, "p1-hw", "shoot", "o2")
    killed = ScriptedDice(values=[3, 0])  # 3 against the ork's armour 1
    after, _ = resolve_attack(state, shot, killed, data=RULES)
    assert not after.has_figure("o2")
    assert reroll_offers(state, shot, options.index(shot), 1, killed.log, RULES) == ()
    missed = ScriptedDice(values=[0, 0])
    resolve_attack(state, shot, missed, data=RULES)
    offer = reroll_offer(state, shot, options.index(shot), 1, missed.log, RULES)
    assert offer is not None and offer.dice == (1, 2)

    fighter = board(("bionic_arm",))
    option, choice = _fight(fighter)
    tie = ScriptedDice(values=[2, 0, 2, 0])  # 2 + 0 against 2 + 0; a white die's best is 2
    resolve_attack(fighter, option, tie, data=RULES)
    offer = reroll_offer(fighter, option, choice, 7, tie.log, RULES)
    assert offer is not None and offer.dice == (2,)
    step = offer.step()
    assert "may roll one of its dice (2: 0) again" in render(step.code, step.params, "en")
