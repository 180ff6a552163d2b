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


@dataclass(frozen=True)
class PendingWins:
    """The open stages' session winners holding no honour yet (``(session id, player
    id)``, in session order) and each winner's squad standing once the stage closes, by
    player id as text: plain rows, read in four queries."""

    winners: list[tuple[int, int]]
    after: dict[str, SquadStanding]

    def ranks(self) -> dict[int, int]:
        """The rank each winner holds once the stage closes, by player id."""
        return {int(player): standing.rank for player, standing in self.after.items()}


def pending_wins(tournament: Tournament) -> PendingWins:
    """What :func:`pending_honours` lists, as plain rows."""
    winners = session_winners(tournament)
    winner_ids = {player_id for _session, player_id in winners}
    if not winners:
        return PendingWins([], {})
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
    return PendingWins(
        winners, standings_after_wins(current, [str(player_id) for _s, player_id in winners])
    )


def pending_honours(
    tournament: Tournament, wins: PendingWins | None = None, window: slice = slice(None)
) -> list[PendingHonour]:
    """The winners of the open stages' confirmed sessions that hold no honour yet (a fixed
    number of queries), in session order: those in ``window`` of them (a page: only its
    sessions and seats are read), from ``wins`` when the caller has read them."""
    wins = wins if wins is not None else pending_wins(tournament)
    winners = wins.winners[window]
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
    pending: list[PendingHonour] = []
    for session_id, player_id in winners:
        seat = seats[(session_id, player_id)]
        standing = wins.after[str(player_id)]
        pending.append(
            PendingHonour(
                session=sessions[session_id],
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
