"""What each stream on the public Dice page was rolled for (QA: a tie-break roll-off's card was
headed "· 27/11/2026 12:34", naming neither stage nor session, since a session's ranking
records its rolls with the session only): the seating of a stage, the squad draws rolled with
it, a tie on a session's ranking and the close of a stage each name their subject."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from rules.engine.dice import SeededDice
from tests.factories import TournamentFactory, confirm_stage, register_players
from tournaments.actions.stage_advance import advance
from tournaments.models import Session
from tournaments.queries.dice_page import dice_streams

pytestmark = pytest.mark.django_db

DRAWS = ("squad_retention", "squad_choice", "squad_leftover")


@pytest.fixture
def advanced():
    """Stage 1 seated at random (squads drawn with the same dice), every session tied, then
    closed (roll-offs for the cut) and the semifinal seated and drawn with one seed."""
    tournament = TournamentFactory(slug="dadi")
    register_players(tournament, 10)
    advance(tournament, SeededDice(seed=11))
    confirm_stage(tournament.stages.get(number=1), lambda seat: 10)
    advance(tournament, SeededDice(seed=12))
    return tournament


def codes(stream) -> set[str]:
    return {line.roll.purpose_code for line in stream.rolls}


def test_each_kind_of_roll_names_its_subject(advanced):
    streams = dice_streams(advanced)
    start, *ties, close = streams
    assert start.seed == "11" and close.seed == "12"

    # Seating: the stage; the squad draws rolled with it name their session on their row.
    assert start.subjects == ["Preliminary"]
    assert "random_seating" in codes(start) and codes(start) & set(DRAWS)
    for line in start.rolls:
        if line.roll.purpose_code in DRAWS:
            assert re.fullmatch(r"Preliminary, session \d", line.where), line.where
        else:
            assert line.where == ""

    # Tie-breaks of a session's ranking: the session (its rolls record no stage).
    assert ties
    for stream in ties:
        assert codes(stream) == {"session_ranking_tie"}
        assert {line.roll.stage_id for line in stream.rolls} == {None}
        session = Session.objects.get(pk=stream.rolls[0].roll.session_id)
        assert stream.subjects == [f"Preliminary, session {session.number}"]
        assert stream.subject == f"Preliminary, session {session.number}"
        assert {line.where for line in stream.rolls} == {""}

    # Close of a stage (the cut's roll-offs) and seating of the next: both stages.
    assert close.subjects == ["Preliminary", "Semifinal"]
    assert close.subject == "Preliminary; Semifinal"
    assert codes(close) & {"best_runners_up_tie", "best_winners_tie"}
    for line in close.rolls:
        expected = r"Semifinal, session \d" if line.roll.purpose_code in DRAWS else ""
        assert re.fullmatch(expected, line.where), line.where


def test_the_pages_headings_name_the_subject(advanced):
    page = Client().get(reverse("tournaments:dice", args=[advanced.slug])).content.decode()
    headings = re.findall(r'<h4 id="stream-\d+">(.*?) · <time', page)
    assert headings[0] == "Preliminary"
    assert headings[-1] == "Preliminary; Semifinal"
    assert headings[1:-1] and all(
        re.fullmatch(r"Preliminary, session \d", heading) for heading in headings[1:-1]
    )
    assert '<h4 id="stream-1"><time' not in page  # never a heading with the date alone
    tie = dice_streams(advanced)[1]
    verify = Client().get(reverse("tournaments:dice_verify", args=[advanced.slug, tie.key]))
    assert f"<p>{tie.subject} · <time" in verify.content.decode()
