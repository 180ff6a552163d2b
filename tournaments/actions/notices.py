"""Mailing a session's players when it is scheduled or moved (a background task).

Each seat remembers the schedule sequence it was last told about, so a retry or a duplicate
delivery never sends the same notice twice.
"""

from __future__ import annotations

from smtplib import SMTPException

from celery import shared_task
from django.conf import settings
from django.core.mail import EmailMessage
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.models import Seat, Session
from tournaments.queries.calendar import session_calendar, session_location, session_summary


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
    lines += ["", _("The attached calendar file adds the session to your calendar.")]
    return "\n".join(lines)


@shared_task(
    name="tournaments.tasks.notify_session_scheduled",
    autoretry_for=(SMTPException, ConnectionError, TimeoutError),
    retry_backoff=True,
    max_retries=5,
)
def notify_session_scheduled(session_id: int) -> int:
    """Mail each player of the session its current schedule once; returns mails sent."""
    session = (
        Session.objects.select_related("stage__tournament", "judge").filter(pk=session_id).first()
    )
    if session is None or session.scheduled_at is None:
        return 0
    sequence = session.schedule_sequence
    sent = 0
    for seat_id in session.seats.values_list("pk", flat=True):
        with transaction.atomic():
            seat = (
                Seat.objects.select_for_update(of=("self",))
                .select_related("player", "squad")
                .get(pk=seat_id)
            )
            if seat.notified_sequence >= sequence or not seat.player.email:
                continue
            message = EmailMessage(
                subject=session_summary(session),
                body=_notice_body(session, seat),
                from_email=settings.DEFAULT_FROM_EMAIL,
                to=[seat.player.email],
            )
            message.attach(
                f"bob-session-{session.pk}.ics",
                session_calendar(session),
                "text/calendar; method=PUBLISH; charset=utf-8",
            )
            message.send()
            seat.notified_sequence = sequence
            seat.save(update_fields=["notified_sequence"])
            sent += 1
    return sent
