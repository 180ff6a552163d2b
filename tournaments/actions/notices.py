"""Mailing a session's players when it is scheduled or moved, through the notice outbox.

:func:`write_notices` is called inside the transaction that changes the schedule: it
writes one :class:`~tournaments.models.Notice` per seat for the new schedule sequence, so
the notices exist exactly when the change does. The tasks send pending notices, each inside
a transaction that locks its row and records the send, so a retry, a duplicate delivery or
a second worker never mails a notice whose send was recorded. A notice whose task was
never queued (the broker was down) or was lost is picked up by
:func:`send_pending_notices`, which the worker's scheduler (Celery beat) runs every minute.

Each mail, its subject and its calendar file are in the player's language (stored decision
34) and, with ``BOB_SITE_URL`` set, link the session's page and the player's own page.

The one window left: the mail server accepted a mail and the process died before the
notice's row was updated. The notice is still pending, so it is sent again (that player
gets the mail twice). docs/operations.md describes it.
"""

from __future__ import annotations

import logging
from datetime import timedelta
from smtplib import SMTPException

from celery import shared_task
from django.conf import settings
from django.core.mail import EmailMessage
from django.db import transaction
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from tournaments.actions.mail_server import answered, mail_server
from tournaments.actions.task_queue import queue_after_commit
from tournaments.models import Notice, NoticeStatus, Seat, Session
from tournaments.queries.calendar import session_calendar, session_location, session_summary

logger = logging.getLogger("bob.notices")

#: A pending notice this old is the sweep's: its own task was lost or never queued.
SWEEP_AFTER = timedelta(seconds=30)


def _site_link(path: str) -> str:
    """``path`` as the players' devices open it (``BOB_SITE_URL``); empty without one."""
    return f"{settings.BOB_SITE_URL}{path}" if settings.BOB_SITE_URL else ""


def _session_link(session: Session) -> str:
    return _site_link(
        reverse("tournaments:session", args=[session.stage.tournament.slug, session.pk])
    )


def _notice_body(session: Session, seat: Seat) -> str:
    when = timezone.localtime(session.scheduled_at).strftime("%Y-%m-%d %H:%M")
    lines = [
        _("Hello %(name)s,") % {"name": seat.player.display_name},
        "",
        _("%(summary)s is scheduled.") % {"summary": session_summary(session)},
        _("When: %(when)s") % {"when": when},
        _("Where: %(where)s") % {"where": session_location(session) or "-"},
    ]
    if seat.squad is not None:
        lines.append(_("Your squad: %(squad)s") % {"squad": seat.squad.name})
    if settings.BOB_SITE_URL:
        private = _site_link(reverse("tournaments:player_link", args=[seat.player.access_token]))
        lines += [
            "",
            _("The session's page: %(url)s") % {"url": _session_link(session)},
            _("Your own page (squad preferences, loadout; keep this link private): %(url)s")
            % {"url": private},
        ]
    lines += ["", _("The attached calendar file adds the session to your calendar.")]
    return "\n".join(lines)


def write_notices(session: Session) -> int:
    """Outbox rows for the session's current schedule, one per seat (none twice); call it
    in the transaction that changed the schedule. Older pending notices of those seats are
    superseded: a player is told only the latest schedule. Returns the rows written."""
    sequence = session.schedule_sequence
    seats = list(session.seats.values_list("pk", flat=True))
    Notice.objects.filter(
        seat_id__in=seats, status=NoticeStatus.PENDING, sequence__lt=sequence
    ).update(status=NoticeStatus.SUPERSEDED)
    created = Notice.objects.bulk_create(
        [Notice(seat_id=seat_id, sequence=sequence) for seat_id in seats],
        ignore_conflicts=True,
    )
    return len(created)


def queue_notices(session_id: int) -> None:
    """Queue the sending of the session's pending notices after the current transaction;
    with the broker down they wait for :func:`send_pending_notices`."""
    queue_after_commit(notify_session_scheduled, session_id)


