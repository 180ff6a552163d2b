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
from django.utils import timezone

from tournaments.caching import generations, release
from tournaments.domain.scoring import session_totals, totals_key
from tournaments.models import (
    ActivityLog,
    ResultVersion,
    StageKind,
    StageStatus,
    Tournament,
)
from tournaments.queries import standings_reads as reads
from tournaments.queries.live_honours import promised_wins
from tournaments.queries.result_versions import scoring_values

CACHE_SECONDS = 300


def cache_key(tournament_id: int) -> str:
    """The key of a tournament's cached standings: with the code's release, so a process of
    new code (a new field in the dict) never reads a dict an older one cached."""
    return f"bob:standings:{release.current()}:{tournament_id}"


def _status(stages: list[tuple], has_sessions: bool) -> str:
    """``not_started`` before any session is seated, ``finished`` once the final is
    closed, else ``in_progress`` (``stages``: the stage rows of
    :func:`~tournaments.queries.standings_reads.stage_sessions`, by number)."""
    if not has_sessions:
        return "not_started"
    last = stages[-1]
    if last[2] == StageKind.FINAL and last[3] == StageStatus.CLOSED:
        return "finished"
    return "in_progress"


def _session_scores(version: tuple | None) -> tuple[dict, dict[int, int], set[int]]:
    """Seat totals (by player id as text), places and survivors (by player id) of a
    session's confirmed version (``version``: number, totals, ranking, survivors, saved
    at)."""
    if version is None:
        return {}, {}, set()
    _number, totals, ranking, survivors, _saved = version
    places = {int(player): place for place, player in enumerate(ranking or [], start=1)}
    return totals, places, {int(player) for player in survivors or []}


def _player_row(player_id: int, name: str, rank: int = 0, honours: int = 0) -> dict[str, Any]:
    return {
        "player_id": player_id,
        "player": name,
        "squad": None,
        "rank": rank,
        "honours": honours,
        "pending_honours": 0,
        "sessions": 0,
        "wins": 0,
        "points": 0,
        "stage_reached": 0,
        "last_position": None,
        "eliminated_in_stage": None,
        "awaiting_result": False,
    }


def _latest_confirmed(tournament: Tournament, versions: list[tuple]) -> dict[int, tuple]:
    """Per session id: number, seat totals, ranking, survivors and time saved of its
    latest confirmed result version (``versions``: :attr:`StandingsRows.versions
    <tournaments.queries.standings_reads.StandingsRows.versions>`). The totals are those
    stored with the version when they were scored with the tournament's present values
    and code (their key matches), else scored here from the stored breakdown (read in one
    more query, for those only)."""
    values = scoring_values(tournament)
    key = totals_key(values)
    rows: dict[int, tuple] = {}
    for session_id, *row in versions:
        rows[session_id] = tuple(row)
    stale = {row[0]: session_id for session_id, row in rows.items() if row[1] != key}
    scored = (
        {
            pk: session_totals(breakdown or [], values)
            for pk, breakdown in ResultVersion.objects.filter(pk__in=stale).values_list(
                "pk", "breakdown"
            )
        }
        if stale
        else {}
    )
    return {
        session_id: (number, scored.get(pk, totals), ranking, survivors, saved)
        for session_id, (pk, _key, number, totals, ranking, survivors, saved) in rows.items()
    }


def _seats_of(seats: list[tuple], names: dict[int, str]) -> dict[int, list[tuple]]:
    """Per session id, its seats in seat order (``seats``: :attr:`StandingsRows.seats
    <tournaments.queries.standings_reads.StandingsRows.seats>`). ``names`` (the
    registered players' names by id) gains the seated players no longer registered."""
    seats_of: dict[int, list[tuple]] = {}
    for seat in seats:
        seats_of.setdefault(seat[0], []).append(seat)
    unnamed = {seat[1] for seat in seats} - names.keys()
    if unnamed:
        for player_id, name, nickname in reads.player_names(sorted(unnamed)):
            names[player_id] = nickname or name
    return seats_of


