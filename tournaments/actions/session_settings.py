"""A session's own stipulation and score thresholds, overriding its stage's (RULES §6, §9).

A session without a :class:`~tournaments.models.Stipulation` row plays its stage's type and
parameters; a session without thresholds of its own uses the stage's (see
``stages._thresholds``). When changes are refused, and why:

* the stipulation, once the session has a result (any version): the stored ranking was
  computed with the stipulation's winner rule, so changing it would leave that ranking wrong;
* both, once the stage is closed: honours and score bonuses were awarded with them.

Every change takes the stage row lock that result recording takes (``results._check_open``),
so a result cannot slip in between the check and the write. Each change is logged. The
Django admin applies the same rules to the rows it edits (:func:`setting_row_lock`).
"""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments.actions.activity_log import describe, log_activity
from tournaments.actions.optimistic_lock import check_unchanged
from tournaments.models import (
    ActivityVerb,
    ResultVersion,
    ScoreThreshold,
    Session,
    Stage,
    StageStatus,
    Stipulation,
)
from tournaments.queries.edit_versions import session_stipulation_version
from tournaments.queries.session_stipulation import own_stipulation


class SessionSettingsError(ValueError):
    """The change is refused; the message says why."""


def _closed_stage_reason(stage: Stage, status: str) -> str | None:
    if status == StageStatus.OPEN:
        return None
    return _(
        "Stage %(stage)d is closed: its honours and score bonuses were awarded with these "
        "settings, so they can no longer change."
    ) % {"stage": stage.number}


def thresholds_lock(session: Session, stage_status: str | None = None) -> str | None:
    """Why the session's thresholds cannot change now, or ``None`` when they can."""
    return _closed_stage_reason(session.stage, stage_status or session.stage.status)


def stipulation_lock(session: Session, stage_status: str | None = None) -> str | None:
    """Why the session's stipulation cannot change now, or ``None`` when it can."""
    closed = _closed_stage_reason(session.stage, stage_status or session.stage.status)
    if closed:
        return closed
    if ResultVersion.objects.filter(result__session=session).exists():
        return _(
            "Session %(session)d already has a result: its ranking was computed with this "
            "stipulation's winner rule and stored, so the stipulation can no longer change. "
            "Its score thresholds can still change until the stage closes."
        ) % {"session": session.number}
    return None


def _locked_stage_status(session: Session) -> str:
    return _locked_status(session.stage_id)


def _locked_status(stage_id: int) -> str:
    return (
        Stage.objects.select_for_update().filter(pk=stage_id).values_list("status", flat=True).get()
    )


def setting_row_lock(row: Stipulation | ScoreThreshold) -> str | None:
    """Why this stipulation or threshold row may not be added, changed or removed now, or
    ``None``: a session's stipulation follows :func:`stipulation_lock`, a session's threshold
    :func:`thresholds_lock`, a stage's threshold the stage's status. For edits made outside
    this module (the Django admin); call it inside the saving transaction, since it takes the
    stage row lock as the functions below do. A row not attached yet is not locked."""
    if isinstance(row, Stipulation):
        if row.session_id is None:
            return None
        return stipulation_lock(row.session, _locked_stage_status(row.session))
    if row.session is not None:
        return thresholds_lock(row.session, _locked_stage_status(row.session))
    if row.stage is not None:
        return _closed_stage_reason(row.stage, _locked_status(row.stage.pk))
    return None


@transaction.atomic
def set_stipulation(
    session: Session,
    kind: str,
    params: dict,
    *,
    actor=None,
    expected_version: str | None = None,
) -> Stipulation:
    """Give ``session`` its own stipulation (parameters are checked by the model); raises
    StaleEditError when its stipulation changed since the form was loaded at
    ``expected_version``."""
    reason = stipulation_lock(session, _locked_stage_status(session))
    if reason:
        raise SessionSettingsError(reason)
    check_unchanged(expected_version, session_stipulation_version(session))
    stipulation = own_stipulation(session) or Stipulation(session=session)
    stipulation.kind = kind
    stipulation.params = params
    stipulation.save()
    log_activity(
        session.stage.tournament,
        ActivityVerb.UPDATED,
        describe("stipulation_set", session=session, kind=kind),
        actor=actor,
        session=session.pk,
        stipulation=kind,
        params=stipulation.params,
    )
    return stipulation


@transaction.atomic
def clear_stipulation(session: Session, *, actor=None, expected_version: str | None = None) -> bool:
    """Remove the session's own stipulation so it plays the stage's; ``False`` if none.
    Raises StaleEditError when it changed since the page was loaded at
    ``expected_version``."""
    reason = stipulation_lock(session, _locked_stage_status(session))
    if reason:
        raise SessionSettingsError(reason)
    check_unchanged(expected_version, session_stipulation_version(session))
    deleted, _rows = Stipulation.objects.filter(session=session).delete()
    if deleted:
        log_activity(
            session.stage.tournament,
            ActivityVerb.UPDATED,
            describe("stipulation_cleared", session=session),
            actor=actor,
            session=session.pk,
            stipulation=None,
        )
    return bool(deleted)


@transaction.atomic
def add_threshold(session: Session, points: int, *, actor=None) -> ScoreThreshold:
    reason = thresholds_lock(session, _locked_stage_status(session))
    if reason:
        raise SessionSettingsError(reason)
    if points < 1:
        raise SessionSettingsError(_("A score threshold must be at least 1 point."))
    try:
        with transaction.atomic():
            threshold = ScoreThreshold.objects.create(session=session, points=points)
    except IntegrityError:
        raise SessionSettingsError(
            ngettext(
                "This session already has a threshold at %(points)d point.",
                "This session already has a threshold at %(points)d points.",
                points,
            )
            % {"points": points}
        ) from None
    log_activity(
        session.stage.tournament,
        ActivityVerb.UPDATED,
        describe("threshold_added", points=points, session=session),
        actor=actor,
        session=session.pk,
        threshold=points,
    )
    return threshold


@transaction.atomic
def remove_threshold(session: Session, threshold_id: int | None, *, actor=None) -> int:
    """Remove one of the session's own thresholds; returns its points (no id, as in a
    malformed request, finds none)."""
    reason = thresholds_lock(session, _locked_stage_status(session))
    if reason:
        raise SessionSettingsError(reason)
    threshold = (
        ScoreThreshold.objects.filter(session=session, pk=threshold_id).first()
        if threshold_id is not None
        else None
    )
    if threshold is None:
        raise SessionSettingsError(
            _("That threshold is no longer on this session; the list below is up to date.")
        )
    threshold.delete()
    log_activity(
        session.stage.tournament,
        ActivityVerb.UPDATED,
        describe("threshold_removed", points=threshold.points, session=session),
        actor=actor,
        session=session.pk,
        threshold=threshold.points,
    )
    return threshold.points
