"""Redis hanging (its process stopped: connections are accepted, nothing is answered): a
judge's write waits for it about REDIS_TIMEOUT_SECONDS per kind of use (the cache, queueing
the standings' rebuild), not the workers' longer broker timeout (5 s, which each request
used to pay)."""

from __future__ import annotations

import os
import signal

import pytest
from django.test import Client
from django.urls import reverse

from tests.reliability.browser import Browser
from tests.reliability.stack import RedisServer, web_server
from tests.web.conftest import PASSWORD, build_world
from tests.web.test_result_form import page_data
from tournaments.models import Result

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

#: REDIS_TIMEOUT_SECONDS of the fault tests (stack.environment) is 0.5 s: the cache's first
#: call waits that long (then leaves Redis alone), queueing the rebuild as long again; the
#: rest is the write itself. The workers' broker timeout alone is 5 s.
QUICK_SECONDS = 3.0


def test_a_judge_s_write_waits_for_a_hung_redis_about_its_timeout(stack_env, tmp_path):
    world = build_world()
    url = reverse("tournaments:judge_result", args=[world.session.pk])
    local = Client()
    local.force_login(world.judge)
    data = page_data(local.get(url).context["form"])
    redis = RedisServer(tmp_path).start()
    try:
        with web_server({**stack_env, "REDIS_URL": redis.url}, workers=1) as base:
            judge = Browser(base)
            assert judge.log_in("judge", PASSWORD).status == 200
            pid = redis.pid()
            os.kill(pid, signal.SIGSTOP)
            try:
                saved = judge.post(url, data)
            finally:
                os.kill(pid, signal.SIGCONT)
    finally:
        redis.stop()
    assert saved.status == 200, saved.body[:2000]
    assert Result.objects.get(session=world.session).versions.count() == 1
    assert saved.seconds < QUICK_SECONDS, saved.seconds
