"""The docking claws stand out on the board picture (a marine that ends a move there
leaves play): their squares are marked as a claw's, the claw is outlined and titled, and
the keys under the judge's board and the spectators' view say what the outline means."""

from __future__ import annotations

import re
from xml.etree import ElementTree

from rules.engine.geometry import Facing
from rules.engine.state import MARINE, Figure, Player, build_state
from table.board_svg import CELL, MARGIN, board_svg
from tests.table.conftest import client_for, url

SVG = "{http://www.w3.org/2000/svg}"

#: Claw 1 an L of three squares in the top-left corner, claw 2 one square.
DRAWING = """\
+--+--+--+--+
|.1 .1 .  .2|
+  +  +  +  +
|.1 .  .  . |
+--+--+--+--+
"""


def claw_svg() -> ElementTree.Element:
    marine = Figure("p1-cmd", MARINE, "p1", "commander", ((2, 1),), 6, Facing.SOUTH, ("bolter",))
    state = build_state(DRAWING, (marine,), players=(Player("p1", "ultramarines", "1"),))
    return ElementTree.fromstring(board_svg(state, {"p1": "blue"}))


def segments(path: str) -> list[tuple[float, float, float, float]]:
    numbers = [float(n) for n in re.findall(r"-?\d+(?:\.\d+)?", path)]
    return [tuple(numbers[i : i + 4]) for i in range(0, len(numbers), 4)]


def test_a_claws_squares_say_whose_claw_they_are():
    root = claw_svg()
    cells = {cell.get("data-square"): cell for cell in root.iter(f"{SVG}rect")}
    assert {k for k, c in cells.items() if "claw" in (c.get("class") or "").split()} == {
        "0,0",
        "1,0",
        "0,1",
        "3,0",
    }
    assert cells["1,0"].get("data-claw") == "1" and cells["3,0"].get("data-claw") == "2"
    assert cells["2,0"].get("class") == "cell" and cells["2,0"].get("data-claw") is None
    assert cells["0,0"].get("fill") != cells["2,0"].get("fill")  # not a corridor's colour


def test_each_claw_is_outlined_inside_its_squares_and_titled():
    root = claw_svg()
    outlines = {
        group.get("data-claw"): group
        for group in root.iter(f"{SVG}g")
        if "claw" in (group.get("class") or "").split()
    }
    assert set(outlines) == {"1", "2"}
    title = outlines["1"].find(f"{SVG}title").text
    assert title == "Docking claw 1: a marine that ends its move here leaves play"
    lines = segments(outlines["1"].find(f"{SVG}path").get("d"))
    # The L's six sides, inside its three squares, in eight lines that meet end to end.
    assert len(lines) == 8
    inside = [(MARGIN, MARGIN + 2 * CELL), (MARGIN, MARGIN + 2 * CELL)]
    for x1, y1, x2, y2 in lines:
        for x, y in ((x1, y1), (x2, y2)):
            assert inside[0][0] < x < inside[0][1] and inside[1][0] < y < inside[1][1]
    ends = [point for x1, y1, x2, y2 in lines for point in ((x1, y1), (x2, y2))]
    assert all(ends.count(point) == 2 for point in ends)  # a closed outline, no gap
    square = segments(outlines["2"].find(f"{SVG}path").get("d"))
    assert len(square) == 4


def test_the_keys_name_the_claw_on_the_board_and_the_spectators_view(game, table):
    judge = client_for(table.judge)
    for page in ("board", "watch"):
        body = judge.get(url(page, game)).content.decode()
        assert '<rect class="cell claw" data-claw="1"' in body, page
        assert '<span class="key key-claw"></span> docking claw (a marine leaves play there)' in (
            body
        ), page


def test_the_judges_take_off_edit_asks_before_it_is_sent(game, table):
    """Like the undo and the claw exit, the judge's edit that takes a figure off the board
    asks first (static/js/page-actions.js, data-confirm); without JavaScript it posts."""
    body = client_for(table.judge).get(url("board", game)).content.decode()
    form = body[body.index('id="remove"') : body.index("</form>", body.index('id="remove"'))]
    assert 'data-confirm="Sure? The figure leaves the board for the reason chosen' in form
    assert 'data-confirm-label="Yes, take it off"' in form
