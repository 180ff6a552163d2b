"""A tournament's standings, built from the latest confirmed result of every session.

Points come from the stored breakdowns through the pure scoring service and places from
the ranking stored with each version (its ties were settled by recorded dice when the
result was entered), so rebuilding never rolls dice and always gives the same answer.
The result is a plain JSON-ready dict, cached per tournament with the stamp of the data it
was built from (checked on every read, and including the tournament's cache generation, so
any committed change makes it stale), and rebuilt by the ``rebuild_standings`` task
whenever a result version is saved or a stage advances.
"""

from __future__ import annotations

from typing import Any

from celery import shared_task
from django.core.cache import cache
from django.db import connection
from django.db.models import Count, Prefetch
from django.utils import timezone

from tournaments.caching import generations
from tournaments.domain.scoring import ScoringError, SeatBreakdown, score_session
from tournaments.models import (
    ActivityLog,
    Registration,
    Result,
    ResultVersion,
    Seat,
    Session,
    SquadRank,
    Stage,
    StageKind,
    StageStatus,
    Tournament,
)
from tournaments.queries.result_versions import latest_confirmed_versions, scoring_values

CACHE_PREFIX = "bob:standings:"
CACHE_SECONDS = 300


def cache_key(tournament_id: int) -> str:
    return f"{CACHE_PREFIX}{tournament_id}"


def tournament_status(tournament: Tournament, stages: list) -> str:
    if not any(stage.sessions.all() for stage in stages):
        return "not_started"
    last = stages[-1]
    if last.kind == StageKind.FINAL and last.status == StageStatus.CLOSED:
        return "finished"
    return "in_progress"


def _session_scores(session: Session, version, values) -> dict[int, dict[str, Any]]:
    seats = list(session.seats.all())
    names = {str(seat.player_id): seat.player.display_name for seat in seats}
    try:
        cards = score_session(
            [SeatBreakdown.from_dict(item) for item in version.breakdown], values, names
        )
    except ScoringError:
        cards = {}
    places = version.positions()
    survivors = set(version.survivors)
    return {
        seat.player_id: {
            "points": cards[str(seat.player_id)].total if str(seat.player_id) in cards else None,
            "position": places.get(seat.player_id),
            "survived": seat.player_id in survivors,
        }
        for seat in seats
    }


def _player_row(player, honours: dict[int, int]) -> dict[str, Any]:
    return {
        "player_id": player.pk,
        "player": player.display_name,
        "squad": None,
        "rank": 0,
        "honours": honours.get(player.pk, 0),
        "sessions": 0,
        "wins": 0,
        "points": 0,
        "stage_reached": 0,
        "last_position": None,
        "eliminated_in_stage": None,
    }


def compute_standings(tournament: Tournament) -> dict[str, Any]:
    """The standings of ``tournament`` as a JSON-ready dict (see ``api/openapi.json``)."""
    seats = Seat.objects.select_related("player", "squad").order_by("seat_order")
    stages = list(
        tournament.stages.order_by("number").prefetch_related(
            Prefetch(
                "sessions",
                queryset=Session.objects.select_related("table")
                .order_by("number")
                .prefetch_related(Prefetch("seats", queryset=seats)),
            )
        )
    )
    sessions = [session for stage in stages for session in stage.sessions.all()]
    versions = latest_confirmed_versions(sessions)
    values = scoring_values(tournament)
    registrations = list(
        Registration.objects.filter(tournament=tournament)
        .select_related("player")
        .order_by("number")
    )
    ranks = {
        row.player_id: row
        for row in SquadRank.objects.filter(tournament=tournament).select_related("squad")
    }
    honours = dict(
        tournament.honours.values("player_id")
        .annotate(count=Count("pk"))
        .values_list("player_id", "count")
    )
    players: dict[int, dict[str, Any]] = {
        reg.player_id: _player_row(reg.player, honours) for reg in registrations
    }
    stage_rows: list[dict[str, Any]] = []
    for stage in stages:
        # The final's close lists its players in order; it qualifies nobody (its podium does).
        qualified = set(stage.qualifiers or []) if stage.kind != StageKind.FINAL else set()
        session_rows = []
        for session in stage.sessions.all():
            version = versions.get(session.pk)
            scores = _session_scores(session, version, values) if version else {}
            seat_rows = []
            for seat in session.seats.all():
                score = scores.get(seat.player_id, {})
                if seat.player_id not in players:
                    players[seat.player_id] = _player_row(seat.player, honours)
                entry = players[seat.player_id]
                entry["stage_reached"] = stage.number
                entry["squad"] = seat.squad.slug if seat.squad is not None else entry["squad"]
                entry["last_position"] = score.get("position")
                if version:
                    entry["sessions"] += 1
                    entry["points"] += score.get("points") or 0
                    entry["wins"] += 1 if score.get("position") == 1 else 0
                if (
                    stage.status == StageStatus.CLOSED
                    and stage.kind != StageKind.FINAL
                    and seat.player_id not in qualified
                ):
                    entry["eliminated_in_stage"] = stage.number
                seat_rows.append(
                    {
                        "player_id": seat.player_id,
                        "player": seat.player.display_name,
                        "squad": seat.squad.slug if seat.squad is not None else None,
                        "seat_order": seat.seat_order,
                        "initiative_position": seat.initiative_position,
                        "points": score.get("points"),
                        "position": score.get("position"),
                        "survived": score.get("survived"),
                        "qualified": seat.player_id in qualified,
                    }
                )
            session_rows.append(
                {
                    "id": session.pk,
                    "number": session.number,
                    "status": session.status,
                    "scheduled_at": session.scheduled_at.isoformat()
                    if session.scheduled_at
                    else None,
                    "table": session.table_name,
                    "result_version": version.number if version else None,
                    "seats": seat_rows,
                }
            )
        stage_rows.append(
            {
                "number": stage.number,
                "kind": stage.kind,
                "status": stage.status,
                "qualifier_count": stage.qualifier_count,
                "qualifiers": list(stage.qualifiers or []),
                "sessions": session_rows,
            }
        )
    for player_id, squad_rank in ranks.items():
        if player_id in players:
            players[player_id]["rank"] = squad_rank.rank
            if squad_rank.squad is not None:
                players[player_id]["squad"] = squad_rank.squad.slug
    podium = []
    status = tournament_status(tournament, stages)
    if status == "finished":
        final = stage_rows[-1]["sessions"][0]
        for seat in sorted(final["seats"], key=lambda s: s["position"] or 99)[:3]:
            podium.append(
                {
                    "position": seat["position"],
                    "player_id": seat["player_id"],
                    "player": seat["player"],
                    "points": seat["points"],
                }
            )
    table = sorted(
        players.values(),
        key=lambda row: (
            -row["stage_reached"],
            row["eliminated_in_stage"] is not None,
            row["last_position"] if row["last_position"] is not None else 99,
            -row["points"],
            row["player"].lower(),
        ),
    )
    for place, row in enumerate(table, start=1):
        row["place"] = place
    return {
        "tournament": {"slug": tournament.slug, "name": tournament.name, "status": status},
        "generated_at": timezone.now().isoformat(),
        "podium": podium,
        "players": table,
        "stages": stage_rows,
    }


