"""Honours a confirmed result already promises, shown at once as pending until the stage
closes (the close awards them: :func:`tournaments.actions.stage_advance.close_stage`)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from django.db.models import Count

from tournaments.domain.honours import SquadStanding, standings_after_wins
from tournaments.models import (
    Honour,
    Player,
    Rank,
    ResultVersion,
    Seat,
    Session,
    Squad,
    SquadRank,
    StageStatus,
    Tournament,
)


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


def session_winners(tournament: Tournament) -> list[tuple[int, int]]:
    """``(session id, winner's player id)`` of the open stages' confirmed sessions that
    hold no honour yet, in session order: two queries of plain rows (the standings read
    this for every open session, so no session, seat or version object is built)."""
    session_ids = list(
        Session.objects.filter(stage__tournament=tournament, stage__status=StageStatus.OPEN)
        .exclude(pk__in=Honour.objects.values("session_id"))  # honours in force only
        .order_by("stage__number", "number")
        .values_list("pk", flat=True)
    )
    rankings: dict[int, list] = {}
    for session_id, ranking in (
        ResultVersion.objects.filter(result__session_id__in=session_ids, confirmed=True)
        .order_by("result__session_id", "number")
        .values_list("result__session_id", "ranking")
    ):
        rankings[session_id] = ranking
    return [
        (session_id, int(rankings[session_id][0]))
        for session_id in session_ids
        if rankings.get(session_id)
    ]


def pending_winner_counts(tournament: Tournament) -> dict[int, int]:
    """Pending honours per player id (what :func:`pending_counts` counts, without reading
    the sessions and players)."""
    return dict(Counter(player_id for _session, player_id in session_winners(tournament)))


def pending_honours(tournament: Tournament) -> list[PendingHonour]:
    """The winners of the open stages' confirmed sessions that hold no honour yet (a fixed
    number of queries), in session order."""
    winners = session_winners(tournament)
    if not winners:
        return []
    sessions = Session.objects.select_related("stage").in_bulk([pk for pk, _ in winners])
    winning = set(winners)
    seats = {
        (seat.session_id, seat.player_id): seat
        for seat in Seat.objects.filter(
            session_id__in=sessions, player_id__in={player for _, player in winners}
        ).select_related("player", "squad")
        if (seat.session_id, seat.player_id) in winning
    }
    won = [(sessions[session_id], player_id) for session_id, player_id in winners]
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
        seat = seats[(session.pk, player_id)]
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
