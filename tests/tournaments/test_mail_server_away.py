"""A mail server that does not answer costs a process one EMAIL_TIMEOUT, not one per
notice: the rest stay pending for the sweep, which sends them once the server answers.
A server that refuses one notice (an address it does not take) answered: the others go."""

import time
from datetime import UTC, datetime, timedelta
from smtplib import SMTPRecipientsRefused

import pytest
from django.core import mail
from django.core.mail import EmailMessage

from tournaments.actions.mail_server import mail_server
from tournaments.actions.notices import SWEEP_AFTER, send_pending_notices, write_notices
from tournaments.actions.optimistic_lock import update_if_current
from tournaments.models import Notice, NoticeStatus
from tournaments.tasks import notify_session_scheduled

pytestmark = pytest.mark.django_db

WHEN = datetime(2026, 12, 5, 15, 30, tzinfo=UTC)


@pytest.fixture
def pending(final_session) -> list[str]:
    """The session scheduled, its three notices pending long enough for the sweep; the
    players' addresses."""
    update_if_current(final_session, final_session.version, scheduled_at=WHEN, schedule_sequence=1)
    final_session.refresh_from_db()
    write_notices(final_session)
    Notice.objects.update(created_at=datetime.now(UTC) - SWEEP_AFTER - timedelta(seconds=1))
    return sorted(final_session.seats.values_list("player__email", flat=True))


class Server:
    """EmailMessage.send, counting the tries, failing with ``failure(message)`` while set."""

    def __init__(self, monkeypatch) -> None:
        self.tries = 0
        self.failure = None
        real_send = EmailMessage.send

        def send(message, *args, **kwargs):
            self.tries += 1
            if self.failure is not None:
                error = self.failure(message)
                if error is not None:
                    raise error
            return real_send(message, *args, **kwargs)

        monkeypatch.setattr(EmailMessage, "send", send)


@pytest.fixture
def server(monkeypatch) -> Server:
    return Server(monkeypatch)


def cool_down_over(monkeypatch) -> None:
    """The process's cool-down of the mail server is over (its clock moved past it)."""
    later = time.monotonic() + mail_server.seconds + 1
    monkeypatch.setattr(mail_server, "clock", lambda: later)


def _pending() -> int:
    return Notice.objects.filter(status=NoticeStatus.PENDING).count()


def test_a_sweep_waits_for_a_silent_mail_server_once_then_sends_once_it_answers(
    pending, server, monkeypatch
):
    server.failure = lambda message: TimeoutError("timed out")
    assert send_pending_notices() == 0
    assert server.tries == 1  # not once per notice, each waiting EMAIL_TIMEOUT
    assert _pending() == 3
    assert Notice.objects.filter(attempts=1).count() == 1
    assert send_pending_notices() == 0  # within the cool-down: the server is not tried
    assert server.tries == 1
    cool_down_over(monkeypatch)  # and the server back
    server.failure = None
    assert send_pending_notices() == 3
    assert sorted(m.to[0] for m in mail.outbox) == pending
    assert _pending() == 0


def test_the_scheduling_task_leaves_its_notices_to_the_sweep_when_the_server_is_silent(
    final_session, pending, server, monkeypatch
):
    server.failure = lambda message: ConnectionRefusedError("connection refused")
    result = notify_session_scheduled.apply(args=[final_session.pk])
    assert result.successful() and result.result == 0  # not retried: the sweep sends them
    assert server.tries == 1
    assert _pending() == 3
    cool_down_over(monkeypatch)
    server.failure = None
    assert send_pending_notices() == 3


def test_a_refused_address_does_not_hold_back_the_other_notices(pending, server):
    refused = pending[0]

    def refuse(message):
        if message.to == [refused]:
            return SMTPRecipientsRefused({refused: (550, b"No such user")})
        return None

    server.failure = refuse
    assert send_pending_notices() == 2
    assert sorted(m.to[0] for m in mail.outbox) == pending[1:]
    left = Notice.objects.get(status=NoticeStatus.PENDING)
    assert left.seat.player.email == refused and "No such user" in left.last_error
    assert send_pending_notices() == 0  # the server answered: tried again, no cool-down
    assert server.tries == 4
