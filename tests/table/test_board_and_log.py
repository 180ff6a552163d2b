"""The board picture and the step log's language and overrule marks."""

from __future__ import annotations

from xml.etree import ElementTree

from rules.engine.board import DoorState
from rules.engine.geometry import Facing
from rules.engine.narration import format_param
from rules.engine.state import (
    ALIEN,
    MARINE,
    VEHICLE_UNITS,
    Blip,
    Figure,
    Player,
    build_state,
)
from rules.engine.units import load_rules_data
from table.actions import latest_snapshot, remove_figure, snapshot_state
from table.board_svg import board_svg, short_labels, unit_initials
from table.catalogue_words import labelled
from table.step_log import dice_lines, event_lines, log_lines
from tests.table.conftest import client_for, rearrange, url

DRAWING = """\
+--+--+--+--+
|.1 .  .  . |
+  +  +DD+  +
|:  : |:  :R|
+--+--+--+--+
"""


def small_state():
    figures = (
        Figure("p1-cmd", MARINE, "p1", "commander", ((0, 0),), 6, Facing.SOUTH, ("bolter",)),
        Figure("ork-1", ALIEN, None, "ork", ((3, 1),), 1, weapons=("ork_weapon",)),
    )
    return build_state(
        DRAWING,
        figures,
        players=(Player("p1", "ultramarines", "1"),),
        blips=(Blip("b1", (1, 1), "gretchin"),),
    )


def test_board_svg_draws_every_kind_of_thing():
    state = small_state()
    svg = board_svg(state, {"p1": "blue"})
    root = ElementTree.fromstring(svg)  # well-formed XML
    assert root.tag.endswith("svg")
    assert 'data-figure="p1-cmd"' in svg and 'data-figure="ork-1"' in svg
    assert "#1d4ed8" in svg  # the blue squad's colour
    assert 'class="door door-closed"' in svg
    assert "blip hiding Gretchin" in svg
    assert ">R<" in svg  # the reinforcement square
    opened = state.with_door((2, 0), (2, 1), DoorState.OPEN)
    assert 'class="door door-open"' in board_svg(opened)


def labelled_state():
    """A marine, two orks, a heavy-weapon chaos marine and an abandoned Tarantula."""
    figures = (
        Figure("p1-m2", MARINE, "p1", "marine", ((0, 0),), 2, Facing.SOUTH, ("bolter",)),
        Figure("ork-blip-1-1", ALIEN, None, "ork", ((1, 0),), 1, weapons=("ork_weapon",)),
        Figure("chaos_marine_heavy-blip-A-2", ALIEN, None, "chaos_marine_heavy", ((2, 0),), 1),
        Figure("ork-blip-3-0", ALIEN, None, "ork", ((3, 0),), 1, weapons=("ork_weapon",)),
        Figure("tarantula-0-1", MARINE, None, "tarantula", ((0, 1), (1, 1)), 1, Facing.EAST),
    )
    return build_state(DRAWING, figures, players=(Player("p1", "ultramarines", "1"),))


SVG = "{http://www.w3.org/2000/svg}"


def drawn_names(svg: str) -> dict[str, list[str]]:
    """Each figure's texts drawn on its base (its name, then its life points)."""
    root = ElementTree.fromstring(svg)
    return {
        group.get("data-figure"): [text.text for text in group.iter(f"{SVG}text")]
        for group in root.iter(f"{SVG}g")
        if group.get("class") == "figure"
    }


def test_aliens_and_vehicles_carry_a_short_label_their_ids_in_the_tooltip():
    state = labelled_state()
    assert short_labels(state) == {
        "ork-blip-1-1": "Or1",
        "chaos_marine_heavy-blip-A-2": "CMH1",
        "ork-blip-3-0": "Or2",
        "tarantula-0-1": "Ta1",
    }
    svg = board_svg(state, {"p1": "blue"})
    names = drawn_names(svg)
    assert names["ork-blip-1-1"] == ["Or1", "1"]  # not "ork" and "blip-1-1" squeezed
    assert names["ork-blip-3-0"][0] == "Or2" and names["tarantula-0-1"][0] == "Ta1"
    assert names["p1-m2"][0] == "p1-m2"  # a marine keeps the name the players use
    root = ElementTree.fromstring(svg)
    titles = [title.text for title in root.iter(f"{SVG}title")]
    assert any(title.startswith("ork-blip-1-1: Ork") for title in titles)
    assert 'textLength="' not in svg.split('data-figure="ork-blip-1-1"')[1].split("</g>")[0]


