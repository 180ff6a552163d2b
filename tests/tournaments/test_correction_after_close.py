"""A result of a closed stage cannot change: the refusal says whether undoing the stage's
close would let it (decision 38), so the standings, qualifiers, honours and score bonuses
the close awarded never silently disagree with a corrected result."""

from __future__ import annotations

import pytest

from rules.engine.dice import SeededDice
from tests.factories import TournamentFactory, confirm_session, confirm_stage, register_players
from tournaments.actions.result_entry import ResultError, correct_result
from tournaments.actions.stage_advance import advance
from tournaments.models import Result

pytestmark = pytest.mark.django_db


def by_seat_order(seat) -> int:
    return 10 * seat.seat_order


def test_a_correction_after_the_next_stage_is_seated_says_how_to_reopen_and_when_it_cannot():
    tournament = TournamentFactory()
    register_players(tournament, 9)
    advance(tournament, SeededDice(seed=1))
    first = tournament.stages.get(number=1)
    confirm_stage(first, by_seat_order)
    advance(tournament, SeededDice(seed=2))
    session = first.sessions.order_by("number").first()
    breakdowns = Result.objects.get(session=session).latest_version().breakdown
    with pytest.raises(ResultError) as refused:
        correct_result(session, breakdowns, reason="a kill was missed")
    assert "is closed; its results can no longer change." in str(refused.value)
    assert "first undo its close with “Undo the last stage advance”" in str(refused.value)
    semifinal = tournament.stages.get(number=2).sessions.order_by("number").first()
    confirm_session(semifinal, by_seat_order)
    with pytest.raises(ResultError) as refused:
        correct_result(session, breakdowns, reason="a kill was missed")
    assert "It can no longer be reopened." in str(refused.value)
    assert Result.objects.get(session=session).versions.count() == 1
