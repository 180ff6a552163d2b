"""Objective labels the app fills in are stored as codes and shown in the reader's language."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from django.utils import translation

from table.result_objectives import flag_objectives
from tournaments.domain.scoring import ObjectivePoints, SeatBreakdown, score_session
from tournaments.forms.result_rows import ObjectiveRows

FLAG_IT = "Bandiera riportata all'artiglio d'attracco"


def _flag_line():
    step = {"code": "flag_scored", "params": {"player": "p1", "points": 25}}
    return [SimpleNamespace(steps=[step])]


@pytest.mark.parametrize("saved_in", ["it", "en"])
def test_a_flag_brought_home_is_stored_the_same_whatever_the_language(saved_in):
    with translation.override(saved_in):
        found = flag_objectives(_flag_line())
    assert found["p1"] == [ObjectivePoints("Flag brought home", 25)]


@pytest.mark.parametrize(
    ("stored", "read_in", "shown"),
    [
        ("Flag brought home", "it", FLAG_IT),
        ("Flag brought home", "en", "Flag brought home"),
        (FLAG_IT, "en", "Flag brought home"),  # stored in Italian before codes were kept
        ("Objective", "it", "Obiettivo"),
        ("Bandiera nemica", "en", "Bandiera nemica"),  # typed: as typed
    ],
)
def test_the_score_card_shows_a_known_label_in_the_readers_language(stored, read_in, shown):
    seat = SeatBreakdown(seat="1", objectives=(ObjectivePoints(stored, 25),))
    with translation.override(read_in):
        card = score_session([seat])["1"]
    assert [(line.label, line.points) for line in card.lines] == [(shown, 25)]


def test_the_result_form_keeps_a_known_label_as_its_code_through_a_resave():
    rows = ObjectiveRows()
    with translation.override("it"):
        shown = rows.values(ObjectivePoints("Flag brought home", 25))
        assert shown["label"] == FLAG_IT
        assert rows.entry(shown) == ObjectivePoints("Flag brought home", 25)
        assert rows.entry({"label": "", "points": 3}) == ObjectivePoints("Objective", 3)
        assert rows.entry({"label": "Bandiera nemica", "points": 3}).label == "Bandiera nemica"
