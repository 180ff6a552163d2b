"""The judge's board pages: permissions, forms, htmx partials and error messages."""

from __future__ import annotations

import json
import re
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from django.utils.html import escape

from rules.engine.dice import SeededDice
from table.actions import (
    GameError,
    carry_out_turn,
    latest_snapshot,
    request_alien_turn,
    snapshot_state,
)
from table.models import AlienTurnRequest, Game, SnapshotKind, TurnStatus
from tests.table.conftest import client_for, crew_tarantula, figure_name, rearrange, url
from tournaments.domain.typed_dice import TypedDice
from tournaments.models import DiceRoll

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def test_the_sessions_judge_sees_the_board(game, table):
    response = client_for(table.judge).get(url("board", game))
    assert response.status_code == 200
    body = response.content.decode()
    assert "<svg" in body and 'data-figure="p1-cmd"' in body
    assert "Section A surveyed" in body
    first = table.session.seats.order_by("seat_order").first()
    assert first.player.display_name in body and first.squad.name in body


@pytest.mark.parametrize("name", ["board", "board_partial", "state_json", "step_log"])
def test_other_judges_and_the_public_are_kept_out(game, table, name):
    assert client_for(table.other_judge).get(url(name, game)).status_code == 403
    response = Client().get(url(name, game))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("tournaments:login"))
    assert client_for(table.organiser).get(url(name, game)).status_code == 200


def test_other_judge_cannot_move(game, table):
    response = client_for(table.other_judge).post(
        url("move", game), {"move-figure": "p1-m2", "move-square": "5,4", "move-version": 1}
    )
    assert response.status_code == 403
    assert latest_snapshot(game).number == 1


def test_creating_a_game(table):
    client = client_for(table.judge)
    games_url = reverse("table:games", args=[table.session.pk])
    response = client.post(games_url, {"map_name": "tpk-ring", "policy": "priority"})
    game = Game.objects.get(session=table.session)
    assert response.status_code == 302 and response["Location"] == url("board", game)
    assert (game.map_name, game.policy, game.number) == ("tpk-ring", "priority", 1)
    bad = client.post(games_url, {"map_name": "atlantis", "policy": "bob"})
    assert bad.status_code == 400 and "atlantis" in bad.content.decode()
    assert client.get(games_url).status_code == 200


def test_the_new_game_form_starts_on_the_planned_map(table):
    client = client_for(table.judge)
    games_url = reverse("table:games", args=[table.session.pk])
    stage = table.session.stage
    stage.map_name = "flag-relay"
    stage.save(update_fields=["map_name"])
    form = client.get(games_url).context["form"]
    assert form["map_name"].value() == "flag-relay"
    table.session.map_name = "tpk-ring"  # the session's own map wins over its stage's
    table.session.save(update_fields=["map_name"])
    assert client.get(games_url).context["form"]["map_name"].value() == "tpk-ring"
    table.session.map_name = "somewhere else"  # not a bundled map: no choice made
    table.session.save(update_fields=["map_name"])
    assert client.get(games_url).context["form"]["map_name"].value() == "flag-relay"


def test_a_legal_move_redirects_and_an_illegal_one_says_why(game, table):
    client = client_for(table.judge)
    bad = client.post(
        url("move", game), {"move-figure": "p1-m2", "move-square": "5,9", "move-version": 1}
    )
    assert bad.status_code == 400
    assert "needs 8 squares to reach 5,9 but moves at most 4" in bad.content.decode()
    typo = client.post(
        url("move", game), {"move-figure": "p1-m2", "move-square": "five", "move-version": 1}
    )
    assert "Write the square as column,row" in typo.content.decode()
    good = client.post(
        url("move", game), {"move-figure": "p1-m2", "move-square": "5,4", "move-version": 1}
    )
    assert good.status_code == 302
    assert latest_snapshot(game).kind == SnapshotKind.MARINE_MOVE


def test_attack_panel_partial_shows_exact_odds(game, table):
    rearrange(game, {"p2-m1": (4, 5)})
    client = client_for(table.judge)
    response = client.get(url("attack_panel", game), {"attacker": "p1-m4"}, **HTMX)
    body = response.content.decode()
    assert response.status_code == 200 and "<html" not in body
    assert "destroyed with probability" in body and 'name="attack-choice"' in body
    plain = client.get(url("attack_panel", game), {"attacker": "p1-m4"})
    assert plain.status_code == 302 and "attacker=p1-m4" in plain["Location"]


