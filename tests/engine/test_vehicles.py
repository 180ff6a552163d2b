"""Special equipment as board actions (RULES §7, §10; seed 002 "Equipaggiamenti speciali"):
what a special-equipment blip hides, crewing a Tarantula, piloting a Dreadnought, leaving
either, picking up an extra-heavy weapon, each refusal naming its rule, and the scores."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rules.engine.combat import attack_options, option_for, resolve_attack
from rules.engine.dice import ScriptedDice
from rules.engine.geometry import Facing
from rules.engine.kill_scores import score_kill
from rules.engine.narration import render
from rules.engine.play.blips import reveal_blip, reveal_in_sight
from rules.engine.session_records import VEHICLE
from rules.engine.state import Blip, Figure, GameState, Item
from rules.engine.tarantula import move_tarantula
from rules.engine.turns import TurnError, check_attack, check_move, record_attack, record_move
from rules.engine.units import load_rules_data
from rules.engine.vehicles import (
    crew_vehicle,
    equipment_actions,
    leave_vehicle,
    pick_up,
)
from tests.engine.combat_scenes import marine, scene

RULES = load_rules_data()

#: An abandoned Tarantula ``T`` facing east (front on 3,2, centre 2,2, gunner square 1,2),
#: p1's marine ``M`` next to it, commander ``C``, p2's bolter marine ``E`` far east.
YARD = """
+--+--+--+--+--+--+--+--+--+
|.  .  .  .  .  .  .  .  . |
+  +  +  +  +  +  +  +  +  +
|.  .  .M .  .  .  .  .  . |
+  +  +  +  +  +  +  +  +  +
|.  .  .T .T .  .  .  .E . |
+  +  +  +  +  +  +  +  +  +
|.C .  .  .  .  .  .  .  . |
+  +  +  +  +  +  +  +  +  +
|.  .  .  .  .  .  .  .  . |
+--+--+--+--+--+--+--+--+--+
"""


def yard(**legend) -> GameState:
    base = {
        "T": marine("tarantula", player=None, facing="E"),
        "M": marine(weapons=["bolter"]),
        "C": marine("commander", weapons=["bolter"]),
        "E": marine(player="p2", weapons=["bolter"]),
    }
    return scene(YARD, {**base, **legend}).replace(active_player="p1")


def say(step, lang: str) -> str:
    return render(step.code, step.params, lang)


def refused(code: str, call, *args) -> TurnError:
    with pytest.raises(TurnError) as caught:
        call(*args)
    assert caught.value.code == code
    return caught.value


# --- finding -------------------------------------------------------------------------------

#: A room with p1's marine ``M`` looking east at blip squares 4,1 (and 4,3 for a second).
ROOM = """
+--+--+--+--+--+--+--+--+
|.  .  .  .  .  .  .  . |
+  +  +  +  +  +  +  +  +
|.M .  .  .  .  .  .  . |
+  +  +  +  +  +  +  +  +
|.  .  .  .  .  .  .  . |
+  +  +  +  +  +  +  +  +
|.  .  .  .  .  .  .  . |
+--+--+--+--+--+--+--+--+
"""


def room_with_blip(kind: str, **switches) -> GameState:
    state = scene(ROOM, {"M": marine()})
    state = state.replace(blips=(Blip("b1", (4, 1), kind),))
    if switches:
        state = state.replace(stipulation=replace(state.stipulation, switches=switches))
    return state


def test_a_tarantula_blip_leaves_an_abandoned_tarantula_on_its_square():
    found = room_with_blip("tarantula")
    state, steps = reveal_in_sight(found, [found.figure("M")], RULES)
    tarantula = state.figure("tarantula-4-1")
    assert tarantula.player is None and tarantula.side == "marine"
    # centre on the blip's square, front on the first free neighbour with room behind
    assert set(tarantula.squares) == {(4, 1), (4, 0)} and tarantula.facing is Facing.NORTH
    assert not state.blips
    assert say(steps[0], "en") == (
        "The blip on (4,1) hid special equipment: Tarantula, tarantula-4-1, abandoned until a "
        "marine boards it."
    )
    assert "Tarantola, tarantula-4-1" in say(steps[0], "it")
    assert not state.tokens  # equipment is no alien: no token to score


def test_a_dreadnought_blip_leaves_one_to_pilot_of_the_sessions_class():
    state, steps = reveal_blip(
        room_with_blip("abandoned_dreadnought", dreadnought_class="dominator"),
        Blip("b1", (4, 1), "abandoned_dreadnought"),
        RULES,
    )
    dread = state.figure("dreadnought-4-1")
    assert dread.is_dreadnought and dread.player is None and dread.equipment == ("dominator",)
    assert dread.weapons == RULES.dreadnought_weapons("dominator")
    assert steps[0].code == "equipment_found_vehicle"
    assert GameState.from_json(state.to_json()).figure(dread.id) == dread


def test_an_extra_heavy_weapon_blip_leaves_the_weapon_on_its_square():
    state, steps = reveal_blip(room_with_blip("melta"), Blip("b1", (4, 1), "melta"), RULES)
    assert state.items == (Item("item-4-1", (4, 1), "melta"),)
    assert say(steps[0], "it") == (
        "Sotto il blip in (4,1) c'è equipaggiamento speciale: fucile a fusione, a terra finché "
        "un marine non lo raccoglie."
    )
    again = GameState.from_json(state.to_json())
    assert again.items == state.items


def test_an_abandoned_vehicle_cannot_be_attacked_nor_act():
    state = yard()
    assert not [o for o in attack_options(state, "E") if o.target == "T"]
    assert attack_options(state, "T") == []
    error = refused("turn_vehicle_abandoned", check_move, state, state.figure("T"), 1, RULES)
    assert "abbandonato" in error.text_in("it")


# --- crewing a Tarantula -------------------------------------------------------------------


def test_a_marine_next_to_it_crews_the_tarantula_with_its_whole_turn():
    state = yard()
    assert [a.kind for a in equipment_actions(state, "M", RULES)] == ["crew"]
    crewed, steps = crew_vehicle(state, "M", "T")
    gunner = crewed.figure("M")
    assert gunner.piloting == "T" and gunner.squares == ((1, 2),)
    assert crewed.figure("T").player == "p1"
    assert crewed.turn.of("M").phases == (VEHICLE,) == crewed.turn.of("T").phases
    assert say(steps[0], "en").startswith("M takes the controls of Tarantula T")
    # neither the gunner nor the Tarantula does anything else this turn
    error = refused("turn_vehicle_turn", check_move, crewed, crewed.figure("T"), 2, RULES)
    assert "takes the whole turn" in error.text_in("en")
    refused("turn_vehicle_turn", check_attack, crewed, crewed.figure("T"), "shot", RULES)


def test_next_turn_the_crewed_tarantula_moves_six_in_straight_lines_or_shoots():
    crewed, _ = crew_vehicle(yard(), "M", "T")
    crewed = crewed.replace(turn=replace(crewed.turn, figures={}))  # the next turn
    counted = record_move(crewed, "T", 6, RULES)
    moved, _ = move_tarantula(counted, "T", (6, 2), Facing.EAST)
    assert moved.figure("T").squares == ((6, 2), (5, 2)) and moved.figure("M").squares == ((4, 2),)
    refused("turn_tarantula_one_action", check_attack, moved, moved.figure("T"), "shot", RULES)
    refused("turn_crew_acts_with", check_move, moved, moved.figure("M"), 1, RULES)


def test_boarding_refusals_name_the_rule():
    state = yard()
    refused("turn_crew_commander", crew_vehicle, state, "C", "T")
    far = state.with_figure(state.figure("M").moved_to(((6, 0),)))
    error = refused("turn_crew_not_next", crew_vehicle, far, "M", "T")
    assert "one turn to get next to it" in error.text_in("en")
    moved = record_move(state, "M", 1, RULES)
    error = refused("turn_crew_whole_turn", crew_vehicle, moved, "M", "T")
    assert "ha già mosso" in error.text_in("it") and "takes the whole turn" in error.text_in("en")
    crewed, _ = crew_vehicle(state, "M", "T")
    other = crewed.with_figure(replace(crewed.figure("C"), unit="marine"))
    refused("turn_crew_taken", crew_vehicle, other, "C", "T")
    blocked = state.with_figure(Figure("B", "alien", None, "ork", ((1, 2),), 1))
    refused("turn_crew_no_room", crew_vehicle, blocked, "M", "T")
    refused("turn_not_active", crew_vehicle, state.replace(active_player="p2"), "M", "T")


def test_leaving_the_tarantula_takes_a_whole_turn_and_abandons_it():
    crewed, _ = crew_vehicle(yard(), "M", "T")
    refused("turn_crew_whole_turn", leave_vehicle, crewed, "T")
    crewed = crewed.replace(turn=replace(crewed.turn, figures={}))
    left, steps = leave_vehicle(crewed, "M")
    assert left.figure("M").piloting is None and left.figure("M").squares == ((1, 2),)
    assert left.figure("T").player is None
    assert steps[0].code == "vehicle_left"
    refused("turn_vehicle_turn", check_move, left, left.figure("M"), 1, RULES)
    refused("turn_leave_no_crew", leave_vehicle, left, "T")


# --- piloting a Dreadnought -----------------------------------------------------------------

HANGAR = """
+--+--+--+--+--+--+--+--+
|.  .  .  .  .  .  .  . |
+  +  +  +  +  +  +  +  +
|.  .M .D .D .  .  .E . |
+  +  +  +  +  +  +  +  +
|.  .C .D .D .  .  .  . |
+  +  +  +  +  +  +  +  +
|.  .  .  .  .  .  .  . |
+--+--+--+--+--+--+--+--+
"""


def hangar() -> GameState:
    legend = {
        "D": marine("dreadnought", player=None, equipment=["predator"]),
        "M": marine("heavy_weapon_marine", weapons=["plasma_gun"]),
        "C": marine("commander", weapons=["bolter"]),
        "E": marine(player="p2", weapons=["bolter"]),
    }
    return scene(HANGAR, legend).replace(active_player="p1")


def test_a_marine_pilots_the_dreadnought_and_gets_out_beside_it():
    state = hangar()
    refused("turn_crew_commander", crew_vehicle, state, "C", "D")
    piloted, steps = crew_vehicle(state, "M", "D")
    assert piloted.figure("M").squares == () and piloted.figure("D").player == "p1"
    assert say(steps[0], "it").startswith("M entra nel Dreadnought D")
    nxt = piloted.replace(turn=replace(piloted.turn, figures={}))
    # it moves as its class and fires every weapon
    assert RULES.movement("dreadnought", nxt.figure("D").equipment) == 6
    assert {o.weapon for o in attack_options(nxt, "D") if o.target == "E"} >= {"laser_rifle"}
    actions = equipment_actions(nxt, "D", RULES)
    assert actions[0].kind == "leave" and (1, 1) in actions[0].squares
    error = refused("turn_leave_square", leave_vehicle, nxt, "D", (7, 3))
    assert "choose one of" in error.text_in("en")
    out, _ = leave_vehicle(nxt, "D", (2, 0))
    assert out.figure("M").squares == ((2, 0),) and out.figure("D").player is None


def test_destroying_a_piloted_dreadnought_scores_class_and_pilot():
    piloted, _ = crew_vehicle(hangar(), "M", "D")
    piloted = piloted.replace(active_player="p2", turn=replace(piloted.turn, figures={}))
    piloted = piloted.with_figure(replace(piloted.figure("D"), life_points=1))
    shot = option_for(piloted, "E", "bolter", target="D")
    fired = record_attack(piloted, "E", "shot")
    after, events = resolve_attack(fired, shot, ScriptedDice(values=[3, 3]))
    scores = {"p1": 0, "p2": 0}
    for event in events:
        after, _ = score_kill(piloted, after, event, "p2", RULES)
    for p in after.players:
        scores[p.id] = p.score
    predator = RULES.dreadnought_class("predator").class_value
    heavy = RULES.marine_value("heavy_weapon_marine", ("plasma_gun",))
    assert scores == {"p1": -heavy, "p2": predator + heavy}


# --- picking up an extra-heavy weapon -----------------------------------------------------


def test_a_marine_on_the_square_picks_up_the_weapon_instead_of_its_attack():
    state = yard().replace(items=(Item("item-2-1", (2, 1), "lascannon"),))
    assert [a.kind for a in equipment_actions(state, "M", RULES)] == ["crew", "pick_up"]
    armed, steps = pick_up(state, "M", RULES)
    marine_ = armed.figure("M")
    assert marine_.weapons == ("lascannon",) and marine_.unit == "extra_heavy_weapon_marine"
    assert not armed.items
    assert RULES.marine_value(marine_.unit, marine_.weapons) == 15
    assert say(steps[0], "en") == (
        "M picks up the lascannon and leaves its bolter: it is now worth 15 points and "
        "attacks no more this turn."
    )
    refused("turn_picked_up", check_attack, armed, marine_, "shot", RULES)
    check_move(armed, marine_, 2, RULES)  # it may still move


def test_a_picked_up_weapon_makes_the_marine_its_class_makes_it():
    """The weapon's class in the tournament's rules data (its catalogue may make a
    lascannon heavy) makes the marine that picks it up, as it makes a marine armed at the
    set-up: a heavy-weapon marine, moving 4 and worth 10, not an extra-heavy one."""
    rules = load_rules_data({"weapons": {"lascannon": {"weapon_class": "heavy"}}})
    state = yard().replace(items=(Item("item-2-1", (2, 1), "lascannon"),))
    armed, steps = pick_up(state, "M", rules)
    assert armed.figure("M").unit == "heavy_weapon_marine"
    assert steps[0].params["points"] == 10
    assert RULES.marine_unit(("lascannon",)) == "extra_heavy_weapon_marine"
    assert rules.marine_unit(("laser_rifle",)) == "marine"
    assert rules.marine_unit(()) == "marine"


def test_pickup_refusals_name_the_rule():
    state = yard().replace(items=(Item("i", (0, 3), "melta"), Item("j", (2, 1), "melta")))
    error = refused("turn_pickup_commander", pick_up, state, "C", RULES)
    assert "extra-heavy" in error.text_in("en")
    shot = record_attack(state, "M", "shot")
    refused("turn_pickup_attacked", pick_up, shot, "M", RULES)
    elsewhere = state.replace(items=(Item("i", (0, 3), "melta"),))
    refused("turn_pickup_nothing", pick_up, elsewhere, "M", RULES)


def test_heavy_weapon_cards_never_apply_after_a_pickup():
    from rules.engine.turns import is_heavy_weapon_marine

    state = yard(M=marine("heavy_weapon_marine", weapons=["plasma_gun"]))
    state = state.replace(items=(Item("i", (2, 1), "conversion_beamer"),))
    assert is_heavy_weapon_marine(state.figure("M"), RULES)
    armed, _ = pick_up(state, "M", RULES)
    assert not is_heavy_weapon_marine(armed.figure("M"), RULES)


# --- scores of the crew ---------------------------------------------------------------------


def test_a_killed_gunner_scores_five_and_leaves_the_tarantula_abandoned():
    heavy = yard(M=marine("heavy_weapon_marine", weapons=["plasma_gun"]))
    crewed, _ = crew_vehicle(heavy, "M", "T")
    crewed = crewed.replace(active_player="p2", turn=replace(crewed.turn, figures={}))
    crewed = crewed.with_figure(replace(crewed.figure("M"), life_points=1))
    # E fires from outside the Tarantula's arc: the gunner's armour is 2
    behind = crewed.with_figure(crewed.figure("E").moved_to(((0, 2),)))
    shot = option_for(behind, "E", "bolter", target="M")
    after, events = resolve_attack(behind, shot, ScriptedDice(values=[3, 3]))
    for event in events:
        after, _ = score_kill(behind, after, event, "p2", RULES)
    assert {p.id: p.score for p in after.players} == {"p1": -5, "p2": 5}
    assert after.figure("T").player is None
    refused("turn_leave_no_crew", leave_vehicle, after, "T")


def test_the_aliens_ignore_abandoned_vehicles():
    from rules.engine.ai.policies import policy_named
    from rules.engine.ai.turn import resolve_alien_turn
    from rules.engine.dice import SeededDice

    state = yard().with_figure(Figure("O", "alien", None, "ork", ((5, 3),), 1, weapons=("bolter",)))
    state = state.replace(active_player=None)
    after, _ = resolve_alien_turn(state, policy_named("bob"), SeededDice(7))
    assert after.figure("T") == state.figure("T")


def test_the_crewed_tarantulas_reach_lists_front_squares_and_facings():
    from rules.engine.tarantula import tarantula_reach

    crewed, _ = crew_vehicle(yard(), "M", "T")
    reach = tarantula_reach(crewed, "T", 6)
    assert Facing.EAST in reach[(6, 2)]
    assert (7, 2) not in reach  # E stands there
    assert Facing.NORTH in reach[(2, 1)]  # a quarter turn about the centre
    for front, facings in reach.items():
        for facing in facings:
            move_tarantula(crewed, "T", front, facing)  # each one is a legal move


def test_a_dreadnought_blip_without_a_class_set_gives_the_first_class():
    state, _ = reveal_blip(
        room_with_blip("abandoned_dreadnought"), Blip("b1", (4, 1), "abandoned_dreadnought"), RULES
    )
    first = next(iter(RULES.dreadnought_classes))
    assert state.figure("dreadnought-4-1").equipment == (first,)


def test_no_room_for_a_found_tarantula_is_said():
    state = room_with_blip("tarantula")
    crowd = [
        Figure(f"o{i}", "alien", None, "ork", (sq,), 1, weapons=("bolter",))
        for i, sq in enumerate(((4, 0), (5, 1), (4, 2), (3, 1)))
    ]
    for figure in crowd:
        state = state.with_figure(figure)
    state, steps = reveal_blip(state, Blip("b1", (4, 1), "tarantula"), RULES)
    assert steps[0].code == "equipment_no_room" and "by hand" in say(steps[0], "en")
    assert not any(f.unit == "tarantula" for f in state.figures)


def test_the_text_picture_names_abandoned_vehicles_and_lying_weapons():
    from rules.engine.render import render as picture

    text = picture(yard().replace(items=(Item("item-5-3", (5, 3), "melta"),)))
    assert "T: tarantula (abandoned) at 2,2 3,2" in text
    assert "-- item-5-3: melta lying on 5,3" in text
