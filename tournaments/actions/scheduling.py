"""Scheduling and rescheduling sessions; the players' notices are written with the change
and mailed after it commits (:mod:`tournaments.actions.notices`).

A session is *scheduled* only when it has a time, a table and a judge; until then it stays
*planned* whatever else it has. Clashes (:mod:`tournaments.domain.clash_rules`) are warnings
the pages show before saving; the actions save what the organiser confirmed.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any, NamedTuple

from django.db import transaction

from tournaments.actions.activity_log import describe, log_activity
from tournaments.actions.notices import queue_notices, write_notices
from tournaments.actions.optimistic_lock import update_if_current
from tournaments.models import ActivityVerb, Session, SessionStatus, VenueTable

#: The default of ``table`` and ``judge``: leave the session's own as it is.
UNCHANGED: Any = object()


def _status(session: Session, fields: dict[str, Any]) -> str:
    if session.status not in (SessionStatus.PLANNED, SessionStatus.SCHEDULED):
        return session.status
    when = fields.get("scheduled_at", session.scheduled_at)
    table = fields.get("table", session.table)
    judge = fields.get("judge", session.judge)
    complete = when is not None and table is not None and judge is not None
    return SessionStatus.SCHEDULED if complete else SessionStatus.PLANNED


@transaction.atomic
def schedule_session(
    session: Session,
    *,
    when: datetime,
    table: VenueTable | None = UNCHANGED,
    judge=UNCHANGED,
    actor=None,
    expected_version: int | None = None,
    notify: bool = True,
) -> Session:
    """Give ``session`` a time, and the table and judge when given (``None`` clears them),
    and notify its players.

    ``expected_version`` is the session version the caller's form was built from; when it no
    longer matches, :class:`~tournaments.models.StaleSessionError` is raised and nothing
    changes. Every call raises the schedule sequence, so a reschedule updates calendars.
    ``notify=False`` skips the emails (e.g. demo data).
    """
    if (
        table is not UNCHANGED
        and table is not None
        and table.tournament_id != session.stage.tournament_id
    ):
        raise ValueError(f"table {table.pk} is not one of the session's tournament's tables")
    rescheduled = session.scheduled_at is not None
    fields: dict[str, Any] = {
        "scheduled_at": when,
        "schedule_sequence": session.schedule_sequence + 1,
    }
    if table is not UNCHANGED:
        fields["table"] = table
    if judge is not UNCHANGED:
        fields["judge"] = judge
    fields["status"] = _status(session, fields)
    version = session.version if expected_version is None else expected_version
    update_if_current(session, version, **fields)
    log_activity(
        session.stage.tournament,
        ActivityVerb.RESCHEDULED if rescheduled else ActivityVerb.SCHEDULED,
        describe("session", session=session),
        actor=actor,
        session=session.pk,
        scheduled_at=when.isoformat(),
        table=session.table_name,
        sequence=session.schedule_sequence,
    )
    if notify:
        write_notices(session)
        queue_notices(session.pk)
    return session


class PlannedSession(NamedTuple):
    """One session of a whole stage's schedule: its time and table, and its judge
    (``UNCHANGED``: the session keeps its own; ``None``: it has none)."""

    session: Session
    when: datetime
    table: VenueTable
    judge: Any = UNCHANGED


@transaction.atomic
def schedule_sessions(placements: Sequence[PlannedSession], *, actor=None) -> list[Session]:
    """Place several sessions at once (a whole stage): each at its time and table, with
    its judge when one is given."""
    return [
        schedule_session(
            planned.session,
            when=planned.when,
            table=planned.table,
            judge=planned.judge,
            actor=actor,
        )
        for planned in placements
    ]
