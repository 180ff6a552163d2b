"""What the squad draw reads about a session's players (RULES §3–4): their squad choices
and, from the second stage on, what each did in their previous session.

One reader for every draw — the stage seating, the judge's table and the command line — and
a fixed number of queries however many sessions are drawn at once.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tournaments.domain.draw import DrawPlayer, PreviousSession
from tournaments.models import ResultVersion, Seat, Session, SquadPreference, SquadRank, Stage
from tournaments.queries.result_versions import scoring_values, version_totals
from tournaments.queries.tournament_catalogue import squad_names


def squad_preferences(stage: Stage, player_ids: Sequence[int]) -> dict[int, tuple[str, ...]]:
    """Each player's squad choices for ``stage``: the stage's own list, else the
    tournament-wide one. A choice naming a squad the tournament does not have is kept: the
    draw refuses it with a message naming the player, rather than silently ignoring it."""
    rows = SquadPreference.objects.filter(
        tournament=stage.tournament, player_id__in=player_ids, stage__isnull=True
    )
    chosen: dict[int, tuple[str, ...]] = {row.player_id: tuple(row.choices) for row in rows}
    # The stage's own lists override the tournament-wide ones.
    chosen.update(stage_own_choices(stage, player_ids))
    return chosen


def stage_own_choices(stage: Stage, player_ids: Sequence[int]) -> dict[int, tuple[str, ...]]:
    """The lists ``stage`` has of its own for ``player_ids`` (an empty one included), by
    player id: only an imported document brings them, the stage's squad draw reads them
    instead of the tournament-wide ones, and no page edits them (decision 28). One query."""
    rows = SquadPreference.objects.filter(stage=stage, player_id__in=player_ids)
    return {row.player_id: tuple(row.choices) for row in rows}


@dataclass(frozen=True)
class StageList:
    """One player's squad preferences for a given stage: their name and the squads' names,
    first choice first."""

    player: str
    squads: list[str]


def stage_own_preferences(stage: Stage) -> list[StageList]:
    """The preference lists ``stage`` has of its own, which its squad draw reads instead of
    the players' tournament-wide ones (:func:`squad_preferences`): only an imported
    document brings them, so the organiser's stage page shows them read-only. Players by
    name; a squad the tournament does not have is shown by its code, as the draw names it
    when refusing it. Two queries."""
    names = squad_names(stage.tournament)
    rows = SquadPreference.objects.filter(stage=stage).select_related("player")
    lists = [
        StageList(row.player.display_name, [names.get(slug, slug) for slug in row.choices])
        for row in rows
    ]
    return sorted(lists, key=lambda entry: entry.player.casefold())


def previous_sessions(stage: Stage, player_ids: Sequence[int]) -> dict[int, PreviousSession]:
    """For later stages: each player's squad, win, points and rank in their last session of
    an earlier stage (players without one are left out)."""
    tournament = stage.tournament
    earlier = (
        Seat.objects.filter(
            player_id__in=player_ids,
            session__stage__tournament=tournament,
            session__stage__number__lt=stage.number,
            squad__isnull=False,
        )
        .select_related("squad")
        .order_by("-session__stage__number")
    )
    last: dict[int, Seat] = {}
    for seat in earlier:
        last.setdefault(seat.player_id, seat)
    if not last:
        return {}
    versions: dict[int, ResultVersion] = {}
    for version in (
        ResultVersion.objects.filter(
            result__session_id__in={seat.session_id for seat in last.values()}, confirmed=True
        )
        .select_related("result")
        .order_by("number")
    ):
        versions[version.result.session_id] = version
    ranks = dict(
        SquadRank.objects.filter(tournament=tournament, player_id__in=player_ids).values_list(
            "player_id", "rank"
        )
    )
    values = scoring_values(tournament)
    totals = {session_id: version_totals(v, values) for session_id, v in versions.items()}
    previous: dict[int, PreviousSession] = {}
    for player_id, seat in last.items():
        assert seat.squad is not None  # the seats were filtered on squad__isnull=False
        confirmed = versions.get(seat.session_id)
        previous[player_id] = PreviousSession(
            squad=seat.squad.slug,
            won=confirmed is not None and confirmed.positions().get(player_id) == 1,
            points=totals.get(seat.session_id, {}).get(player_id, 0),
            rank=ranks.get(player_id, 0),
        )
    return previous


def draw_players(sessions: Sequence[Session]) -> dict[int, list[DrawPlayer]]:
    """The draw's players of each session (by session id), in seat order.

    All ``sessions`` belong to one stage."""
    if not sessions:
        return {}
    stage = sessions[0].stage
    seats = list(Seat.objects.filter(session__in=sessions).order_by("session_id", "seat_order"))
    player_ids = [seat.player_id for seat in seats]
    preferences = squad_preferences(stage, player_ids)
    previous = previous_sessions(stage, player_ids) if stage.number > 1 else {}
    players: dict[int, list[DrawPlayer]] = {session.pk: [] for session in sessions}
    for seat in seats:
        players[seat.session_id].append(
            DrawPlayer(
                id=str(seat.player_id),
                preferences=preferences.get(seat.player_id, ()),
                previous=previous.get(seat.player_id),
            )
        )
    return players
