"""The board's turn panel (issue 13): refusals naming the rule, end turn, next round,
chapter cards and the end of the game, with the no-JS forms."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from django.urls import reverse

from rules.engine.movement import distance_field
from rules.engine.session_records import TurnRecord
from rules.engine.state import Stipulation
from table.actions import create_game, latest_snapshot, snapshot_state, upload_state
from table.models import Snapshot
from table.seating import game_player_id
from table.turn_panel import card_form
from tests.table.conftest import client_for
from tournaments.models import Loadout


def url(game, name: str) -> str:
    return reverse(f"table:{name}", args=[game.session.pk, game.number])


def post(client, game, name: str, **data):
    data.setdefault("version", latest_snapshot(game).number)
    return client.post(url(game, name), data)


def current(game):
    return snapshot_state(latest_snapshot(game))


@pytest.fixture
def judge(table):
    return client_for(table.judge)


def test_the_board_shows_the_round_and_who_plays(game, judge):
    page = judge.get(url(game, "board")).content.decode()
    state = current(game)
    assert state.active_player == state.initiative[0]
    seat = next(s for s in game.session.seats.select_related("player") if game_player_id(s) == "p1")
    assert "Round 1" in page and f"{seat.player.display_name} (p1) is playing." in page
    assert 'action="' + url(game, "end_turn") + '"' in page


def move(client, game, figure: str, square: tuple[int, int]):
    version = latest_snapshot(game).number
    data = {"move-figure": figure, "move-square": f"{square[0]},{square[1]}"}
    return client.post(url(game, "move"), {**data, "move-version": version})


def test_a_second_move_too_far_is_refused_naming_the_rule(game, judge):
    state = current(game)
    near = distance_field(state, "p1-cmd")
    first = next(sq for sq, d in sorted(near.reachable(6).items()) if d == 2)
    assert move(judge, game, "p1-cmd", first).status_code == 302
    state = current(game)
    assert state.turn.of("p1-cmd").moved == 2
    field = distance_field(state, "p1-cmd")
    far = next(sq for sq, d in sorted(field.reachable(6).items()) if d == 5)
    before = latest_snapshot(game).number
    response = move(judge, game, "p1-cmd", far)
    assert response.status_code == 400 and latest_snapshot(game).number == before
    assert "has used 2 of its 6 squares in this move: 5 more is too far (rule: a figure moves " in (
        response.content.decode()
    )


def test_end_turn_passes_to_the_next_player_and_then_the_aliens(game, judge):
    state = current(game)
    response = post(judge, game, "end_turn")
    assert response.status_code == 302
    after = current(game)
    assert after.active_player == state.initiative[1]
    assert latest_snapshot(game).steps[0]["code"] == "turn_passes"
    for _ in state.initiative[1:]:
        post(judge, game, "end_turn")
    assert current(game).turn.aliens_phase
    refused = post(judge, game, "end_turn")
    assert refused.status_code == 400
    assert "the Alien turn now closes the round" in refused.content.decode()


def test_next_round_is_refused_while_aliens_are_in_play(game, judge):
    for _ in current(game).initiative:
        post(judge, game, "end_turn")
    page = judge.get(url(game, "board")).content.decode()
    assert url(game, "next_round") not in page  # not offered: the aliens close the round
    response = post(judge, game, "next_round")
    assert response.status_code == 400
    assert "the Alien turn closes the round" in response.content.decode()


def first_player_holding(table, order_cards: list[str], equipment_cards: list[str]):
    """A new game in which the first seat's player ``p1``, holding these loadout cards
    (catalogue slugs), is playing."""
    seat = table.session.seats.order_by("seat_order").first()
    Loadout.objects.filter(seat=seat).update(
        order_cards=order_cards, equipment_cards=equipment_cards
    )
    game = create_game(table.session, "hunt-derelict", "bob", actor=table.judge)
    state = current(game)
    upload_state(
        game,
        json.dumps(state.replace(active_player="p1").to_json()),
        expected_number=1,
    )
    return game


def test_an_order_card_from_the_loadout_is_played_from_the_board(table, judge):
    game = first_player_holding(table, ["fire"], ["medi-kit"])
    assert current(game).player("p1").cards == ("fire", "medi_kit")
    page = judge.get(url(game, "board")).content.decode()
    assert "Fire!" in page
    assert "Marine named by the card" not in page  # only Heavy Weapon! names one
    response = post(judge, game, "play_card", card="fire")
    assert response.status_code == 302
    assert current(game).turn.order_card == "fire"
    again = post(judge, game, "play_card", card="fire")
    assert again.status_code == 400  # no longer among the choices


def test_heavy_weapon_names_one_of_the_players_heavy_weapon_marines(table, judge):
    """Heavy Weapon! asks for the marine who acts twice, among the active player's
    heavy-weapon marines only (not the commander, the others or another player's)."""
    game = first_player_holding(table, ["heavy-weapon"], [])
    page = judge.get(url(game, "board")).content.decode()
    assert "Marine named by the card" in page
    offered = card_form(current(game)).fields["figure"].choices
    assert offered == [("", "—"), ("p1-m2", "p1-m2")]
    response = post(judge, game, "play_card", card="heavy_weapon", figure="p1-m2")
    assert response.status_code == 302
    assert (current(game).turn.order_card, current(game).turn.order_figure) == (
        "heavy_weapon",
        "p1-m2",
    )


def test_a_tpk_final_is_played_to_its_end_from_the_board(game, judge):
    state = current(game)
    survivors = [f for f in state.figures if f.player == "p1"]
    state = state.replace(
        figures=tuple(survivors),
        blips=(),
        reinforcements=(),
        stipulation=Stipulation("tpk", {}),
        active_player=state.initiative[0],
        turn=TurnRecord(),
    )
    upload_state(game, json.dumps(state.to_json()), expected_number=1)
    while not current(game).turn.aliens_phase:
        assert post(judge, game, "end_turn").status_code == 302
    assert post(judge, game, "next_round").status_code == 302
    over = current(game)
    assert over.outcome is not None and over.outcome.reason == "last_squad"
    assert over.outcome.winners == ("p1",)
    page = judge.get(url(game, "board")).content.decode()
    winner = game.session.seats.get(seat_order=1).player.display_name
    assert "The game is over" in page and f"Winner: {winner}." in page
    assert 'id="alien-turn"' not in page  # no Alien turn to run once the game is over
    refused = move(judge, game, "p1-m1", (1, 1))
    assert refused.status_code == 400 and "the game is over" in refused.content.decode()


def test_the_turn_panel_reads_in_italian(game, judge):
    judge.cookies["django_language"] = "it"
    page = judge.get(url(game, "board"), HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert "Round 1" in page and "Termina il turno" in page


def test_a_catch_the_flag_game_starts_with_its_flags_on_the_maps_spots(table):
    stage = table.session.stage
    stage.stipulation_kind = "catch_the_flag"
    stage.stipulation_params = {"flag_value": 30, "flags": "one_for_all", "hidden_flags": True}
    stage.save(update_fields=["stipulation_kind", "stipulation_params"])
    game = create_game(table.session, "flag-relay", "bob", actor=table.judge)
    state = current(game)
    assert len(state.flags) == 1 and state.flags[0].square in state.board.flag_spots
    assert state.flags[0].hidden


def test_the_touch_board_lights_only_what_the_turn_still_allows(game, judge):
    field = distance_field(current(game), "p1-cmd")
    first = next(sq for sq, d in sorted(field.reachable(6).items()) if d == 2)
    assert move(judge, game, "p1-cmd", first).status_code == 302
    data = judge.get(url(game, "reachable"), {"figure": "p1-cmd"}).json()
    assert data["allowance"] == 6 and data["moves_left"] == 4
    assert max(entry["steps"] for entry in data["squares"]) <= 4


def test_a_tpk_squad_is_out_as_soon_as_its_last_marine_goes(game, judge):
    from table.actions import remove_figure, remove_player_figures

    state = current(game).replace(
        blips=(), reinforcements=(), stipulation=Stipulation("tpk", {}), turn=TurnRecord()
    )
    upload_state(game, json.dumps(state.to_json()), expected_number=1)
    for figure in state.figures_of("p2"):
        number = latest_snapshot(game).number
        remove_figure(game, figure.id, "dead", "shot at the table", expected_number=number)
    snapshot = latest_snapshot(game)
    assert [step["code"] for step in snapshot.steps] == ["squad_eliminated"]
    assert current(game).progress.eliminated == (("p2", 1),) and current(game).outcome is None
    remove_player_figures(game, "p3", "forfeit", expected_number=snapshot.number)
    over = current(game)
    assert over.outcome is not None and over.outcome.reason == "last_squad"
    assert over.outcome.round == 1 and over.outcome.winners == ("p1",)
    assert over.outcome.ranking[0] == "p1" and set(over.outcome.ranking[1:]) == {"p2", "p3"}
    judge.cookies["django_language"] = "it"
    log = judge.get(url(game, "step_log"), HTTP_ACCEPT_LANGUAGE="it").content.decode()
    names = {s.seat_order: s.player.display_name for s in game.session.seats.all()}
    assert f"La squadra di {names[3]} è eliminata" in log and f"Classifica: {names[1]}" in log


def test_next_round_is_offered_once_the_players_have_played_and_no_alien_is_to_act(table):
    stage = table.session.stage
    stage.stipulation_kind = "tpk"
    stage.stipulation_params = {}
    stage.map_name = "tpk-ring"
    stage.save()
    game = create_game(table.session, "tpk-ring", "bob", actor=table.judge)
    judge = client_for(table.judge)
    assert url(game, "next_round") not in judge.get(url(game, "board")).content.decode()
    for _ in current(game).initiative:
        post(judge, game, "end_turn")
    assert url(game, "next_round") in judge.get(url(game, "board")).content.decode()
    assert post(judge, game, "next_round").status_code == 302
    assert current(game).round == 2


def test_the_last_turn_after_the_last_event_card_offers_no_alien_turn(game, judge):
    """RULES §12: after the last event card the players play one last turn with no Alien
    turn. Once they have played, the panel says to start the next round (which ends the
    game) and the board offers neither the Alien turn's form nor its tool button, which
    would only be refused."""
    state = current(game)
    state = state.replace(progress=replace(state.progress, last_event_round=0))
    Snapshot.objects.filter(game=game, number=1).update(state=state.to_json())
    for _ in state.initiative:
        post(judge, game, "end_turn")
    page = judge.get(url(game, "board")).content.decode()
    assert "Every player has played: start the next round." in page
    assert "the Aliens act, then the round ends" not in page
    assert url(game, "next_round") in page
    assert 'action="' + url(game, "alien_turn") + '"' not in page
    assert 'data-play="alien-turn"' not in page
    assert "Next: start the next round" in judge.get(url(game, "board_partial")).content.decode()
    assert post(judge, game, "next_round").status_code == 302
    assert current(game).outcome.reason == "last_event_card"
