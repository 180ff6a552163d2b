"""The touch board's endpoints: reachable squares, attack targets with their exact odds, the
stamp every open view polls, and the spectators' read-only view; who may ask for what."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from django.test import Client
from django.urls import reverse
from django.utils.html import escape

from rules.engine.movement import reachable
from rules.engine.session_records import SHOT
from rules.engine.tarantula import tarantula_reach
from rules.engine.turns import record_attack
from table.actions import attack_choices, latest_snapshot, snapshot_state, upload_state
from table.board_svg import name_lines
from tests.table.conftest import client_for, crew_tarantula, figure_name, rearrange, url

pytestmark = pytest.mark.django_db

A_MOVE = {"move-figure": "p1-m2", "move-square": "5,4", "move-version": 1}


def test_reachable_squares_are_the_engines_within_the_full_allowance(game, table):
    response = client_for(table.judge).get(url("reachable", game), {"figure": "p1-m2"})
    assert response.status_code == 200 and response["Cache-Control"] == "no-store"
    data = response.json()
    assert data["step"] == 1 and data["figure"] == "p1-m2"
    assert data["allowance"] == data["moves_left"] == 4
    state = snapshot_state(latest_snapshot(game))
    engine = {sq: steps for sq, steps in reachable(state, "p1-m2", 4).items() if steps}
    assert {tuple(row["square"]): row["steps"] for row in data["squares"]} == engine
    assert {"square": [5, 4], "steps": 3} in data["squares"]
    assert data["from"] == list(state.figure("p1-m2").squares[0])
    assert all(0 < row["steps"] <= 4 for row in data["squares"])


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ({}, "Say which figure"),
        ({"figure": "p9-m9"}, "There is no figure p9-m9 on the board."),
        ({"figure": "ork-1"}, "ork-1 is an alien: aliens move in the Alien turn."),
    ],
)
def test_reachable_refuses_a_bad_figure_with_a_message(game, table, query, message):
    rearrange(game, aliens=[("ork-1", "ork", (10, 10))])
    response = client_for(table.judge).get(url("reachable", game), query)
    assert response.status_code == 400
    assert message in response.json()["error"]


def test_a_crewed_tarantula_lights_where_its_front_may_end_and_which_ways(game, table):
    state = crew_tarantula(game)
    response = client_for(table.judge).get(url("reachable", game), {"figure": "p1-tarantula"})
    assert response.status_code == 200
    data = response.json()
    reach = tarantula_reach(state, "p1-tarantula", 6)
    assert {tuple(row["square"]): tuple(row["facings"]) for row in data["squares"]} == {
        front: tuple(f.value for f in facings) for front, facings in reach.items()
    }
    assert {"square": [13, 5], "steps": 6, "facings": ["E"]} in data["squares"]  # 6 ahead
    assert {"square": [12, 5], "steps": 6, "facings": ["E"]} in data["squares"]
    assert data["doors"] == [] and data["equipment"] == [
        {
            "action": "leave",
            "figure": "p1-tarantula",
            "vehicle": "p1-tarantula",
            "label": "Leave p1-tarantula (the whole turn)",
        }
    ]


def test_targets_list_the_engines_attacks_with_exact_odds(game, table):
    rearrange(game, {"p2-m1": (4, 5)})
    response = client_for(table.judge).get(url("targets", game), {"attacker": "p1-m4"})
    assert response.status_code == 200
    data = response.json()
    state = snapshot_state(latest_snapshot(game))
    options = attack_choices(state, "p1-m4")
    assert [row["index"] for row in data["options"]] == list(range(len(options)))
    fires = f"{figure_name(game, 'p1-m4')} fires the bolter"
    shot = next(row for row in data["options"] if row["description"].startswith(fires))
    option = options[shot["index"]]
    target = next(t for t in shot["targets"] if t["key"] == "p2-m1")
    kill = option.odds.kill_probability("p2-m1")
    assert Fraction(target["kill"]) == kill and target["percent"] == round(float(kill) * 100, 1)
    assert target["squares"] == [[4, 5]] and shot["square"] == [4, 5]
    # Another player's marine is an enemy: only the attacker's own player's are friendly.
    assert target["friendly"] is False and target["name"].startswith("p2-m1 (")


def test_targets_refuse_an_alien_attacker_and_a_missing_one(game, table):
    rearrange(game, aliens=[("ork-1", "ork", (10, 10))])
    client = client_for(table.judge)
    alien = client.get(url("targets", game), {"attacker": "ork-1"})
    assert alien.status_code == 400 and "aliens attack in the Alien turn" in alien.json()["error"]
    assert client.get(url("targets", game)).status_code == 400


def test_the_stamp_changes_with_every_step_and_turn_request(game, table):
    client = Client()
    first = client.get(url("stamp", game)).json()
    assert first["step"] == 1 and first["turn"] == ""
    assert client.get(url("stamp", game)).json() == first
    judge = client_for(table.judge)
    judge.post(url("move", game), A_MOVE)
    moved = client.get(url("stamp", game)).json()
    assert moved["step"] == 2 and moved["stamp"] != first["stamp"]
    judge.post(
        url("alien_turn", game),
        {"turn-version": 2, "turn-policy": "bob", "turn-mode": "app"},
    )
    turned = client.get(url("stamp", game)).json()
    assert turned["stamp"] != moved["stamp"] and turned["turn"] == "done"
    missing = reverse("table:stamp", args=[game.session_id, 99])
    assert client.get(missing).status_code == 404


def test_the_stamp_takes_two_queries(game, django_assert_num_queries):
    with django_assert_num_queries(2):
        Client().get(url("stamp", game))


@pytest.mark.parametrize("name", ["reachable", "targets"])
def test_only_the_sessions_judge_and_organisers_ask_where_to_play(game, table, name):
    query = {"figure": "p1-m2", "attacker": "p1-m2"}
    assert client_for(table.judge).get(url(name, game), query).status_code == 200
    assert client_for(table.organiser).get(url(name, game), query).status_code == 200
    assert client_for(table.other_judge).get(url(name, game), query).status_code == 403
    anonymous = Client().get(url(name, game), query)
    assert anonymous.status_code == 302
    assert anonymous["Location"].startswith(reverse("tournaments:login"))


def test_spectators_watch_read_only_with_the_blips_hidden(game, table):
    rearrange(game, aliens=[("ork-1", "ork", (10, 10))])
    for client in (Client(), client_for(table.other_judge)):
        page = client.get(url("watch", game))
        body = page.content.decode()
        assert page.status_code == 200
        assert 'data-figure="ork-1"' in body and "blip hiding" not in body
        assert 'action="' not in body.split('id="watch"')[1]  # no form to act with
        assert url("stamp", game) in body
        panel = client.get(url("watch_panel", game))
        assert panel.status_code == 200 and "<html" not in panel.content.decode()
    # Spectators may watch, never act.
    response = Client().post(url("move", game), {**A_MOVE, "move-version": 2})
    assert response.status_code == 302 and latest_snapshot(game).number == 2


def test_the_board_names_figures_as_the_log_does(game, table):
    client = client_for(table.judge)
    client.post(url("move", game), A_MOVE)
    body = client.get(url("board", game)).content.decode()
    name = escape(figure_name(game, "p1-m2"))  # its player's marine, with the id drawn on it
    assert f"{name} moved 3 squares" in body
    assert (
        f'<g class="figure" data-figure="p1-m2" data-side="marine" data-name="{name}" '
        'data-square="5,4">'
    ) in body
    assert ">p1-m2</text>" in body
    assert name_lines("ork-blip-1-1") == ["ork", "blip-1-1"] and name_lines("p1-m2") == ["p1-m2"]
    assert 'data-stamp-url="' + url("stamp", game) in body
    assert url("reachable", game) in body and url("targets", game) in body


def test_the_page_offers_undo_of_the_last_step(game, table):
    client = client_for(table.judge)
    assert "Undo the last step" not in client.get(url("board", game)).content.decode()
    client.post(url("move", game), A_MOVE)
    body = client.get(url("board", game)).content.decode()
    assert "Undo the last step" in body
    undo = client.post(url("undo", game), {"version": 2, "number": 1})
    assert undo.status_code == 302 and latest_snapshot(game).restored_from == 1


def _upload(game, state) -> None:
    upload_state(game, json.dumps(state.to_json()), expected_number=latest_snapshot(game).number)


def test_a_marine_without_an_attack_left_lights_no_target_and_says_why(game, table):
    state = rearrange(game, {"p2-m1": (4, 5)})
    _upload(game, record_attack(state, "p1-m4", SHOT))
    data = client_for(table.judge).get(url("targets", game), {"attacker": "p1-m4"}).json()
    assert data["options"] == []
    assert data["refusal"] == (
        f"{figure_name(game, 'p1-m4')} has already attacked this turn (rule: one attack a turn)"
    )


def test_a_marine_whose_player_is_not_on_turn_lights_nothing_and_says_why(game, table):
    state = rearrange(game, {"p2-m1": (4, 5)})
    assert state.active_player == "p1"
    client = client_for(table.judge)
    attack = client.get(url("targets", game), {"attacker": "p2-m1"}).json()
    names = {s.seat_order: s.player.display_name for s in game.session.seats.all()}
    refusal = f"it is {names[1]}'s turn, not {names[2]}'s"  # the players by their names
    assert attack["options"] == [] and attack["refusal"].startswith(refusal)
    move = client.get(url("reachable", game), {"figure": "p2-m1"}).json()
    assert move["squares"] == [] and move["refusal"].startswith(refusal)
    free = client.get(url("reachable", game), {"figure": "p1-m2"}).json()
    assert free["squares"] and free["refusal"] == ""
