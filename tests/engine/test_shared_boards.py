"""Boards are shared by the map's content hash: a shared board is equal to a freshly built
one, states parsed from the same map share it, and a different map gets its own; a parent
process builds the bundled maps' boards before forking, and its children share them."""

from __future__ import annotations

import copy
import os
from unittest import mock

from benchmarks.reference_position import reference_state
from rules.engine import maps
from rules.engine.caches import clear_caches
from rules.engine.maps import (
    board_to_json,
    bundled_map_text,
    bundled_maps,
    load_map,
    share_bundled_maps,
    shared_board_from_json,
    shared_map,
    shared_map_text,
)
from rules.engine.render import render
from rules.engine.state import GameState


def test_a_bundled_map_is_one_board_equal_to_a_freshly_loaded_one():
    clear_caches("maps.")
    board = shared_map("reference")
    assert shared_map("reference") is board
    assert board_to_json(board) == board_to_json(load_map("reference"))


def test_a_drawing_kept_elsewhere_is_shared_by_its_text():
    """A tournament's own map is read from the database as text, request after request."""
    text = bundled_map_text("tpk-ring")
    board = shared_map_text(text, source="club.txt")
    assert shared_map_text(str(text), source="club.txt") is board
    assert board_to_json(board) == board_to_json(load_map("tpk-ring"))
    assert shared_map_text(text.replace("Ring (TPK)", "Another ring"), "club.txt") is not board


def test_a_map_in_json_is_shared_by_its_content_not_by_the_dict():
    data = board_to_json(load_map("reference"))
    board = shared_board_from_json(data)
    assert shared_board_from_json(copy.deepcopy(data)) is board
    assert board_to_json(board) == data
    changed = copy.deepcopy(data)
    changed["title"] = "Another title"
    other = shared_board_from_json(changed)
    assert other is not board
    assert board_to_json(other) == changed


def test_states_parsed_from_the_same_map_share_the_board_and_equal_fresh_ones():
    data = reference_state().to_json()
    first, second = GameState.from_json(data), GameState.from_json(copy.deepcopy(data))
    assert first.board is second.board
    clear_caches("maps.")
    fresh = GameState.from_json(data)
    assert fresh.board is not first.board
    assert fresh.to_json() == first.to_json() == data
    assert render(fresh) == render(first)


def test_a_parent_shares_the_bundled_maps_boards_with_the_processes_it_forks():
    """Gunicorn's master and Celery's main process build them before they fork their
    workers: a worker parsing a state on a bundled map, or asking for the map, builds no
    board of its own."""
    stored = reference_state().to_json()
    clear_caches("maps.")
    assert share_bundled_maps() == tuple(bundled_maps()) and "reference" in bundled_maps()
    reading, writing = os.pipe()
    child = os.fork()
    if child == 0:  # the worker: may not parse a map; reports what it found, then leaves
        os.close(reading)
        try:
            with mock.patch.object(maps, "parse_map", side_effect=AssertionError("parsed")):
                board = GameState.from_json(stored).board
                found = [shared_map(name) for name in bundled_maps()]
            report = b"shared" if board in found else b"another board"
        except AssertionError as exc:
            report = str(exc).encode()
        os.write(writing, report)
        os._exit(0)
    os.close(writing)
    with os.fdopen(reading, "rb") as answer:
        report = answer.read()
    os.waitpid(child, 0)
    assert report == b"shared"