def compute_standings(tournament: Tournament) -> dict[str, Any]:
    """The standings of ``tournament`` as a JSON-ready dict (see ``api/openapi.json``),
    from plain rows read in four statements
    (:func:`~tournaments.queries.standings_reads.standings_rows`)."""
    read = reads.standings_rows(tournament.pk)
    stages: list[tuple] = []
    sessions_of: dict[int, list[tuple]] = {}
    for stage, session in read.stages:
        if not stages or stages[-1][0] != stage[0]:
            stages.append(stage)
            sessions_of[stage[0]] = []
        if session is not None:
            sessions_of[stage[0]].append(session)
    players: dict[int, dict[str, Any]] = {}
    names: dict[int, str] = {}
    # A player's squad is the one of their squad rank, else of their latest seat.
    ranked_squads: dict[int, str] = {}
    for player_id, name, nickname, rank, squad, honours in read.players:
        names[player_id] = nickname or name
        players[player_id] = _player_row(player_id, names[player_id], rank or 0, honours)
        if squad is not None:
            ranked_squads[player_id] = squad
    seats_of = _seats_of(read.seats, names)
    versions = _latest_confirmed(tournament, read.versions)
    honoured_sessions: set[int] = set()
    stage_rows: list[dict[str, Any]] = []
    open_sessions: list[int] = []
    for stage_id, number, kind, status, qualifier_count, qualifiers in stages:
        # The final's close lists its players in order; it qualifies nobody (its podium does).
        qualified = set(qualifiers or []) if kind != StageKind.FINAL else set()
        eliminating = status == StageStatus.CLOSED and kind != StageKind.FINAL
        promising = status == StageStatus.OPEN
        session_rows = []
        for (
            session_id,
            session_number,
            session_status,
            scheduled_at,
            table,
            honoured,
        ) in sessions_of[stage_id]:
            version = versions.get(session_id)
            totals, places, survived = _session_scores(version)
            seat_rows = []
            for _session, player_id, squad, seat_order, initiative in seats_of.get(session_id, ()):
                display = names[player_id]
                points = totals.get(str(player_id))
                position = places.get(player_id)
                entry = players.get(player_id)
                if entry is None:
                    entry = players[player_id] = _player_row(player_id, display)
                entry["stage_reached"] = number
                if squad is not None:
                    entry["squad"] = squad
                entry["last_position"] = position
                entry["awaiting_result"] = version is None
                if version:
                    entry["sessions"] += 1
                    entry["points"] += points or 0
                    if position == 1:
                        entry["wins"] += 1
                if eliminating and player_id not in qualified:
                    entry["eliminated_in_stage"] = number
                seat_rows.append(
                    {
                        "player_id": player_id,
                        "player": display,
                        "squad": squad,
                        "seat_order": seat_order,
                        "initiative_position": initiative,
                        "points": points,
                        "position": position,
                        "survived": player_id in survived if version else None,
                        "qualified": player_id in qualified,
                    }
                )
            if promising:
                open_sessions.append(session_id)
            if honoured:
                honoured_sessions.add(session_id)
            session_rows.append(
                {
                    "id": session_id,
                    "number": session_number,
                    "status": session_status,
                    "scheduled_at": scheduled_at.isoformat() if scheduled_at else None,
                    "table": table or "",
                    "result_version": version[0] if version else None,
                    "result_confirmed_at": version[4].isoformat() if version else None,
                    "seats": seat_rows,
                }
            )
        stage_rows.append(
            {
                "number": number,
                "kind": kind,
                "status": status,
                "qualifier_count": qualifier_count,
                "qualifiers": list(qualifiers or []),
                "sessions": session_rows,
            }
        )
    rankings = {session_id: version[2] for session_id, version in versions.items()}
    for _session, winner in promised_wins(open_sessions, rankings, honoured_sessions):
        if winner in players:
            players[winner]["pending_honours"] += 1
    for player_id, squad in ranked_squads.items():
        players[player_id]["squad"] = squad
    podium = []
    status = _status(stages, any(sessions_of.values()))
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


