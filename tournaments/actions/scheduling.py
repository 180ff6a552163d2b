"""Scheduling and rescheduling sessions; the players' notices are written with the change
and mailed after it commits (:mod:`tournaments.actions.notices`)."""

from __future__ import annotations

from datetime import datetime

from django.db import transaction

from tournaments.actions.activity_log import describe, log_activity
from tournaments.actions.notices import queue_notices, write_notices
from tournaments.actions.optimistic_lock import update_if_current
from tournaments.models import ActivityVerb, Session, SessionStatus


@transaction.atomic
def schedule_session(
    session: Session,
    *,
    when: datetime,
    table: str | None = None,
    judge=None,
    actor=None,
    expected_version: int | None = None,
    notify: bool = True,
) -> Session:
    """Give ``session`` a time (and optionally a table and judge) and notify its players.

    ``expected_version`` is the session version the caller's form was built from; when it no
    longer matches, :class:`~tournaments.models.StaleSessionError` is raised and nothing
    changes. Every call raises the schedule sequence, so a reschedule updates calendars.
    ``notify=False`` skips the emails (e.g. demo data).
    """
    rescheduled = session.scheduled_at is not None
    fields = {
        "scheduled_at": when,
        "schedule_sequence": session.schedule_sequence + 1,
    }
    if table is not None:
        fields["table"] = table
    if judge is not None:
        fields["judge"] = judge
    if session.status == SessionStatus.PLANNED:
        fields["status"] = SessionStatus.SCHEDULED
    version = session.version if expected_version is None else expected_version
    update_if_current(session, version, **fields)
    log_activity(
        session.stage.tournament,
        ActivityVerb.RESCHEDULED if rescheduled else ActivityVerb.SCHEDULED,
        describe("session", session=session),
        actor=actor,
        session=session.pk,
        scheduled_at=when.isoformat(),
        table=session.table,
        sequence=session.schedule_sequence,
    )
    if notify:
        write_notices(session)
        queue_notices(session.pk)
    return session
