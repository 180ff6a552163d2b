"""The rows the standings are built from (four SQL statements of plain tuples), the
tournament's squads, and the honours pending in the open stages (two more statements).

Written as SQL, not through the ORM, because at the sizes the standings are read at the
ORM's own work (building each query through its joins, compiling it, converting every
value) cost more than the database's answers: the standings of 243 players took 12-14 ms
to compute through the ORM and 7 ms with these statements, in one process against
PostgreSQL (``benchmarks/public_pages.py`` measures the whole page). The statements are
plain SQL both PostgreSQL and SQLite run; JSON columns come back as text from both and
are decoded here, and timestamps come as text too (:func:`_timestamp`).

Each statement finds the tournament's rows by joining from the tournament, not by a list
of the session ids read before: PostgreSQL prepares a statement a process runs again and
again (``DATABASE_PREPARED_STATEMENTS``), so the joins' planning is no longer paid per
request, and sending and unpacking the list cost more than the joins (the standings of
243 players were computed in 2.0 ms against 2.9, with the honours counted in one grouped
pass and the squads' slugs joined in, one statement fewer).

The ORM's managers hide what is superseded (a stage advance or close that was undone);
these statements say it themselves (``superseded_at IS NULL``), each where it applies.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from django.db import connection

from tournaments.models import (
    Honour,
    Player,
    Registration,
    Result,
    ResultVersion,
    Seat,
    Session,
    Squad,
    SquadRank,
    Stage,
    StageStatus,
    VenueTable,
)
from tournaments.models.sessions import current_status

_STAGE_SESSIONS_SQL = f"""
SELECT st.id, st.number, st.kind, st.status, st.qualifier_count, st.qualifiers,
    s.id, s.number, s.status, CAST(s.scheduled_at AS TEXT), vt.name, s.table_id, s.judge_id,
    EXISTS (
        SELECT 1 FROM {Honour._meta.db_table} h
        WHERE h.session_id = s.id AND h.superseded_at IS NULL
    )
FROM {Stage._meta.db_table} st
LEFT JOIN {Session._meta.db_table} s ON s.stage_id = st.id AND s.superseded_at IS NULL
LEFT JOIN {VenueTable._meta.db_table} vt ON vt.id = s.table_id
WHERE st.tournament_id = %s
ORDER BY st.number, s.number
"""

#: The seats and versions of the tournament's sessions in force (those
#: :data:`_STAGE_SESSIONS_SQL` reads), each seat with its squad's slug.
_SEATS_SQL = f"""
SELECT se.session_id, se.player_id, sq.slug, se.seat_order, se.initiative_position
FROM {Seat._meta.db_table} se
JOIN {Session._meta.db_table} s ON s.id = se.session_id AND s.superseded_at IS NULL
JOIN {Stage._meta.db_table} st ON st.id = s.stage_id
LEFT JOIN {Squad._meta.db_table} sq ON sq.id = se.squad_id
WHERE st.tournament_id = %s
ORDER BY se.seat_order, se.id
"""

#: A version's three JSON columns come as one JSON array, decoded in one call (each
#: decoding call cost more than the few values in it).
_CONFIRMED_VERSIONS_SQL = f"""
SELECT r.session_id, v.id, v.totals_key, v.number,
    '[' || CAST(v.totals AS TEXT) || ',' || CAST(v.ranking AS TEXT) || ','
        || CAST(v.survivors AS TEXT) || ']',
    CAST(v.created_at AS TEXT)
FROM {ResultVersion._meta.db_table} v
JOIN {Result._meta.db_table} r ON r.id = v.result_id
JOIN {Session._meta.db_table} s ON s.id = r.session_id AND s.superseded_at IS NULL
JOIN {Stage._meta.db_table} st ON st.id = s.stage_id
WHERE st.tournament_id = %s AND v.confirmed
ORDER BY r.session_id, v.number
"""

#: The honours are counted per player in one pass over the tournament's (a count per
#: registered player cost the database twice as much), the squad rank's squad named by
#: its slug when it is one of the tournament's.
_PLAYERS_SQL = f"""
SELECT rg.player_id, p.name, p.nickname, sr.rank, sq.slug, COALESCE(h.held, 0)
FROM {Registration._meta.db_table} rg
JOIN {Player._meta.db_table} p ON p.id = rg.player_id
LEFT JOIN {SquadRank._meta.db_table} sr
    ON sr.tournament_id = rg.tournament_id AND sr.player_id = rg.player_id
