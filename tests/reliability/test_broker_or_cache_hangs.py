"""One of Redis's two uses hangs while the other is answered (tests/reliability/redis_proxy.py):
the broker's connections time out and the cache answers, or the other way round. Either way
a judge's writes are saved and each waits for Redis at most about one REDIS_TIMEOUT_SECONDS
(the use that failed makes the other skip Redis for the cool-down too), the Alien turn is
played (in the web process when it cannot be queued, else by the worker), a player's
loadout is saved and a scheduling's notices are written (sent, or pending for the sweep),
and once Redis answers again a write waits for nothing. /healthz says the broker's
connections hang (degraded) after one timeout, and "ok" for the broker once they answer."""

from __future__ import annotations

import time

import pytest
from django.test import Client
from django.urls import reverse

from bob.celery import app as celery_app
from table.actions import create_game
from table.models import AlienTurnRequest, TurnStatus
from tests.reliability.browser import Browser
from tests.reliability.redis_proxy import BROKER, CACHE, RedisProxy
from tests.reliability.stack import RedisServer, Worker, health, wait_until, web_server
from tests.table.conftest import seat_squads
from tests.web.conftest import PASSWORD, build_world
from tests.web.test_result_form import page_data
from tournaments.models import Loadout, Notice, Result, Seat, Session

pytestmark = [
    pytest.mark.services,
    pytest.mark.celery_worker,
    pytest.mark.django_db(transaction=True),
]

#: REDIS_TIMEOUT_SECONDS here: long beside a write (a fraction of a second), so that a write
#: waiting for Redis once, twice or not at all are told apart on a busy machine.
TIMEOUT = 2.0
#: REDIS_COOLDOWN_SECONDS here: long enough for the writes below.
COOLDOWN = 6.0
#: A loadout the player's form takes (the default catalogue).
LOADOUT = {
    "commander_combo": "bolter",
    "marine_1": "laser-rifle",
    "marine_2": "plasma-gun",
    "marine_3": "laser-rifle",
    "marine_4": "missile-launcher",
    "order_cards": ["fire"],
    "equipment_cards": ["bio-scanner", "blind-grenades", "bolt-pistols", "medi-kit"],
}


@pytest.fixture(autouse=True)
def _through_the_broker(monkeypatch):
    monkeypatch.setitem(celery_app.conf, "task_always_eager", False)


def _form(client: Client, url: str) -> dict:
    return {**page_data(client.get(url).context["form"]), "reason": "Counted again"}


