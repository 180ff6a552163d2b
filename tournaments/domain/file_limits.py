"""How large a file BoB reads may be, for a form's upload and a command's path alike (one
value each), and reading a path no further than that: a wrong file (a video, a disk image,
``/dev/zero``) is refused after its first bytes, not read whole into memory first."""

from __future__ import annotations

from pathlib import Path

#: Far above any event's document: a wrong file is refused before it is read.
MAX_DOCUMENT_BYTES = 50_000_000
#: A roster of a few hundred players takes a few tens of kilobytes.
MAX_ROSTER_BYTES = 1_000_000
#: A squad draw's input file: the squads and a session's players, at most a few kilobytes.
MAX_DRAW_BYTES = 1_000_000


def read_at_most(path: str | Path, limit: int) -> bytes | None:
    """The file's bytes, or None when it holds more than ``limit``; raises OSError as
    reading it does (missing, a folder, no permission)."""
    with open(path, "rb") as handle:
        data = handle.read(limit + 1)
    return None if len(data) > limit else data


def megabytes(limit: int) -> str:
    """A limit as the messages say it: 1 MB, 50 MB."""
    return f"{limit // 1_000_000} MB"
