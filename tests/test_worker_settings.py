"""How the workers and the web processes talk to the broker (bob/settings.py, bob/celery.py):
a worker never gives up reconnecting, and its connections wait for Redis longer than a web
request's, which waits about REDIS_TIMEOUT_SECONDS; and a worker's main process prepares what
its pool's processes would each prepare on their first tasks before it forks them."""

from __future__ import annotations

import logging
from unittest import mock

from celery import Celery
from celery.signals import celeryd_init, worker_init
from django.conf import settings

from bob.celery import app
from bob.heartbeat import WorkerHeartbeat


def _fresh_app() -> Celery:
    fresh = Celery("bob-settings-test", set_as_current=False)  # shared tasks keep the app
    fresh.config_from_object("django.conf:settings", namespace="CELERY")
    return fresh


def test_a_worker_reconnects_for_ever():
    conf = app.conf
    assert conf.broker_connection_max_retries is None
    assert conf.broker_connection_retry and conf.broker_connection_retry_on_startup
    assert conf.broker_channel_error_retry


def test_a_web_process_waits_for_the_broker_its_redis_timeout():
    timeout = settings.REDIS_TIMEOUT_SECONDS
    options = _fresh_app().connection_for_write().transport_options
    assert options["socket_timeout"] == options["socket_connect_timeout"] == timeout


def test_a_worker_s_connections_wait_longer():
    fresh = _fresh_app()
    celeryd_init.send(sender="celery@test", instance=None, conf=fresh.conf, options={})
    longer = settings.BOB_WORKER_REDIS_TIMEOUT_SECONDS
    assert longer >= 5 and longer > settings.REDIS_TIMEOUT_SECONDS
    assert fresh.connection_for_read().transport_options["socket_timeout"] == longer
    assert fresh.conf.result_backend_transport_options["socket_timeout"] == longer
    # Only that: the other options stay.
    assert fresh.conf.broker_transport_options["visibility_timeout"] == (
        settings.CELERY_VISIBILITY_TIMEOUT_SECONDS
    )


def test_workers_and_the_scheduler_give_heartbeats():
    assert WorkerHeartbeat in app.steps["consumer"]
    assert app.conf.beat_scheduler == "bob.heartbeat:HeartbeatScheduler"
    assert app.conf.beat_max_loop_interval == settings.BOB_HEARTBEAT_SECONDS


def test_a_worker_prepares_its_pool_before_forking_it(caplog):
    """worker_init is sent in the worker's main process before its pool starts (the
    Django fixup's own receiver ignores a sender that is not a worker of this app)."""
    with caplog.at_level(logging.INFO, logger="bob.celery"):
        worker_init.send(sender=mock.Mock(app=None))
    (record,) = [r for r in caplog.records if r.name == "bob.celery"]
    assert record.getMessage().startswith("Worker prepared in ")
    assert "templates" in record.getMessage() and "reference" in record.getMessage()


def test_the_sweeps_do_not_pile_up_without_a_worker_nor_keep_results():
    """A sweep not taken by a worker before the next is due expires (with no worker
    running, an hour of them would otherwise run one after another at its start), and a
    sweep's result is not stored in Redis for a day: nobody reads it."""
    for entry in app.conf.beat_schedule.values():
        assert entry["options"]["expires"] <= entry["schedule"]
        assert app.tasks[entry["task"]].ignore_result
