"""Honours a confirmed result already promises, shown at once as pending until the stage
closes (the close awards them: :func:`tournaments.actions.stage_advance.close_stage`)."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, Prefetch

from tournaments.domain.honours import SquadStanding, standings_after_wins
from tournaments.models import (
    Honour,
    Player,
    Rank,
    Seat,
    Session,
    Squad,
    SquadRank,
    StageStatus,
    Tournament,
)
from tournaments.queries.pages import latest_confirmed_versions


@dataclass(frozen=True)
class PendingHonour:
    """A session winner's honour before the stage closes, with the rank and the number of
    honours the player holds once the stage closes."""

    session: Session
    player: Player
    squad: Squad | None
    rank: int
    honours: int

    @property
    def rank_label(self) -> str:
        return str(Rank(self.rank).label)


def pending_honours(tournament: Tournament) -> list[PendingHonour]:
    """The winners of the open stages' confirmed sessions that hold no honour yet (a fixed
    number of queries), in session order."""
    sessions = list(
        Session.objects.filter(stage__tournament=tournament, stage__status=StageStatus.OPEN)
        .exclude(pk__in=Honour.objects.values("session_id"))  # honours in force only
        .select_related("stage")
        .prefetch_related(
            Prefetch("seats", queryset=Seat.objects.select_related("player", "squad"))
        )
        .order_by("stage__number", "number")
    )
    versions = latest_confirmed_versions([session.pk for session in sessions])
    won = [
        (session, int(versions[session.pk].ranking[0]))
        for session in sessions
        if session.pk in versions and versions[session.pk].ranking
    ]
    if not won:
        return []
    winner_ids = {player_id for _session, player_id in won}
    ranks = dict(
        SquadRank.objects.filter(tournament=tournament, player_id__in=winner_ids).values_list(
            "player_id", "rank"
        )
    )
    honours = dict(
        tournament.honours.filter(player_id__in=winner_ids)
        .values("player_id")
        .annotate(count=Count("pk"))
        .values_list("player_id", "count")
    )
    current = {
        str(pid): SquadStanding(rank=ranks.get(pid, 0), honours=honours.get(pid, 0))
        for pid in winner_ids
    }
    after = standings_after_wins(current, [str(player_id) for _session, player_id in won])
    pending: list[PendingHonour] = []
    for session, player_id in won:
        seat = next(seat for seat in session.seats.all() if seat.player_id == player_id)
        standing = after[str(player_id)]
        pending.append(
            PendingHonour(
                session=session,
                player=seat.player,
                squad=seat.squad,
                rank=standing.rank,
                honours=standing.honours,
            )
        )
    return pending


def pending_counts(pending: list[PendingHonour]) -> dict[int, int]:
    """Pending honours per player id."""
    counts: dict[int, int] = {}
    for honour in pending:
        counts[honour.player.pk] = counts.get(honour.player.pk, 0) + 1
    return counts


def pending_ranks(pending: list[PendingHonour]) -> dict[int, PendingHonour]:
    """Per player id, a pending honour: it carries the rank held once the stage closes."""
    return {honour.player.pk: honour for honour in pending}
