"""The bracket picture: pure layout, and a whole 9-player tournament drawn from the database."""

import xml.etree.ElementTree as ET

import pytest
from django.urls import reverse

from rules.engine.dice import SeededDice
from tests.factories import TournamentFactory, confirm_stage, register_players
from tournaments.actions.stage_advance import advance
from tournaments.queries.bracket_svg import (
    BracketLabels,
    BracketSeat,
    BracketSession,
    BracketStage,
    render_bracket_svg,
)

LABELS = BracketLabels(
    title="Bracket <T&T>",
    description="desc",
    podium="Podium",
    qualified="qualified",
    best_runner_up="best runner-up",
    points="pts",
    legend="Legend",
)


def test_svg_is_well_formed_escaped_and_marks_qualifiers():
    stages = [
        BracketStage(
            "Preliminary",
            [
                BracketSession(
                    "Session 1",
                    [
                        BracketSeat("1", "Anna & Bo", "blue", 30, 1, qualified=True),
                        BracketSeat(
                            "2", "<Carlo>", "red", 20, 2, qualified=True, best_runner_up=True
                        ),
                        BracketSeat("3", "Dario", "yellow", -5, 3),
                    ],
                    link="/t/x/sessions/1/",
                )
            ],
        ),
        BracketStage("Final", [BracketSession("Session 1", [BracketSeat("1", "Anna & Bo")])]),
    ]
    svg = render_bracket_svg(stages, ["Anna & Bo", "<Carlo>", "Dario"], LABELS)
    root = ET.fromstring(svg)  # raises if the escaping is wrong
    assert root.tag.endswith("svg")
    texts = "".join(root.itertext())
    assert "Anna & Bo" in texts and "<Carlo>" in texts
    assert "★" in texts and "✓" in texts
    assert "1. Anna & Bo" in texts  # the podium
    assert svg.count("<path") == 1  # only the qualifier seated in the final is joined


def test_empty_bracket_still_renders():
    root = ET.fromstring(render_bracket_svg([], [], LABELS))
    assert root.tag.endswith("svg")


@pytest.mark.django_db
def test_finished_tournament_bracket_has_podium_and_best_runner_up(client):
    tournament = TournamentFactory(slug="finita")
    register_players(tournament, 9)
    advance(tournament, SeededDice(seed=1))
    for number in (1, 2, 3):
        stage = tournament.stages.get(number=number)
        confirm_stage(stage, lambda seat: 10 * seat.seat_order + seat.player_id % 5)
        advance(tournament, SeededDice(seed=number + 1))
    response = client.get(reverse("tournaments:bracket", args=["finita"]))
    assert response.status_code == 200
    assert len(response.context["podium"]) == 3
    semis = response.context["columns"][1]
    marked = [seat for session in semis.sessions for seat in session.seats if seat.best_runner_up]
    assert len(marked) == 1
    ET.fromstring(response.context["svg"])
