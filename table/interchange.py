"""The board's games in the tournament document (section ``games``, format version 4).

Each game of a tournament's sessions is exported with its whole snapshot history and its
Alien-turn requests, so export → import keeps the board as it was; docs/interchange.md
describes the fields. Registered from :class:`table.apps.TableConfig` (the tournament app
knows nothing of the board: :mod:`tournaments.interchange.sections`).
"""

from __future__ import annotations

import json
import uuid
from datetime import datetime
from typing import Any

from django.utils.translation import gettext as _

from rules.engine.state import GameState, StateError
from table.models import AlienTurnRequest, Game, Snapshot, SnapshotKind, TurnStatus
from table.step_log import narration_language
from tournaments.interchange.export import session_ref, timestamp, username
from tournaments.interchange.sections import (
    CheckContext,
    Path,
    Section,
    WriteContext,
    objects_of,
    whole_number,
)
from tournaments.models import Tournament

KEY = "games"

_TEXT = {"type": "string"}
_JSON_LIST = {"type": "array"}

DEFINITIONS: dict[str, Any] = {
    "game_snapshot": {
        "type": "object",
        "additionalProperties": False,
        "required": [
            "number",
            "kind",
            "summary",
            "state",
            "steps",
            "events",
            "policy",
            "dice_source",
            "seed",
            "dice",
            "dice_batch",
            "reason",
            "restored_from",
            "created_by",
            "created_at",
        ],
        "properties": {
            "number": {"$ref": "#/$defs/positive"},
            "kind": {"enum": list(SnapshotKind.values)},
            "summary": {"type": "string", "maxLength": 300},
            "summary_parts": _JSON_LIST,
            "state": {"type": "object"},
            "steps": _JSON_LIST,
            "events": _JSON_LIST,
            "policy": {"type": "string", "maxLength": 20},
            "dice_source": {"type": "string", "maxLength": 10},
            "seed": {"type": "string", "maxLength": 40},
            "dice": _JSON_LIST,
            "dice_batch": {"type": ["string", "null"], "format": "uuid"},
            "reason": {"type": "string", "maxLength": 300},
            "restored_from": {"anyOf": [{"$ref": "#/$defs/positive"}, {"type": "null"}]},
            "created_by": {"$ref": "#/$defs/optional_username"},
            "created_at": {"$ref": "#/$defs/datetime"},
        },
    },
    "game_turn_request": {
        "type": "object",
        "additionalProperties": False,
        "required": [
            "id",
            "base_number",
            "policy",
            "seed",
            "typed_dice",
            "language",
            "status",
            "error",
            "snapshot",
            "requested_by",
            "created_at",
            "queued_at",
        ],
        "properties": {
            "id": {"type": "string", "format": "uuid"},
            "base_number": {"$ref": "#/$defs/count"},
            "policy": {"type": "string", "maxLength": 20},
            "seed": {"type": "string", "maxLength": 40},
            "typed_dice": {"type": ["array", "null"], "items": {"type": "integer"}},
            "language": {"type": "string", "maxLength": 10},
            "status": {"enum": list(TurnStatus.values)},
            "error": _TEXT,
            "snapshot": {"anyOf": [{"$ref": "#/$defs/positive"}, {"type": "null"}]},
            "requested_by": {"$ref": "#/$defs/optional_username"},
            "created_at": {"$ref": "#/$defs/datetime"},
            "queued_at": {"$ref": "#/$defs/optional_datetime"},
        },
    },
    "game": {
        "type": "object",
        "additionalProperties": False,
        "required": [
            "session",
            "number",
            "label",
            "map_name",
            "policy",
            "created_by",
            "created_at",
            "snapshots",
            "turn_requests",
        ],
        "properties": {
            "session": {"$ref": "#/$defs/session_ref"},
            "number": {"$ref": "#/$defs/small"},
            "label": {"type": "string", "maxLength": 120},
            "map_name": {"type": "string", "minLength": 1, "maxLength": 120},
            "policy": {"type": "string", "maxLength": 20},
            "created_by": {"$ref": "#/$defs/optional_username"},
            "created_at": {"$ref": "#/$defs/datetime"},
            "snapshots": {"type": "array", "items": {"$ref": "#/$defs/game_snapshot"}},
            "turn_requests": {"type": "array", "items": {"$ref": "#/$defs/game_turn_request"}},
        },
    },
}
SCHEMA: dict[str, Any] = {"type": "array", "items": {"$ref": "#/$defs/game"}}