#: The tournament's id and the two maxima of its data stamp in one query. Maxima, not
#: "newest first, take one": ordered by id, the database would walk every newer row of
#: the other tournaments before reaching this one's (an older tournament's poll got slower
#: with every result entered elsewhere). The activity's maximum is one step down its
#: (tournament, id) index; the versions' is found from the tournament's own sessions.
_STAMP_SQL = f"""
SELECT t.id,
    (SELECT MAX(a.id) FROM {ActivityLog._meta.db_table} a WHERE a.tournament_id = t.id),
    (SELECT MAX(v.id) FROM {ResultVersion._meta.db_table} v
        JOIN {Result._meta.db_table} r ON r.id = v.result_id
        JOIN {Session._meta.db_table} s ON s.id = r.session_id
        JOIN {Stage._meta.db_table} st ON st.id = s.stage_id
        WHERE st.tournament_id = t.id)
FROM {Tournament._meta.db_table} t WHERE t.slug = %s
"""


def stamp_by_slug(slug: str) -> tuple[int, list[int | str]] | None:
    """The id and :func:`data_stamp` of the tournament with ``slug`` (None: no such
    tournament), in one query and one cache read: all the live poll costs while nothing
    changed."""
    with connection.cursor() as cursor:
        cursor.execute(_STAMP_SQL, [slug])
        row = cursor.fetchone()
    if row is None:
        return None
    pk, activity, version = row
    return pk, [activity or 0, version or 0, generations.current(slug)]


def data_stamp(tournament: Tournament) -> list[int | str]:
    """What the cached standings were built from: the latest activity-log entry, the latest
    result version and the tournament's cache generation. The generation changes with every
    committed change to the tournament's data, from any process (the admin included); the
    two ids also catch changes whose generation bump has not happened yet (read before the
    writing transaction committed), so a changed stamp means stale."""
    found = stamp_by_slug(tournament.slug)
    return found[1] if found is not None else [0, 0, generations.current(tournament.slug)]


def rebuild(tournament: Tournament) -> dict[str, Any]:
    """Recompute the standings and store them in the cache with their data stamp."""
    stamp = data_stamp(tournament)
    standings = compute_standings(tournament)
    cache.set(cache_key(tournament.pk), {"stamp": stamp, "standings": standings}, CACHE_SECONDS)
    return standings


def get_standings(tournament: Tournament, stamp: list[int | str] | None = None) -> dict[str, Any]:
    """The cached standings when still current (``stamp``: the tournament's
    :func:`data_stamp`, when the caller has it already), otherwise rebuilt first."""
    cached = cache.get(cache_key(tournament.pk))
    if cached is not None and cached["stamp"] == (stamp or data_stamp(tournament)):
        return cached["standings"]
    return rebuild(tournament)


@shared_task(
    name="tournaments.tasks.rebuild_standings",
    autoretry_for=(ConnectionError, TimeoutError),
    retry_backoff=True,
    max_retries=5,
)
def rebuild_standings(tournament_id: int) -> bool:
    """Recompute and cache the tournament's standings; False when it no longer exists.

    The tournament's cache generation is bumped first, so pages cached before the rebuild
    are not served after it, even when the change behind it sent no model signal.
    """
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        return False
    generations.bump(tournament.slug)
    rebuild(tournament)
    return True