def test_attack_with_physical_dice(game, table):
    rearrange(game, {"p2-m1": (4, 5)})
    client = client_for(table.judge)
    panel = client.get(url("attack_panel", game), {"attacker": "p1-m4"}, **HTMX).content.decode()
    marker = escape(
        f"{figure_name(game, 'p1-m4')} fires the bolter at {figure_name(game, 'p2-m1')}"
    )
    assert marker in panel
    choice = panel[: panel.index(marker)].rsplit('value="', 1)[1].split('"')[0]
    data = {
        "attack-figure": "p1-m4",
        "attack-choice": choice,
        "attack-version": 2,
        "attack-mode": "physical",
        "attack-dice": "3,3",
    }
    response = client.post(url("attack", game), data)
    assert response.status_code == 302
    snapshot = latest_snapshot(game)
    assert snapshot.kind == SnapshotKind.MARINE_ATTACK
    assert DiceRoll.objects.filter(batch=snapshot.dice_batch, source="scripted").exists()
    missing = client.post(url("attack", game), {**data, "attack-version": 3, "attack-dice": "5"})
    assert missing.status_code == 400


def test_alien_turn_button_runs_the_task_and_shows_the_log(game, table):
    rearrange(game, aliens=[("ork-1", "ork", (5, 2))])
    client = client_for(table.judge)
    board = client.get(url("board", game)).content.decode()
    assert "Run the Alien turn" in board
    response = client.post(
        url("alien_turn", game), {"turn-policy": "bob", "turn-mode": "app", "turn-version": 2}
    )
    assert response.status_code == 302 and "request=" in response["Location"]
    page = client.get(response["Location"]).content.decode()
    assert "Alien turn (round 1), policy BoB." in page
    assert "Rolled by the app with seed" in page
    request_id = response["Location"].split("request=")[1].split("#")[0]
    log = client.get(url("step_log", game), {"request": request_id}, **HTMX).content.decode()
    assert "End of the Alien turn." in log and "<html" not in log


def test_a_turn_short_of_typed_dice_offers_them_again(game, table):
    rearrange(game, aliens=[("ork-1", "ork", (5, 2))])
    client = client_for(table.judge)
    # The board refuses too few dice before the turn is queued (tests/table/
    # test_alien_dice.py); a turn that failed all the same is offered again as asked.
    turn = request_alien_turn(game, "priority", TypedDice(values=[1]), expected_number=2)
    response = client.get(url("board", game), {"request": str(turn.pk)})
    page = response.content.decode()
    assert "The Alien turn was not played:" in page and "not enough dice" in page
    # The form keeps the policy and the die typed, so the judge only adds the missing ones.
    assert 'name="turn-dice" value="1"' in page
    assert re.search(r'name="turn-mode" value="physical"[^>]*checked', page)
    assert re.search(r'<option value="priority"[^>]*selected', page)
    # Once the board has moved on, the failed request no longer fills the form.
    rearrange(game, aliens=[("ork-1", "ork", (5, 3))])
    later = client.get(url("board", game), {"request": str(turn.pk)}).content.decode()
    assert 'name="turn-dice" value="1"' not in later


def test_step_log_in_italian(game, table):
    rearrange(game, aliens=[("ork-1", "ork", (5, 2))])
    client = client_for(table.judge)
    client.post(
        url("alien_turn", game), {"turn-policy": "bob", "turn-mode": "app", "turn-version": 2}
    )
    client.cookies["django_language"] = "it"
    log = client.get(url("step_log", game), HTTP_ACCEPT_LANGUAGE="it", **HTMX).content.decode()
    assert "Fine del turno alieno." in log
    page = client.get(url("board", game), HTTP_ACCEPT_LANGUAGE="it")
    assert page.status_code == 200 and "Fine del turno alieno." in page.content.decode()


def test_line_of_sight_partial(game, table):
    client = client_for(table.judge)
    response = client.get(
        url("sight", game), {"los-a": "p1-m4", "los-b": "4,9", "los-for_firing": "on"}, **HTMX
    )
    assert response.status_code == 200 and "Visible" in response.content.decode()
    bad = client.get(url("sight", game), {"los-a": "nobody", "los-b": "4,9"}, **HTMX)
    assert bad.status_code == 400 and "neither a figure id" in bad.content.decode()


