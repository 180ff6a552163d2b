"""A real Celery worker, consuming from Redis, runs a task whose effect lands in the database."""

import datetime as dt

import pytest
from celery.contrib.testing.worker import start_worker
from celery.signals import task_postrun
from django.conf import settings
from django.core import mail
from django.db import connection
from django.utils import timezone

from bob.celery import app as celery_app
from tests.conftest import services_required
from tests.factories import SeatFactory, SessionFactory, VenueTableFactory
from tournaments.models import Seat
from tournaments.tasks import notify_session_scheduled


def _close_worker_connection(**kwargs) -> None:
    # The worker thread opened its own database connection; close it so the test
    # database can be dropped at the end of the run.
    connection.close()


@pytest.fixture
def redis_worker():
    if not settings.REDIS_URL:
        if services_required():
            pytest.fail("REDIS_URL is not set under `make test`: the worker test must run")
        pytest.skip("needs REDIS_URL (make test provides a Redis server)")
    celery_app.conf.task_always_eager = False
    task_postrun.connect(_close_worker_connection, weak=False)
    try:
        with start_worker(celery_app, pool="solo", perform_ping_check=False, shutdown_timeout=30):
            yield celery_app
    finally:
        task_postrun.disconnect(_close_worker_connection)


@pytest.mark.services
@pytest.mark.celery_worker
@pytest.mark.django_db(transaction=True)
def test_worker_mails_players_and_records_the_notice(redis_worker, settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    session = SessionFactory(
        scheduled_at=timezone.now() + dt.timedelta(days=3), schedule_sequence=1
    )
    session.table = VenueTableFactory(tournament=session.stage.tournament, name="Tavolo 2")
    session.save()
    seats = [SeatFactory(session=session) for _ in range(3)]

    result = notify_session_scheduled.delay(session.pk)

    assert result.get(timeout=60) == 3
    assert Seat.objects.filter(pk__in=[s.pk for s in seats], notified_sequence=1).count() == 3
    assert len(mail.outbox) == 3
    assert all(m.attachments[0][0].endswith(".ics") for m in mail.outbox)

    # A retry (or duplicate delivery) of the same notice sends nothing more.
    assert notify_session_scheduled.delay(session.pk).get(timeout=60) == 0
    assert len(mail.outbox) == 3