def test_unit_initials_spell_the_unit_as_the_ids_do():
    assert [unit_initials(unit) for unit in ("ork", "genestealer", "chaos_marine")] == [
        "Or",
        "Ge",
        "CM",
    ]


def test_no_two_numbered_units_share_initials():
    """The engine numbers each unit on its own, so two units of one initials would both
    draw ``Xy1``."""
    units = [
        key
        for key, unit in load_rules_data().units.items()
        if unit.side == ALIEN or key in VEHICLE_UNITS
    ]
    initials = [unit_initials(key) for key in units]
    assert len(set(initials)) == len(units) > 8, sorted(zip(initials, units, strict=True))


def test_the_table_of_figures_keys_each_label_to_its_id(game, table):
    rearrange(game, aliens=[("ork-blip-1-1", "ork", (10, 10))])
    body = client_for(table.judge).get(url("board", game)).content.decode()
    assert "on the board: Or1" in body
    assert '<span class="mono">ork-blip-1-1</span>' in body
    # The forms' figure lists lead with the same label.
    assert ">Or1 · ork-blip-1-1 · Ork</option>" in body


def test_a_label_stays_with_its_figure_when_another_dies_and_is_never_given_again(game, table):
    rearrange(game, aliens=[("ork-a", "ork", (10, 10)), ("ork-b", "ork", (12, 10))])
    judge = client_for(table.judge)
    body = judge.get(url("board", game)).content.decode()
    assert "on the board: Or1" in body and "on the board: Or2" in body
    remove_figure(game, "ork-a", "dead", "shot", expected_number=latest_snapshot(game).number)
    # A text of the step that took it off still names it by its label (the state before).
    before, after = (snapshot_state(s) for s in list(game.snapshots.order_by("-number")[:2])[::-1])
    with labelled(before, after):
        assert format_param("figure", "ork-a", "en") == "Or1 · ork-a"
        assert format_param("figure", "ork-b", "en") == "Or2 · ork-b"
    body = judge.get(url("board", game)).content.decode()
    assert "on the board: Or2" in body and "on the board: Or1" not in body
    assert drawn_names(board_svg(snapshot_state(latest_snapshot(game))))["ork-b"][0] == "Or2"
    state = rearrange(game, aliens=[("ork-c", "ork", (10, 10))])
    assert short_labels(state) == {"ork-b": "Or2", "ork-c": "Or3"}
    assert "on the board: Or3" in judge.get(url("board", game)).content.decode()


def test_step_log_marks_what_the_judge_may_overrule():
    steps = [
        {"code": "turn_start", "params": {"round": 2, "policy": "bob"}},
        {"code": "doubtful_sight", "params": {"a": [1, 1], "b": [4, 2]}},
        {"code": "activation", "params": {"figure": "o1", "unit": "ork", "criterion": "lowest_id"}},
        {"code": "activation", "params": {"figure": "o2", "unit": "ork", "criterion": "distance"}},
    ]
    lines = log_lines(steps, "en")
    assert [line.overrulable for line in lines] == [False, True, True, False]
    assert lines[1].text.startswith("Doubtful line of sight between (1,1) and (4,2)")
    assert log_lines(steps, "it")[0].text == "Turno alieno (round 2), strategia BoB."


def test_events_and_dice_as_text():
    events = [
        {"kind": "door_opened", "figure": "p1-m1", "square": [2, 0], "between": [[2, 0], [2, 1]]},
        {"kind": "moved", "figure": "p1-m1", "square": [2, 1], "steps": 1, "path": [[2, 1]]},
        {"kind": "reached_claw", "figure": "p1-m1", "square": [0, 0], "claw": "1"},
        {"kind": "damage", "text": "p2-m1 loses 2 life points"},
    ]
    assert event_lines(events) == [
        "p1-m1 opened the door between (2,0) and (2,1)",
        "p1-m1 moved 1 square: (2,1)",
        "p1-m1 reached docking claw 1: it may leave play",
        "p2-m1 loses 2 life points",
    ]
    rolls = [{"purpose": "ork-1 fights", "kind": "white", "values": [0, 2], "source": "seeded"}]
    assert dice_lines(rolls, "it") == ["ork-1 fights: bianchi [0, 2]"]
