"""A player's turn (RULES §5, §10 "Turns"): budgets, refusals naming the rule, order
cards, equipment, passing the turn and leaving through a claw."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rules.engine.ai.policies import policy_named
from rules.engine.ai.turn import resolve_alien_turn
from rules.engine.combat import option_for, resolve_attack
from rules.engine.dice import ScriptedDice, SeededDice
from rules.engine.narration import render
from rules.engine.play.blips import survey_section
from rules.engine.play.round_end import close_round
from rules.engine.session_records import FIGHT, SHOT
from rules.engine.state import Figure, GameState, Player, Stipulation, build_state
from rules.engine.turns import (
    TurnError,
    check_attack,
    end_turn,
    leave_through_claw,
    movement_allowance,
    play_order_card,
    record_attack,
    record_move,
    turn_reminders,
    use_equipment,
)
from rules.engine.units import load_rules_data
from tests.engine.combat_scenes import marine, scene

RULES = load_rules_data()

#: Two squads on an open deck; claw 1 on the left edge.
DECK = """
+--+--+--+--+--+--+--+--+--+--+--+--+
|.1 .  .  .  .  .  .  .  .  .  .  . |
+  +  +  +  +  +  +  +  +  +  +  +  +
|.1 .  .  .  .  .  .  .  .  .  .  . |
+  +  +  +  +  +  +  +  +  +  +  +  +
|.  .  .  .  .  .  .  .  .  .  .  . |
+--+--+--+--+--+--+--+--+--+--+--+--+
"""

ORDERS = ("fire", "move_it", "by_section", "close_assault", "heavy_weapon", "photon_grenades")


def figure(fid, sq, player="p1", unit="marine", weapons=("bolter",), lp=2):
    return Figure(fid, "marine", player, unit, (sq,), lp, weapons=weapons)


def deck(cards=ORDERS + ("medi_kit", "blind_grenades", "suspensors", "targeter")) -> GameState:
    figures = [
        figure("p1-cmd", (2, 1), unit="commander", weapons=("bolter",), lp=6),
        figure("p1-m1", (2, 2)),
        figure("p1-hw", (3, 2), unit="heavy_weapon_marine", weapons=("missile_launcher",)),
        figure("p2-m1", (11, 2), player="p2"),
    ]
    players = (Player("p1", claw="1", cards=cards), Player("p2"))
    return build_state(DECK, figures, players=players, active_player="p1")


def moved(state: GameState, fid: str, steps: int) -> GameState:
    return record_move(state, fid, steps, RULES)


def attacked(state: GameState, fid: str, phase: str) -> GameState:
    check_attack(state, state.figure(fid), phase, RULES)
    return record_attack(state, fid, phase)


def refused(code: str, action, *args) -> TurnError:
    with pytest.raises(TurnError) as caught:
        action(*args)
    assert caught.value.code == code
    return caught.value


# --- the plain turn ------------------------------------------------------------------------


def test_a_commander_cannot_move_4_then_1_then_6():
    state = moved(deck(), "p1-cmd", 4)
    state = moved(state, "p1-cmd", 1)  # still the same move: 5 of 6 squares
    error = refused("turn_move_too_far", moved, state, "p1-cmd", 6)
    assert "rule: a figure moves at most its movement" in str(error)
    assert "regola" in error.text_in("it")


def test_a_figure_moves_then_shoots_or_shoots_then_moves_but_not_move_shoot_move():
    state = attacked(moved(deck(), "p1-m1", 2), "p1-m1", SHOT)
    refused("turn_second_move", moved, state, "p1-m1", 1)
    refused("turn_second_attack", attacked, state, "p1-m1", FIGHT)
    other = moved(attacked(deck(), "p1-m1", SHOT), "p1-m1", 6)
    assert other.turn.of("p1-m1").phases == ("shot", "move")


def test_only_the_active_player_acts_and_not_once_the_players_are_done():
    state = deck()
    error = refused("turn_not_active", moved, state, "p2-m1", 1)
    assert "initiative" in str(error)
    state, steps = end_turn(state)
    assert state.active_player == "p2" and steps[0].code == "turn_passes"
    state, steps = end_turn(moved(state, "p2-m1", 1))
    assert state.turn.aliens_phase and steps[0].code == "turn_aliens_next"
    refused("turn_aliens_phase", moved, state, "p1-m1", 1)


def test_a_player_with_no_figure_left_is_skipped():
    state = deck().without_figure("p2-m1")
    state, steps = end_turn(state)
    assert state.active_player is None and state.turn.aliens_phase


def test_an_older_state_starts_tracking_at_the_first_action():
    state = deck().replace(active_player=None)
    state = moved(state, "p2-m1", 1)
    assert state.active_player == "p2"
    refused("turn_not_active", moved, state, "p1-m1", 1)


def test_the_turn_record_survives_the_json_round_trip():
    state = attacked(moved(deck(), "p1-m1", 2), "p1-m1", SHOT)
    state = state.replace(turn=replace(state.turn, order_card="fire"))
    again = GameState.from_json(state.to_json())
    assert again.turn == state.turn and again.players == state.players


# --- order cards ---------------------------------------------------------------------------


def played(code: str, figure_id: str | None = None) -> GameState:
    state, steps = play_order_card(deck(), "p1", code, RULES, figure_id)
    assert steps[0].code == "order_played"
    assert render(steps[0].code, steps[0].params, "it").startswith("p1 gioca ")
    return state


def test_fire_lets_every_figure_shoot_twice_around_its_move():
    state = played("fire")
    state = attacked(moved(attacked(state, "p1-m1", SHOT), "p1-m1", 3), "p1-m1", SHOT)
    refused("turn_second_attack", attacked, state, "p1-m1", SHOT)


def test_move_it_lets_every_figure_move_twice_with_its_shot_between():
    state = played("move_it")
    state = moved(attacked(moved(state, "p1-m1", 6), "p1-m1", SHOT), "p1-m1", 3)
    refused("turn_move_too_far", moved, state, "p1-m1", 4)
    back_to_back = moved(moved(played("move_it"), "p1-m1", 4), "p1-m1", 6)
    assert back_to_back.turn.of("p1-m1").phases == ("move", "move")


def test_by_section_moves_twice_or_shoots_twice_never_both():
    state = played("by_section")
    walker = moved(state, "p1-m1", 6)
    walker = attacked(walker, "p1-cmd", SHOT)
    walker = attacked(walker, "p1-cmd", SHOT)
    error = refused("turn_no_mix", attacked, walker, "p1-m1", SHOT)
    assert "By Section!" in str(error)
    refused("turn_no_mix", moved, walker, "p1-cmd", 1)


def test_close_assault_lets_bolter_marines_shoot_and_fight():
    state = played("close_assault")
    state = attacked(attacked(state, "p1-m1", SHOT), "p1-m1", FIGHT)
    refused("turn_second_attack", attacked, state, "p1-m1", SHOT)
    hw = attacked(state, "p1-hw", SHOT)
    refused("turn_second_attack", attacked, hw, "p1-hw", FIGHT)


def test_heavy_weapon_names_one_heavy_weapon_marine_who_moves_and_shoots_twice():
    refused("turn_card_needs_figure", play_order_card, deck(), "p1", "heavy_weapon", RULES, "p1-m1")
    state = played("heavy_weapon", "p1-hw")
    state = moved(attacked(moved(state, "p1-hw", 4), "p1-hw", SHOT), "p1-hw", 4)
    state = attacked(state, "p1-hw", SHOT)
    refused("turn_second_attack", attacked, state, "p1-hw", SHOT)
    others = attacked(moved(state, "p1-m1", 1), "p1-m1", SHOT)
    refused("turn_second_move", moved, others, "p1-m1", 1)


def test_one_order_card_a_turn_at_its_start_and_only_cards_held():
    state = played("fire")
    error = refused("turn_order_played", play_order_card, state, "p1", "move_it", RULES)
    assert "one order card a turn" in str(error)
    late = moved(deck(), "p1-m1", 1)
    refused("turn_order_late", play_order_card, late, "p1", "fire", RULES)
    spent = replace(deck().player("p1"), cards_spent=("fire",))
    refused("turn_card_not_held", play_order_card, deck().with_player(spent), "p1", "fire", RULES)
    refused("turn_card_wrong_kind", play_order_card, deck(), "p1", "medi_kit", RULES)


#: p1's marine M (bolter) stands on the square before claw 1, next to p2's commander C;
#: p1's commander K has not acted.
BEFORE_THE_CLAW = """
+--+--+--+--+--+--+
|.1 .M .C .  .  . |
+  +  +  +  +  +  +
|.1 .  .  .K .  . |
+--+--+--+--+--+--+
"""


def before_the_claw() -> GameState:
    state = scene(
        BEFORE_THE_CLAW,
        {
            "M": marine(id="p1-m1", weapons=["bolter"]),
            "K": marine("commander", id="p1-cmd"),
            "C": marine("commander", player="p2", id="p2-cmd"),
        },
    )
    p1 = Player("p1", claw="1", cards=ORDERS)
    return state.replace(players=(p1, state.player("p2")), active_player="p1")


def test_no_order_card_after_a_figure_left_through_the_claw():
    state = moved(before_the_claw(), "p1-m1", 1)
    state = state.with_figure(state.figure("p1-m1").moved_to(((0, 0),)))
    state, _ = leave_through_claw(state, "p1-m1")
    assert not state.has_figure("p1-m1")  # it acted this turn, then left the board
    refused("turn_order_late", play_order_card, state, "p1", "fire", RULES)


def test_no_order_card_after_a_figure_died_in_its_own_fight():
    state = attacked(before_the_claw(), "p1-m1", FIGHT)
    option = option_for(state, "p1-m1", target="p2-cmd")
    state, events = resolve_attack(state, option, ScriptedDice(values=[0, 0, 2, 2]))
    assert [e.figure_id for e in events if e.kind == "killed"] == ["p1-m1"]
    refused("turn_order_late", play_order_card, state, "p1", "fire", RULES)


def test_an_order_card_is_still_played_before_any_figure_acts():
    state, steps = play_order_card(before_the_claw(), "p1", "fire", RULES)
    assert state.turn.order_card == "fire" and steps[0].code == "order_played"


def test_a_crewed_tarantula_moves_or_shoots_unless_an_order_allows_both():
    from rules.engine.turns import allowance

    tarantula = Figure("p1-t", "marine", "p1", "tarantula", ((5, 0), (5, 1)), 3)
    plain = allowance(deck(), tarantula, RULES)
    assert not plain.mix and plain.moves == plain.attacks == 1
    assert allowance(played("fire"), tarantula, RULES).mix
    assert not allowance(played("close_assault"), tarantula, RULES).mix


# --- equipment -----------------------------------------------------------------------------


def test_medi_kit_heals_the_commander_once():
    state = deck()
    commander = state.figure("p1-cmd")
    refused("turn_medi_kit", use_equipment, state, "p1", "medi_kit", RULES)
    state = state.with_figure(replace(commander, life_points=2))
    state, steps = use_equipment(state, "p1", "medi_kit", RULES)
    assert state.figure("p1-cmd").life_points == 6 and steps[-1].code == "figure_healed"
    state = state.with_figure(replace(state.figure("p1-cmd"), life_points=1))
    refused("turn_card_not_held", use_equipment, state, "p1", "medi_kit", RULES)


def test_blind_grenades_hide_the_squad_from_the_next_alien_turn():
    from rules.engine.play.targets import targets_of

    state, steps = use_equipment(deck(), "p1", "blind_grenades", RULES)
    assert state.progress.shielded == ("p1",) and targets_of(state, "p1") == []
    assert targets_of(state, "p2")
    assert "Blind Grenades" in render(steps[-1].code, steps[-1].params, "en")


def test_suspensors_let_heavy_weapon_marines_move_six():
    state = deck()
    assert movement_allowance(state, state.figure("p1-hw"), RULES) == 6
    bare = state.with_player(replace(state.player("p1"), cards=()))
    assert movement_allowance(bare, bare.figure("p1-hw"), RULES) == 4


def test_a_figure_reaching_its_claw_leaves_play_for_good():
    start = deck()
    at_claw = start.with_figure(replace(start.figure("p1-m1"), squares=((0, 1),)))
    state, steps = leave_through_claw(at_claw, "p1-m1")
    assert not state.has_figure("p1-m1")
    assert state.progress.left_play[0].id == "p1-m1" and steps[0].params["claw"] == "1"


# --- Bio-Scanner: a reminder while a blip lies face down ---------------------------------------

#: p1 and p2 in the west section A; the east section B holds an ork marker and a gretchin
#: marker, whose blips go face down on the board when B is surveyed.
SCANNED = """
+--+--+--+--+--+--+--+--+
|.  .  .  . |.o .  .  . |
+  +  +  +  +  +  +  +  +
|.  .  .  .  .  .  .  .g|
+--+--+--+--+--+--+--+--+

