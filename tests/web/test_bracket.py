"""The bracket picture: pure layout, and a whole 9-player tournament drawn from the database,
with the stages it plans but has not seated yet."""

import xml.etree.ElementTree as ET

import pytest
from django.urls import reverse
from django.utils import timezone

from rules.engine.dice import SeededDice
from tests.factories import TournamentFactory, confirm_stage, register_players
from tournaments.actions.stage_advance import advance
from tournaments.actions.tournament_setup import save_stage
from tournaments.models import Registration, Tournament
from tournaments.queries.bracket_svg import (
    BracketLabels,
    BracketSeat,
    BracketSession,
    BracketStage,
    render_bracket_svg,
)
from tournaments.queries.pages import final_podium, tournament_sessions
from tournaments.views.public import bracket_stages

LABELS = BracketLabels(
    title="Bracket <T&T>",
    description="desc",
    podium="Podium",
    qualified="qualified",
    best_runner_up="best runner-up",
    points="pts",
    legend="Legend",
    planned="dashed: not seated yet",
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


def bracket_from_sessions(tournament):
    """The bracket as read from the sessions' model objects (``tournament_sessions``, as
    the session pages read them): the oracle of the standings-based reading."""
    sessions = tournament_sessions(tournament)
    stages: dict = {}
    for entry in sessions:
        stages.setdefault(entry.stage.pk, (entry.stage, []))[1].append(entry)
    columns = [
        BracketStage(
            label=stage.get_kind_display(),
            sessions=[
                BracketSession(
                    label=f"Session {entry.session.number}",
                    link=reverse("tournaments:session", args=[tournament.slug, entry.session.pk]),
                    seats=[
                        BracketSeat(
                            player_key=str(line.seat.player_id),
                            player_name=line.player.display_name,
                            squad_colour=line.squad.colour if line.squad else "",
                            points=line.points,
                            place=line.place,
                            qualified=line.qualified,
                            best_runner_up=line.best_runner_up,
                        )
                        for line in (entry.ranked_seats if entry.has_result else entry.seats)
                    ],
                )
                for entry in entries
            ],
        )
        for stage, entries in sorted(stages.values(), key=lambda item: item[0].number)
    ]
    return columns, [line.player.display_name for line in final_podium(sessions)]


@pytest.mark.django_db
def test_the_bracket_read_from_the_standings_is_the_sessions_bracket():
    tournament = TournamentFactory(slug="passo")
    register_players(tournament, 9)
    advance(tournament, SeededDice(seed=1))
    assert seated_bracket(tournament) == bracket_from_sessions(tournament)
    for number in (1, 2, 3):
        stage = tournament.stages.get(number=number)
        confirm_stage(stage, lambda seat: 10 * seat.seat_order + seat.player_id % 5)
        assert seated_bracket(tournament) == bracket_from_sessions(tournament)
        advance(tournament, SeededDice(seed=number + 1))
        assert seated_bracket(tournament) == bracket_from_sessions(tournament)
    assert len(bracket_stages(tournament)[1]) == 3


def seated_bracket(tournament):
    """The bracket's columns of seated stages (the sessions' oracle knows no plan), and its
    podium."""
    columns, podium = bracket_stages(tournament)
    return [column for column in columns if not column.planned], podium


@pytest.mark.django_db
def test_a_stage_too_long_to_draw_is_one_box_linking_to_its_sessions(client, monkeypatch):
    from tournaments.views import public

    monkeypatch.setattr(public, "BRACKET_SESSIONS_DRAWN", 2)
    tournament = TournamentFactory(slug="lunga")
    register_players(tournament, 9)
    advance(tournament, SeededDice(seed=1))
    sessions = list(tournament.stages.get(number=1).sessions.all())
    assert len(sessions) == 3
    page = client.get(reverse("tournaments:bracket", args=["lunga"]))
    svg = page.context["svg"]
    ET.fromstring(svg)
    standings = reverse("tournaments:standings", args=["lunga"])
    assert f'<a href="{standings}?page=all#sessions-1">' in svg
    assert "3 sessions" in svg and "listed in the standings" in svg
    session_link = reverse("tournaments:session", args=["lunga", sessions[0].pk])
    assert session_link not in svg
    assert 'href="?stages=all"' in page.content.decode()
    every = client.get(reverse("tournaments:bracket", args=["lunga"]) + "?stages=all")
    assert all(
        reverse("tournaments:session", args=["lunga", session.pk]) in every.context["svg"]
        for session in sessions
    )
    assert 'href="?stages=all"' not in every.content.decode()
    download = client.get(reverse("tournaments:bracket_svg", args=["lunga"])).content.decode()
    assert session_link in download and "listed in the standings" not in download


def test_a_planned_stage_is_a_dashed_box_of_its_lines_joined_by_a_dashed_arrow():
    seated = BracketStage(
        "Semifinal",
        [BracketSession("Session 1", [BracketSeat("1", "Anna"), BracketSeat("2", "Bo")])],
    )
    final = BracketStage(
        "Final", [], summary=("3 players · 1 session", "plays for the podium"), planned=True
    )
    svg = render_bracket_svg([seated, final], [], LABELS)
    texts = "".join(ET.fromstring(svg).itertext())
    assert "3 players · 1 session" in texts and "plays for the podium" in texts
    assert 'stroke-dasharray="6 4"' in svg  # the planned box's dashed outline
    assert 'stroke-dasharray="5 4"' in svg  # the dashed arrow from the semifinal
    assert "dashed: not seated yet" in texts
    plain = render_bracket_svg([seated], [], LABELS)
    assert "stroke-dasharray" not in plain and "not seated yet" not in plain


def planned(tournament) -> list[tuple[str, tuple[str, ...]]]:
    """The planned columns of the bracket: their headings and lines."""
    columns, _podium = bracket_stages(tournament)
    return [(column.label, column.summary) for column in columns if column.planned]


@pytest.mark.django_db
def test_the_bracket_shows_every_stage_to_the_final_before_it_is_seated():
    tournament = TournamentFactory(slug="piano")
    players = register_players(tournament, 10)
    Registration.objects.filter(player=players[-1]).update(withdrawn_at=timezone.now())
    assert planned(tournament) == [
        ("Preliminary", ("9 players · 3 sessions", "6 qualify", "not seated yet")),
        ("Semifinal", ("6 players · 2 sessions", "3 qualify", "not seated yet")),
        ("Final", ("3 players · 1 session", "plays for the podium", "not seated yet")),
    ]
    advance(tournament, SeededDice(seed=1))
    columns, _podium = bracket_stages(tournament)
    assert [column.planned for column in columns] == [False, True, True]
    assert [label for label, _lines in planned(tournament)] == ["Semifinal", "Final"]
    for number in (1, 2):
        confirm_stage(tournament.stages.get(number=number), lambda seat: seat.seat_order)
        advance(tournament, SeededDice(seed=number + 1))
    assert planned(tournament) == []  # the final is seated: nothing left to plan
    confirm_stage(tournament.stages.get(number=3), lambda seat: seat.seat_order)
    advance(tournament, SeededDice(seed=4))
    columns, podium = bracket_stages(tournament)
    assert len(podium) == 3 and not any(column.planned for column in columns)


@pytest.mark.django_db
def test_planned_stages_follow_the_organisers_qualifier_counts():
    tournament = TournamentFactory(slug="scelta", qualifier_overrides={"2": 2})
    register_players(tournament, 9)
    advance(tournament, SeededDice(seed=1))
    assert planned(tournament) == [
        ("Semifinal", ("6 players · 2 sessions", "2 qualify", "not seated yet")),
        ("Final", ("2 players · 1 session", "plays for the podium", "not seated yet")),
    ]
    first = tournament.stages.get(number=1)
    first.qualifier_count = 3
    save_stage(first, [], actor=None)
    assert planned(tournament)[0][1][0] == "3 players · 1 session"


@pytest.mark.django_db
def test_no_stage_is_invented_from_a_count_the_close_would_refuse():
    tournament = TournamentFactory(slug="storta", qualifier_overrides={"2": 6})
    register_players(tournament, 9)
    advance(tournament, SeededDice(seed=1))
    assert planned(tournament) == []  # 6 of 6 semifinalists cannot all go on
    Tournament.objects.filter(pk=tournament.pk).update(qualifier_overrides={"1": "six"})
    tournament.refresh_from_db()
    assert planned(tournament) == []
    few = TournamentFactory(slug="pochi")
    register_players(few, 2)
    assert planned(few) == []


@pytest.mark.django_db
def test_the_bracket_page_draws_the_planned_final_and_says_how_to_read_it(client):
    tournament = TournamentFactory(slug="strada")
    register_players(tournament, 9)
    advance(tournament, SeededDice(seed=1))
    page = client.get(reverse("tournaments:bracket", args=["strada"]))
    body = page.content.decode()
    svg = ET.fromstring(page.context["svg"])
    texts = "".join(svg.itertext())
    assert "3 players · 1 session" in texts and "not seated yet" in texts
    assert "A dashed box is a stage not seated yet." in texts
    assert "Swipe the picture sideways" in body
    assert 'class="table-wrap scrolls bracket-scroll"' in body
    assert "A stage of many sessions is shown as one box" not in body  # no summary box
    download = client.get(reverse("tournaments:bracket_svg", args=["strada"])).content.decode()
    assert "plays for the podium" in download
