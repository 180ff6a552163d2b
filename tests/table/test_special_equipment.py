"""Special equipment on the judge's board (RULES §7, §10; docs/turns.md): boarding a
Tarantula and a Dreadnought, leaving them, picking up an extra-heavy weapon, through the
form (no JavaScript) and the touch board's endpoint; refusals naming their rule; the step
log and history in both languages; the proposed result of a destroyed piloted Dreadnought."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from django.utils import translation

from rules.engine.dice import ScriptedDice
from rules.engine.state import MARINE, Figure, GameState, Item
from rules.engine.units import load_rules_data
from table.actions import (
    GameError,
    attack_choices,
    latest_snapshot,
    marine_attack,
    snapshot_state,
    upload_state,
)
from table.equipment_actions import equipment_action
from table.result_from_game import propose_result
from table.snapshot_summaries import snapshot_summary
from table.step_log import log_lines
from tests.table.conftest import abandoned_tarantula, client_for, fresh_turn, url
from tournaments.domain.scoring import (
    DreadnoughtKill,
    LossCause,
    MarineClass,
    MarineKill,
    MarineLoss,
    TarantulaKill,
    score_session,
)
from tournaments.sheets.seats import session_seats

pytestmark = pytest.mark.django_db

RULES = load_rules_data()


def current(game) -> GameState:
    return snapshot_state(latest_snapshot(game))


def placed(game, state: GameState) -> GameState:
    upload_state(game, json.dumps(state.to_json()), expected_number=latest_snapshot(game).number)
    return current(game)


def post(table, game, **fields):
    data = {f"equip-{name}": value for name, value in fields.items()}
    data["equip-version"] = latest_snapshot(game).number
    return client_for(table.judge).post(url("equipment", game), data)


def test_the_judge_crews_a_tarantula_with_the_form_and_moves_it_next_turn(game, table):
    abandoned_tarantula(game)
    response = post(table, game, figure="p1-m1", action="crew", vehicle="tarantula-1")
    assert response.status_code == 302
    state = current(game)
    assert state.figure("p1-m1").piloting == "tarantula-1"
    assert state.figure("p1-m1").squares == ((6, 5),)
    assert state.figure("tarantula-1").player == "p1"
    snapshot = latest_snapshot(game)
    assert snapshot_summary(snapshot) == "p1-m1 boarded tarantula-1 (a whole turn)."
    with translation.override("it"):
        assert snapshot_summary(snapshot) == "p1-m1 è salito su tarantula-1 (un turno intero)."
        assert log_lines(snapshot.steps)[0].text.startswith(
            "p1-m1 prende i comandi della Tarantola tarantula-1"
        )
    # this turn the Tarantula does nothing else: the move is refused, naming the rule
    move = {
        "move-figure": "tarantula-1",
        "move-square": "10,5",
        "move-facing": "E",
        "move-version": latest_snapshot(game).number,
    }
    refused = client_for(table.judge).post(url("move", game), move)
    assert refused.status_code == 400
    assert "takes the whole turn" in refused.content.decode()
    fresh_turn(game, "p1")
    move["move-version"] = latest_snapshot(game).number
    assert client_for(table.judge).post(url("move", game), move).status_code == 302
    assert current(game).figure("tarantula-1").squares == ((10, 5), (9, 5))


def test_a_refusal_names_the_rule_and_changes_nothing(game, table):
    abandoned_tarantula(game)
    before = latest_snapshot(game).number
    response = post(table, game, figure="p1-cmd", action="crew", vehicle="tarantula-1")
    assert response.status_code == 400
    assert "the commander neither crews a Tarantula nor pilots a Dreadnought" in (
        response.content.decode()
    )
    assert latest_snapshot(game).number == before
    with pytest.raises(GameError, match="Choose the Tarantula or Dreadnought"):
        equipment_action(game, "crew", "p1-m1", expected_number=before)


def test_the_touch_board_offers_boarding_as_a_button(game, table):
    abandoned_tarantula(game)
    data = client_for(table.judge).get(url("reachable", game), {"figure": "p1-m1"}).json()
    assert data["equipment"] == [
        {
            "action": "crew",
            "figure": "p1-m1",
            "vehicle": "tarantula-1",
            "label": "Board tarantula-1 (the whole turn)",
        }
    ]
    commander = client_for(table.judge).get(url("reachable", game), {"figure": "p1-cmd"})
    assert commander.json()["equipment"] == []


def test_leaving_the_tarantula_abandons_it(game, table):
    abandoned_tarantula(game)
    post(table, game, figure="p1-m1", action="crew", vehicle="tarantula-1")
    fresh_turn(game, "p1")
    assert post(table, game, figure="tarantula-1", action="leave").status_code == 302
    state = current(game)
    assert state.figure("p1-m1").piloting is None and state.figure("tarantula-1").player is None
    assert snapshot_summary(latest_snapshot(game)) == ("p1-m1 left tarantula-1 and stands on 6,5.")


def test_a_marine_picks_up_a_weapon_and_the_history_says_so(game, table):
    state = current(game)
    square = state.figure("p1-m1").squares[0]
    placed(game, state.replace(items=(Item("item-1", square, "melta"),)))
    fresh_turn(game, "p1")
    assert post(table, game, figure="p1-m1", action="pick_up").status_code == 302
    marine = current(game).figure("p1-m1")
    assert marine.weapons == ("melta",) and marine.unit == "extra_heavy_weapon_marine"
    assert not current(game).items
    assert snapshot_summary(latest_snapshot(game)) == "p1-m1 picked up the melta."
    with translation.override("it"):
        assert snapshot_summary(latest_snapshot(game)) == "p1-m1 ha raccolto fucile a fusione."
    # the board draws no weapon there any more, and the board page shows the form
    page = client_for(table.judge).get(url("board", game)).content.decode()
    assert 'id="equipment"' in page and 'class="item"' not in page


def test_a_destroyed_piloted_dreadnought_is_in_the_proposed_result(game, table):
    state = current(game)
    dread = Figure(
        "p1-dread",
        MARINE,
        "p1",
        "dreadnought",
        ((12, 4), (13, 4), (12, 5), (13, 5)),
        1,
        weapons=RULES.dreadnought_weapons("predator"),
        equipment=("predator",),
    )
    pilot = replace(state.figure("p1-m2"), squares=(), piloting="p1-dread")
    shooter = replace(state.figure("p2-m1").moved_to(((15, 4),)), weapons=("bolter",))
    placed(game, state.with_figure(dread).with_figure(pilot).with_figure(shooter))
    fresh_turn(game, "p2")
    options = attack_choices(current(game), "p2-m1")
    index = next(i for i, o in enumerate(options) if o.target == "p1-dread")
    marine_attack(
        game,
        "p2-m1",
        index,
        ScriptedDice(values=[3, 3]),
        expected_number=latest_snapshot(game).number,
    )
    assert not current(game).has_figure("p1-dread") and not current(game).has_figure("p1-m2")
    proposal = propose_result(game, session_seats(table.session))
    seats = {b.seat: b for b in proposal.breakdowns}
    ids = [str(seat.player_id) for seat in session_seats(table.session)]
    value = RULES.dreadnought_class("predator").class_value
    assert seats[ids[1]].dreadnoughts == (DreadnoughtKill(ids[0], value, MarineClass.HEAVY),)
    assert seats[ids[0]].losses == (MarineLoss(MarineClass.HEAVY, LossCause.PLAYER, ids[1], 1),)
    assert not [note for note in proposal.notes if "Dreadnought" in note]  # computed, no note
    cards = score_session(proposal.breakdowns)
    assert cards[ids[1]].total == value + 10 and cards[ids[0]].total == -10
    assert all(not card.problems for card in cards.values())
    # the board's own scores agree
    assert {p.id: p.score for p in current(game).players}["p2"] == value + 10


def test_a_special_equipment_blip_a_marine_sees_leaves_a_tarantula(game, table):
    from rules.engine.state import Blip

    state = current(game)
    placed(game, state.replace(blips=(Blip("blip-9-5", (9, 5), "tarantula"),)))
    fresh_turn(game, "p1")
    move = {"move-figure": "p1-m1", "move-square": "5,4", "move-version": 0}
    move["move-version"] = latest_snapshot(game).number
    assert client_for(table.judge).post(url("move", game), move).status_code == 302
    found = current(game).figure("tarantula-9-5")
    assert found.player is None and (9, 5) in found.squares
    assert not current(game).blips and not current(game).tokens
    codes = [step["code"] for step in latest_snapshot(game).steps]
    assert "equipment_found_vehicle" in codes
    with translation.override("it"):
        lines = [line.text for line in log_lines(latest_snapshot(game).steps)]
    assert any("Tarantola, tarantula-9-5" in line for line in lines)


def test_a_marine_pilots_a_found_dreadnought_moves_it_next_turn_and_gets_out(game, table):
    state = current(game)
    dread = Figure(
        "dreadnought-1",
        MARINE,
        None,
        "dreadnought",
        ((7, 4), (8, 4), (7, 5), (8, 5)),
        RULES.max_life_points("dreadnought", RULES.dreadnought_weapons("predator")),
        weapons=RULES.dreadnought_weapons("predator"),
        equipment=("predator",),
    )
    state = state.with_figure(dread).with_figure(state.figure("p1-m2").moved_to(((6, 4),)))
    state = state.replace(surveyed_sections=tuple(s.id for s in state.board.sections))
    placed(game, state)
    fresh_turn(game, "p1")
    refused = post(table, game, figure="p1-cmd", action="crew", vehicle="dreadnought-1")
    assert refused.status_code == 400 and "commander" in refused.content.decode()
    assert post(
        table, game, figure="p1-m2", action="crew", vehicle="dreadnought-1"
    ).status_code == (302)
    assert current(game).figure("p1-m2").squares == ()
    fresh_turn(game, "p1")
    move = {
        "move-figure": "dreadnought-1",
        "move-square": "12,4",
        "move-version": latest_snapshot(game).number,
    }
    assert client_for(table.judge).post(url("move", game), move).status_code == 302
    assert current(game).figure("dreadnought-1").square == (12, 4)  # a Predator moves 6
    fresh_turn(game, "p1")
    data = client_for(table.judge).get(url("reachable", game), {"figure": "dreadnought-1"}).json()
    exits = [row for row in data["equipment"] if row["action"] == "leave"]
    assert exits and all(row["figure"] == "dreadnought-1" for row in exits)
    assert post(table, game, figure="dreadnought-1", action="leave", square="9,9").status_code == (
        400
    )
    assert (
        post(
            table, game, figure="dreadnought-1", action="leave", square=exits[0]["square"]
        ).status_code
        == 302
    )
    out = current(game)
    assert out.figure("p1-m2").squares and out.figure("dreadnought-1").player is None


def crewed_and_shot_at(game, table, weapons: tuple[str, ...], unit: str) -> GameState:
    """p1-m1 crews the abandoned Tarantula; then p2-m1, armed with ``weapons``, stands
    west of the gunner (outside the Tarantula's arc) at the start of p2's turn."""
    abandoned_tarantula(game)
    post(table, game, figure="p1-m1", action="crew", vehicle="tarantula-1")
    state = current(game)
    shooter = replace(state.figure("p2-m1").moved_to(((2, 5),)), weapons=weapons, unit=unit)
    placed(game, state.with_figure(shooter))
    return fresh_turn(game, "p2")


def shoot(game, attacker: str, target: str, dice: list[int]) -> None:
    options = attack_choices(current(game), attacker)
    index = next(i for i, o in enumerate(options) if target in o.target_keys)
    marine_attack(
        game,
        attacker,
        index,
        ScriptedDice(values=dice),
        expected_number=latest_snapshot(game).number,
    )


def test_a_killed_gunner_is_a_gunner_kill_in_the_proposed_result(game, table):
    crewed_and_shot_at(game, table, ("bolter",), "marine")
    shoot(game, "p2-m1", "p1-m1", [3, 3])
    assert not current(game).has_figure("p1-m1")
    seats = {b.seat: b for b in propose_result(game, session_seats(table.session)).breakdowns}
    ids = [str(seat.player_id) for seat in session_seats(table.session)]
    assert seats[ids[1]].kills == (MarineKill(ids[0], MarineClass.GUNNER, 1),)
    assert {p.id: p.score for p in current(game).players}["p2"] == 5


def test_a_destroyed_tarantula_scores_ten_to_its_destroyer_only(game, table):
    crewed_and_shot_at(game, table, ("melta",), "extra_heavy_weapon_marine")
    shoot(game, "p2-m1", "tarantula-1", [0, 0, 0, 3, 3, 1])  # the gunner first, then it
    state = current(game)
    assert not state.has_figure("tarantula-1") and state.figure("p1-m1").piloting is None
    seats = {b.seat: b for b in propose_result(game, session_seats(table.session)).breakdowns}
    ids = [str(seat.player_id) for seat in session_seats(table.session)]
    assert seats[ids[1]].tarantulas == (TarantulaKill(ids[0], 1),)
    assert not seats[ids[0]].losses
    cards = score_session(tuple(seats.values()))
    assert cards[ids[1]].total == 10 and cards[ids[0]].total == 0


def test_the_judges_board_names_what_a_special_equipment_blip_hides(game, table):
    from rules.engine.state import Blip

    state = current(game)
    blip = Blip("blip-9-5", (9, 5), "abandoned_dreadnought")
    placed(game, state.replace(blips=(*state.blips, blip)))
    client = client_for(table.judge)
    client.cookies["django_language"] = "it"
    page = client.get(url("board", game), HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert "Dreadnought da pilotare" in page
    english = client_for(table.judge).get(url("board", game)).content.decode()
    assert "blip hiding Dreadnought to pilot" in english
