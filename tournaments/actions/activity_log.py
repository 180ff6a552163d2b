"""Writing the tournament's activity log."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils import translation

from tournaments.models import ActivityLog, ActivityVerb, Tournament
from tournaments.queries.activity_descriptions import DESCRIPTIONS, description_label


@dataclass(frozen=True)
class Description:
    """What an entry is about as a code of :mod:`tournaments.queries.activity_descriptions` and
    its params as stored (JSON data); pages show it in the reader's language."""

    code: str
    params: dict[str, Any]

    def english(self) -> str:
        """The English text, stored next to the code (for the admin and exports)."""
        with translation.override("en"):
            return description_label(self.code, self.params, "")


def describe(code: str, **params: Any) -> Description:
    """The description ``code`` with ``params`` as its template names them, e.g.
    ``describe("threshold_added", points=30, session=session)`` (a session, a stage or a
    stipulation type is given as itself and stored as plain data)."""
    template = DESCRIPTIONS.get(code)
    if template is None:
        raise ValueError(
            f"unknown activity description {code!r}; add it to "
            "tournaments.queries.activity_descriptions.DESCRIPTIONS"
        )
    if set(params) != set(template.params):
        raise ValueError(
            f"activity description {code!r} takes the params "
            f"{sorted(template.params)}, not {sorted(params)}"
        )
    return Description(
        code, {name: kind.store(params[name]) for name, kind in template.params.items()}
    )


def log_activity(
    tournament: Tournament | None,
    verb: ActivityVerb | str,
    description: Description | str,
    *,
    actor=None,
    **details: Any,
) -> ActivityLog:
    """Add one entry to the activity log; ``details`` must be JSON-serialisable.

    ``description`` is a :func:`describe` result, shown in the reader's language, or free
    text shown as it is (only for names, which no language changes).
    """
    entry = activity_entry(tournament, verb, description, actor=actor, **details)
    entry.save()
    return entry


def activity_entry(
    tournament: Tournament | None,
    verb: ActivityVerb | str,
    description: Description | str,
    *,
    actor=None,
    **details: Any,
) -> ActivityLog:
    """The unsaved entry :func:`log_activity` adds, for a caller adding many at once
    (``ActivityLog.objects.bulk_create``)."""
    if isinstance(description, Description):
        code, params, text = description.code, description.params, description.english()
    else:
        code, params, text = "", {}, description
    return ActivityLog(
        tournament=tournament,
        actor=actor if actor is not None and actor.is_authenticated else None,
        verb=verb,
        object_description=text[:300],
        description_code=code,
        description_params=params,
        details=details,
    )