section A board 0,0 3,1 West
section B board 4,0 7,1 East
marker o ork
marker g gretchin
"""


def scanning(surveyed: tuple[str, ...], switches=None, kind="alien_hunt") -> GameState:
    """Both players hold the Bio-Scanner and p1 plays; the sections ``surveyed`` have had
    their blips placed, as a marine entering them places them."""
    state = build_state(
        SCANNED,
        [figure("p1-m1", (1, 1)), figure("p2-m1", (2, 1), player="p2")],
        players=(Player("p1", cards=("bio_scanner",)), Player("p2", cards=("bio_scanner",))),
        active_player="p1",
        stipulation=Stipulation(kind, switches or {}),
    )
    for section in surveyed:
        state, _ = survey_section(state, section)
    return state


def reminded(state: GameState) -> list[str]:
    """The players reminded of a card through a round: p1 ends the turn (p2 starts), p2
    ends it, the round closes (p1 starts round 2)."""
    steps = []
    for _player in ("p1", "p2"):
        state, more = end_turn(state)
        steps += more
    state, more = close_round(state, RULES)
    assert state.round == 2
    steps += more
    return [s.params["player"] for s in steps if s.code == "card_reminder"]


def test_bio_scanner_reminds_its_player_at_each_turn_while_blips_lie_face_down():
    state = scanning(("A", "B"))
    assert sorted(b.type for b in state.blips) == ["gretchin", "ork"]
    assert reminded(state) == ["p2", "p1"]
    (reminder,) = turn_reminders(state, "p2")
    assert render(reminder.code, reminder.params, "en") == (
        "Reminder for p2: Bio-Scanner — at the start of the turn, look at 3 blips on the board."
    )


def test_no_bio_scanner_reminder_when_no_blip_is_on_the_board():
    # Before any section with markers is surveyed...
    assert scanning(("A",)).blips == ()
    assert reminded(scanning(("A",))) == []
    # ...and once every blip has been revealed.
    assert reminded(scanning(("A", "B")).replace(blips=())) == []


def test_no_bio_scanner_reminder_in_a_game_without_aliens():
    state = scanning(("A", "B"), {"aliens": False, "flag_value": 30}, "catch_the_flag")
    assert state.blips == ()  # the survey placed no alien's blip
    assert reminded(state) == []


def test_without_aliens_a_special_equipment_blip_can_still_be_scanned():
    switches = {"aliens": False, "flag_value": 30, "equipment_blips": {"7,1": "melta"}}
    state = scanning(("A", "B"), switches, "catch_the_flag")
    assert [(b.square, b.type) for b in state.blips] == [((7, 1), "melta")]
    assert reminded(state) == ["p2", "p1"]


# --- event cards played against a player (RULES §12) -----------------------------------------


def limited(limit: str) -> GameState:
    state = deck()
    return state.replace(progress=replace(state.progress, limits=(("p1", limit),)))


def test_report_in_keeps_the_commander_idle_for_that_turn_only():
    state = limited("commander_idle")
    error = refused("turn_event_commander", moved, state, "p1-cmd", 1)
    assert "Report In" in str(error) and "A Rapporto" in error.text_in("it")
    refused("turn_event_commander", attacked, state, "p1-cmd", FIGHT)
    moved(state, "p1-m1", 1)  # the others act as usual
    after, _ = end_turn(state)
    assert after.progress.limits == ()


def test_communications_malfunction_forbids_order_cards():
    refused("turn_event_no_orders", play_order_card, limited("no_orders"), "p1", "fire", RULES)


def test_weapons_jammed_stops_heavy_weapons_only():
    state = limited("heavy_jammed")
    with pytest.raises(TurnError) as caught:
        check_attack(state, state.figure("p1-hw"), SHOT, RULES, "missile_launcher")
    assert caught.value.code == "turn_event_jammed"
    check_attack(state, state.figure("p1-m1"), SHOT, RULES, "bolter")
    check_attack(state, state.figure("p1-hw"), FIGHT, RULES)


def test_the_event_phase_records_the_limit_on_the_chosen_player():
    state = deck().replace(
        stipulation=Stipulation("alien_hunt", {"event_deck": True, "event_cards": ["report"]})
    )
    after, steps = resolve_alien_turn(state, policy_named("bob"), SeededDice(seed=3))
    target = next(s.params["player"] for s in steps if s.code == "event_target_player")
    assert after.progress.limits == ((target, "commander_idle"),)
    assert GameState.from_json(after.to_json()).progress.limits == after.progress.limits
