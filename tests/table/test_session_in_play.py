"""A session is *in progress* from its initiative roll or its first game on the board until
its result is confirmed (QA: a session played on the board still read "Scheduled" on the
judge's home)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from rules.engine.dice import SeededDice
from table.actions import ResultSavedError, create_game
from tests.table.conftest import client_for
from tests.web.test_result_form import seats_of
from tournaments.actions.result_entry import record_result
from tournaments.actions.session_setup import run_initiative
from tournaments.domain.scoring import SeatBreakdown
from tournaments.models import SessionStatus

pytestmark = pytest.mark.django_db


def test_a_game_on_the_board_puts_its_session_in_progress(table):
    session = table.session
    assert session.status != SessionStatus.IN_PROGRESS
    version = session.version
    create_game(session, "hunt-derelict", "bob", actor=table.judge)
    session.refresh_from_db()
    assert session.status == SessionStatus.IN_PROGRESS
    assert session.version == version  # the judge's open forms still hold
    home = client_for(table.judge).get(reverse("tournaments:judge_home")).content.decode()
    assert "In progress" in home


def test_the_initiative_roll_puts_it_in_progress_and_a_result_completes_it(table):
    session = table.session
    run_initiative(session, SeededDice(seed=1), actor=table.judge, expected_version=session.version)
    session.refresh_from_db()
    assert session.status == SessionStatus.IN_PROGRESS
    record_result(
        session,
        [SeatBreakdown(seat=str(seat.player_id)) for seat in seats_of(table)],
        confirmed=True,
    )
    session.refresh_from_db()
    assert session.status == SessionStatus.COMPLETED
    with pytest.raises(ResultSavedError):  # no game starts after the result (decision 56)
        create_game(session, "hunt-derelict", "bob", actor=table.judge)
    session.refresh_from_db()
    assert session.status == SessionStatus.COMPLETED