@pytest.mark.parametrize("hung", [BROKER, CACHE])
def test_one_use_of_redis_hanging_costs_a_write_one_timeout_and_loses_nothing(
    hung, stack_env, tmp_path
):
    world = build_world()
    seat_squads(world)
    url = reverse("tournaments:judge_result", args=[world.session.pk])
    local = Client()
    local.force_login(world.judge)
    # The Alien turn at another of the judge's tables: a saved result closes a session's board.
    table = world.stage.sessions.exclude(pk=world.session.pk).filter(judge=None).first()
    Session.objects.filter(pk=table.pk).update(judge=world.judge)
    squads = world.tournament.squads.order_by("order", "pk")
    for seat, squad in zip(table.seats.order_by("seat_order"), squads, strict=False):
        Seat.objects.filter(pk=seat.pk).update(squad=squad)
    hunt = create_game(table, "hunt-derelict", "bob", label="Table 2")
    turn_url = reverse("table:alien_turn", args=[table.pk, hunt.number])
    # A player's loadout and the organiser's scheduling (its notices queued) at the third.
    planned = world.stage.sessions.exclude(pk__in=[world.session.pk, table.pk]).get()
    for seat, squad in zip(planned.seats.order_by("seat_order"), squads, strict=False):
        Seat.objects.filter(pk=seat.pk).update(squad=squad)
    seat = planned.seats.order_by("seat_order").first()
    redis = RedisServer(tmp_path).start()
    proxy = RedisProxy(redis.port, stack_env["CACHE_KEY_PREFIX"]).start()
    env = {
        **stack_env,
        "REDIS_URL": proxy.url,
        "REDIS_TIMEOUT_SECONDS": str(TIMEOUT),
        "REDIS_COOLDOWN_SECONDS": str(COOLDOWN),
        "BOB_HEARTBEAT_SECONDS": "1",
    }
    markers = tmp_path / "markers"
    markers.mkdir()
    worker = Worker(env, markers, "proxied").start()
    try:
        with web_server(env, workers=1) as base:
            judge = Browser(base)
            assert judge.log_in("judge", PASSWORD).status == 200
            # Both uses answered once: the web process's cache and broker connections exist.
            assert judge.post(url, _form(local, url)).status == 200
            proxy.hung = hung
            first = judge.post(url, _form(local, url))
            second = judge.post(url, _form(local, url))
            turn = judge.post(
                turn_url,
                {"turn-policy": "bob", "turn-mode": "app", "turn-version": hunt.latest().number},
            )
            request = AlienTurnRequest.objects.filter(game=hunt).latest("created_at")
            player = Browser(base)
            player.get(f"/p/{seat.player.access_token}/")
            loadout = player.post(reverse("tournaments:player_loadout", args=[seat.pk]), LOADOUT)
            organiser = Browser(base)
            organiser.log_in("organiser", PASSWORD)
            scheduled = organiser.post(
                reverse(
                    "tournaments:organiser_session_schedule",
                    args=[world.tournament.slug, planned.pk],
                ),
                {
                    f"s{planned.pk}-scheduled_at": "2026-12-20T15:00",
                    f"s{planned.pk}-version": str(planned.version),
                    "confirm": "1",
                },
            )
            wait_until(
                lambda: AlienTurnRequest.objects.get(pk=request.pk).status == TurnStatus.DONE,
                timeout=60,
                what="the Alien turn",
            )
            proxy.hung = None
            time.sleep(COOLDOWN + 0.5)
            third = judge.post(url, _form(local, url))
    finally:
        worker.stop()
        proxy.close()
        redis.stop()
    for answer in (first, second, turn, loadout, scheduled, third):
        assert answer.status == 200, answer.body[:2000]
    assert Result.objects.get(session=world.session).versions.count() == 4
    assert Loadout.objects.get(seat=seat).commander_combo == LOADOUT["commander_combo"]
    # The notices are written: sent by the worker, or pending for the scheduler's sweep.
    assert Notice.objects.filter(seat__session=planned).count() == 3
    # The first write waited for the use that hangs once; within the cool-down the next
    # ones, the Alien turn too, wait for neither use; Redis answering again, nor does the last.
    assert first.seconds < TIMEOUT * 1.75, first.seconds
    assert second.seconds < TIMEOUT * 0.75, second.seconds
    assert turn.seconds < TIMEOUT * 0.75, turn.seconds
    assert third.seconds < TIMEOUT * 0.75, third.seconds


def test_healthz_says_the_broker_s_connections_hang_after_one_timeout(stack_env, tmp_path):
    """Redis answers the heartbeats' connection but not the broker's: /healthz said "ok"
    while every task queued waited for its timeout."""
    redis = RedisServer(tmp_path).start()
    proxy = RedisProxy(redis.port, stack_env["CACHE_KEY_PREFIX"]).start()
    env = {**stack_env, "REDIS_URL": proxy.url, "REDIS_TIMEOUT_SECONDS": str(TIMEOUT)}
    try:
        with web_server(env, workers=1) as base:
            before = health(base)[1]
            proxy.hung = BROKER
            started = time.monotonic()
            status, hung = health(base)
            waited = time.monotonic() - started
            proxy.hung = None
            after = health(base)[1]
    finally:
        proxy.close()
        redis.stop()
    assert before["broker"] == {"status": "ok", "mode": "redis"}, before
    assert status == 200 and hung["status"] == "degraded", hung
    assert hung["broker"]["status"] == "error"
    assert hung["broker"]["error"].startswith("the task queue does not answer"), hung
    assert hung["problems"][0].startswith("broker: the task queue does not answer")
    assert waited < TIMEOUT * 1.75, waited
    assert after["broker"] == {"status": "ok", "mode": "redis"}, after