#: The tournament's id and the two maxima of its data stamp in one query, each the first
#: step down a (tournament, id) index, so the poll costs the same however many rows this
#: tournament and the others have: the activity's newest entry, and the result versions'
#: newest (``ResultVersion.tournament``; before it, each result of the tournament was
#: looked up, 4.9 ms for the 729 results of 2,187 players). Each is asked as a range, so
#: only that index gives the order (with ``tournament_id = t.id`` the planner took the id
#: index and walked every newer row of the other tournaments first); the step lands on an
#: earlier tournament's row, read as none, when this one has none yet.
_STAMP_SQL = f"""
SELECT {{columns}},
    (SELECT CASE WHEN a.tournament_id = t.id THEN a.id END
        FROM {ActivityLog._meta.db_table} a WHERE a.tournament_id <= t.id
        ORDER BY a.tournament_id DESC, a.id DESC LIMIT 1) AS stamp_activity,
    (SELECT CASE WHEN v.tournament_id = t.id THEN v.id END
        FROM {ResultVersion._meta.db_table} v WHERE v.tournament_id <= t.id
        ORDER BY v.tournament_id DESC, v.id DESC LIMIT 1) AS stamp_version
FROM {Tournament._meta.db_table} t WHERE t.slug = %s
"""
_STAMP_ONLY_SQL = _STAMP_SQL.format(columns="t.id")
_TOURNAMENT_COLUMNS = ", ".join(f"t.{field.column}" for field in Tournament._meta.concrete_fields)
#: The tournament's own columns too: a public page reads its tournament and the stamp in
#: one statement (:func:`read_tournament`).
_TOURNAMENT_STAMP_SQL = _STAMP_SQL.format(columns=_TOURNAMENT_COLUMNS)
_TOURNAMENT_SQL = (
    f"SELECT {_TOURNAMENT_COLUMNS} FROM {Tournament._meta.db_table} t WHERE t.slug = %s"
)


def stamp_by_slug(slug: str) -> tuple[int, list[int | str]] | None:
    """The id and :func:`data_stamp` of the tournament with ``slug`` (None: no such
    tournament), in one query and one cache read: all the live poll costs while nothing
    changed."""
    with connection.cursor() as cursor:
        cursor.execute(_STAMP_ONLY_SQL, [slug])
        row = cursor.fetchone()
    if row is None:
        return None
    pk, activity, version = row
    return pk, [activity or 0, version or 0, generations.current(slug)]


def read_tournament(slug: str, stamped: bool = False) -> Tournament | None:
    """The tournament with ``slug`` (None: no such tournament), read as plain SQL (the
    ORM's building of the query cost more than the database's answer); ``stamped``: with
    the two ids of its data stamp read in the same statement, so a page that reads the
    standings pays one query for both (:func:`data_stamp` takes them from the instance;
    they are those of the moment it was read, for one request's reading)."""
    sql = _TOURNAMENT_STAMP_SQL if stamped else _TOURNAMENT_SQL
    return next(iter(Tournament.objects.raw(sql, [slug])), None)


def data_stamp(tournament: Tournament) -> list[int | str]:
    """What the cached standings were built from: the latest activity-log entry, the latest
    result version and the tournament's cache generation. The generation changes with every
    committed change to the tournament's data, from any process (the admin included); the
    two ids also catch changes whose generation bump has not happened yet (read before the
    writing transaction committed), so a changed stamp means stale. A tournament read by
    :func:`read_tournament` gives the two ids read with it."""
    if hasattr(tournament, "stamp_activity"):
        read = vars(tournament)
        return [
            read["stamp_activity"] or 0,
            read["stamp_version"] or 0,
            generations.current(tournament.slug),
        ]
    found = stamp_by_slug(tournament.slug)
    return found[1] if found is not None else [0, 0, generations.current(tournament.slug)]


def rebuild(tournament: Tournament, stamp: list[int | str] | None = None) -> dict[str, Any]:
    """Recompute the standings and store them in the cache with their data stamp
    (``stamp``: read before, when the caller has it)."""
    stamp = stamp or data_stamp(tournament)
    standings = compute_standings(tournament)
    cache.set(cache_key(tournament.pk), {"stamp": stamp, "standings": standings}, CACHE_SECONDS)
    return standings


def get_standings(tournament: Tournament, stamp: list[int | str] | None = None) -> dict[str, Any]:
    """The cached standings when still current (``stamp``: the tournament's
    :func:`data_stamp`, when the caller has it already), otherwise rebuilt first."""
    cached = cache.get(cache_key(tournament.pk))
    stamp = stamp or data_stamp(tournament)
    if cached is not None and cached["stamp"] == stamp:
        return cached["standings"]
    return rebuild(tournament, stamp)


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