#: Fields copied as they are, between the rows and the document.
GAME_FIELDS = ("number", "label", "map_name", "policy")
SNAPSHOT_FIELDS = (
    "number", "kind", "summary", "state", "steps", "events", "policy", "dice_source", "seed",
    "dice", "reason", "restored_from",
)  # fmt: skip
REQUEST_FIELDS = (
    "base_number", "policy", "seed", "typed_dice", "language", "status", "error",
)  # fmt: skip


def _plain(row: Any, fields: tuple[str, ...]) -> dict[str, Any]:
    return {name: getattr(row, name) for name in fields}


# --- export ----------------------------------------------------------------------------------


def _snapshot(snapshot: Snapshot) -> dict[str, Any]:
    return {
        **_plain(snapshot, SNAPSHOT_FIELDS),
        "summary_parts": snapshot.summary_parts,
        "dice_batch": str(snapshot.dice_batch) if snapshot.dice_batch else None,
        "created_by": username(snapshot.created_by),
        "created_at": timestamp(snapshot.created_at),
    }


def _turn_request(request: AlienTurnRequest) -> dict[str, Any]:
    return {
        **_plain(request, REQUEST_FIELDS),
        "id": str(request.pk),
        "snapshot": request.snapshot.number if request.snapshot else None,
        "requested_by": username(request.requested_by),
        "created_at": timestamp(request.created_at),
        "queued_at": timestamp(request.queued_at),
    }


def export_games(tournament: Tournament) -> list[dict[str, Any]]:
    """Every game of the tournament's sessions, by stage, session and game number."""
    games = (
        Game.objects.filter(session__stage__tournament=tournament)
        .select_related("session__stage", "created_by")
        .defer("session__stage__qualifiers")
        .order_by("session__stage__number", "session__number", "number")
    )
    exported = []
    for game in games:
        snapshots = game.snapshots.select_related("created_by").order_by("number")
        requests = game.turn_requests.select_related("snapshot", "requested_by").order_by(
            "created_at", "id"
        )
        exported.append(
            {
                **_plain(game, GAME_FIELDS),
                "session": session_ref(game.session),
                "created_by": username(game.created_by),
                "created_at": timestamp(game.created_at),
                "snapshots": [_snapshot(snapshot) for snapshot in snapshots],
                "turn_requests": [_turn_request(request) for request in requests],
            }
        )
    return exported


# --- checks ----------------------------------------------------------------------------------


def check_games(games: list[Any], context: CheckContext) -> None:
    """What the schema cannot say: sessions that exist, snapshot numbers 1, 2, 3…, states
    the engine loads, references to snapshots of the same game. (A snapshot's dice batch
    may name no roll: an Alien turn that rolled nothing.)"""
    seen: dict[str, int] = {}
    for index, game in objects_of(games):
        path: Path = (KEY, index)
        context.check_session_ref((*path, "session"), game.get("session"))
        context.check_timestamp((*path, "created_at"), game.get("created_at"))
        ref = game.get("session")
        # Keyed by its JSON text: a damaged document may put a list or an object anywhere.
        key = (
            json.dumps(
                [ref.get(name) for name in ("stage", "session", "superseded_at")]
                + [game.get("number")],
                default=str,
            )
            if isinstance(ref, dict)
            else None
        )
        if key is not None and key in seen:
            context.add(
                (*path, "number"),
                _(
                    "game %(number)s of this session is already $.games[%(other)d]; number "
                    "the games of a session 1, 2, 3…"
                )
                % {"number": game.get("number"), "other": seen[key]},
            )
        elif key is not None:
            seen[key] = index
        numbers = _check_snapshots(path, game.get("snapshots"), context)
        _check_requests(path, game.get("turn_requests"), numbers, context)


