"""Player references inside free-form JSON fields, translated between database and document.

Result versions store a score breakdown (see :mod:`tournaments.domain.scoring`), a ranking and the
survivors as JSON holding *database* player ids. A document must not carry database ids,
so the exporter swaps them for the document's player ids and the importer swaps them back
for the ids of the players it created. Which keys hold a player, and how the database
writes it (text or number), is listed here once for both directions.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

#: Breakdown keys on a seat's entry whose value is a player, stored as text.
SEAT_TEXT_KEYS = ("seat",)
#: Breakdown keys on a seat's entry whose value is a player, stored as a number.
SEAT_NUMBER_KEYS = ("player", "player_id")
#: Keys of the entries listed inside a seat's breakdown that name another seat (as text).
NESTED_TEXT_KEYS = ("victim", "killer", "owner")

Path = tuple[str | int, ...]

#: ``rewrite(value, as_text, path)`` returns the translated reference. ``as_text`` says how
#: the database stores that key (text when true, a number otherwise); ``path`` locates the
#: value inside the breakdown, for error messages.
Rewrite = Callable[[Any, bool, Path], Any]


def rewrite_breakdown(breakdown: Any, rewrite: Rewrite) -> Any:
    """A copy of ``breakdown`` with every player reference passed through ``rewrite``.

    Null references are left alone; anything not shaped like a breakdown (a list of
    objects) is returned unchanged for the checks to report.
    """
    if not isinstance(breakdown, list):
        return breakdown
    return [_rewrite_entry(entry, rewrite, (index,)) for index, entry in enumerate(breakdown)]


def _rewrite_entry(entry: Any, rewrite: Rewrite, path: Path) -> Any:
    if not isinstance(entry, dict):
        return entry
    result: dict[str, Any] = {}
    for key, value in entry.items():
        if key in SEAT_TEXT_KEYS or key in SEAT_NUMBER_KEYS:
            result[key] = _apply(rewrite, value, key in SEAT_TEXT_KEYS, (*path, key))
        elif isinstance(value, list):
            result[key] = [
                _rewrite_nested(item, rewrite, (*path, key, position))
                for position, item in enumerate(value)
            ]
        else:
            result[key] = value
    return result


def _rewrite_nested(item: Any, rewrite: Rewrite, path: Path) -> Any:
    if not isinstance(item, dict):
        return item
    return {
        key: _apply(rewrite, value, True, (*path, key)) if key in NESTED_TEXT_KEYS else value
        for key, value in item.items()
    }


def _apply(rewrite: Rewrite, value: Any, as_text: bool, path: Path) -> Any:
    return None if value is None else rewrite(value, as_text, path)


# Activity log details (see the log_activity callers): key -> how players are held.
#: A single player id stored as a number.
DETAIL_PLAYER_KEYS = ("player", "reserve")
#: Lists of player ids: stored as numbers (qualifiers) or as text (initiative order).
DETAIL_NUMBER_LIST_KEYS = ("qualifiers",)
DETAIL_TEXT_LIST_KEYS = ("order",)
#: Lists of lists of player ids as text (a stage's seating, one list per session).
DETAIL_TEXT_GROUP_KEYS = ("sessions",)
#: Objects keyed by player id (squad draw assignments, squads and ranks before a step).
DETAIL_PLAYER_MAP_KEYS = ("assignments", "ranks_before")
#: Lists of objects whose "player" is a player id as text (rank transfers).
DETAIL_ENTRY_LIST_KEYS = ("rank_transfers",)
#: A session stored as its database id.
DETAIL_SESSION_KEYS = ("session",)
#: Lists of sessions stored as database ids (those an undone advance superseded).
DETAIL_SESSION_LIST_KEYS = ("superseded_sessions",)

#: ``player(value, as_text)``: a translated player reference; ``session(value)``: a session.
PlayerRewrite = Callable[[Any, bool], Any]
SessionRewrite = Callable[[Any], Any]


def rewrite_details(details: Any, player: PlayerRewrite, session: SessionRewrite) -> Any:
    """A copy of an activity entry's details with player and session references translated.

    Keys not listed above, and values of an unexpected shape, are copied unchanged.
    """
    if not isinstance(details, dict):
        return details
    result: dict[str, Any] = {}
    for key, value in details.items():
        if key in DETAIL_PLAYER_KEYS and value is not None:
            value = player(value, False)
        elif key in DETAIL_SESSION_KEYS and value is not None:
            value = session(value)
        elif key in DETAIL_SESSION_LIST_KEYS and isinstance(value, list):
            value = [session(item) for item in value]
        elif key in DETAIL_NUMBER_LIST_KEYS + DETAIL_TEXT_LIST_KEYS and isinstance(value, list):
            as_text = key in DETAIL_TEXT_LIST_KEYS
            value = [player(item, as_text) for item in value]
        elif key in DETAIL_TEXT_GROUP_KEYS and isinstance(value, list):
            value = [
                [player(item, True) for item in group] if isinstance(group, list) else group
                for group in value
            ]
        elif key in DETAIL_PLAYER_MAP_KEYS and isinstance(value, dict):
            value = {str(player(item, True)): squad for item, squad in value.items()}
        elif key in DETAIL_ENTRY_LIST_KEYS and isinstance(value, list):
            value = [
                {**entry, "player": player(entry["player"], True)}
                if isinstance(entry, dict) and entry.get("player") is not None
                else entry
                for entry in value
            ]
        result[key] = value
    return result
