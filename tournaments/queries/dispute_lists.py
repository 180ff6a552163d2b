"""Result disputes for the organiser's list and the player's page."""

from __future__ import annotations

from django.db.models import QuerySet
from django.utils.translation import ngettext

from tournaments.models import (
    DisputeStatus,
    Player,
    ResultDispute,
    Session,
    Stage,
    Tournament,
)


def tournament_disputes(
    tournament: Tournament,
) -> tuple[list[ResultDispute], list[ResultDispute]]:
    """The tournament's open disputes and its resolved ones, each the latest first."""
    disputes = list(
        ResultDispute.objects.filter(session__stage__tournament=tournament).select_related(
            "session__stage", "player", "resolved_by"
        )
    )
    open_ones = [dispute for dispute in disputes if dispute.status == DisputeStatus.OPEN]
    return open_ones, [dispute for dispute in disputes if dispute.status != DisputeStatus.OPEN]


def player_disputes(player: Player) -> QuerySet[ResultDispute]:
    """The player's disputes, the latest first."""
    return ResultDispute.objects.filter(player=player).select_related("session__stage__tournament")


def session_disputes(player: Player, session: Session) -> list[ResultDispute]:
    """The player's disputes of ``session``'s result, each with the organiser's answer once
    given, the latest first: what the player's dispute page keeps showing after the answer."""
    return list(ResultDispute.objects.filter(player=player, session=session))


def open_dispute(player: Player, session: Session) -> ResultDispute | None:
    """The player's dispute of the session's result the organiser has not answered yet."""
    return ResultDispute.objects.filter(
        player=player, session=session, status=DisputeStatus.OPEN
    ).first()


def unanswered_sessions(stage: Stage) -> list[Session]:
    """The stage's sessions whose result a player disputed and the organiser has not
    answered yet, by number: the stage may not close before they are (stored decision 21)."""
    return list(
        Session.objects.filter(stage=stage, disputes__status=DisputeStatus.OPEN)
        .distinct()
        .order_by("number")
    )


def unanswered_text(sessions: list[Session]) -> str:
    """What stops the close while ``sessions`` (from :func:`unanswered_sessions`) have a
    dispute unanswered, and what to do."""
    return ngettext(
        "The result of session %(sessions)s is disputed and the dispute is not answered: "
        "answer it on the Venue page (correct the result, or say why it stands) before the "
        "stage closes, since a closed stage's results can no longer change.",
        "The results of sessions %(sessions)s are disputed and the disputes are not "
        "answered: answer them on the Venue page (correct the result, or say why it "
        "stands) before the stage closes, since a closed stage's results can no longer "
        "change.",
        len(sessions),
    ) % {"sessions": ", ".join(str(session.number) for session in sessions)}


def asked_dispute(session: Session, asked: str) -> ResultDispute | None:
    """The open dispute of ``session``'s result whose id is ``asked`` (a correction page's
    ``?dispute=``): the one the correction answers; None for anything else."""
    if not asked.isdigit():
        return None
    return (
        ResultDispute.objects.select_related("player")
        .filter(session=session, status=DisputeStatus.OPEN, pk=int(asked))
        .first()
    )
