"""Parts of the tournament document that other apps add (the board's games, by ``table``).

The tournament app may not import the apps built on it, so an app that keeps rows of its
own for a tournament registers a :class:`Section` from its ``AppConfig.ready()``: a
top-level key of the document with its JSON Schema, and how to export, check and write
it. The exporter, the checker and the importer run every registered section after their
own parts, so export → import keeps those rows too.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from tournaments.models import Player, Session, Tournament

Path = tuple[str | int, ...]


class CheckContext(Protocol):
    """What a section's check may use of the document checker."""

    def add(self, path: Path, message: str) -> None: ...

    def check_session_ref(self, path: Path, value: Any) -> None: ...

    def check_player(self, path: Path, value: Any) -> None: ...

    def check_timestamp(self, path: Path, value: Any) -> None: ...


class WriteContext(Protocol):
    """What a section's writer may use of the importer (inside its transaction)."""

    def session_at(self, ref: dict[str, Any]) -> Session: ...

    def player(self, player_id: str) -> Player: ...

    def user(self, username: str | None) -> Any: ...

    def keep_time(self, instance: Any, field: str, text: str | None) -> None: ...

    def batch(self, text: str | None) -> Any: ...


@dataclass(frozen=True)
class Section:
    """A top-level list of the document, owned by another app."""

    #: The document's key, e.g. ``"games"``.
    key: str
    #: The format version that added it: an older document gets an empty list.
    added_in: int
    #: The JSON Schema of the list; its ``$ref``\\ s may use the document's ``$defs``.
    schema: dict[str, Any]
    #: Extra ``$defs`` the schema refers to (named after the section, to stay apart).
    definitions: dict[str, Any]
    export: Callable[[Tournament], list[dict[str, Any]]]
    check: Callable[[list[Any], CheckContext], None]
    write: Callable[[list[dict[str, Any]], Tournament, WriteContext], None]


_SECTIONS: dict[str, Section] = {}


def objects_of(value: Any) -> list[tuple[int, dict[str, Any]]]:
    """(index, item) for every object in a list; anything else gives nothing (a check never
    trusts the document's shape: the schema reports a wrong one)."""
    if not isinstance(value, list):
        return []
    return [(index, item) for index, item in enumerate(value) if isinstance(item, dict)]


def whole_number(value: Any) -> int | None:
    """``value`` if it is an integer (not a boolean), else None."""
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def register(section: Section) -> None:
    """Add a section (once per key; registering the same key again replaces it)."""
    _SECTIONS[section.key] = section


def registered() -> list[Section]:
    """The sections, in the order they were registered."""
    return list(_SECTIONS.values())
