"""Ork Mekaniak and Gretchin Bomber (RULES §12, research §5, seed 000 appendix I; game
engine decision 19): the first alien of the type able to hit a marine fires the card's
special weapon in the same Alien turn, aimed by the area rule, never where it would hit
another alien; the Ork then dies, scoring nobody. The area rule they share counts no
marine safe in a docking claw, as combat does."""

from __future__ import annotations

import pytest

from rules.engine.ai.policies import policy_named
from rules.engine.ai.turn import resolve_alien_turn
from rules.engine.dice import ScriptedDice, SeededDice
from rules.engine.event_cards import EventDataError, load_cards
from rules.engine.play.events import modifiers_for
from rules.engine.play.turn_context import SpecialWeapon
from rules.engine.state import GameState, Stipulation
from tests.engine.ai_support import steps_of
from tests.engine.combat_scenes import alien, marine, scene


def with_card(state: GameState, card: str) -> GameState:
    """``state`` in an Alien Hunt whose event deck holds ``card`` only (no die draws it)."""
    switches = {"event_deck": True, "event_cards": [card]}
    return state.replace(stipulation=Stipulation("alien_hunt", switches))


def shots(dice) -> list[dict]:
    return [roll.params for roll in dice.log if roll.purpose.startswith("shot")]


#: Ork O can line up with marines A (p1) and B (p2) along row 0; the fight it could
#: reach (A) or its own gun would hit one marine at most.
IN_LINE = """
+--+--+--+--+--+--+--+--+
|.O .  .  .A .B .  .  . |
+  +  +  +  +  +  +  +  +
|.  .  .  .  .  .  .  . |
+--+--+--+--+--+--+--+--+
"""
IN_LINE_LEGEND = {"O": alien("ork"), "A": marine(), "B": marine(player="p2")}


@pytest.mark.parametrize("policy", ["bob", "priority", "solitaire"])
def test_the_ork_mek_fires_a_plasma_line_then_dies(policy):
    state = with_card(scene(IN_LINE, IN_LINE_LEGEND), "ork_mek")
    dice = ScriptedDice(values=[3, 2])  # the plasma gun's two red dice: 5
    after, steps = resolve_alien_turn(state, policy_named(policy), dice)
    assert steps_of(steps, "event_special_weapon") == [{"units": ["ork"], "weapon": "plasma_gun"}]
    assert steps_of(steps, "special_weapon_used") == [{"figure": "O", "weapon": "plasma_gun"}]
    [shot] = shots(dice)
    assert shot["weapon"] == "plasma_gun"
    # Both marines on the line take the full total: 5 against armour 2, both dead.
    assert not after.has_figure("A") and not after.has_figure("B")
    assert not after.has_figure("O")
    assert steps_of(steps, "special_weapon_blew_up") == [{"figure": "O"}]
    # Nobody killed the Ork: no token, no points; the owners lose their marines' value.
    assert after.player("p1").score == after.player("p2").score == -5
    assert not steps_of(steps, "token_taken") and not steps_of(steps, "behaviour_roll")


#: Gretchin G can throw at the pair A, B (p1); every aim next to C (p2) would also hit
#: the Ork O standing beside C.
BOMB = """
+--+--+--+--+--+--+--+--+--+--+
|.  .  .  .  .  .  .  .  .  . |
+  +  +  +  +  +  +  +  +  +  +
|.G .  .  .  .A .B .  .C .O . |
+  +  +  +  +  +  +  +  +  +  +
|.  .  .  .  .  .  .  .  .  . |
+--+--+--+--+--+--+--+--+--+--+
"""
BOMB_LEGEND = {
    "G": alien("gretchin"),
    "A": marine(),
    "B": marine(),
    "C": marine(player="p2"),
    "O": alien("ork"),
}


