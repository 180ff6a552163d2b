"""The bracket picture shortens a name too long for its box (a nickname may be 60
characters without a space) with an ellipsis, the whole name in the row's ``<title>``."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from tests.web.test_bracket import LABELS
from tournaments.queries.bracket_svg import (
    BracketSeat,
    BracketSession,
    BracketStage,
    fit_name,
    render_bracket_svg,
)

SVG = "{http://www.w3.org/2000/svg}"
LONG = "NovaSupercalifragilistichespiralidosoStellaCadenteDelNord60X"


def test_a_name_that_fits_is_kept_whole_and_a_long_one_ends_in_an_ellipsis():
    assert fit_name("Valchiria", 150, 13) == "Valchiria"
    cut = fit_name(LONG, 150, 13)
    assert cut.endswith("…") and LONG.startswith(cut[:-1])
    assert len(cut) * 13 * 0.6 <= 150


def test_long_names_are_shortened_in_their_rows_and_on_the_podium_with_the_whole_name_titled():
    seats = [
        BracketSeat("1", LONG, "blue", 30, 1, qualified=True),
        BracketSeat("2", "Bo", "red", -15, 2),
        BracketSeat("3", LONG + "Y", "yellow", None, None),
    ]
    stages = [BracketStage("Final", [BracketSession("Session 1", seats)])]
    root = ET.fromstring(render_bracket_svg(stages, [LONG, "Bo"], LABELS))
    texts = {text.text for text in root.iter(f"{SVG}text")}
    assert LONG not in texts and LONG + "Y" not in texts and "1. " + LONG not in texts
    assert "2. Bo" in texts  # a short name whole, in its row and on the podium
    groups = {
        group.find(f"{SVG}title").text: [text.text for text in group.iter(f"{SVG}text")]
        for group in root.iter(f"{SVG}g")
    }
    # A qualifier's row says so in its title; the others are titled when shortened only.
    row = groups[f"{LONG}: qualified"]
    assert row[0].startswith("1. Nova") and row[0].endswith("…") and row[1] == "30 pts ✓"
    assert groups[LONG + "Y"][0].endswith("…")
    [podium] = [texts for title, texts in groups.items() if title == LONG]
    assert podium[0].startswith("1. Nova") and podium[0].endswith("…")
    assert not any("Bo" in title for title in groups)
