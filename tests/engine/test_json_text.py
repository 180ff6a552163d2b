"""JSON a person gave, read: text nested too deeply to read is refused as any other text
that is not JSON, at its place, never with Python's recursion error."""

import json

import pytest

from rules.engine.json_text import NESTED_TOO_DEEPLY, loads
from rules.engine.state import GameState, StateError


def test_json_reads_as_json():
    assert loads('{"a": [1, {"b": "[["}]}') == {"a": [1, {"b": "[["}]}


@pytest.mark.parametrize(
    ("text", "column"),
    [
        ("[" * 3000 + "]" * 3000, 500),
        # The object is level 1, the lists from column 116 on: level 500 is the 499th.
        ('{"a": "' + "[{" * 50 + '", "b": ' + "[" * 3000 + "]" * 3000 + "}", 116 + 498),
        # The objects of "c" from column 21 on, six characters each.
        ('{"a": "\\"[[[", "b": ' + '{"c": ' * 2500 + "1" + "}" * 2501, 21 + 498 * 6),
    ],
)
def test_text_nested_too_deeply_is_not_json_at_its_500th_level(text, column):
    """Brackets inside a text (quoted, escaped quotes included) are no levels."""
    with pytest.raises(json.JSONDecodeError) as refused:
        loads(text)
    assert (refused.value.msg, refused.value.lineno, refused.value.colno) == (
        NESTED_TOO_DEEPLY,
        1,
        column,
    )


def test_a_state_file_nested_too_deeply_is_a_state_error(tmp_path):
    path = tmp_path / "state.json"
    path.write_text("[" * 3000 + "]" * 3000, encoding="utf-8")
    with pytest.raises(StateError) as refused:
        GameState.from_file(path)
    assert "Nested too deeply" in str(refused.value)
