"""Optimistic locking of a session: a write names the version its form was loaded at.

A session row carries ``version``, bumped by every change made through a form (schedule,
draw, initiative, result); a write that names an older version is refused with
:class:`~tournaments.models.StaleSessionError`, so two people at two phones never overwrite
each other without seeing it.
"""

from __future__ import annotations

from typing import Any

from django.db.models import F
from django.utils.translation import gettext as _

from tournaments.caching import generations
from tournaments.models import Session, StaleSessionError


def update_if_current(session: Session, expected_version: int, **fields: Any) -> None:
    """Write ``fields`` only if nobody changed ``session`` since ``expected_version``.

    Raises :class:`StaleSessionError` otherwise; on success ``session`` holds the new values
    and version. Call it inside the action's transaction."""
    updated = Session.objects.filter(pk=session.pk, version=expected_version).update(
        version=F("version") + 1, **fields
    )
    if not updated:
        raise StaleSessionError(
            _("Session %(session)s was changed by someone else; reload it and try again.")
            % {"session": session}
        )
    for name, value in fields.items():
        setattr(session, name, value)
    session.refresh_from_db(fields=["version", *fields])
    # update() sends no save signals.
    generations.mark_changed(lookup="stages", value=session.stage_id)
