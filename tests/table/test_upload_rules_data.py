"""A judge's state upload restores a position; the rules data stay the organiser's.

The file's ``data_overrides`` are not taken: the game keeps the tournament's values it
plays with, checks the position with them, and says which of the file's values it left
out and how to change them (game engine decision 17 in docs/decisions.md)."""

from __future__ import annotations

import json

import pytest

from rules.engine.state import rules_of
from table.actions import create_game, latest_snapshot, snapshot_state, upload_state
from table.models import Game, SnapshotKind
from tests.table.conftest import client_for, url

pytestmark = pytest.mark.django_db


@pytest.fixture
def organised_game(table) -> Game:
    """A game of the session, started after the organiser set Ork tokens to 4 points."""
    table.tournament.data_overrides = {"alien_tokens": {"ork": 4}}
    table.tournament.save()
    return create_game(table.session, "hunt-derelict", "bob", actor=table.judge)


def position_with(game: Game, overrides: dict) -> str:
    """The game's position with p1-m1 moved to 2,2, carrying ``overrides`` as rules data."""
    state = snapshot_state(latest_snapshot(game))
    moved = state.with_figure(state.figure("p1-m1").moved_to(((2, 2),))).to_json()
    return json.dumps({**moved, "data_overrides": overrides})


def test_the_files_rules_data_are_left_out_and_named(organised_game):
    text = position_with(
        organised_game, {"units": {"marine": {"movement": 12}}, "alien_tokens": {"ork": 9}}
    )
    snapshot = upload_state(organised_game, text, expected_number=1)

    state = snapshot_state(snapshot)
    assert state.figure("p1-m1").squares == ((2, 2),)  # the position is restored
    assert dict(state.data_overrides) == {"alien_tokens": {"ork": 4}}
    rules = rules_of(state)
    assert (rules.unit("marine").movement, rules.alien_tokens["ork"]) == (6, 4)
    (code, _params), (kept, ignored) = snapshot.summary_parts
    assert (code, kept) == ("uploaded", "rules_data_kept")
    assert ignored["values"] == [
        ["alien_tokens.ork", 9, 4],
        ["units.marine.movement", 12, 6],
    ]


def test_the_judge_is_told_which_values_were_not_used(table, organised_game):
    text = position_with(organised_game, {"units": {"marine": {"movement": 12}}})
    page = client_for(table.judge).post(
        url("upload", organised_game),
        {"upload-text": text, "upload-version": 1},
        follow=True,
    )
    body = page.content.decode()
    warning = next(m for m in page.context["messages"])
    assert warning.level_tag == "warning"
    assert "units.marine.movement: 12 in the file, 6 kept" in str(warning)
    assert "alien_tokens.ork: 2 in the file, 4 kept" in str(warning)
    assert "Catalogue" in str(warning) and "units.marine.movement" in body
    assert latest_snapshot(organised_game).kind == SnapshotKind.UPLOAD


def test_a_file_with_the_games_rules_data_is_a_plain_upload(table, organised_game):
    text = position_with(organised_game, {"alien_tokens": {"ork": 4}})
    page = client_for(table.judge).post(
        url("upload", organised_game), {"upload-text": text, "upload-version": 1}, follow=True
    )
    # No warning above the page: the board's banner says the step, once.
    assert list(page.context["messages"]) == []
    assert "</strong> State replaced by an uploaded file.</p>" in page.content.decode()
    assert [code for code, _ in latest_snapshot(organised_game).summary_parts] == ["uploaded"]