def test_the_gretchin_throws_a_missile_blast_and_keeps_its_gun():
    state = with_card(scene(BOMB, BOMB_LEGEND), "gretchin_with_bomb")
    dice = SeededDice(seed=5)
    after, steps = resolve_alien_turn(state, policy_named("bob"), dice)
    [used] = steps_of(steps, "special_weapon_used")
    assert used == {"figure": "G", "weapon": "missile_launcher"}
    [chosen] = [s for s in steps_of(steps, "attack_chosen") if s["figure"] == "G"]
    assert chosen["weapon"] == "missile_launcher"
    # The blast covers both of p1's marines and never the square beside the Ork.
    assert steps_of(steps, "area_choice")[0]["marines"] == 2
    blast = [r for r in dice.log if r.params.get("weapon") == "missile_launcher"]
    assert blast and all(r.kind.value == "red" for r in blast)
    assert after.figure("G").weapons == ("gretchin_weapon",)
    assert not steps_of(steps, "special_weapon_blew_up")


def test_a_gretchin_that_could_only_hit_an_alien_too_leaves_the_card_to_the_next():
    legend = {**BOMB_LEGEND, "A": alien("gretchin", id="G2"), "B": alien("ork", id="O2")}
    # Now the only marine is C, beside the Ork: no Gretchin may throw at it.
    state = with_card(scene(BOMB, legend), "gretchin_with_bomb")
    after, steps = resolve_alien_turn(state, policy_named("bob"), SeededDice(seed=5))
    assert not steps_of(steps, "special_weapon_used")
    assert steps_of(steps, "special_weapon_unused") == [
        {"units": ["gretchin"], "weapon": "missile_launcher"}
    ]
    # The Gretchin acted as usual, with their own guns.
    assert all(s["weapon"] != "missile_launcher" for s in steps_of(steps, "attack_chosen"))
    assert after.figure("G").weapons == ("gretchin_weapon",)


#: Two corridors a solid row apart. Ork O1 fights marine A (p1) first (p1 plays first),
#: but every line of its from where it can stand would hit the Gretchin G behind A too;
#: Ork O2 can line up with B (p2).
TWO_CORRIDORS = """
+--+--+--+--+--+--+--+--+--+--+
|.O .A .G .  .  .  .  .  .  . |
+  +  +  +  +  +  +  +  +  +  +
|#  #  #  #  #  #  #  #  #  # |
+  +  +  +  +  +  +  +  +  +  +
|.  .  .  .  .P .  .  .B .  . |
+--+--+--+--+--+--+--+--+--+--+
"""


def test_the_ork_the_card_arms_is_the_first_able_to_hit_a_marine():
    legend = {
        "O": alien("ork", id="O1"),
        "P": alien("ork", id="O2"),
        "G": alien("gretchin"),
        "A": marine(),
        "B": marine(player="p2"),
    }
    state = with_card(scene(TWO_CORRIDORS, legend), "ork_mek")
    after, steps = resolve_alien_turn(state, policy_named("bob"), SeededDice(seed=1))
    first = [s["figure"] for s in steps_of(steps, "activation")][:2]
    assert first == ["O1", "O2"]
    [fight] = [s for s in steps_of(steps, "attack_chosen") if s["figure"] == "O1"]
    assert fight["weapon"] == "hand_to_hand"
    assert steps_of(steps, "special_weapon_used") == [{"figure": "O2", "weapon": "plasma_gun"}]
    assert not after.has_figure("O2")


def test_the_two_cards_arm_orks_with_a_plasma_gun_and_gretchin_with_a_missile():
    by_id = {card.id: card for card in load_cards()}
    assert modifiers_for(by_id["ork_mek"]).special_weapon == SpecialWeapon(
        "ork_mek", frozenset({"ork"}), "plasma_gun", firer_dies=True
    )
    assert modifiers_for(by_id["gretchin_with_bomb"]).special_weapon == SpecialWeapon(
        "gretchin_with_bomb", frozenset({"gretchin"}), "missile_launcher"
    )


