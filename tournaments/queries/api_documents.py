"""The JSON documents the API returns, built from the database (no request needed)."""

from __future__ import annotations

from typing import Any

from django.db.models import Prefetch

from tournaments.models import Honour, Rank, ScoreBonus, Seat, Session, SquadRank, Tournament
from tournaments.queries.standings import get_standings


def tournament_header(tournament: Tournament) -> dict[str, Any]:
    return {
        "slug": tournament.slug,
        "name": tournament.name,
        "starts_on": tournament.starts_on.isoformat() if tournament.starts_on else None,
        "ends_on": tournament.ends_on.isoformat() if tournament.ends_on else None,
        "venue": tournament.venue,
    }


def tournament_list() -> dict[str, Any]:
    return {
        "tournaments": [
            tournament_header(tournament) for tournament in Tournament.objects.order_by("slug")
        ]
    }


def _with_status(tournament: Tournament, standings: dict[str, Any]) -> dict[str, Any]:
    return {**tournament_header(tournament), "status": standings["tournament"]["status"]}


def standings_document(tournament: Tournament) -> dict[str, Any]:
    standings = get_standings(tournament)
    return {
        "tournament": _with_status(tournament, standings),
        "generated_at": standings["generated_at"],
        "podium": standings["podium"],
        "players": [
            {**row, "rank_name": str(Rank(row["rank"]).label)} for row in standings["players"]
        ],
    }


def bracket_document(tournament: Tournament) -> dict[str, Any]:
    standings = get_standings(tournament)
    return {
        "tournament": _with_status(tournament, standings),
        "generated_at": standings["generated_at"],
        "stages": standings["stages"],
    }


def honours_document(tournament: Tournament) -> dict[str, Any]:
    rows = SquadRank.objects.filter(tournament=tournament).select_related("player", "squad")
    honours: dict[int, list[dict]] = {}
    for honour in Honour.objects.filter(tournament=tournament).select_related(
        "squad", "session__stage"
    ):
        honours.setdefault(honour.player_id, []).append(
            {
                "stage": honour.session.stage.number,
                "session": honour.session.number,
                "squad": honour.squad.slug,
            }
        )
    bonuses: dict[int, list[dict]] = {}
    for bonus in ScoreBonus.objects.filter(tournament=tournament).select_related(
        "earned_in__stage", "used_in__stage"
    ):
        bonuses.setdefault(bonus.player_id, []).append(
            {
                "earned_in": {
                    "stage": bonus.earned_in.stage.number,
                    "session": bonus.earned_in.number,
                },
                "extra_equipment_cards": bonus.extra_equipment_cards,
                "thresholds_reached": list(bonus.thresholds_reached),
                "used_in": (
                    {"stage": bonus.used_in.stage.number, "session": bonus.used_in.number}
                    if bonus.used_in is not None
                    else None
                ),
            }
        )
    players = [
        {
            "player_id": row.player_id,
            "player": row.player.display_name,
            "squad": row.squad.slug if row.squad is not None else None,
            "rank": row.rank,
            "rank_name": str(Rank(row.rank).label),
            "honours": honours.get(row.player_id, []),
            "score_bonuses": bonuses.get(row.player_id, []),
        }
        for row in sorted(rows, key=lambda r: (-r.rank, r.player.display_name.lower()))
    ]
    return {"tournament": tournament_header(tournament), "players": players}


def schedule_document(tournament: Tournament) -> dict[str, Any]:
    sessions = (
        Session.objects.filter(stage__tournament=tournament)
        .select_related("stage", "judge", "table")
        .prefetch_related(
            Prefetch(
                "seats",
                queryset=Seat.objects.select_related("player", "squad").order_by("seat_order"),
            )
        )
        .order_by("stage__number", "number")
    )
    return {
        "tournament": tournament_header(tournament),
        "sessions": [
            {
                "id": session.pk,
                "stage": session.stage.number,
                "stage_kind": session.stage.kind,
                "number": session.number,
                "status": session.current_status,
                "scheduled_at": session.scheduled_at.isoformat() if session.scheduled_at else None,
                "duration_minutes": session.duration_minutes,
                "table": session.table_name,
                "judge": (session.judge.get_full_name() or session.judge.get_username())
                if session.judge is not None
                else None,
                "players": [
                    {
                        "player_id": seat.player_id,
                        "player": seat.player.display_name,
                        "squad": seat.squad.slug if seat.squad is not None else None,
                    }
                    for seat in session.seats.all()
                ],
            }
            for session in sessions
        ],
    }
