"""A mail server that hangs (accepts connections, never greets) does not hold the worker:
the notices' sweep waits for it once (EMAIL_TIMEOUT) and leaves the rest pending, so a
judge's Alien turn queued behind the sweep is played at once. It used to wait for every
pending notice in turn, taking the worker for minutes (shown failed to the judge after
BOB_ALIEN_TURN_DEADLINE_SECONDS); nothing is lost: the notices wait for the next sweep."""

from __future__ import annotations

import socket
import threading
import time
from datetime import timedelta

import pytest
from django.utils import timezone

from bob.celery import app as celery_app
from rules.engine.dice import SeededDice
from table.actions import create_game, request_alien_turn
from table.models import AlienTurnRequest, TurnStatus
from tests.reliability.stack import Worker, markers, wait_until
from tests.table.conftest import seat_squads
from tests.web.conftest import build_world
from tournaments.actions.notices import SWEEP_AFTER, write_notices
from tournaments.actions.optimistic_lock import update_if_current
from tournaments.models import Notice, NoticeStatus
from tournaments.tasks import send_pending_notices

pytestmark = [
    pytest.mark.services,
    pytest.mark.celery_worker,
    pytest.mark.django_db(transaction=True),
]

#: EMAIL_TIMEOUT here: each notice tried costs the worker this long.
MAIL_TIMEOUT = 3
SWEEP = "tournaments.tasks.send_pending_notices"


@pytest.fixture(autouse=True)
def _through_the_broker(monkeypatch):
    monkeypatch.setitem(celery_app.conf, "task_always_eager", False)


@pytest.fixture
def silent_mail_server():
    """The port of a mail server that takes connections and never says a word."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(50)
    held: list[socket.socket] = []

    def hold() -> None:
        while True:
            try:
                held.append(listener.accept()[0])
            except OSError:  # closed: the test is over
                return

    threading.Thread(target=hold, daemon=True).start()
    yield listener.getsockname()[1]
    listener.close()
    for connection in held:
        connection.close()


def _pending_notices(world) -> int:
    """Every session of the stage scheduled, each seat's notice pending for the sweep."""
    for session in world.stage.sessions.all():
        update_if_current(
            session,
            session.version,
            scheduled_at=timezone.now() + timedelta(days=2),
            schedule_sequence=1,
        )
        session.refresh_from_db()
        write_notices(session)
    Notice.objects.update(created_at=timezone.now() - SWEEP_AFTER - timedelta(seconds=1))
    return Notice.objects.filter(status=NoticeStatus.PENDING).count()


def test_a_hung_mail_server_holds_the_worker_once_not_for_every_notice(
    stack_env, tmp_path, silent_mail_server
):
    world = build_world()
    seat_squads(world)
    notices = _pending_notices(world)
    assert notices >= 6
    env = {
        **stack_env,
        "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
        "EMAIL_HOST": "127.0.0.1",
        "EMAIL_PORT": str(silent_mail_server),
        "EMAIL_TIMEOUT": str(MAIL_TIMEOUT),
        "BOB_MAIL_COOLDOWN_SECONDS": "600",
    }
    directory = tmp_path / "markers"
    directory.mkdir()
    worker = Worker(env, directory, "mail").start()
    try:
        send_pending_notices.delay()
        wait_until(
            lambda: any(m["task"] == SWEEP for m in markers(directory, "started")),
            timeout=60,
            what="the sweep to start",
        )
        game = create_game(world.session, "hunt-derelict", "bob", label="Table 1")
        asked = time.monotonic()
        request = request_alien_turn(game, "bob", SeededDice(seed=5), expected_number=1)
        wait_until(
            lambda: AlienTurnRequest.objects.get(pk=request.pk).status == TurnStatus.DONE,
            timeout=notices * MAIL_TIMEOUT + 30,
            what="the Alien turn",
        )
        waited = time.monotonic() - asked
        wait_until(
            lambda: any(m["task"] == SWEEP for m in markers(directory, "done")),
            timeout=60,
            what="the sweep to end",
        )
    finally:
        worker.stop()
    # The turn waited for the sweep's one try of the server, not for one per notice.
    assert waited < 2 * MAIL_TIMEOUT + 5, waited
    # Nothing is lost: every notice is still pending, for the sweep once the server answers.
    assert Notice.objects.filter(status=NoticeStatus.PENDING).count() == notices
    assert sum(Notice.objects.values_list("attempts", flat=True)) == 1
