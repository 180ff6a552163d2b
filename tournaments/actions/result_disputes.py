"""A player disputes a session's confirmed result; the organiser resolves it with a
correction of the result (:func:`tournaments.actions.result_entry`, through the correction
page) or with a note. Both are written to the activity log."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from tournaments.actions.activity_log import describe, log_activity
from tournaments.models import (
    ActivityVerb,
    DisputeStatus,
    Player,
    ResultDispute,
    Seat,
    Session,
    Stage,
    StageStatus,
)
from tournaments.queries.result_versions import latest_confirmed_versions

MAX_TEXT = 1000
#: Why a result of a closed stage cannot be disputed (stored decision 21).
CLOSED_STAGE = gettext_lazy(
    "This session's stage is closed, so its results can no longer change: if something "
    "is wrong, speak to the organiser."
)


class DisputeError(ValueError):
    """The dispute cannot be flagged or resolved; the message says why and what to do."""


def _text(value: str, missing: str) -> str:
    text = value.strip()
    if not text:
        raise DisputeError(missing)
    if len(text) > MAX_TEXT:
        raise DisputeError(
            ngettext(
                "Keep it to %(max)d character.",
                "Keep it to %(max)d characters.",
                MAX_TEXT,
            )
            % {"max": MAX_TEXT}
        )
    return text


@transaction.atomic
def flag_dispute(player: Player, session: Session, reason: str) -> ResultDispute:
    """Record ``player``'s objection to the confirmed result of ``session``, where they sat."""
    session = (
        Session.objects.select_for_update().select_related("stage__tournament").get(pk=session.pk)
    )
    if not Seat.objects.filter(session=session, player=player).exists():
        raise DisputeError(_("You can dispute only the result of a session you played."))
    # The stage's row is locked as a result's entry and the stage's close lock it, so a
    # dispute never lands on a stage that closed meanwhile.
    if not Stage.objects.select_for_update().filter(pk=session.stage_id, status=StageStatus.OPEN):
        raise DisputeError(str(CLOSED_STAGE))
    version = latest_confirmed_versions([session]).get(session.pk)
    if version is None:
        raise DisputeError(_("This session has no confirmed result to dispute yet."))
    text = _text(reason, _("Say what is wrong with the result, so the organiser can check it."))
    if ResultDispute.objects.filter(
        session=session, player=player, status=DisputeStatus.OPEN
    ).exists():
        raise DisputeError(
            _("You already disputed this result; the organiser has not answered yet.")
        )
    dispute = ResultDispute.objects.create(
        session=session, player=player, version_number=version.number, reason=text
    )
    log_activity(
        session.stage.tournament,
        ActivityVerb.FLAGGED_DISPUTE,
        describe("dispute", session=session, name=player.display_name),
        dispute=dispute.pk,
        player=player.pk,
        version=version.number,
        reason=text,
    )
    return dispute


@transaction.atomic
def resolve_dispute(
    dispute: ResultDispute, *, outcome: str, note: str = "", actor=None
) -> ResultDispute:
    """Close ``dispute``: ``corrected`` once a newer confirmed result replaced the disputed
    one, or ``noted`` with the organiser's answer."""
    dispute = (
        ResultDispute.objects.select_for_update()
        .select_related("session__stage__tournament", "player")
        .get(pk=dispute.pk)
    )
    if dispute.status != DisputeStatus.OPEN:
        raise DisputeError(_("This dispute is already resolved."))
    if outcome == DisputeStatus.CORRECTED:
        version = latest_confirmed_versions([dispute.session_id]).get(dispute.session_id)
        if version is None or version.number <= dispute.version_number:
            raise DisputeError(
                _(
                    "The result has not been corrected since it was disputed; correct it "
                    "first, or answer with a note."
                )
            )
        text = note.strip()[:MAX_TEXT]
    elif outcome == DisputeStatus.NOTED:
        text = _text(note, _("Write the note the player will read."))
    else:
        raise DisputeError(_("Resolve a dispute with a correction or with a note."))
    dispute.status = outcome
    dispute.resolution_note = text
    dispute.resolved_by = actor if actor is not None and actor.is_authenticated else None
    dispute.resolved_at = timezone.now()
    dispute.save(update_fields=["status", "resolution_note", "resolved_by", "resolved_at"])
    log_activity(
        dispute.session.stage.tournament,
        ActivityVerb.RESOLVED_DISPUTE,
        describe("dispute", session=dispute.session, name=dispute.player.display_name),
        actor=actor,
        dispute=dispute.pk,
        outcome=outcome,
        note=text,
    )
    return dispute
