"""The code's release: a digest of the files that shape what the app answers (its Python,
templates, translations and data), computed once per process, when first asked for (a
command that caches nothing never reads the files).

The cached pages, standings tables and standings carry it in their keys, so a process of
one release never serves what another cached: the shared cache (Redis) outlives a deploy,
and a page of the old markup would otherwise stay up to its expiry (an hour for the
standings table) unless the tournament's data changed meanwhile.
"""

from __future__ import annotations

from functools import cache
from hashlib import blake2b
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
#: The folders whose files shape a response, and the kinds of file that do.
SOURCES = ("bob", "demo", "locale", "rules", "table", "templates", "tournaments")
SUFFIXES = frozenset({".py", ".html", ".po", ".json"})


def code_digest(root: Path = ROOT) -> str:
    """A digest of the names and contents of the source files under ``root``."""
    digest = blake2b(digest_size=8)
    for folder in SOURCES:
        for path in sorted((root / folder).rglob("*")):
            if path.suffix in SUFFIXES and path.is_file():
                digest.update(path.relative_to(root).as_posix().encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()


@cache
def current() -> str:
    """This process's release: :func:`code_digest` of its own source files."""
    return code_digest()
