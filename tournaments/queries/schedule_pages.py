"""The organiser's schedule a page of sessions at a time: a tournament of 2,187 players has
729 sessions in its first stage, each with its own form (1.5 MB, 1.3 s listed whole)."""

from __future__ import annotations

from django.db.models import Q, QuerySet

from tournaments.models import Session, Tournament

#: Sessions a page of the organiser's schedule.
SCHEDULE_PAGE_SIZE = 100


def schedule_session_ids(tournament: Tournament) -> QuerySet:
    """The ids of the tournament's sessions in the schedule's order: by stage, then number."""
    return (
        Session.objects.filter(stage__tournament=tournament)
        .order_by("stage__number", "number")
        .values_list("pk", flat=True)
    )


def schedule_page_of(session: Session) -> int:
    """The page of the schedule that lists ``session``."""
    stage = session.stage
    before = Session.objects.filter(stage__tournament_id=stage.tournament_id).filter(
        Q(stage__number__lt=stage.number) | Q(stage=stage, number__lt=session.number)
    )
    return before.count() // SCHEDULE_PAGE_SIZE + 1
