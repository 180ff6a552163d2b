"""Redis hanging (its process stopped: connections are accepted, nothing is answered): a
judge's write waits for it once, about REDIS_TIMEOUT_SECONDS, although it uses Redis twice
(the cache, queueing the standings' rebuild), and never the workers' longer broker timeout
(5 s, which each request used to pay). The use that timed out makes every other Redis use of
the process skip Redis for REDIS_COOLDOWN_SECONDS (tournaments/caching/redis_cooldown.py),
so the next write does not wait at all; after the cool-down the process tries Redis again
and, Redis back, uses it again by itself: the cache, and the broker, which gets the next
write's rebuild."""

from __future__ import annotations

import json
import os
import signal
import time
from pathlib import Path

import pytest
import redis as redis_client
from django.test import Client
from django.urls import reverse

from tests.reliability.browser import Browser
from tests.reliability.stack import RedisServer, web_server
from tests.web.conftest import PASSWORD, build_world
from tests.web.test_result_form import page_data
from tournaments.models import Result

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

#: REDIS_TIMEOUT_SECONDS here: long beside the write itself (a fraction of a second), so
#: that a write waiting for Redis once, twice or not at all are told apart on a busy machine.
TIMEOUT = 2.0
#: REDIS_COOLDOWN_SECONDS here: long enough for two writes.
COOLDOWN = 6.0
REBUILD = "tournaments.tasks.rebuild_standings"


def _form(client: Client, url: str) -> dict:
    """The result page's form as the judge's browser would post it now (a correction says
    why)."""
    return {**page_data(client.get(url).context["form"]), "reason": "Counted again"}


def _rebuilds(broker: redis_client.Redis) -> int:
    """The standings rebuilds waiting in the broker's queue (no worker takes them here)."""
    messages = [json.loads(message) for message in broker.lrange("celery", 0, -1)]
    return sum(message["headers"]["task"] == REBUILD for message in messages)


def test_a_judge_s_write_waits_for_a_hung_redis_once_then_not_until_it_is_back(stack_env, tmp_path):
    world = build_world()
    url = reverse("tournaments:judge_result", args=[world.session.pk])
    local = Client()
    local.force_login(world.judge)
    server = RedisServer(tmp_path).start()
    broker = redis_client.Redis.from_url(server.url, socket_timeout=10)
    generation = f"{stack_env['CACHE_KEY_PREFIX']}:1:bob:generation:{world.tournament.slug}"
    env = {
        **stack_env,
        "REDIS_URL": server.url,
        "REDIS_TIMEOUT_SECONDS": str(TIMEOUT),
        "REDIS_COOLDOWN_SECONDS": str(COOLDOWN),
    }
    try:
        with web_server(env, workers=1) as base:
            judge = Browser(base)
            assert judge.log_in("judge", PASSWORD).status == 200
            assert judge.get(url).status == 200  # the judge opens the page, Redis answering
            pid = server.pid()
            os.kill(pid, signal.SIGSTOP)
            frozen = time.monotonic()
            try:
                first = judge.post(url, _form(local, url))
                second = judge.post(url, _form(local, url))
            finally:
                os.kill(pid, signal.SIGCONT)
            # Whatever the frozen Redis took in before it hung is its own now: it is gone
            # through before the cool-down ends.
            time.sleep(max(0.0, frozen + first.seconds + COOLDOWN + 0.5 - time.monotonic()))
            owed = broker.get(generation)
            queued = _rebuilds(broker)
            third = judge.post(url, _form(local, url))
            cached = broker.get(generation)
            rebuilds = _rebuilds(broker)
            log = Path(env["STATIC_ROOT"]).parent / f"web-{base.rsplit(':', 1)[1]}.log"
    finally:
        server.stop()
    for answer in (first, second, third):
        assert answer.status == 200, answer.body[:2000]
    assert Result.objects.get(session=world.session).versions.count() == 3
    # The first write waited for Redis once: the cache's call timed out, the rebuild was
    # not queued (the next standings read rebuilds them) without trying the broker.
    assert TIMEOUT * 0.9 <= first.seconds < TIMEOUT * 1.75, first.seconds
    # The second, within the cool-down, did not wait for Redis at all.
    assert second.seconds < TIMEOUT * 0.75, second.seconds
    # Redis back: the third write is quick, stores its new cache generation and queues its
    # rebuild on the broker.
    assert third.seconds < TIMEOUT * 0.75, third.seconds
    assert cached is not None and cached != owed
    assert rebuilds == queued + 1
    # The log says once that Redis went away and once that it came back.
    text = log.read_text(errors="replace")
    assert text.count("Redis unreachable") == 1, text
    assert text.count("Redis reachable again") == 1, text
