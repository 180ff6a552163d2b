"""Parsed states are kept by their JSON content (``state.parsed``): the same content is the
same state object, another content another one, a kept state is what a parse gives; a state
this program stored after checking it is read back without checking it again, into the same
state; and the state schema with its references inlined finds the same problems as the schema
itself."""

from __future__ import annotations

import copy
from unittest import mock

import jsonschema
import pytest

from benchmarks.reference_position import reference_state
from rules.engine import state as state_module
from rules.engine.caches import clear_caches
from rules.engine.schema_inlining import inlined
from rules.engine.state import GameState, StateError, keep_parsed, parsed_state, state_schema


def test_the_same_content_is_the_same_state_and_another_content_another():
    clear_caches("state.parsed")
    data = reference_state().to_json()
    state = parsed_state(data)
    assert parsed_state(copy.deepcopy(data)) is state
    assert state.to_json() == GameState.from_json(data).to_json()
    later = copy.deepcopy(data)
    later["round"] = data.get("round", 1) + 1
    other = parsed_state(later)
    assert other is not state
    assert other.round == later["round"]


def test_a_kept_state_is_read_back_without_parsing():
    clear_caches("state.parsed")
    state = reference_state().replace(round=5)
    stored = state.to_json()
    keep_parsed(state, stored)
    assert parsed_state(copy.deepcopy(stored)) is state


def test_a_state_stored_after_its_check_is_read_back_without_checking_it_again():
    """The schema check is most of a parse; a snapshot's state was checked, or made by the
    engine, before it was saved (``table.actions.snapshot_state``)."""
    clear_caches("state.parsed")
    data = reference_state().to_json()
    checked = GameState.from_json(data)
    with mock.patch.object(state_module, "_schema_check", side_effect=AssertionError("checked")):
        unchecked = GameState.from_json(data, checked=False)
        assert parsed_state(copy.deepcopy(data), checked=False).to_json() == data
        with pytest.raises(AssertionError, match="checked"):
            GameState.from_json(data)
    assert unchecked.to_json() == checked.to_json() == data


def test_a_bad_state_is_refused_every_time_and_never_kept():
    clear_caches("state.parsed")
    data = reference_state().to_json()
    data["figures"][0]["facing"] = "up"
    for _ in range(2):
        with pytest.raises(StateError):
            parsed_state(data)


def _problems(schema: dict, data: object) -> list[tuple[list, str]]:
    errors = jsonschema.Draft202012Validator(schema).iter_errors(data)
    return sorted((list(map(str, error.absolute_path)), error.message) for error in errors)


@pytest.mark.parametrize(
    "spoil",
    [
        lambda data: data["figures"][0].update(facing="up"),
        lambda data: data["figures"][1].update(square="b7"),
        lambda data: data.update(round="two"),
        lambda data: data["figures"].append({"id": 3}),
        lambda data: data.update(surprise=True),
    ],
)
def test_the_inlined_schema_finds_the_same_problems(spoil):
    data = reference_state().to_json()
    spoil(data)
    problems = _problems(state_schema(), data)
    assert problems
    assert _problems(inlined(state_schema()), data) == problems


def test_a_recursive_definition_keeps_its_reference():
    tree = {
        "type": "object",
        "properties": {"children": {"type": "array", "items": {"$ref": "#/$defs/tree"}}},
    }
    schema = {"$defs": {"tree": tree}, "properties": {"root": {"$ref": "#/$defs/tree"}}}
    flat = inlined(schema)
    assert flat["properties"]["root"]["properties"]["children"]["items"] == {"$ref": "#/$defs/tree"}
    bad = {"root": {"children": [{"children": [3]}]}}
    assert _problems(flat, bad) == _problems(schema, bad) != []
