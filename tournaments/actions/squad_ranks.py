"""Each player's squad and rank as they stood before a stage close or a squad draw, kept in
that step's activity entry so an undo can put them back (decisions 38 and 39)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from tournaments.models import Rank, SquadRank, Tournament


def ranks_snapshot(tournament: Tournament, players: Iterable[int] | None = None) -> dict[str, list]:
    """``{player id: [squad slug or None, rank]}`` of the tournament's squad ranks (of
    ``players`` only, when given), as JSON data that an exported document keeps."""
    rows = SquadRank.objects.filter(tournament=tournament)
    if players is not None:
        rows = rows.filter(player_id__in=list(players))
    return {
        str(player): [squad, rank]
        for player, squad, rank in rows.values_list("player_id", "squad__slug", "rank")
    }


def restore_ranks(
    tournament: Tournament, snapshot: Mapping[str, list], players: Iterable[int] | None = None
) -> None:
    """Put the squads and ranks of ``snapshot`` back; a row the snapshot does not know (made
    after it) returns to no squad and the first rank."""
    rows = SquadRank.objects.select_for_update().filter(tournament=tournament)
    if players is not None:
        rows = rows.filter(player_id__in=list(players))
    squads = dict(tournament.squads.values_list("slug", "pk"))
    for row in rows:
        squad, rank = snapshot.get(str(row.player_id), [None, Rank.MARINE_SQUAD])
        row.squad_id, row.rank = squads.get(squad) if squad else None, rank
        row.save(update_fields=["squad", "rank", "updated_at"])
