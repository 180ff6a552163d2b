"""JSON text a person gave (a file, an upload, a form's text) read as data.

Python's decoder reads nested lists and objects by recursion: text nested some thousand
levels deep (``[[[[…``) makes it raise ``RecursionError``, which nothing that reads a
person's text expects, where every other text that is not JSON raises
``json.JSONDecodeError``. :func:`loads` raises that one in both cases, so every reader's
own message about JSON that does not read (its place, and why) covers this too.
"""

from __future__ import annotations

import json
from typing import Any

#: What a too deeply nested text is refused with (``JSONDecodeError.msg``).
NESTED_TOO_DEEPLY = "Nested too deeply"
#: The depth whose first bracket the refusal points at: no document of the app nests more
#: than a few levels, and the decoder gives up somewhat below Python's recursion limit.
_SHOWN_DEPTH = 500


def loads(text: str) -> Any:
    """``json.loads(text)``, raising ``json.JSONDecodeError`` for text too deeply nested
    to read, at its first bracket :data:`_SHOWN_DEPTH` levels deep."""
    try:
        return json.loads(text)
    except RecursionError:
        raise json.JSONDecodeError(NESTED_TOO_DEEPLY, text, _too_deep_at(text)) from None


def _too_deep_at(text: str) -> int:
    """Where the text first opens a list or an object :data:`_SHOWN_DEPTH` levels deep
    (brackets inside texts are not counted)."""
    depth, quoted, escaped = 0, False, False
    for index, char in enumerate(text):
        if quoted:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                quoted = False
        elif char == '"':
            quoted = True
        elif char in "[{":
            depth += 1
            if depth >= _SHOWN_DEPTH:
                return index
        elif char in "]}":
            depth -= 1
    return 0