def send_notice(notice_id: int) -> bool:
    """Send one pending notice and record it; False when there was nothing to send (sent
    already, superseded, or being sent right now by another worker)."""
    with transaction.atomic():
        notice = (
            Notice.objects.select_for_update(skip_locked=True, of=("self",))
            .select_related(
                "seat__player",
                "seat__squad",
                "seat__session__stage__tournament",
                "seat__session__judge",
            )
            .filter(pk=notice_id, status=NoticeStatus.PENDING)
            .first()
        )
        if notice is None:
            return False
        seat = notice.seat
        session = seat.session
        if notice.sequence < session.schedule_sequence or session.scheduled_at is None:
            notice.status = NoticeStatus.SUPERSEDED
            notice.save(update_fields=["status"])
            return False
        if not seat.player.email:
            notice.status = NoticeStatus.NO_ADDRESS
            notice.save(update_fields=["status"])
            return False
        with translation.override(seat.player.language or settings.LANGUAGE_CODE):
            message = EmailMessage(
                subject=session_summary(session),
                body=_notice_body(session, seat),
                from_email=settings.DEFAULT_FROM_EMAIL,
                to=[seat.player.email],
            )
            message.attach(
                f"bob-session-{session.pk}.ics",
                session_calendar(session, url=_session_link(session)),
                "text/calendar; method=PUBLISH; charset=utf-8",
            )
        try:
            message.send()
        except (SMTPException, OSError) as error:
            # Recorded in its own transaction below, then raised for the task to retry.
            failure = error
        else:
            notice.status = NoticeStatus.SENT
            notice.sent_at = timezone.now()
            notice.attempts += 1
            notice.save(update_fields=["status", "sent_at", "attempts"])
            Seat.objects.filter(pk=seat.pk, notified_sequence__lt=notice.sequence).update(
                notified_sequence=notice.sequence
            )
            return True
    Notice.objects.filter(pk=notice_id).update(
        attempts=notice.attempts + 1, last_error=str(failure)
    )
    raise failure


def _pending_of(session_id: int) -> list[int]:
    return list(
        Notice.objects.filter(seat__session_id=session_id, status=NoticeStatus.PENDING)
        .order_by("pk")
        .values_list("pk", flat=True)
    )


def send_notices(notice_ids: list[int]) -> int:
    """Send the notices in turn; returns the mails sent. A notice the mail server refuses
    stays pending and the next is sent; when the server does not answer (or did not a
    moment ago: :data:`~tournaments.actions.mail_server.mail_server`) the rest stay pending
    too, for the sweep, so a server away costs this process one ``EMAIL_TIMEOUT``."""
    sent = 0
    for position, notice_id in enumerate(notice_ids):
        if mail_server.skip():
            logger.warning(
                "%d notices not sent now, the mail server did not answer a moment ago: the "
                "sweep sends them",
                len(notice_ids) - position,
            )
            break
        try:
            mailed = send_notice(notice_id)
        except (SMTPException, OSError) as error:
            if not answered(error):
                mail_server.failed(f"notice {notice_id}", error)
                break
            mail_server.answered(f"notice {notice_id}")
            logger.warning("notice %s not sent, retried at the next sweep: %s", notice_id, error)
            continue
        if mailed:
            mail_server.answered(f"notice {notice_id}")
            sent += 1
    return sent


@shared_task(name="tournaments.tasks.notify_session_scheduled")
def notify_session_scheduled(session_id: int) -> int:
    """Send the session's pending notices; returns the mails sent. One not sent (the mail
    server away or refusing it) stays pending for :func:`send_pending_notices`: the task is
    not retried, which would wait for a server away once more each time.

    A message queued before the outbox existed (or a notice row missing for the current
    schedule) gets its rows first, so nothing queued is lost."""
    session = Session.objects.filter(pk=session_id).first()
    if session is None or session.scheduled_at is None:
        return 0
    with transaction.atomic():
        missing = session.seats.exclude(notices__sequence=session.schedule_sequence).filter(
            notified_sequence__lt=session.schedule_sequence
        )
        if missing.exists():
            write_notices(session)
    return send_notices(_pending_of(session_id))


@shared_task(name="tournaments.tasks.send_pending_notices", ignore_result=True)
def send_pending_notices() -> int:
    """Send every notice left pending for a while (its task lost, or never queued because
    the broker was down, or the mail server away); run every minute by the worker's
    scheduler. Returns mails sent."""
    cutoff = timezone.now() - SWEEP_AFTER
    pending = (
        Notice.objects.filter(status=NoticeStatus.PENDING, created_at__lte=cutoff)
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    return send_notices(list(pending))
