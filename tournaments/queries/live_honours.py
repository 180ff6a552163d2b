"""Honours a confirmed result already promises, shown at once as pending until the stage
closes (the close awards them: :func:`tournaments.actions.stage_advance.close_stage`)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Container, Iterable, Mapping
from dataclasses import dataclass

from tournaments.domain.honours import SquadStanding, standings_after_wins
from tournaments.models import (
    Rank,
    Squad,
    SquadRank,
    StageKind,
    Tournament,
)
from tournaments.queries import standings_reads as reads


@dataclass(frozen=True)
class PendingHonour:
    """A session winner's honour before the stage closes, with the rank and the number of
    honours the player holds once the stage closes: plain values (a page lists a hundred)."""

    session_id: int
    session_number: int
    stage_kind: str
    player_id: int
    player_name: str
    squad: Squad | None
    rank: int
    honours: int

    @property
    def rank_label(self) -> str:
        return str(Rank(self.rank).label)

    @property
    def stage_label(self) -> str:
        return str(StageKind(self.stage_kind).label)


def promised_wins(
    sessions: Iterable[int], rankings: Mapping[int, list | None], honoured: Container[int]
) -> list[tuple[int, int]]:
    """``(session id, winner's player id)`` of the ``sessions`` (an open stage's, in order)
    whose latest confirmed ranking (``rankings`` by session id) names a winner and that hold
    no honour yet (``honoured`` session ids): the honours the stage's close will award."""
    return [
        (session_id, int(ranking[0]))
        for session_id in sessions
        if session_id not in honoured and (ranking := rankings.get(session_id))
    ]


def session_winners(tournament: Tournament, honoured: Container[int]) -> list[tuple[int, int]]:
    """:func:`promised_wins` of the tournament's open stages, in session order
    (``honoured``: the ids of the sessions holding an honour): one query of plain rows (no
    session, seat or version object is built)."""
    rankings: dict[int, list | None] = {}
    for session_id, ranking in reads.open_stage_rankings(tournament.pk):
        rankings[session_id] = ranking
    return promised_wins(list(rankings), rankings, honoured)


@dataclass(frozen=True)
class PendingWins:
    """The open stages' session winners holding no honour yet (``(session id, player
    id)``, in session order), each winner's squad standing once the stage closes, by
    player id as text, and how many honours are awarded: plain rows, read in three
    queries."""

    winners: list[tuple[int, int]]
    after: dict[str, SquadStanding]
    awarded: int

    def ranks(self) -> dict[int, int]:
        """The rank each winner holds once the stage closes, by player id."""
        return {int(player): standing.rank for player, standing in self.after.items()}


def pending_wins(tournament: Tournament, ranks: Mapping[int, int] | None = None) -> PendingWins:
    """What :func:`pending_honours` lists, as plain rows (``ranks``: every squad rank of
    the tournament by player id, when the caller has read them)."""
    awarded = list(tournament.honours.order_by().values_list("player_id", "session_id"))
    winners = session_winners(tournament, {session_id for _player, session_id in awarded})
    winner_ids = {player_id for _session, player_id in winners}
    if not winners:
        return PendingWins([], {}, len(awarded))
    # The whole tournament's rows, not those of a list of the winners' ids: a list of
    # hundreds of ids costs more to send and parse than the rows it spares.
    if ranks is None:
        ranks = dict(
            SquadRank.objects.filter(tournament=tournament)
            .order_by()  # the model's ordering joins the tournament and the player to sort
            .values_list("player_id", "rank")
        )
    honours = Counter(player_id for player_id, _session in awarded)
    current = {
        str(pid): SquadStanding(rank=ranks.get(pid, 0), honours=honours.get(pid, 0))
        for pid in winner_ids
    }
    return PendingWins(
        winners,
        standings_after_wins(current, [str(player_id) for _s, player_id in winners]),
        len(awarded),
    )


def pending_honours(
    tournament: Tournament,
    wins: PendingWins | None = None,
    window: slice = slice(None),
    squads: Mapping[int, Squad] | None = None,
) -> list[PendingHonour]:
    """The winners of the open stages' confirmed sessions that hold no honour yet (a fixed
    number of queries), in session order: those in ``window`` of them (a page: only its
    winners' seats are read), from ``wins`` and with ``squads`` (by id) when the caller
    has read them."""
    wins = wins if wins is not None else pending_wins(tournament)
    winners = wins.winners[window]
    if not winners:
        return []
    squads = squads if squads is not None else tournament_squads(tournament)
    winning = set(winners)
    seats: dict[tuple[int, int], tuple[int, str, str, str, int | None]] = {}
    # Every seat of the winners' sessions (a few each): a second list of ids, the
    # winners', cost more to send and plan than the seats it spared.
    for session_id, player_id, number, kind, name, nickname, squad_id in reads.session_seats(
        sorted({session for session, _ in winners})
    ):
        if (session_id, player_id) in winning:
            seats[(session_id, player_id)] = (number, kind, name, nickname, squad_id)
    pending: list[PendingHonour] = []
    for session_id, player_id in winners:
        seat = seats[(session_id, player_id)]
        standing = wins.after[str(player_id)]
        pending.append(
            PendingHonour(
                session_id=session_id,
                session_number=seat[0],
                stage_kind=seat[1],
                player_id=player_id,
                player_name=seat[3] or seat[2],
                squad=squads.get(seat[4]) if seat[4] is not None else None,
                rank=standing.rank,
                honours=standing.honours,
            )
        )
    return pending


def pending_counts(pending: list[PendingHonour]) -> dict[int, int]:
    """Pending honours per player id."""
    counts: dict[int, int] = {}
    for honour in pending:
        counts[honour.player_id] = counts.get(honour.player_id, 0) + 1
    return counts


def tournament_squads(tournament: Tournament) -> dict[int, Squad]:
    """The tournament's squads by id."""
    return {squad.pk: squad for squad in reads.squads_of(tournament.pk)}