def test_the_special_weapon_effect_is_checked_when_the_deck_is_loaded():
    with pytest.raises(EventDataError, match="ork_mek|cards\\[\\d+\\].effect.weapon"):
        load_cards({"ork_mek": {"effect": {"code": "special_weapon", "units": ["ork"]}}})
    with pytest.raises(EventDataError, match="firer_dies"):
        load_cards(
            {
                "ork_mek": {
                    "effect": {
                        "code": "special_weapon",
                        "units": ["ork"],
                        "weapon": "plasma_gun",
                        "firer_dies": "yes",
                    }
                }
            }
        )


#: A heavy Chaos Marine C and marine A, beside K, who stands safe in claw 1 (drawn on the
#: right, then moved in): C's plasma line west or its missile at A would reach K too.
CLAW_IN_LINE = """
+--+--+--+--+--+--+--+
|.1 .1 .A .  .  .  .C|
+--+--+--+--+--+--+--+
|.K .  .  .  .  .  . |
+--+--+--+--+--+--+--+
"""


@pytest.mark.parametrize("weapon", ["plasma_gun", "missile_launcher"])
def test_an_area_weapon_counts_no_marine_safe_in_a_claw(weapon):
    """The area rule counted a marine in a docking claw, which combat never hits: a line
    combat did not have left the alien doing nothing after its move."""
    legend = {"C": alien("chaos_marine_heavy", weapons=[weapon]), "A": marine()}
    legend["K"] = marine(id="K")
    state = scene(CLAW_IN_LINE, legend)
    state = state.with_figure(state.figure("K").moved_to(((1, 0),)))
    assert state.board.claw_of((1, 0)) is not None
    after, steps = resolve_alien_turn(state, policy_named("bob"), SeededDice(seed=2))
    assert steps_of(steps, "area_choice") == [{"figure": "C", "marines": 1}]
    assert not steps_of(steps, "attack_unavailable")
    assert after.figure("K").life_points == state.figure("K").life_points


#: Gretchin G reaches marines A and B only through the door D. Only a bomb on (3,2), the
#: square past the door, catches both; with the door open its blast reaches (2,1) too,
#: where the Ork O stands, held by its fight with marine M (p2).
PAST_THE_DOOR = """
+--+--+--+--+--+--+--+--+
|.  .  . |.  .  .  .  . |
+  +  +  +  +  +  +  +  +
|.  .M .O|.A .  .  .  . |
+  +  +  +  +  +  +  +  +
|.G .  . D.  ## .  .  . |
+  +  +  +  +  +  +  +  +
|.  .  . |.  .B .  .  . |
+  +  +  +  +  +  +  +  +
|.  .  . |.  .  .  .  . |
+--+--+--+--+--+--+--+--+
"""


@pytest.mark.parametrize("policy", ["bob", "priority"])
def test_an_aim_is_weighed_with_the_doors_on_the_way_open(policy):
    """The aims were weighed with the door closed: G went through it to throw at (3,2),
    whose blast then reached O, so combat had no such attack for it and the card was spent
    for nothing. Weighed with the door open, (3,2) is never taken."""
    legend = {
        "G": alien("gretchin"),
        "O": alien("ork"),
        "A": marine(),
        "B": marine(),
        "M": marine(player="p2"),
    }
    state = with_card(scene(PAST_THE_DOOR, legend), "gretchin_with_bomb")
    dice = ScriptedDice(values=[0, 0, 0, 0, 3, 3])  # O and M's fight, then the bomb
    after, steps = resolve_alien_turn(state, policy_named(policy), dice)
    assert steps_of(steps, "special_weapon_used") == [{"figure": "G", "weapon": "missile_launcher"}]
    assert {"figure": "G", "a": [2, 2], "b": [3, 2]} in steps_of(steps, "door_opened")
    [chosen] = [s for s in steps_of(steps, "attack_chosen") if s["figure"] == "G"]
    assert chosen["target"] != "3,2"
    assert not steps_of(steps, "attack_unavailable")
    assert [r.params.get("weapon") for r in dice.log][-1] == "missile_launcher"
    assert after.figure("O").life_points == 1
