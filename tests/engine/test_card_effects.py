"""Chapter cards the engine applies to attacks (RULES §5): one scenario per card, scripted
dice, the effect on the dice or armour and its line in the log, in both languages."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rules.engine.ai.area import blast_shot, line_shot
from rules.engine.caches import BoundedCache
from rules.engine.combat import AttackOption, attack_options, resolve_attack
from rules.engine.dice import ScriptedDice
from rules.engine.narration_combat import combat_text
from rules.engine.play.turn_context import TurnContext
from rules.engine.state import Figure, GameState, Player, build_state
from rules.engine.turns import play_order_card
from rules.engine.units import load_rules_data

RULES = load_rules_data()

#: An open deck: p1's commander and marine on the left, aliens and p2 to the right.
DECK = """
+--+--+--+--+--+--+--+--+--+--+
|.  .  .  .  .  .  .  .  .  . |
+  +  +  +  +  +  +  +  +  +  +
|.  .  .  .  .  .  .  .  .  . |
+  +  +  +  +  +  +  +  +  +  +
|.  .  .  .  .  .  .  .  .  . |
+  +  +  +  +  +  +  +  +  +  +
|.  .  .  .  .  .  .  .  .  . |
+--+--+--+--+--+--+--+--+--+--+
"""


def marine(fid, sq, player="p1", unit="marine", weapons=("bolter",), lp=2):
    return Figure(fid, "marine", player, unit, (sq,), lp, weapons=weapons)


def ork(fid, sq):
    return Figure(fid, "alien", None, "ork", (sq,), 1, weapons=("ork_weapon",))


def board(*figures: Figure, cards=(), active="p1") -> GameState:
    players = (Player("p1", cards=tuple(cards)), Player("p2"))
    return build_state(DECK, figures, players=players, active_player=active)


def option(state: GameState, attacker: str, target: str, card: str | None = None) -> AttackOption:
    found = [
        o
        for o in attack_options(state, attacker, data=RULES)
        if target in (o.target, *o.target_keys) and o.card == card
    ]
    assert found, f"no attack of {attacker} on {target} with {card}"
    return found[0]


def lines(events, lang="en") -> list[str]:
    return [combat_text(e.code, e.params, lang) for e in events]


# --- Force Field ---------------------------------------------------------------------------


def test_force_field_gives_the_commander_armour_3_against_players_and_aliens():
    figures = (marine("p1-cmd", (1, 1), unit="commander", lp=6), marine("p2-m1", (6, 1), "p2"))
    shielded = board(*figures, cards=("force_field",), active="p2")
    shot = option(shielded, "p2-m1", "p1-cmd")
    assert shot.params["armour"] == 3
    after, events = resolve_attack(shielded, shot, ScriptedDice(values=[3, 0]), data=RULES)
    assert after.figure("p1-cmd").life_points == 6
    assert "Force Field: p1-cmd's armour is 3" in lines(events)
    assert "Force Field: l'armatura di p1-cmd vale 3" in lines(events, "it")
    bare = board(*figures, active="p2")
    after, _ = resolve_attack(bare, option(bare, "p2-m1", "p1-cmd"), ScriptedDice(values=[3, 0]))
    assert after.figure("p1-cmd").life_points == 5


def test_the_alien_ai_weighs_blasts_and_lines_against_the_force_field_as_combat_does():
    """The Alien AI's expected damage of a missile or a plasma line at a commander with a
    Force Field counts his armour 3, the armour the attack is then resolved against."""
    commander = marine("p1-cmd", (1, 1), unit="commander", lp=6)
    heavy = Figure(
        "c1", "alien", None, "chaos_marine_heavy", ((8, 1),), 1, weapons=("missile_launcher",)
    )
    kept: BoundedCache = BoundedCache(100)

    def blast(cards):
        ctx = TurnContext(
            state=board(commander, heavy, cards=cards), dice=ScriptedDice(), rules=RULES
        )
        return blast_shot(ctx, heavy, "missile_launcher", (1, 1), {}, kept, fired_from=((8, 1),))

    def line(cards):
        ctx = TurnContext(
            state=board(commander, heavy, cards=cards), dice=ScriptedDice(), rules=RULES
        )
        return line_shot(ctx, heavy, "plasma_gun", (8, 1), (-1, 0))

    for shot in (blast, line):
        bare, shielded = shot(()), shot(("force_field",))
        assert 0 < shielded.life_points < bare.life_points


def test_an_alien_hitting_a_force_field_commander_meets_armour_3():
    state = board(
        marine("p1-cmd", (1, 1), unit="commander", lp=6), ork("o1", (2, 1)), cards=("force_field",)
    )
    fight = option(state, "o1", "p1-cmd")
    # The ork's fight wins by 3 (2+2 against 1+0): the loser loses the difference, armour
    # plays no part in a fight; its shot at 3 does not get through armour 3.
    after, _ = resolve_attack(state, fight, ScriptedDice(values=[2, 2, 1, 0]), data=RULES)
    assert after.figure("p1-cmd").life_points == 3
    far = board(
        marine("p1-cmd", (1, 1), unit="commander", lp=6), ork("o1", (5, 1)), cards=("force_field",)
    )
    shot = option(far, "o1", "p1-cmd")
    after, events = resolve_attack(far, shot, ScriptedDice(values=[2, 1]), data=RULES)
    assert after.figure("p1-cmd").life_points == 6 and "card_force_field" in [
        e.code for e in events
    ]


# --- hand-to-hand cards --------------------------------------------------------------------


def test_bolt_pistols_give_bolter_marines_one_more_light_die():
    state = board(marine("p1-m1", (1, 1)), ork("o1", (2, 1)), cards=("bolt_pistols",))
    fight = option(state, "p1-m1", "o1")
    assert fight.params["dice"] == {"red": 0, "white": 3}
    after, events = resolve_attack(state, fight, ScriptedDice(values=[1, 1, 1, 2, 0]), data=RULES)
    assert not after.has_figure("o1")  # 3 against 2
    assert "Bolt Pistols: p1-m1 rolls one more light die" in lines(events)
    laser = board(marine("p1-m1", (1, 1), weapons=("laser_rifle",)), ork("o1", (2, 1)))
    assert option(laser, "p1-m1", "o1").params["dice"] == {"red": 0, "white": 2}


def test_close_assault_blades_fight_diagonally_and_the_opponent_drops_its_strongest_die():
    cards = ("close_assault_blades",)
    state = board(marine("p1-m1", (1, 1)), ork("o1", (2, 2)), cards=cards)
    fight = option(state, "p1-m1", "o1")
    assert fight.params["their_dice"] == {"red": 0, "white": 1}
    after, events = resolve_attack(state, fight, ScriptedDice(values=[1, 0, 0]), data=RULES)
    assert not after.has_figure("o1")
    assert "p1-m1's Close Assault Blades: o1 rolls one die fewer, its strongest" in lines(events)
    # Without the card the ork is out of reach diagonally.
    bare = board(marine("p1-m1", (1, 1)), ork("o1", (2, 2)))
    assert not [o for o in attack_options(bare, "p1-m1", data=RULES) if o.target == "o1"]
    # An alien fighting the bladed marine drops a die too (the Alien turn resolves so).
    alien = board(marine("p1-m1", (1, 1)), ork("o1", (2, 1)), cards=cards)
    assert option(alien, "o1", "p1-m1").params["dice"] == {"red": 0, "white": 1}


def test_photon_grenades_make_the_aliens_fought_this_turn_drop_their_strongest_die():
    state = board(marine("p1-m1", (1, 1), weapons=("laser_rifle",)), ork("o1", (2, 1)))
    state = state.with_player(replace(state.player("p1"), cards=("photon_grenades",)))
    state, _ = play_order_card(state, "p1", "photon_grenades", RULES)
    fight = option(state, "p1-m1", "o1")
    assert fight.params["their_dice"] == {"red": 0, "white": 1}
    after, events = resolve_attack(state, fight, ScriptedDice(values=[0, 1, 1]), data=RULES)
    assert "Photon Grenades!: o1 tira un dado in meno, il più forte" in lines(events, "it")
    assert after.figure("p1-m1").life_points == 2  # 1 against 1: a tie


def test_melta_bomb_is_a_choice_of_the_fight_with_two_more_heavy_dice():
    state = board(marine("p1-m1", (1, 1)), ork("o1", (2, 1)), cards=("melta_bomb",))
    plain = option(state, "p1-m1", "o1")
    melta = option(state, "p1-m1", "o1", card="melta_bomb")
    assert plain.params["dice"] == {"red": 0, "white": 2}
    assert melta.params["dice"] == {"red": 2, "white": 2}
    assert "with the Melta Bomb" in melta.description
    after, events = resolve_attack(state, melta, ScriptedDice(values=[3, 3, 0, 0, 2, 2]))
    assert not after.has_figure("o1")
    assert "Melta Bomb: p1-m1 adds 2 heavy dice (card spent)" in lines(events)
    spent = state.with_player(replace(state.player("p1"), cards_spent=("melta_bomb",)))
    assert not [o for o in attack_options(spent, "p1-m1", data=RULES) if o.card]


# --- Combi-Weapon --------------------------------------------------------------------------


def test_combi_weapon_lets_the_commanders_bolter_fire_as_a_plasma_gun():
    figures = (marine("p1-cmd", (1, 1), unit="commander", lp=6), ork("o1", (6, 1)))
    state = board(*figures, cards=("combi_weapon",))
    plasma = [o for o in attack_options(state, "p1-cmd", data=RULES) if o.card == "combi_weapon"]
    assert plasma and {o.weapon for o in plasma} == {"plasma_gun"}
    line = next(o for o in plasma if "o1" in o.target_keys)
    assert (
        line.description
        == "p1-cmd fires the bolter as a plasma gun (Combi-Weapon) from 1,1 to the right: o1"
    )
    after, events = resolve_attack(state, line, ScriptedDice(values=[2, 1]), data=RULES)
    assert not after.has_figure("o1")
    assert "Combi-Weapon: p1-cmd fires the bolter as a plasma gun" in lines(events)
    marine_only = board(marine("p1-m1", (1, 1)), ork("o1", (6, 1)), cards=("combi_weapon",))
    assert not [o for o in attack_options(marine_only, "p1-m1", data=RULES) if o.card]


def test_cards_change_nothing_for_a_player_without_them():
    state = board(marine("p1-m1", (1, 1)), ork("o1", (2, 1)))
    fight = option(state, "p1-m1", "o1")
    assert fight.params["dice"] == fight.params["their_dice"] == {"red": 0, "white": 2}
    _, events = resolve_attack(state, fight, ScriptedDice(values=[1, 0, 0, 0]), data=RULES)
    assert not [e for e in events if e.kind == "card"]


@pytest.mark.parametrize("card", ["bolt_pistols", "close_assault_blades"])
def test_bolter_cards_need_a_bolter(card):
    state = board(
        marine("p1-m1", (1, 1), weapons=("laser_rifle",)), ork("o1", (2, 1)), cards=(card,)
    )
    fight = option(state, "p1-m1", "o1")
    assert fight.params["dice"] == fight.params["their_dice"] == {"red": 0, "white": 2}


# --- the Alien turn ------------------------------------------------------------------------


@pytest.mark.parametrize("policy", ["bob", "solitaire", "priority"])
def test_an_alien_turn_respects_the_marines_cards(policy):
    from rules.engine.ai.policies import policy_named
    from rules.engine.ai.turn import resolve_alien_turn
    from rules.engine.dice import SeededDice
    from rules.engine.narration import render

    state = board(
        marine("p1-m1", (1, 1)),
        ork("o1", (2, 1)),
        cards=("close_assault_blades", "bolt_pistols"),
        active=None,
    )
    _, steps = resolve_alien_turn(state, policy_named(policy), SeededDice(seed=3))
    text = "\n".join(render(s.code, s.params, "en") for s in steps)
    assert "p1-m1's Close Assault Blades: o1 rolls one die fewer, its strongest" in text
    assert "Bolt Pistols: p1-m1 rolls one more light die" in text
