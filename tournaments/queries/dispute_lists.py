"""Result disputes for the organiser's list and the player's page."""

from __future__ import annotations

from django.db.models import QuerySet

from tournaments.models import DisputeStatus, Player, ResultDispute, Session, Tournament


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


def open_dispute(player: Player, session: Session) -> ResultDispute | None:
    """The player's dispute of the session's result the organiser has not answered yet."""
    return ResultDispute.objects.filter(
        player=player, session=session, status=DisputeStatus.OPEN
    ).first()
