"""Optimistic locking: a write names the version its form was loaded at.

A session row carries ``version``, bumped by every change made through a form (schedule,
draw, initiative, result); a write that names an older version is refused with
:class:`~tournaments.models.StaleSessionError`, so two people at two phones never overwrite
each other without seeing it.

What has no version column (the catalogue's cards and weapons, the rules data's values, a
stage's settings, a session's own stipulation, a map) names the digest of what its form
edits instead (:mod:`tournaments.queries.edit_versions`); :func:`check_unchanged` refuses a
save whose digest is no longer the stored one with :class:`StaleEditError` (decision 46).
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


class StaleEditError(Exception):
    """Someone saved what the form edits after it was loaded; nothing was saved. The page
    shows the form again with what they changed (``forms.stale_edits``)."""


def check_unchanged(expected_version: str | None, stored_version: str) -> None:
    """Refuse (:class:`StaleEditError`) a save whose form was loaded at ``expected_version``
    when what it edits is now stored at ``stored_version``; None: the caller loaded nothing
    (a command, the demo, a form posted without its version), nothing to compare. Call it
    inside the action's transaction, after taking the row lock and reading the stored row."""
    if expected_version and expected_version != stored_version:
        raise StaleEditError(
            _(
                "This was saved in another tab or by someone else while you were editing it; "
                "nothing of yours was saved."
            )
        )
