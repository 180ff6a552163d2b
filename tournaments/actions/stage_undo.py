"""Corrections of the organiser: undo the last stage advance or a session's squad draw.

Nothing is deleted (decisions 38 and 39): the sessions an advance seated, the honours and
score bonuses its close gave are marked superseded and leave every page; squads and ranks go
back to the snapshot kept in the step's activity entry; the undo is itself an activity entry
with its reason and what it superseded.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.actions.activity_log import describe, log_activity
from tournaments.actions.optimistic_lock import update_if_current
from tournaments.actions.squad_ranks import restore_ranks
from tournaments.actions.task_queue import schedule_rebuild
from tournaments.models import (
    ActivityLog,
    ActivityVerb,
    Honour,
    Result,
    ScoreBonus,
    Seat,
    Session,
    Stage,
    StageStatus,
    Tournament,
)
from tournaments.queries.session_sheet import draw_batches


class UndoError(ValueError):
    """The step cannot be undone; the message says why."""


def _reason(reason: str) -> str:
    reason = reason.strip()
    if not reason:
        raise UndoError(_("Say why it is undone (the reason is kept on record)."))
    return reason


def last_closed_stage(tournament: Tournament) -> Stage | None:
    return tournament.stages.filter(status=StageStatus.CLOSED).order_by("-number").first()


def _close_entry(stage: Stage) -> ActivityLog | None:
    return (
        ActivityLog.objects.filter(
            tournament_id=stage.tournament_id,
            verb=ActivityVerb.CLOSED_STAGE,
            details__stage=stage.number,
        )
        .order_by("-created_at", "-pk")
        .first()
    )


def undo_blocker(tournament: Tournament) -> str | None:
    """Why the last advance cannot be undone now, or None when it can."""
    stage = last_closed_stage(tournament)
    if stage is None:
        return _("No stage is closed yet: there is no advance to undo.")
    entry = _close_entry(stage)
    if entry is None or "ranks_before" not in entry.details:
        return _(
            "Stage %(n)d was closed before undoing was recorded; correct it by hand instead."
        ) % {"n": stage.number}
    seated = Session.objects.filter(stage__tournament=tournament, stage__number=stage.number + 1)
    if (
        Result.objects.filter(session__in=seated).exists()
        or seated.filter(games__isnull=False).exists()
    ):
        return _(
            "Stage %(n)d has been played already (a result or a game on the board): the "
            "advance can no longer be undone."
        ) % {"n": stage.number + 1}
    return None


def undo_advance(tournament: Tournament, *, reason: str, actor) -> Stage:
    """Reopen the last closed stage and supersede what its advance seated and awarded;
    returns the reopened stage."""
    reason = _reason(reason)
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
        blocker = undo_blocker(tournament)
        if blocker is not None:
            raise UndoError(blocker)
        closed = last_closed_stage(tournament)
        assert closed is not None  # undo_blocker checked it
        stage = Stage.objects.select_for_update().get(pk=closed.pk)
        entry = _close_entry(stage)
        assert entry is not None  # undo_blocker checked it too
        now = timezone.now()
        seated = Session.objects.filter(
            stage__tournament=tournament, stage__number=stage.number + 1
        )
        superseded = sorted(seated.values_list("pk", flat=True))
        ScoreBonus.objects.filter(used_in_id__in=superseded).update(used_in=None)
        seated.update(superseded_at=now)
        honours = list(Honour.objects.filter(session__stage=stage).values_list("pk", flat=True))
        Honour.objects.filter(pk__in=honours).update(superseded_at=now)
        bonuses = list(
            ScoreBonus.objects.filter(earned_in__stage=stage).values_list("pk", flat=True)
        )
        ScoreBonus.objects.filter(pk__in=bonuses).update(superseded_at=now)
        restore_ranks(tournament, entry.details["ranks_before"])
        stage.status = StageStatus.OPEN
        stage.qualifiers = []
        stage.closed_at = None
        stage.save(update_fields=["status", "qualifiers", "closed_at"])
        log_activity(
            tournament,
            ActivityVerb.UNDID_ADVANCE,
            describe("stage", stage=stage),
            actor=actor,
            stage=stage.number,
            reason=reason,
            undone_entry=entry.pk,
            superseded_sessions=superseded,
            superseded_honours=honours,
            superseded_bonuses=bonuses,
        )
    schedule_rebuild(tournament.pk)
    return stage


def undo_squad_draw(session: Session, *, reason: str, actor, expected_version: int) -> None:
    """Take the drawn squads off the session's seats (the judge draws again); the draw's
    dice stay in the log, named as replaced by this entry."""
    reason = _reason(reason)
    tournament = session.stage.tournament
    with transaction.atomic():
        update_if_current(session, expected_version)
        seats = list(Seat.objects.filter(session=session).select_related("squad"))
        if not seats or not all(seat.squad_id for seat in seats):
            raise UndoError(_("The squads of this session are not drawn: nothing to undo."))
        if Result.objects.filter(session=session).exists():
            raise UndoError(_("This session has a result, scored with its squads: the draw stays."))
        entry = (
            ActivityLog.objects.filter(
                tournament=tournament,
                verb__in=[ActivityVerb.DREW_SQUADS, ActivityVerb.REDREW_SQUADS],
                details__session=session.pk,
            )
            .order_by("-created_at", "-pk")
            .first()
        )
        if entry is None or "ranks_before" not in entry.details:
            raise UndoError(
                _("This draw was made before undoing was recorded; draw again instead.")
            )
        players = [seat.player_id for seat in seats]
        Seat.objects.filter(session=session).update(squad=None)
        restore_ranks(tournament, entry.details["ranks_before"], players)
        replaced = draw_batches(session)
        log_activity(
            tournament,
            ActivityVerb.UNDID_DRAW,
            describe("session", session=session),
            actor=actor,
            session=session.pk,
            reason=reason,
            undone_entry=entry.pk,
            previous={str(seat.player_id): seat.squad.slug for seat in seats if seat.squad},
            replaced_batches=replaced,
        )
