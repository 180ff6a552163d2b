"""Who is at the table: the judge checks players in, and a player who has not come once the
tournament's no-show delay has passed forfeits the session (decision 34). A player ranked
in a saved result played the session: the result checks in whoever the judge had not."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments.actions.activity_log import describe, log_activity
from tournaments.actions.optimistic_lock import update_if_current
from tournaments.actions.seat_events import announce_forfeit
from tournaments.models import ActivityVerb, Forfeit, Result, Seat, Session


class AttendanceError(ValueError):
    """The check-in or no-show cannot be recorded; the message says why."""


def _locked_seat(session: Session, player_id: int, expected_version: int) -> Seat:
    update_if_current(session, expected_version)
    seat = Seat.objects.select_for_update().filter(session=session, player_id=player_id).first()
    if seat is None:
        raise AttendanceError(_("This player is not seated in this session."))
    if Result.objects.filter(session=session).exists():
        raise AttendanceError(
            _("This session has a result: correct the result instead of its attendance.")
        )
    return seat


def check_in(session: Session, player_id: int, *, actor, expected_version: int) -> Seat:
    """Mark the player present at the table."""
    with transaction.atomic():
        seat = _locked_seat(session, player_id, expected_version)
        if seat.forfeit:
            raise AttendanceError(
                _("%(name)s has already forfeited this session.")
                % {"name": seat.player.display_name}
            )
        _mark_present(session, seat, timezone.now(), actor=actor)
    return seat


def _mark_present(
    session: Session, seat: Seat, moment: datetime, *, actor, by_result: bool = False
) -> None:
    """Store and log the check-in of ``seat`` at ``moment``; ``by_result``: by the result
    saved, which ranks the player, not by the judge's button."""
    seat.checked_in_at = moment
    seat.save(update_fields=["checked_in_at"])
    code = "player_in_result" if by_result else "player_in_session"
    log_activity(
        session.stage.tournament,
        ActivityVerb.CHECKED_IN,
        describe(code, player=seat.player.display_name, session=session),
        actor=actor,
        session=session.pk,
        player=seat.player_id,
        **({"by_result": True} if by_result else {}),
    )


def check_in_ranked(session: Session, *, actor) -> list[Seat]:
    """Check in, in the caller's transaction, every seat of ``session`` neither checked in
    nor forfeited: the result being saved ranks them, so they played (decision 55). The
    judge's sheet closes attendance once a result exists, so this is its last chance."""
    seats = list(
        Seat.objects.select_for_update()
        .select_related("player")
        .filter(session=session, checked_in_at__isnull=True, forfeit="")
        .order_by("seat_order")
    )
    now = timezone.now()
    for seat in seats:
        _mark_present(session, seat, now, actor=actor, by_result=True)
    return seats


def no_show_from(session: Session) -> datetime | None:
    """When players not checked in may be declared no-shows; None without a start time."""
    if session.scheduled_at is None:
        return None
    return session.scheduled_at + timedelta(minutes=session.stage.tournament.no_show_minutes)


def declare_no_show(
    session: Session, player_id: int, *, actor, expected_version: int, now: datetime | None = None
) -> Seat:
    """The player did not come: a forfeit, allowed once the no-show delay has passed."""
    now = now or timezone.now()
    with transaction.atomic():
        seat = _locked_seat(session, player_id, expected_version)
        name = seat.player.display_name
        if seat.checked_in_at is not None:
            raise AttendanceError(_("%(name)s is checked in: not a no-show.") % {"name": name})
        if seat.forfeit:
            raise AttendanceError(
                _("%(name)s has already forfeited this session.") % {"name": name}
            )
        deadline = no_show_from(session)
        if deadline is None:
            raise AttendanceError(
                _("This session has no scheduled start, so nobody can be late for it yet.")
            )
        if now < deadline:
            raise AttendanceError(
                ngettext(
                    "A no-show can be declared from %(time)s (the start plus %(minutes)d minute).",
                    "A no-show can be declared from %(time)s (the start plus %(minutes)d minutes).",
                    session.stage.tournament.no_show_minutes,
                )
                % {
                    "time": timezone.localtime(deadline).strftime("%H:%M"),
                    "minutes": session.stage.tournament.no_show_minutes,
                }
            )
        seat.forfeit = Forfeit.NO_SHOW
        seat.save(update_fields=["forfeit"])
        log_activity(
            session.stage.tournament,
            ActivityVerb.FORFEITED,
            describe("player_in_session", player=name, session=session),
            actor=actor,
            session=session.pk,
            player=player_id,
            forfeit=Forfeit.NO_SHOW,
        )
        announce_forfeit(seat, actor=actor)
    return seat
