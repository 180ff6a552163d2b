"""An Alien turn whose task was lost (Redis restarted empty, a worker died holding it) is
queued again by the scheduler, until its deadline; then the judge's board plays it."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from rules.engine.dice import SeededDice
from table.actions import latest_snapshot, request_alien_turn
from table.models import AlienTurnRequest, SnapshotKind, TurnStatus
from table.turn_sweep import requeue_lost_turns
from tests.table.test_views import lose_queued_tasks

pytestmark = pytest.mark.django_db


def _queued_ago(turn: AlienTurnRequest, seconds: int) -> None:
    AlienTurnRequest.objects.filter(pk=turn.pk).update(
        queued_at=timezone.now() - timedelta(seconds=seconds)
    )


def test_a_turn_whose_task_was_lost_is_played_by_the_sweep(
    game, monkeypatch, settings, django_capture_on_commit_callbacks
):
    settings.BOB_ALIEN_TURN_DEADLINE_SECONDS = 120
    with monkeypatch.context() as lost:
        lose_queued_tasks(lost)
        turn = request_alien_turn(game, "bob", SeededDice(seed=5), expected_number=1)
    assert requeue_lost_turns() == 0  # just queued: its task may still come
    _queued_ago(turn, 31)
    with django_capture_on_commit_callbacks(execute=True):
        assert requeue_lost_turns() == 1
    turn.refresh_from_db()
    assert turn.status == TurnStatus.DONE
    assert latest_snapshot(game).kind == SnapshotKind.ALIEN_TURN
    with django_capture_on_commit_callbacks(execute=True):
        assert requeue_lost_turns() == 0  # done: nothing more to queue
    assert game.snapshots.filter(kind=SnapshotKind.ALIEN_TURN).count() == 1


def test_a_turn_past_its_deadline_is_left_to_the_judges_board(game, monkeypatch, settings):
    settings.BOB_ALIEN_TURN_DEADLINE_SECONDS = 60
    with monkeypatch.context() as lost:
        lose_queued_tasks(lost)
        turn = request_alien_turn(game, "bob", SeededDice(seed=5), expected_number=1)
    _queued_ago(turn, 61)
    assert requeue_lost_turns() == 0
    turn.refresh_from_db()
    assert turn.status == TurnStatus.PENDING


def test_the_scheduler_runs_the_sweep():
    from bob.celery import app

    schedule = {entry["task"] for entry in app.conf.beat_schedule.values()}
    assert "table.tasks.requeue_lost_turns" in schedule
    assert "table.tasks.requeue_lost_turns" in app.tasks
