"""Shared pieces of the fuzz tests: any JSON value, and every place in a JSON document
where one can be put."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from hypothesis import strategies as st

#: Small JSON values of every kind, nested a little; strings that look like ids and numbers.
JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 12)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.sampled_from(["", "p1", "x", "1.5", "A", "ork"]),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3)
    ),
    max_leaves=6,
)


def locations(value: Any, path: tuple = ()) -> Iterator[tuple]:
    """The path of ``value`` and of everything inside it (keys and list indexes)."""
    yield path
    if isinstance(value, dict):
        for key, item in value.items():
            yield from locations(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from locations(item, (*path, index))


def replaced(document: Any, path: tuple, replacement: Any) -> None:
    """Put ``replacement`` at ``path`` (not empty) in ``document``, in place."""
    target = document
    for part in path[:-1]:
        target = target[part]
    target[path[-1]] = replacement
