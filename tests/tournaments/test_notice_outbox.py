"""The notice outbox: rows written with the schedule change, sent once each, kept when the
broker is away and sent by the sweep once it is back; a newer schedule supersedes."""

from datetime import UTC, datetime, timedelta

import pytest
from django.core import mail
from kombu.exceptions import OperationalError

from tournaments.actions.notices import SWEEP_AFTER, send_pending_notices
from tournaments.actions.scheduling import schedule_session
from tournaments.models import Notice, NoticeStatus
from tournaments.tasks import notify_session_scheduled

pytestmark = pytest.mark.django_db

WHEN = datetime(2026, 12, 5, 15, 30, tzinfo=UTC)


@pytest.fixture
def broker_down(monkeypatch):
    def refuse(*args, **kwargs):
        raise OperationalError("Error 111 connecting to redis:6379. Connection refused.")

    monkeypatch.setitem(notify_session_scheduled.app.conf, "task_always_eager", False)
    monkeypatch.setattr(notify_session_scheduled, "apply_async", refuse)


def _age(seconds: float) -> None:
    Notice.objects.update(created_at=datetime.now(UTC) - timedelta(seconds=seconds))


def test_the_notices_are_written_with_the_change(final_session):
    schedule_session(final_session, when=WHEN)  # the on_commit task does not run here
    notices = Notice.objects.filter(seat__session=final_session)
    assert notices.count() == 3
    assert set(notices.values_list("sequence", "status")) == {(1, NoticeStatus.PENDING)}


def test_with_the_broker_away_nothing_fails_and_the_sweep_sends_later(
    final_session, broker_down, django_capture_on_commit_callbacks, caplog
):
    with django_capture_on_commit_callbacks(execute=True):
        schedule_session(final_session, when=WHEN)
    assert mail.outbox == []
    assert "not queued, the broker cannot be reached" in caplog.text
    assert send_pending_notices() == 0  # too fresh: their own task may still come
    _age(SWEEP_AFTER.total_seconds() + 1)
    assert send_pending_notices() == 3
    assert send_pending_notices() == 0
    assert sorted(m.to[0] for m in mail.outbox) == sorted(
        final_session.seats.values_list("player__email", flat=True)
    )
    assert not Notice.objects.filter(status=NoticeStatus.PENDING).exists()


def test_a_newer_schedule_supersedes_a_notice_not_yet_sent(final_session):
    schedule_session(final_session, when=WHEN)
    final_session.refresh_from_db()
    schedule_session(final_session, when=WHEN + timedelta(days=1))
    statuses = dict(
        Notice.objects.filter(seat__session=final_session)
        .values_list("sequence", "status")
        .distinct()
    )
    assert statuses == {1: NoticeStatus.SUPERSEDED, 2: NoticeStatus.PENDING}
    assert notify_session_scheduled(final_session.pk) == 3
    assert all("SEQUENCE:2" in m.attachments[0][1] for m in mail.outbox)
