"""Player references inside free-form JSON fields, translated between database and document.

Result versions store a score breakdown (see :mod:`tournaments.scoring`), a ranking and the
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