def test_bad_upload_shows_the_json_path(game, table):
    data = latest_snapshot(game).state
    data["figures"][2]["life_points"] = 0
    response = client_for(table.judge).post(
        url("upload", game), {"upload-text": json.dumps(data), "upload-version": 1}
    )
    assert response.status_code == 400
    assert "$.figures[2].life_points" in response.content.decode()
    assert latest_snapshot(game).number == 1


def test_download_is_what_alien_turn_reads(game, table, tmp_path, capsys):
    response = client_for(table.judge).get(url("state_json", game))
    assert "attachment" in response["Content-Disposition"]
    path = tmp_path / "state.json"
    path.write_bytes(response.content)
    call_command("alien_turn", input=str(path), seed=3)
    assert json.loads(capsys.readouterr().out)["steps"][0]["code"] == "turn_start"


def test_undo_and_remove_from_the_page(game, table):
    client = client_for(table.judge)
    no_reason = client.post(
        url("remove", game),
        {"remove-figure": "p3-m1", "remove-why": "dead", "remove-reason": "", "remove-version": 1},
    )
    assert no_reason.status_code == 400
    client.post(
        url("remove", game),
        {"remove-figure": "p3-m1", "remove-why": "dead", "remove-reason": "x", "remove-version": 1},
    )
    assert latest_snapshot(game).kind == SnapshotKind.JUDGE_EDIT
    response = client.post(url("undo", game), {"number": 1, "version": 2})
    assert response.status_code == 302
    assert latest_snapshot(game).restored_from == 1


def lose_queued_tasks(monkeypatch):
    """Tasks queued from now on never reach a worker (a lost message)."""
    monkeypatch.setattr("table.actions.queue_after_commit", lambda *args, **kwargs: None)


def test_pending_turn_polls_then_reloads_the_page(game, table, monkeypatch):
    lose_queued_tasks(monkeypatch)
    turn = request_alien_turn(game, "bob", SeededDice(seed=5), expected_number=1)
    client = client_for(table.judge)
    pending = client.get(url("step_log", game), {"request": turn.pk}, **HTMX)
    assert "being resolved" in pending.content.decode()
    assert 'hx-trigger="every 2s"' in pending.content.decode()
    assert "HX-Refresh" not in pending
    carry_out_turn(turn.pk)
    done = client.get(url("step_log", game), {"request": turn.pk, "poll": 1}, **HTMX)
    assert done["HX-Refresh"] == "true"


def test_a_turn_past_its_deadline_shows_failed_and_is_played_on_the_judges_click(
    game, table, monkeypatch, settings
):
    settings.BOB_ALIEN_TURN_DEADLINE_SECONDS = 60
    with monkeypatch.context() as lost:
        lose_queued_tasks(lost)
        turn = request_alien_turn(game, "bob", SeededDice(seed=5), expected_number=1)
    AlienTurnRequest.objects.filter(pk=turn.pk).update(
        queued_at=timezone.now() - timedelta(seconds=61)
    )
    client = client_for(table.judge)
    log = client.get(url("step_log", game), {"request": turn.pk, "poll": 1}, **HTMX)
    page = log.content.decode()
    assert "was not resolved within 60 seconds" in page
    assert "hx-trigger" not in page  # no more polling
    assert url("alien_turn_again", game) in page
    with monkeypatch.context() as still_lost:  # no worker yet: the judge's click plays it
        lose_queued_tasks(still_lost)
        again = client.post(url("alien_turn_again", game), {"request": str(turn.pk)})
    assert again.status_code == 302
    turn.refresh_from_db()
    assert turn.status == TurnStatus.DONE
    assert latest_snapshot(game).kind == SnapshotKind.ALIEN_TURN
    # A second click (or the lost task turning up) plays nothing more.
    twice = client.post(url("alien_turn_again", game), {"request": str(turn.pk)}, follow=True)
    assert "already resolved" in twice.content.decode()
    assert game.snapshots.filter(kind=SnapshotKind.ALIEN_TURN).count() == 1


