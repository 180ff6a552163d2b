"""Problems found in imported data, each tied to the place it was found.

A document problem carries a JSON path such as ``$.stages[1].sessions[0].seats[2].player``;
a roster problem carries a row number and column. Importers collect every problem before
reporting, so a user fixes a file in one pass rather than one error at a time.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

_IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def json_path(parts: Iterable[str | int]) -> str:
    """The JSONPath of a location given as keys and indexes, e.g. ``$.stages[1].name``."""
    text = "$"
    for part in parts:
        if isinstance(part, int):
            text += f"[{part}]"
        elif _IDENTIFIER.match(part):
            text += f".{part}"
        else:
            escaped = part.replace("\\", "\\\\").replace("'", "\\'")
            text += f"['{escaped}']"
    return text


@dataclass(frozen=True)
class Problem:
    """One thing wrong with an imported document, at ``path``."""

    path: str
    message: str

    def __str__(self) -> str:
        return f"{self.path}: {self.message}"


class InterchangeError(Exception):
    """Raised with every problem found; nothing has been written when it is raised."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems
        super().__init__("\n".join(str(problem) for problem in problems))
