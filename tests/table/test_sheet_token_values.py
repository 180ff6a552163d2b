"""The printed score sheet gives the tournament's alien token values (decision 31)."""

from __future__ import annotations

import pytest
from django.utils import translation

from tournaments.actions.catalogue_edits import save_token_values
from tournaments.sheets.data import score_sheet

pytestmark = pytest.mark.django_db


def test_the_score_sheet_prints_the_sessions_token_values(table):
    """The printed score sheet gives each alien's token value as the result form checks it
    (the catalogue's, the session's Dreadnought class value), not "printed value": no
    token prints one, and the tournament's may differ from any remembered set."""
    save_token_values(table.tournament, {"ork": 3}, actor=table.organiser)
    stage = table.session.stage
    stage.stipulation_params = {
        **(stage.stipulation_params or {}),
        "dreadnought_class": "predator",
        "dreadnought_value": 40,
    }
    stage.save()
    with translation.override("en"):
        sheet = score_sheet(table.session)
        line = sheet.token_line
    assert "Ork 3" in line and "Gretchin 1" in line
    assert "40" in line.split("Dreadnought")[-1]
    [row] = [row for row in sheet.seats[0].rows if row.label == "Alien tokens collected"]
    assert row.value == "as listed above"