def test_the_board_opened_again_follows_a_turn_still_being_resolved(game, table, monkeypatch):
    """QA: the board opened without the request in its address showed no pending turn and
    offered the Alien turn again; a second click made a second request, refused later."""
    with monkeypatch.context() as lost:
        lose_queued_tasks(lost)
        turn = request_alien_turn(game, "bob", SeededDice(seed=5), expected_number=1)
    page = client_for(table.judge).get(url("board", game)).content.decode()
    assert "being resolved" in page
    assert f"request={turn.pk}" in page  # the log polls it
    with pytest.raises(GameError, match="already being resolved"):
        request_alien_turn(game, "bob", SeededDice(seed=6), expected_number=1)
    assert game.turn_requests.count() == 1


def test_move_events_are_told_on_the_page(game, table):
    client = client_for(table.judge)
    client.post(
        url("move", game), {"move-figure": "p1-m2", "move-square": "5,4", "move-version": 1}
    )
    page = client.get(url("board", game)).content.decode()
    # The marine by its player's name and kind, the squares as the rulers number them.
    moved = escape(figure_name(game, "p1-m2"))
    assert f"{moved} moved 3 squares: 5,2 → 5,3 → 5,4" in page


def test_a_second_judge_on_an_old_page_is_refused(game, table):
    client = client_for(table.judge)
    data = {"move-figure": "p1-m2", "move-square": "5,4", "move-version": 1}
    assert client.post(url("move", game), data).status_code == 302
    stale = client.post(url("move", game), {**data, "move-figure": "p1-m4", "move-square": "4,4"})
    assert stale.status_code == 400
    assert "The game changed since you opened the page" in stale.content.decode()
    assert latest_snapshot(game).number == 2


def test_an_unknown_turn_request_shows_the_latest_step(game, table):
    client = client_for(table.judge)
    for request_id in ("not-a-uuid", "00000000-0000-0000-0000-000000000000"):
        response = client.get(url("step_log", game), {"request": request_id}, **HTMX)
        assert response.status_code == 200
        assert "Step 1: Setup" in response.content.decode()


def test_life_points_edit_from_the_page(game, table):
    client = client_for(table.judge)
    data = {"lp-figure": "p2-cmd", "lp-life_points": 3, "lp-reason": "", "lp-version": 1}
    assert client.post(url("life_points", game), data).status_code == 400
    response = client.post(url("life_points", game), {**data, "lp-reason": "overruled"})
    assert response.status_code == 302
    assert latest_snapshot(game).state["figures"][5]["life_points"] == 3


def test_judge_moves_a_tarantula_naming_its_facing(game, table):
    crew_tarantula(game)
    data = {"move-figure": "p1-tarantula", "move-square": "9,5", "move-version": 2}
    response = client_for(table.judge).post(url("move", game), data)
    assert response.status_code == 400
    assert "choose which way it faces" in response.content.decode()
    response = client_for(table.judge).post(url("move", game), {**data, "move-facing": "E"})
    assert response.status_code == 302
    state = snapshot_state(latest_snapshot(game))
    assert set(state.figure("p1-tarantula").squares) == {(9, 5), (8, 5)}


def test_with_the_broker_away_the_turn_is_played_in_the_web_process(game, table, monkeypatch):
    from kombu.exceptions import OperationalError

    from table.actions import run_alien_turn

    def refuse(*args, **kwargs):
        raise OperationalError("Error 111 connecting to redis:6379. Connection refused.")

    monkeypatch.setitem(run_alien_turn.app.conf, "task_always_eager", False)  # a real broker
    monkeypatch.setattr(run_alien_turn, "apply_async", refuse)
    client = client_for(table.judge)
    response = client.post(
        url("alien_turn", game), {"turn-policy": "bob", "turn-mode": "app", "turn-version": 1}
    )
    assert response.status_code == 302
    assert AlienTurnRequest.objects.get(game=game).status == TurnStatus.DONE
    # The broker is not asked again at once: the next turn goes in-process straight away.
    calls = []
    monkeypatch.setattr(run_alien_turn, "apply_async", lambda *a, **k: calls.append(a))
    client.post(
        url("alien_turn", game), {"turn-policy": "bob", "turn-mode": "app", "turn-version": 2}
    )
    assert calls == []
    assert AlienTurnRequest.objects.filter(status=TurnStatus.DONE).count() == 2
