"""A step made by a judge in one language reads in the reader's language in the history
(issue 15: the Italian board history kept English summaries of moves and edits)."""

from __future__ import annotations

import pytest
from django.utils import translation

from table.actions import move_marine, remove_figure, set_life_points
from table.models import Snapshot
from table.snapshot_summaries import snapshot_summary
from table.turn_actions import finish_turn


def _read(snapshot: Snapshot, language: str) -> str:
    with translation.override(language):
        return snapshot_summary(Snapshot.objects.get(pk=snapshot.pk))


def test_a_move_made_in_english_reads_in_italian(game):
    with translation.override("en"):
        snapshot = move_marine(game, "p1-m2", (5, 4), expected_number=1)
    assert snapshot.summary == "p1-m2 moved to 5,4."  # the text as stored
    assert _read(snapshot, "it") == "p1-m2 si è spostato in 5,4."
    assert _read(snapshot, "en") == "p1-m2 moved to 5,4."


def test_judges_edits_and_turn_steps_read_in_the_readers_language(game):
    with translation.override("it"):
        edit = set_life_points(game, "p1-m2", 1, "sight overruled", expected_number=1)
        removed = remove_figure(game, "p1-m3", "dead", "killed", expected_number=2)
        turn = finish_turn(game, expected_number=3)
    assert _read(edit, "en") == "p1-m2 now has 1 life point (was 2)."
    assert _read(removed, "en") == "p1-m3 removed: dead."
    following = turn.state["active_player"]
    expected = f"{following} plays." if following else "Every player has played: the Aliens act."
    assert _read(turn, "en") == expected
    assert _read(removed, "it") != _read(removed, "en")


@pytest.mark.parametrize("parts", [[["moved", {}]], [["no-such-code", {}]], [[1]], "x"])
def test_damaged_parts_fall_back_to_the_stored_text(game, parts):
    snapshot = move_marine(game, "p1-m2", (5, 4), expected_number=1)
    Snapshot.objects.filter(pk=snapshot.pk).update(summary_parts=parts)
    assert _read(snapshot, "it") == snapshot.summary
