"""The event day's own rows in the tournament document (format version 6): the venue's
tables, the round timer, the players' result disputes and the seeds announced before a
draw. Each is a section (:mod:`tournaments.interchange.sections`), registered from
:class:`tournaments.apps.TournamentsConfig`; docs/interchange.md describes the fields.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from django.utils.translation import gettext as _

from rules.engine.dice import seed_commitment
from tournaments.actions.venue_tables import table_named
from tournaments.interchange.export import player_ids, session_ref, timestamp, username
from tournaments.interchange.problems import json_path
from tournaments.interchange.sections import (
    CheckContext,
    Path,
    Section,
    WriteContext,
    objects_of,
)
from tournaments.models import (
    DisputeStatus,
    ResultDispute,
    RoundTimer,
    SeedAnnouncement,
    Tournament,
    VenueTable,
)
from tournaments.models.tables import table_name

ADDED_IN = 6


def _time(text: str | None) -> datetime | None:
    return None if text is None else datetime.fromisoformat(text)


def _ref_text(value: Any) -> str | None:
    """A session reference as comparable text (None for no session, or a damaged one)."""
    if value is None or not isinstance(value, dict):
        return None
    return json.dumps(value, sort_keys=True, default=str)


def _first_use(
    context: CheckContext, path: Path, key: Any, seen: dict[Any, Path], message: str
) -> None:
    """Report ``path`` when ``key`` was already used at an earlier path."""
    if key in seen:
        context.add(path, message % {"first": json_path(seen[key])})
    else:
        seen[key] = path


# --- the venue's tables ----------------------------------------------------------------------

TABLES = "tables"


def export_tables(tournament: Tournament) -> list[dict[str, Any]]:
    return [
        {"name": str(table), "position": table.position}
        for table in VenueTable.objects.filter(tournament=tournament).order_by("position", "name")
    ]


def check_tables(tables: list[Any], context: CheckContext) -> None:
    """Names are unique (a session names its table by it), once the word for table is left
    out: "Tavolo 1" and "1" are one table."""
    seen: dict[Any, Path] = {}
    for index, table in objects_of(tables):
        name = table.get("name")
        if isinstance(name, str):
            _first_use(
                context,
                (TABLES, index, "name"),
                table_name(name).casefold(),
                seen,
                _("this table name is used already at %(first)s; each table needs its own"),
            )


def write_tables(
    tables: list[dict[str, Any]], tournament: Tournament, context: WriteContext
) -> None:
    """The sessions already added the tables they name; this sets every table's position
    and adds those no session uses."""
    for data in tables:
        table = table_named(tournament, data["name"])
        if table is not None and table.position != data["position"]:
            table.position = data["position"]
            table.save(update_fields=["position"])


# --- the round timer ---------------------------------------------------------------------

TIMER = "round_timer"


def export_timer(tournament: Tournament) -> list[dict[str, Any]]:
    return [
        {
            "duration_seconds": timer.duration_seconds,
            "remaining_seconds": timer.remaining_seconds,
            "running_since": timestamp(timer.running_since),
            "updated_at": timestamp(timer.updated_at),
        }
        for timer in RoundTimer.objects.filter(tournament=tournament)
    ]


def check_timer(timers: list[Any], context: CheckContext) -> None:
    for index, timer in objects_of(timers):
        for name in ("running_since", "updated_at"):
            context.check_timestamp((TIMER, index, name), timer.get(name))


def write_timer(
    timers: list[dict[str, Any]], tournament: Tournament, context: WriteContext
) -> None:
    for data in timers:
        timer = RoundTimer.objects.create(
            tournament=tournament,
            duration_seconds=data["duration_seconds"],
            remaining_seconds=data["remaining_seconds"],
            running_since=_time(data["running_since"]),
        )
        context.keep_time(timer, "updated_at", data["updated_at"])


# --- result disputes -----------------------------------------------------------------------

DISPUTES = "disputes"


def export_disputes(tournament: Tournament) -> list[dict[str, Any]]:
    ids = player_ids(tournament)
    disputes = (
        ResultDispute.objects.filter(session__stage__tournament=tournament)
        .select_related("session__stage", "resolved_by")
        .defer("session__stage__qualifiers")
    )
    exported = [
        {
            "session": session_ref(dispute.session),
            "player": ids[dispute.player_id],
            "version_number": dispute.version_number,
            "reason": dispute.reason,
            "status": dispute.status,
            "resolution_note": dispute.resolution_note,
            "resolved_by": username(dispute.resolved_by),
            "resolved_at": timestamp(dispute.resolved_at),
            "created_at": timestamp(dispute.created_at),
        }
        for dispute in disputes
    ]
    return sorted(exported, key=lambda item: json.dumps(item, sort_keys=True))


def check_disputes(disputes: list[Any], context: CheckContext) -> None:
    """Sessions and players that exist; one open dispute per player and session; an open
    dispute is not resolved yet."""
    open_ones: dict[Any, Path] = {}
    for index, dispute in objects_of(disputes):
        path: Path = (DISPUTES, index)
        context.check_session_ref((*path, "session"), dispute.get("session"))
        context.check_player((*path, "player"), dispute.get("player"))
        for name in ("resolved_at", "created_at"):
            context.check_timestamp((*path, name), dispute.get(name))
        ref, player = _ref_text(dispute.get("session")), dispute.get("player")
        if dispute.get("status") != DisputeStatus.OPEN:
            continue
        if ref is not None and isinstance(player, str):
            _first_use(
                context,
                (*path, "status"),
                (ref, player),
                open_ones,
                _("this player has an open dispute of this session at %(first)s already"),
            )
        if dispute.get("resolved_at") is not None:
            context.add(
                (*path, "resolved_at"),
                _("an open dispute is not resolved yet; use null or set its status"),
            )


def write_disputes(
    disputes: list[dict[str, Any]], tournament: Tournament, context: WriteContext
) -> None:
    for data in disputes:
        dispute = ResultDispute.objects.create(
            session=context.session_at(data["session"]),
            player=context.player(data["player"]),
            version_number=data["version_number"],
            reason=data["reason"],
            status=data["status"],
            resolution_note=data["resolution_note"],
            resolved_by=context.user(data["resolved_by"]),
            resolved_at=_time(data["resolved_at"]),
        )
        context.keep_time(dispute, "created_at", data["created_at"])


# --- seed announcements --------------------------------------------------------------------

ANNOUNCEMENTS = "seed_announcements"


def export_announcements(tournament: Tournament) -> list[dict[str, Any]]:
    announcements = (
        SeedAnnouncement.objects.filter(tournament=tournament)
        .select_related("session__stage")
        .defer("session__stage__qualifiers")
    )
    exported = [
        {
            "session": session_ref(announcement.session),
            "purpose": announcement.purpose,
            "seed": announcement.seed,
            "commitment": announcement.commitment,
            "announced_at": timestamp(announcement.announced_at),
            "used_at": timestamp(announcement.used_at),
        }
        for announcement in announcements
    ]
    return sorted(exported, key=lambda item: json.dumps(item, sort_keys=True))


def check_announcements(announcements: list[Any], context: CheckContext) -> None:
    """Sessions that exist; the commitment is the seed's hash; one pending seed per purpose
    (of the tournament, or of a session)."""
    pending: dict[Any, Path] = {}
    for index, announcement in objects_of(announcements):
        path: Path = (ANNOUNCEMENTS, index)
        context.check_session_ref((*path, "session"), announcement.get("session"))
        for name in ("announced_at", "used_at"):
            context.check_timestamp((*path, name), announcement.get(name))
        seed, commitment = announcement.get("seed"), announcement.get("commitment")
        if isinstance(seed, str) and seed.isdigit() and isinstance(commitment, str):
            if seed_commitment(int(seed)) != commitment:
                context.add(
                    (*path, "commitment"),
                    _("this is not the SHA-256 of the seed; the announced hash must match it"),
                )
        purpose = announcement.get("purpose")
        if announcement.get("used_at") is None and isinstance(purpose, str):
            _first_use(
                context,
                (*path, "used_at"),
                (_ref_text(announcement.get("session")), purpose),
                pending,
                _(
                    "a seed for this purpose is pending already at %(first)s; only one may "
                    "wait to be used"
                ),
            )


def write_announcements(
    announcements: list[dict[str, Any]], tournament: Tournament, context: WriteContext
) -> None:
    for data in announcements:
        announcement = SeedAnnouncement.objects.create(
            tournament=tournament,
            session=context.session_at(data["session"]) if data["session"] else None,
            purpose=data["purpose"],
            seed=data["seed"],
            commitment=data["commitment"],
            used_at=_time(data["used_at"]),
        )
        context.keep_time(announcement, "announced_at", data["announced_at"])


def _section(
    key: str,
    item: str,
    properties: dict[str, Any],
    parts: tuple[Any, Any, Any],
    max_items: int | None = None,
) -> Section:
    """A section of version 6: a list of ``item`` objects with every property required;
    ``parts`` are its export, check and write."""
    schema: dict[str, Any] = {"type": "array", "items": {"$ref": f"#/$defs/{item}"}}
    if max_items is not None:
        schema["maxItems"] = max_items
    definition = {
        "type": "object",
        "additionalProperties": False,
        "required": list(properties),
        "properties": properties,
    }
    export, check, write = parts
    return Section(
        key=key,
        added_in=ADDED_IN,
        schema=schema,
        definitions={item: definition},
        export=export,
        check=check,
        write=write,
    )


_OPTIONAL_TIME = {"$ref": "#/$defs/optional_datetime"}
_TIME = {"$ref": "#/$defs/datetime"}

SECTIONS = (
    _section(
        TABLES,
        "venue_table",
        {
            "name": {"type": "string", "minLength": 1, "maxLength": 60, "pattern": r"\S"},
            "position": {"$ref": "#/$defs/small"},
        },
        (export_tables, check_tables, write_tables),
    ),
    _section(
        TIMER,
        "round_timer",
        {
            "duration_seconds": {"$ref": "#/$defs/count"},
            "remaining_seconds": {"$ref": "#/$defs/count"},
            "running_since": _OPTIONAL_TIME,
            "updated_at": _TIME,
        },
        (export_timer, check_timer, write_timer),
        max_items=1,
    ),
    _section(
        DISPUTES,
        "result_dispute",
        {
            "session": {"$ref": "#/$defs/session_ref"},
            "player": {"$ref": "#/$defs/player_id"},
            "version_number": {"$ref": "#/$defs/count"},
            "reason": {"type": "string", "maxLength": 1000},
            "status": {"enum": list(DisputeStatus.values)},
            "resolution_note": {"type": "string", "maxLength": 1000},
            "resolved_by": {"$ref": "#/$defs/optional_username"},
            "resolved_at": _OPTIONAL_TIME,
            "created_at": _TIME,
        },
        (export_disputes, check_disputes, write_disputes),
    ),
    _section(
        ANNOUNCEMENTS,
        "seed_announcement",
        {
            "session": {"$ref": "#/$defs/optional_session_ref"},
            "purpose": {"type": "string", "minLength": 1, "maxLength": 20},
            "seed": {"type": "string", "pattern": "^[0-9]{1,40}$"},
            "commitment": {"type": "string", "pattern": "^[0-9a-f]{64}$"},
            "announced_at": _TIME,
            "used_at": _OPTIONAL_TIME,
        },
        (export_announcements, check_announcements, write_announcements),
    ),
)