def _check_snapshots(path: Path, snapshots: Any, context: CheckContext) -> set[int]:
    numbers: set[int] = set()
    for position, snapshot in objects_of(snapshots):
        here: Path = (*path, "snapshots", position)
        number = whole_number(snapshot.get("number"))
        if number is not None and number != position + 1:
            context.add(
                (*here, "number"),
                _(
                    "snapshot numbers must run 1, 2, 3… in order; this is entry %(entry)d so "
                    "its number must be %(entry)d, not %(number)d"
                )
                % {"entry": position + 1, "number": number},
            )
        if number is not None:
            numbers.add(number)
        restored = whole_number(snapshot.get("restored_from"))
        if restored is not None and not 1 <= restored <= position:
            context.add(
                (*here, "restored_from"),
                _("a snapshot can only restore an earlier one of its game (1 to %(last)d)")
                % {"last": position},
            )
        context.check_timestamp((*here, "created_at"), snapshot.get("created_at"))
        state = snapshot.get("state")
        if isinstance(state, dict):
            try:
                GameState.from_json(state)
            except StateError as error:
                for problem in error.problems:
                    context.add(
                        (*here, "state"),
                        f"{problem.path}: {problem.text_in(narration_language())}",
                    )
    return numbers


def _check_requests(path: Path, requests: Any, numbers: set[int], context: CheckContext) -> None:
    seen: set[str] = set()
    for position, request in objects_of(requests):
        here: Path = (*path, "turn_requests", position)
        request_id = request.get("id")
        if isinstance(request_id, str):
            if request_id in seen:
                context.add((*here, "id"), _("this request id is used twice in the game"))
            seen.add(request_id)
        snapshot = whole_number(request.get("snapshot"))
        if snapshot is not None and snapshot not in numbers:
            context.add(
                (*here, "snapshot"),
                _(
                    "the game has no snapshot %(number)d; give the number of one of its "
                    "snapshots, or null"
                )
                % {"number": snapshot},
            )
        if request.get("status") == TurnStatus.DONE and snapshot is None:
            context.add(
                (*here, "snapshot"),
                _("a request that is done names the snapshot it produced"),
            )
        context.check_timestamp((*here, "created_at"), request.get("created_at"))
        context.check_timestamp((*here, "queued_at"), request.get("queued_at"))


# --- writing ---------------------------------------------------------------------------------


def write_games(games: list[dict[str, Any]], tournament: Tournament, context: WriteContext) -> None:
    """Create the checked games (inside the importer's transaction)."""
    taken = set(
        AlienTurnRequest.objects.filter(
            pk__in=[request["id"] for game in games for request in game["turn_requests"]]
        ).values_list("pk", flat=True)
    )
    for data in games:
        game = Game.objects.create(
            **{name: data[name] for name in GAME_FIELDS},
            session=context.session_at(data["session"]),
            created_by=context.user(data["created_by"]),
        )
        context.keep_time(game, "created_at", data["created_at"])
        snapshots = Snapshot.objects.bulk_create(
            Snapshot(
                **{name: item[name] for name in SNAPSHOT_FIELDS},
                summary_parts=item.get("summary_parts", []),  # documents before it: none
                game=game,
                dice_batch=context.batch(item["dice_batch"]),
                created_by=context.user(item["created_by"]),
            )
            for item in data["snapshots"]
        )
        by_number = {snapshot.number: snapshot for snapshot in snapshots}
        for snapshot, item in zip(snapshots, data["snapshots"], strict=True):
            context.keep_time(snapshot, "created_at", item["created_at"])
        for item in data["turn_requests"]:
            request_id = uuid.UUID(item["id"])
            request = AlienTurnRequest.objects.create(
                **{name: item[name] for name in REQUEST_FIELDS},
                id=uuid.uuid4() if request_id in taken else request_id,
                game=game,
                snapshot=by_number.get(item["snapshot"]),
                requested_by=context.user(item["requested_by"]),
                queued_at=(
                    datetime.fromisoformat(item["queued_at"]) if item["queued_at"] else None
                ),
            )
            context.keep_time(request, "created_at", item["created_at"])


SECTION = Section(
    key=KEY,
    added_in=4,
    schema=SCHEMA,
    definitions=DEFINITIONS,
    export=export_games,
    check=check_games,
    write=write_games,
)
