"""A player who forfeits a session leaves play on its board (decision 34)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from table.actions import latest_snapshot, snapshot_state
from table.models import SnapshotKind
from tournaments.actions.attendance import declare_no_show
from tournaments.actions.people import PeopleError, withdraw_player
from tournaments.models import SessionStatus


def _figure_counts(game) -> dict[str, int]:
    state = snapshot_state(latest_snapshot(game))
    return {player.id: len(state.figures_of(player.id)) for player in state.players}


def test_a_no_show_takes_the_players_figures_off_the_board(
    table, game, django_capture_on_commit_callbacks
):
    session = table.session
    session.scheduled_at = timezone.now() - timedelta(hours=1)
    session.save(update_fields=["scheduled_at"])
    seat = session.seats.order_by("seat_order").last()
    gone = f"p{seat.seat_order}"
    before = _figure_counts(game)
    assert before[gone] > 0
    session.refresh_from_db()
    with django_capture_on_commit_callbacks(execute=True):
        declare_no_show(
            session, seat.player_id, actor=table.judge, expected_version=session.version
        )

    after = _figure_counts(game)
    assert after == {**before, gone: 0}  # the others keep every figure
    step = latest_snapshot(game)
    assert step.kind == SnapshotKind.JUDGE_EDIT and step.created_by == table.judge
    assert seat.player.display_name in step.reason
    assert f"{gone} forfeited: their {before[gone]} figures left play." == step.summary


def test_a_withdrawal_forfeits_the_open_session_and_clears_its_board(
    table, game, django_capture_on_commit_callbacks
):
    seat = table.session.seats.order_by("seat_order").first()
    gone = f"p{seat.seat_order}"
    steps = latest_snapshot(game).number
    with django_capture_on_commit_callbacks(execute=True):
        withdrawn = withdraw_player(table.tournament, seat.player, reason="ill", actor=table.judge)
    assert [s.pk for s in withdrawn.forfeited] == [seat.pk]
    assert _figure_counts(game)[gone] == 0
    assert latest_snapshot(game).number == steps + 1  # one step, the judge can undo it


def test_a_refused_withdrawal_changes_no_board(table, game, django_capture_on_commit_callbacks):
    """Once the session has started a reserve cannot take the seat, so the withdrawal is
    refused after the forfeit was written: it is rolled back and the board stays."""
    table.session.status = SessionStatus.IN_PROGRESS
    table.session.save(update_fields=["status"])
    seat = table.session.seats.order_by("seat_order").first()
    steps = latest_snapshot(game).number
    reserve = table.tournament.registrations.exclude(player=seat.player).first().player
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        with pytest.raises(PeopleError, match="nothing for a reserve to take"):
            withdraw_player(
                table.tournament, seat.player, reason="ill", actor=table.judge, reserve=reserve
            )
    assert callbacks == []
    assert latest_snapshot(game).number == steps
