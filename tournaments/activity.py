"""Writing the tournament's activity log."""

from __future__ import annotations

from typing import Any

from .models import ActivityLog, ActivityVerb, Tournament


def log_activity(
    tournament: Tournament | None,
    verb: ActivityVerb | str,
    description: str,
    *,
    actor=None,
    **details: Any,
) -> ActivityLog:
    """Add one entry to the activity log; ``details`` must be JSON-serialisable."""
    return ActivityLog.objects.create(
        tournament=tournament,
        actor=actor if actor is not None and actor.is_authenticated else None,
        verb=verb,
        object_description=description[:300],
        details=details,
    )