LEFT JOIN {Squad._meta.db_table} sq ON sq.id = sr.squad_id AND sq.tournament_id = rg.tournament_id
LEFT JOIN (
    SELECT player_id, COUNT(*) AS held FROM {Honour._meta.db_table}
    WHERE tournament_id = %s AND superseded_at IS NULL
    GROUP BY player_id
) h ON h.player_id = rg.player_id
WHERE rg.tournament_id = %s
ORDER BY rg.number
"""

_PLAYER_NAMES_SQL = f"""
SELECT p.id, p.name, p.nickname FROM {Player._meta.db_table} p WHERE p.id {{ids}}
"""

_SQUAD_FIELDS = [field.attname for field in Squad._meta.concrete_fields]
_SQUADS_SQL = f"""
SELECT {", ".join(f'sq."{field.column}"' for field in Squad._meta.concrete_fields)}
FROM {Squad._meta.db_table} sq WHERE sq.tournament_id = %s ORDER BY sq."order", sq.id
"""

_OPEN_STAGE_RANKINGS_SQL = f"""
SELECT r.session_id, v.ranking
FROM {ResultVersion._meta.db_table} v
JOIN {Result._meta.db_table} r ON r.id = v.result_id
JOIN {Session._meta.db_table} s ON s.id = r.session_id AND s.superseded_at IS NULL
JOIN {Stage._meta.db_table} st ON st.id = s.stage_id
WHERE st.tournament_id = %s AND st.status = %s AND v.confirmed
ORDER BY st.number, s.number, v.number
"""

_SESSION_SEATS_SQL = f"""
SELECT se.session_id, se.player_id, s.number, st.kind, p.name, p.nickname, se.squad_id
FROM {Seat._meta.db_table} se
JOIN {Session._meta.db_table} s ON s.id = se.session_id
JOIN {Stage._meta.db_table} st ON st.id = s.stage_id
JOIN {Player._meta.db_table} p ON p.id = se.player_id
WHERE se.session_id {{sessions}}
"""


def _rows(sql: str, params: list[Any]) -> list[tuple]:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


def _json(text: str | None) -> Any:
    return json.loads(text) if text is not None else None


def _timestamp(text: str | None) -> datetime | None:
    """The time a timestamp column read as text holds, aware: PostgreSQL writes it with its
    offset (the connection's time zone is UTC), SQLite as stored, in UTC without one.

    Read as text because the backend's own reading of the column (a converter in Python
    for each value) cost more than the rest of the statement's rows: 0.8 ms of the 1.6 ms
    the confirmed versions of 243 players took."""
    if text is None:
        return None
    moment = datetime.fromisoformat(text)
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


@dataclass(frozen=True)
class StandingsRows:
    """What a tournament's standings are built from, read by :func:`standings_rows`.

    * ``stages``: each stage in order (id, number, kind, status, qualifier count,
      qualifiers) with each of its sessions in force in order (id, number, status as the
      pages show it, scheduled at, table name, whether it holds an honour in force), or
      None once for a stage without sessions. The status is the stored one as
      :func:`~tournaments.models.sessions.current_status` reads it with the session's
      time, table and judge (decision 52), so the standings and the API never say
      "scheduled" where the schedule says what the session awaits.
    * ``players``: the registered players in registration order: player id, name,
      nickname, squad rank and its squad's slug (None without a rank), honours in force.
    * ``seats``: every seat of those sessions in seat order: session id, player id,
      squad slug, seat order, initiative position.
    * ``versions``: every confirmed result version of those sessions, by session then
      number: session id, version id, totals key, number, totals, ranking, survivors, the
      time it was saved.
    """

    stages: list[tuple[tuple, tuple | None]]
    players: list[tuple]
    seats: list[tuple]
    versions: list[tuple]


def standings_rows(tournament_id: int) -> StandingsRows:
    """The rows of the tournament's standings, in four statements."""
    return StandingsRows(
        stages=list(_stage_sessions(_rows(_STAGE_SESSIONS_SQL, [tournament_id]))),
        players=_rows(_PLAYERS_SQL, [tournament_id, tournament_id]),
        seats=_rows(_SEATS_SQL, [tournament_id]),
        versions=list(_confirmed_versions(_rows(_CONFIRMED_VERSIONS_SQL, [tournament_id]))),
    )


def _stage_sessions(rows: list[tuple]) -> Iterator[tuple[tuple, tuple | None]]:
    stage: tuple | None = None
    for row in rows:
        if stage is None or stage[0] != row[0]:
            stage = (*row[:5], _json(row[5]))
        if row[6] is None:
            yield stage, None
            continue
        pk, number, stored, scheduled_at, table, table_id, judge_id, honoured = row[6:]
        when = _timestamp(scheduled_at)
        status = current_status(stored, when, table_id, judge_id)
        yield stage, (pk, number, status, when, table, bool(honoured))


def _confirmed_versions(rows: list[tuple]) -> Iterator[tuple]:
    for session_id, pk, key, number, columns, saved in rows:
        totals, ranking, survivors = json.loads(columns)
        yield (
            *(session_id, pk, key, number),
            *(totals, ranking, survivors, _timestamp(saved)),
        )


def _id_list(ids: list[int]) -> tuple[str, Any]:
    """The condition "is one of ``ids``" as one parameter: an array for PostgreSQL, a JSON
    list for SQLite (which has no arrays), so the statement's text is the same for any
    number of ids."""
    if connection.vendor == "postgresql":
        return "= ANY(%s)", list(ids)
    return "IN (SELECT value FROM json_each(%s))", json.dumps(list(ids))


def player_names(player_ids: list[int]) -> list[tuple]:
    """Id, name and nickname of each of ``player_ids`` (the seated players no longer
    registered, whom :attr:`StandingsRows.players` does not name)."""
    condition, param = _id_list(player_ids)
    return _rows(_PLAYER_NAMES_SQL.format(ids=condition), [param])


def squads_of(tournament_id: int) -> list[Squad]:
    """The tournament's squads in squad order, as model objects built from one plain
    statement's rows (the public pages show their names and colours; the ORM's building
    of the query cost more than the statement)."""
    return [
        Squad.from_db(connection.alias, _SQUAD_FIELDS, row)
        for row in _rows(_SQUADS_SQL, [tournament_id])
    ]


def open_stage_rankings(tournament_id: int) -> Iterator[tuple[int, list | None]]:
    """The ranking of every confirmed result version of the open stages' sessions in
    force, by stage, session and version number: session id, ranking (player ids)."""
    for session_id, ranking in _rows(_OPEN_STAGE_RANKINGS_SQL, [tournament_id, StageStatus.OPEN]):
        yield session_id, _json(ranking)


def session_seats(session_ids: list[int]) -> list[tuple]:
    """Every seat of the sessions ``session_ids``: session id, player id, session number,
    stage kind, player's name and nickname, squad id."""
    condition, param = _id_list(session_ids)
    return _rows(_SESSION_SEATS_SQL.format(sessions=condition), [param])
