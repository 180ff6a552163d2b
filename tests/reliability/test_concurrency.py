"""Many people at once through the real server (Gunicorn, 4 processes, PostgreSQL):
conflicting result submissions lose nothing and fail none; a burst of wrong passwords
checks no more passwords than the throttle allows."""

from __future__ import annotations

import threading
from collections import Counter

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import UserFactory
from tests.reliability.browser import Browser
from tests.reliability.stack import web_server
from tests.web.conftest import PASSWORD, build_world
from tests.web.test_result_form import page_data
from tournaments.models import Result

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

SUBMISSIONS = 50
ATTEMPTS = 40


def _together(count: int, work) -> list:
    """Run ``work(n)`` in ``count`` threads released at the same moment."""
    barrier = threading.Barrier(count)
    answers: list = [None] * count

    def run(n: int) -> None:
        barrier.wait(timeout=60)
        try:
            answers[n] = work(n)
        except Exception as error:  # noqa: BLE001 - counted as an error by the test
            answers[n] = error

    threads = [threading.Thread(target=run, args=(n,)) for n in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    return answers


def test_conflicting_result_submissions_lose_nothing_and_fail_none(stack_env):
    world = build_world()
    url = reverse("tournaments:judge_result", args=[world.session.pk])
    local = Client()
    local.force_login(world.judge)
    form = local.get(url).context["form"]
    seats = list(world.session.seats.order_by("seat_order"))
    with web_server(stack_env, workers=4) as base:
        judge = Browser(base)
        assert judge.log_in("judge", PASSWORD).status == 200

        def submit(n: int):
            """Every judge loaded the same page, then typed a result of their own: the
            first seat's kills of the others' light and heavy marines, each submission
            different (an Alien Hunt scores no objective, decision 71)."""
            data = page_data(form)
            for victim, digits in zip(seats[1:], (n % 8, n // 8), strict=True):
                data[form.key(seats[0], f"kill-{victim.player_id}-light")] = digits % 4
                data[form.key(seats[0], f"kill-{victim.player_id}-heavy")] = digits // 4 % 2
            return judge.post(url, data)

        answers = _together(SUBMISSIONS, submit)
    errors = [a for a in answers if isinstance(a, Exception) or a.status >= 500]
    assert errors == []
    statuses = Counter(a.status for a in answers)
    # Saved (redirected to the page, 200) or refused as stale with the entries kept (409).
    assert set(statuses) <= {200, 409}, statuses
    saved = Result.objects.get(session=world.session).versions.count()
    assert saved == statuses[200] >= 1  # every accepted submission is a version: 0 lost
    assert statuses[409] == SUBMISSIONS - saved
    refused = [a.body for a in answers if a.status == 409]
    assert all("Not saved: the result changed while you were editing" in body for body in refused)
    # Each refusal names what the other judge saved, so the judge can choose field by field.
    assert all('data-field="' in body for body in refused)


def test_a_burst_of_wrong_passwords_checks_no_more_than_the_limit(stack_env):
    UserFactory(username="target").save()
    env = {
        **stack_env,
        "BOB_LOGIN_ATTEMPTS": "5",
        "BOB_LOGIN_ADDRESS_ATTEMPTS": "1000",
        "BOB_TRUSTED_PROXIES": "1",  # the clients' addresses come from X-Forwarded-For
    }
    attacker = {"X-Forwarded-For": "203.0.113.9"}
    with web_server(env, workers=4) as base:
        answers = _together(
            ATTEMPTS,
            lambda n: Browser(base, headers=attacker).log_in("target", f"wrong password {n}"),
        )
        statuses = Counter(getattr(a, "status", "error") for a in answers)
        assert statuses == {400: 5, 429: ATTEMPTS - 5}, statuses
        refused = next(a for a in answers if a.status == 429)
        assert "Wait 15 minutes" in refused.body
        # The account's owner, elsewhere, still logs in; from the attacker's address the
        # right password is refused too (unchecked).
        owner = Browser(base, headers={"X-Forwarded-For": "198.51.100.4"})
        assert "Log out" in owner.log_in("target", PASSWORD).body
        assert Browser(base, headers=attacker).log_in("target", PASSWORD).status == 429
