"""Suicide Android (RULES §12, research §5, seed 000 appendix I; game engine decision 22):
the first android whose blast can catch a marine, and no other alien, moves to the square
the area rule picks and explodes; one roll of 2 red dice, whose total every figure around
it takes against its own armour (not through walls); the android leaves the board and
nobody scores it."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rules.engine.ai.plans import hurt_by
from rules.engine.ai.policies import policy_named
from rules.engine.ai.turn import resolve_alien_turn
from rules.engine.combat import resolve_self_destruct
from rules.engine.dice import ScriptedDice, SeededDice
from rules.engine.event_cards import EventDataError, load_cards
from rules.engine.narration import Step, render
from rules.engine.play.events import modifiers_for
from rules.engine.play.progress import with_progress
from rules.engine.play.turn_context import SelfDestruct
from rules.engine.state import GameState, Stipulation
from rules.engine.units import DiceSpec, load_rules_data
from tests.engine.ai_support import steps_of
from tests.engine.combat_scenes import alien, marine, scene
from tests.engine.test_ai_log_italian import english_in
from tests.engine.test_log_languages import italian_in

CARD = "suicide_android"


def with_card(state: GameState) -> GameState:
    """``state`` in an Alien Hunt whose event deck holds Suicide Android only."""
    switches = {"event_deck": True, "event_cards": [CARD]}
    return state.replace(stipulation=Stipulation("alien_hunt", switches))


def blast_rolls(dice) -> list:
    return [roll for roll in dice.log if roll.purpose == "self_destruct"]


#: Android N (4 squares a turn) can reach (4,2), next to marine A (p1) and commander C
#: (p2); no square it reaches is next to B too.
CROWD = """
+--+--+--+--+--+--+--+--+
|.N .  .  .  .  .  .  . |
+  +  +  +  +  +  +  +  +
|.  .  .  .  .A .  .B . |
+  +  +  +  +  +  +  +  +
|.  .  .  .  .  .C .  . |
+--+--+--+--+--+--+--+--+
"""
CROWD_LEGEND = {
    "N": alien("android"),
    "A": marine(),
    "B": marine(player="p2"),
    "C": marine("commander", player="p2"),
}


@pytest.mark.parametrize("policy", ["bob", "priority", "solitaire"])
def test_the_android_moves_where_its_blast_catches_most_marines_and_explodes(policy):
    state = with_card(scene(CROWD, CROWD_LEGEND))
    dice = ScriptedDice(values=[3, 2])  # the blast's two red dice: 5
    after, steps = resolve_alien_turn(state, policy_named(policy), dice)
    assert steps_of(steps, "event_self_destruct") == [{"units": ["android"]}]
    [chosen] = steps_of(steps, "self_destruct_chosen")
    assert chosen["figure"] == "N" and chosen["square"] == [4, 2]
    assert chosen["targets"] == ["A", "C"]
    [move] = steps_of(steps, "move")
    assert move["to"] == [4, 2] and move["steps"] == 4
    # One roll of two red dice for the whole blast, not one per figure.
    [roll] = blast_rolls(dice)
    assert roll.kind.value == "red" and roll.values == (3, 2) and roll.subject == "N"
    [blast] = steps_of(steps, "self_destruct_blast")
    assert blast["square"] == [4, 2] and blast["total"] == 5
    assert blast["squares"] == [[3, 1], [4, 1], [5, 1], [3, 2], [5, 2]]
    assert blast["targets"] == ["A", "C"]
    # Each figure takes the total against its own armour (2): 3 life points each.
    assert steps_of(steps, "damage") == [
        {"target": "A", "amount": 2, "left": 0},  # a marine has only 2
        {"target": "C", "amount": 3, "left": 3},
    ]
    assert not after.has_figure("A") and after.figure("C").life_points == 3
    assert after.figure("B").life_points == state.figure("B").life_points
    # The android is gone and nobody scores it; p1 loses its marine's value.
    assert not after.has_figure("N")
    assert steps_of(steps, "self_destruct_gone") == [{"figure": "N"}]
    assert after.player("p1").score == -5 and after.player("p2").score == 0
    assert not steps_of(steps, "token_taken") and not steps_of(steps, "behaviour_roll")
    assert not steps_of(steps, "self_destruct_unused")


#: Android N stands next to marine A; a wall runs between it and marines W and V.
WALL = """
+--+--+--+--+--+--+
|.  .  .  . |.W . |
+  +  +  +  +  +  +
|.  .  .A .N|.V . |
+  +  +  +  +  +  +
|.  .  .  . |.  . |
+--+--+--+--+--+--+
"""


def test_a_wall_stops_the_blast():
    legend = {"N": alien("android"), "A": marine(), "W": marine(), "V": marine(player="p2")}
    state = with_card(scene(WALL, legend))
    after, steps = resolve_alien_turn(state, policy_named("bob"), ScriptedDice(values=[3, 3]))
    [chosen] = steps_of(steps, "self_destruct_chosen")
    assert chosen["square"] == [3, 1] and chosen["targets"] == ["A"]  # it need not move
    [blast] = steps_of(steps, "self_destruct_blast")
    # The squares beyond the wall, (4,0), (4,1) and (4,2), are out of the blast.
    assert blast["squares"] == [[2, 0], [3, 0], [2, 1], [2, 2], [3, 2]]
    assert blast["targets"] == ["A"]
    assert not after.has_figure("A")
    assert after.figure("W").life_points == after.figure("V").life_points == 2


#: Two corridors a solid row apart. Every square around marine A (p1) is also next to the
#: Ork O, so android N1 cannot explode there; android N2 can catch marine B (p2).
TWO_CORRIDORS = """
+--+--+--+--+--+--+--+--+
|.  .  .  .  .A .  .  . |
+  +  +  +  +  +  +  +  +
|.N .  .  .  .O .  .  . |
+  +  +  +  +  +  +  +  +
|#  #  #  #  #  #  #  # |
+  +  +  +  +  +  +  +  +
|.  .  .  .  .B .  .  . |
+  +  +  +  +  +  +  +  +
|.M .  .  .  .  .  .  . |
+--+--+--+--+--+--+--+--+
"""
TWO_CORRIDORS_LEGEND = {
    "N": alien("android", id="N1"),
    "M": alien("android", id="N2"),
    "O": alien("ork"),
    "A": marine(),
    "B": marine(player="p2"),
}


def test_an_android_whose_blast_would_catch_an_alien_leaves_the_card_to_the_next():
    state = with_card(scene(TWO_CORRIDORS, TWO_CORRIDORS_LEGEND))
    after, steps = resolve_alien_turn(state, policy_named("bob"), SeededDice(seed=1))
    # N1 acts first (its focus, p1, is earlier in initiative) and attacks as usual.
    assert [s["figure"] for s in steps_of(steps, "activation")][:2] == ["N1", "N2"]
    assert [s["figure"] for s in steps_of(steps, "attack_chosen")][0] == "N1"
    [chosen] = steps_of(steps, "self_destruct_chosen")
    assert chosen["figure"] == "N2" and chosen["square"] == [3, 3]
    [blast] = steps_of(steps, "self_destruct_blast")
    # The solid row above is no square of the blast.
    assert blast["squares"] == [[2, 3], [4, 3], [2, 4], [3, 4], [4, 4]]
    assert blast["targets"] == ["B"]
    assert after.has_figure("N1") and after.has_figure("O") and not after.has_figure("N2")


def test_with_no_android_on_the_board_the_card_does_nothing():
    legend = {"N": alien("ork"), "A": marine(), "B": marine(player="p2"), "C": marine()}
    state = with_card(scene(CROWD, legend))
    after, steps = resolve_alien_turn(state, policy_named("bob"), SeededDice(seed=2))
    assert steps_of(steps, "event_self_destruct") == [{"units": ["android"]}]
    assert not steps_of(steps, "self_destruct_chosen") and not steps_of(
        steps, "self_destruct_blast"
    )
    # Said once, at the end of the turn, after the Ork acted as usual.
    assert steps[-2].code == "self_destruct_no_figure"
    assert steps[-2].params == {"units": ["android"]}
    assert steps_of(steps, "activation") == [
        {"figure": "N", "unit": "ork", "criterion": "only_one"}
    ]
    assert after.has_figure("N")


#: Marine A is further from android N than N moves: N cannot explode next to it.
FAR = """
+--+--+--+--+--+--+--+--+--+--+
|.N .  .  .  .  .  .  .  .  .A|
+  +  +  +  +  +  +  +  +  +  +
|.  .  .  .  .  .  .  .  .  . |
+--+--+--+--+--+--+--+--+--+--+
"""


def test_an_android_that_can_catch_no_marine_acts_as_usual():
    state = with_card(scene(FAR, {"N": alien("android"), "A": marine()}))
    after, steps = resolve_alien_turn(state, policy_named("bob"), SeededDice(seed=2))
    assert not steps_of(steps, "self_destruct_chosen")
    assert steps_of(steps, "self_destruct_unused") == [{"units": ["android"]}]
    assert after.has_figure("N")
    [shot] = steps_of(steps, "attack_chosen")  # its own gun, from where it stands
    assert shot["figure"] == "N" and shot["weapon"] == "android_weapon"


def test_the_blast_hurts_every_figure_around_aliens_too():
    """The engine never picks a blast that catches another alien, but the explosion
    itself spares nobody around it (an alien a door's opening revealed on the way)."""
    drawing = """
+--+--+--+--+
|.A .N .O . |
+--+--+--+--+
"""
    state = scene(drawing, {"N": alien("android"), "A": marine(), "O": alien("ork")})
    after, events = resolve_self_destruct(state, "N", DiceSpec(red=2), ScriptedDice([2, 1]))
    # A total of 3: the marine (armour 2) loses 1 life point, the Ork (armour 1) dies.
    assert [(e.kind, e.figure_id) for e in events if e.kind in ("damage", "killed")] == [
        ("damage", "A"),
        ("damage", "O"),
        ("killed", "O"),
    ]
    assert after.figure("A").life_points == 1 and not after.has_figure("O")
    assert events[-1].code == "self_destructed" and not after.has_figure("N")


def test_the_card_makes_androids_explode_with_two_red_dice():
    by_id = {card.id: card for card in load_cards()}
    assert modifiers_for(by_id[CARD]).self_destruct == SelfDestruct(
        CARD, frozenset({"android"}), DiceSpec(red=2)
    )


@pytest.mark.parametrize("dice", [None, {}, {"red": 0}, {"red": "2"}, {"blue": 2}, {"red": True}])
def test_the_self_destruct_effect_is_checked_when_the_deck_is_loaded(dice):
    effect = {"code": "self_destruct", "units": ["android"], "dice": dice}
    with pytest.raises(EventDataError, match="effect.dice"):
        load_cards({CARD: {"effect": effect}})


def test_the_steps_read_in_both_languages():
    state = with_card(scene(CROWD, CROWD_LEGEND))
    _, steps = resolve_alien_turn(state, policy_named("bob"), ScriptedDice(values=[3, 2]))
    _, unused = resolve_alien_turn(
        with_card(scene(FAR, {"N": alien("android"), "A": marine()})),
        policy_named("bob"),
        SeededDice(seed=2),
    )
    legend = {"N": alien("android"), "A": marine(), "W": marine(), "V": marine(player="p2")}
    _, alone = resolve_alien_turn(
        with_card(scene(WALL, legend)), policy_named("bob"), ScriptedDice(values=[3, 3])
    )
    ours = [s for s in steps + unused + alone if "self_destruct" in s.code]
    ours.append(Step("self_destruct_no_figure", {"units": ["android"]}))
    assert {s.code for s in ours} == {
        "event_self_destruct",
        "self_destruct_chosen",
        "self_destruct_blast",
        "self_destruct_gone",
        "self_destruct_unused",
        "self_destruct_no_figure",
    }
    for step in ours:
        italian, english = (
            render(step.code, step.params, "it"),
            render(step.code, step.params, "en"),
        )
        assert not english_in(italian) and not italian_in(english), (italian, english)
        assert "{" not in italian + english
    crowd, wall = [s for s in ours if s.code == "self_destruct_blast"]
    assert render(crowd.code, crowd.params, "en") == (
        "N blows itself up on (4,2): the blast catches 2 figures, A, C, each taking 5 "
        "against its own armour."
    )
    assert render(wall.code, wall.params, "it") == (
        "N si fa esplodere in (3,1): A subisce 6 contro la propria armatura."
    )


#: A wall with a door runs under row 1. Android N, Ork O and marine A: the only squares
#: whose blast catches A lie below the wall, reached through the door.
DOOR = """
+--+--+--+--+--+--+
|.N .  .  .  .  . |
+  +  +  +  +  +  +
|.  .O .  .  .  . |
+--+--+DD+--+--+--+
|.  .  .  .  .  . |
+  +  +  +  +  +  +
|.  .  .A .  .  . |
+--+--+--+--+--+--+
"""


@pytest.mark.parametrize("policy", ["bob", "priority"])
def test_a_square_is_weighed_with_the_doors_on_the_way_open(policy):
    """(2,2) catches A and, once N has opened the door on its way there, the Ork O above
    it: the blast was weighed with the door closed and killed O. The square is weighed as
    the blast will be, with the doors on the android's path open."""
    state = with_card(scene(DOOR, {"N": alien("android"), "O": alien("ork"), "A": marine()}))
    after, steps = resolve_alien_turn(state, policy_named(policy), SeededDice(seed=5))
    [chosen] = steps_of(steps, "self_destruct_chosen")
    assert chosen["square"] == [1, 2] and chosen["targets"] == ["A"]
    assert steps_of(steps, "door_opened") == [{"figure": "N", "a": [2, 1], "b": [2, 2]}]
    [blast] = steps_of(steps, "self_destruct_blast")
    assert blast["targets"] == ["A"]
    assert after.has_figure("O") and not after.has_figure("N")


#: Android N can reach the squares next to both K and L (2 steps) or next to A alone (2
#: steps): K and L are p2's, A is p1's. Row 0's two left squares are docking claw 1.
SPARED = """
+--+--+--+--+--+--+--+
|.1 .1 .  .  .  .  . |
+  +  +  +  +  +  +  +
|.  .  .  .N .  .  .A|
+  +  +  +  +  +  +  +
|.K .L .  .  .  .  . |
+--+--+--+--+--+--+--+
"""


def spared(how: str, with_a: bool = True) -> GameState:
    """SPARED with K and L out of the blast's reach as combat has it: ``shielded`` by p2's
    Blind Grenades, or ``claw``: moved into the docking claw."""
    legend = {"N": alien("android"), "K": marine(player="p2"), "L": marine(player="p2")}
    drawing = SPARED
    if with_a:
        legend["A"] = marine()
    else:
        drawing = SPARED.replace(".A|", ". |")
    state = with_card(scene(drawing, legend))
    if how == "shielded":
        return with_progress(state, shielded=("p2",))
    for fid, square in (("K", (0, 0)), ("L", (1, 0))):
        state = state.with_figure(state.figure(fid).moved_to((square,)))
    assert state.board.claw_of((0, 0)) is not None
    return state


def test_the_two_marines_are_the_android_s_best_square_when_nothing_spares_them():
    state = with_card(
        scene(
            SPARED,
            {
                "N": alien("android"),
                "K": marine(player="p2"),
                "L": marine(player="p2"),
                "A": marine(),
            },
        )
    )
    _, steps = resolve_alien_turn(state, policy_named("bob"), ScriptedDice(values=[3, 3]))
    [chosen] = steps_of(steps, "self_destruct_chosen")
    assert chosen["square"] == [1, 1] and chosen["targets"] == ["K", "L"]


@pytest.mark.parametrize("how", ["shielded", "claw"])
def test_marines_combat_would_not_hurt_are_not_counted_for_the_square(how):
    """K and L, shielded by Blind Grenades or safe in a docking claw, are worth nothing to
    the blast: the android explodes by A instead."""
    state = spared(how)
    after, steps = resolve_alien_turn(state, policy_named("bob"), ScriptedDice(values=[3, 3]))
    [chosen] = steps_of(steps, "self_destruct_chosen")
    assert chosen["square"] == [5, 0] and chosen["targets"] == ["A"]
    assert not after.has_figure("A")
    assert after.figure("K").life_points == after.figure("L").life_points == 2


@pytest.mark.parametrize("how", ["shielded", "claw"])
def test_with_only_marines_combat_would_not_hurt_the_android_does_not_explode(how):
    state = spared(how, with_a=False)
    after, steps = resolve_alien_turn(state, policy_named("bob"), SeededDice(seed=2))
    assert not steps_of(steps, "self_destruct_chosen")
    assert not steps_of(steps, "self_destruct_blast")
    assert steps_of(steps, "self_destruct_unused") == [{"units": ["android"]}]
    assert after.has_figure("N")


def test_in_solitaire_an_android_with_no_marine_left_was_there_to_use_the_card():
    """Solitaire's alien acts no further when no marine is on the board; the log said no
    Android was on the board to use the card although one had activated."""
    drawing = """
+--+--+--+--+
|.N .  .  . |
+--+--+--+--+
"""
    state = with_card(scene(drawing, {"N": alien("android")}))
    _, steps = resolve_alien_turn(state, policy_named("solitaire"), SeededDice(seed=5))
    assert steps_of(steps, "activation")[0]["figure"] == "N"
    assert steps_of(steps, "self_destruct_unused") == [{"units": ["android"]}]
    assert not steps_of(steps, "self_destruct_no_figure")


def test_the_card_s_dice_are_read_once_when_the_deck_is_loaded():
    """The deck's check gives the dice as a DiceSpec (the rules data's check of dice, a
    colour left out counting none), which the turn's modifiers take as they are."""
    by_id = {card.id: card for card in load_cards()}
    assert by_id[CARD].effect["dice"] == DiceSpec(red=2)
    effect = {"code": "self_destruct", "units": ["android"], "dice": {"white": 3}}
    [card] = [c for c in load_cards({CARD: {"effect": effect}}) if c.id == CARD]
    assert card.effect["dice"] == DiceSpec(white=3)
    assert modifiers_for(card).self_destruct.dice is card.effect["dice"]


#: Marine G crews the Tarantula T facing east; commander C (p2) holds a Force Field.
CREWED = """
+--+--+--+--+--+--+--+
|.  .  .  .  .  .  . |
+  +  +  +  +  +  +  +
|.  .G .T .T .  .  . |
+  +  +  +  +  +  +  +
|.C .  .  .  .  .Y . |
+--+--+--+--+--+--+--+
"""


def test_blasts_weigh_armour_as_combat_resolves_it():
    """One filter and one armour for the android's blast and the area weapons
    (``plans.hurt_by``): a Force Field counts for both; a Tarantula gunner's arc counts
    from the squares the attack is made from (the android's blast square, a missile's
    firing square after the move)."""
    legend = {
        "T": marine("tarantula", facing="E"),
        "G": marine(weapons=["laser_rifle"], piloting="T"),
        "C": marine("commander", player="p2"),
        "Y": alien("android"),
    }
    state = scene(CREWED, legend)
    state = state.with_player(replace(state.player("p2"), cards=("force_field",)))
    rules = load_rules_data()
    android, gunner, commander = (state.figure(f) for f in ("Y", "G", "C"))
    for where in (android.squares, ((0, 0),)):
        ids, hits = hurt_by(state, android, [commander], rules, fired_from=where)
        assert ids == ["C"] and hits[0][1] == 3  # Force Field (commander's own armour: 2)
    [(_, in_arc)] = hurt_by(state, android, [gunner], rules, fired_from=android.squares)[1]
    [(_, behind)] = hurt_by(state, android, [gunner], rules, fired_from=((0, 0),))[1]
    assert (in_arc, behind) == (4, 2)
