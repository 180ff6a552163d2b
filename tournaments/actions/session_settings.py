"""A session's own stipulation, map and score thresholds, overriding its stage's (RULES §6,
§9; decision 49).

A session without a :class:`~tournaments.models.Stipulation` row plays its stage's type and
parameters; one without a map of its own (``Session.map_name`` blank or the stage's) plays
its stage's map; a session without thresholds of its own uses the stage's (see
``stages._thresholds``). When changes are refused, and why:

* the stipulation and the map, once the session has a result (any version): the stored
  ranking was computed with the stipulation's winner rule and the result checked against
  the map, so changing them would leave that result wrong;
* a stipulation the map cannot hold (decision 45);
* all of them, once the stage is closed: honours and score bonuses were awarded with them
  (as the stage's own settings, decision 54); the reason says whether undoing the stage's
  close can open them again.

Every change takes the stage row lock that result recording takes (``results._check_open``),
so a result cannot slip in between the check and the write. Each change is logged. The
Django admin applies the same rules to the rows it edits (:func:`setting_row_lock`).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments.actions.activity_log import describe, log_activity
from tournaments.actions.optimistic_lock import check_unchanged, update_if_current
from tournaments.actions.tournament_setup import reopen_advice
from tournaments.models import (
    HIGHEST_THRESHOLD,
    LOWEST_THRESHOLD,
    ActivityVerb,
    ResultVersion,
    ScoreThreshold,
    Session,
    Stage,
    StageStatus,
    Stipulation,
    clean_stipulation_params,
    playing_rules,
)
from tournaments.queries.edit_versions import (
    content_version,
    session_settings_version,
    session_stipulation_version,
)
from tournaments.queries.playable_maps import map_board
from tournaments.queries.session_stipulation import (
    own_map_name,
    own_stipulation,
    session_squads,
    stage_defaults,
    stipulation_map_misfit,
)


class SessionSettingsError(ValueError):
    """The change is refused; the message says why."""


def _closed_stage_reason(stage: Stage, status: str) -> str | None:
    if status == StageStatus.OPEN:
        return None
    closed = _(
        "Stage %(stage)d is closed: its honours and score bonuses were awarded with these "
        "settings, so they can no longer change."
    ) % {"stage": stage.number}
    return f"{closed} {reopen_advice(stage)}"


def thresholds_lock(session: Session, stage_status: str | None = None) -> str | None:
    """Why the session's thresholds cannot change now, or ``None`` when they can."""
    return _closed_stage_reason(session.stage, stage_status or session.stage.status)


def stipulation_lock(session: Session, stage_status: str | None = None) -> str | None:
    """Why the session's stipulation and map cannot change now, or ``None`` when they can."""
    closed = _closed_stage_reason(session.stage, stage_status or session.stage.status)
    if closed:
        return closed
    if ResultVersion.objects.filter(result__session=session).exists():
        return _(
            "Session %(session)d already has a result: its ranking was computed with this "
            "stipulation's winner rule and checked against this map, and stored, so neither "
            "can change any more. Its score thresholds can still change until the stage "
            "closes."
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


@dataclass(frozen=True)
class SettingsSaved:
    """What :func:`set_stipulation` changed: the session's stipulation, its map."""

    stipulation: bool
    map: bool


@transaction.atomic
def set_stipulation(
    session: Session,
    kind: str,
    params: dict,
    *,
    map_name: str | None = None,
    actor=None,
    expected_version: str | None = None,
) -> SettingsSaved:
    """Give ``session`` the stipulation ``kind`` with ``params`` and, unless ``map_name`` is
    None, the map ``map_name`` (blank, or the stage's: it plays the stage's). Each is written
    and logged only when it changes what the session plays; the parameters are checked by
    the model. Refused (:class:`SessionSettingsError`) when the settings are locked, when
    the map is none the tournament can play, and when the stipulation does not fit the map
    (decision 45); StaleEditError when either changed since the form was loaded at
    ``expected_version`` (:func:`~tournaments.queries.edit_versions.session_settings_version`)."""
    reason = stipulation_lock(session, _locked_stage_status(session))
    if reason:
        raise SessionSettingsError(reason)
    check_unchanged(expected_version, session_settings_version(session))
    stored = Session.objects.select_related("stage__tournament").get(pk=session.pk)
    params = clean_stipulation_params(kind, params, playing_rules(stored.stage.tournament))
    old_map = own_map_name(stored)
    new_map = old_map if map_name is None else _own_map(stored, map_name)
    _check_fit(stored, kind, params, new_map)
    saved = SettingsSaved(
        stipulation=_write_stipulation(stored, kind, params, actor),
        map=new_map != old_map,
    )
    if saved.map:
        _write_map(session, stored.stage, old_map, new_map, actor)
    return saved


def _own_map(session: Session, name: str) -> str:
    """``name`` as the session's own map: "" for none (the stage's)."""
    if not name or name == session.stage.map_name:
        return ""
    if name != session.map_name and map_board(session.stage.tournament, name) is None:
        raise SessionSettingsError(
            _(
                "The tournament has no map called “%(map)s” and BoB ships none: choose one "
                "of the maps on the Maps page."
            )
            % {"map": name}
        )
    return name


def _check_fit(session: Session, kind: str, params: dict, own_map: str) -> None:
    map_name = own_map or session.stage.map_name
    if not kind or not map_name:
        return
    tournament = session.stage.tournament
    problem = stipulation_map_misfit(tournament, kind, params, map_name, session_squads(session))
    if problem is not None and problem.blocking:
        raise SessionSettingsError(problem.message)


def _write_stipulation(session: Session, kind: str, params: dict, actor) -> bool:
    """Store the session's own stipulation unless it already plays that one (its own, or
    the stage's when it has none); whether it stored it."""
    stipulation = own_stipulation(session)
    if stipulation is not None:
        played = [stipulation.kind, stipulation.params]
    else:
        defaults = stage_defaults(session)
        played = [defaults.kind, defaults.params]
    if content_version([kind, params]) == content_version(played):
        return False
    stipulation = stipulation or Stipulation(session=session)
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
    return True


def _write_map(session: Session, stage: Stage, old_map: str, new_map: str, actor) -> None:
    """Store the session's own map (raising its version, as every change of the row does)
    and log the map it played before and the one it plays now."""
    version = (
        Session.objects.select_for_update()
        .filter(pk=session.pk)
        .values_list("version", flat=True)
        .get()
    )
    update_if_current(session, version, map_name=new_map)
    before = old_map or stage.map_name or "–"
    if new_map:
        description = describe("session_map_set", session=session, old=before, new=new_map)
    else:
        description = describe(
            "session_map_stage", session=session, old=before, new=stage.map_name or "–"
        )
    log_activity(
        stage.tournament,
        ActivityVerb.UPDATED,
        description,
        actor=actor,
        session=session.pk,
        map_from=old_map,
        map_to=new_map,
    )


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
    if not LOWEST_THRESHOLD <= points <= HIGHEST_THRESHOLD:
        raise SessionSettingsError(
            _("A score threshold is a number of points from %(lowest)d to %(highest)d.")
            % {"lowest": LOWEST_THRESHOLD, "highest": HIGHEST_THRESHOLD}
        )
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
