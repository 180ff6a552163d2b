"""Killed workers lose no task and do none twice (real Celery worker processes on Redis).

* A pool process killed mid-task: the task goes back to the queue at once
  (``task_reject_on_worker_lost``) and runs again, completely, once.
* The whole worker killed after a task's work committed but before its message was
  acknowledged: once the visibility timeout has passed another worker gets the message;
  the task finds its work done and does nothing (an Alien turn is played once, a notice
  mailed once).
* The one window the outbox leaves (docs/operations.md): the worker killed after the mail
  server accepted a mail and before the send was recorded. That player gets the mail
  twice, and that is the only duplicate: it is counted here.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from pathlib import Path

import pytest
from django.utils import timezone

from bob.celery import app as celery_app
from rules.engine.dice import SeededDice
from table.actions import create_game, request_alien_turn
from table.models import AlienTurnRequest, SnapshotKind, TurnStatus
from tests.factories import VenueTableFactory
from tests.reliability.mailbox import mails
from tests.reliability.stack import (
    VISIBILITY_TIMEOUT,
    Worker,
    kill_pool_process,
    markers,
    wait_until,
)
from tests.table.conftest import seat_squads
from tests.web.conftest import build_world
from tournaments.actions.scheduling import schedule_session
from tournaments.models import Notice, NoticeStatus

pytestmark = [
    pytest.mark.services,
    pytest.mark.celery_worker,
    pytest.mark.django_db(transaction=True),
]

#: Long enough for the test to kill the worker during the pause, never reached.
PAUSE = "60"
TURN = "table.tasks.run_alien_turn"
NOTICES = "tournaments.tasks.notify_session_scheduled"
#: Only these tasks pause (a task left in the queue by an earlier test runs through).
PAUSED_TASKS = f"{TURN},{NOTICES}"
#: A dead worker's message is handed out again within the visibility timeout plus the
#: restore interval (1 s here); then the task runs.
REDELIVERY = VISIBILITY_TIMEOUT + 20


@pytest.fixture(autouse=True)
def _through_the_broker(monkeypatch):
    """Tasks go to the worker processes through Redis, whatever an earlier test left."""
    monkeypatch.setitem(celery_app.conf, "task_always_eager", False)


@pytest.fixture
def world():
    world = build_world()
    seat_squads(world)
    return world


@pytest.fixture
def marker_dir(tmp_path) -> Path:
    directory = tmp_path / "markers"
    directory.mkdir()
    return directory


def _started(directory: Path, task: str, phase: str = "started") -> dict:
    return wait_until(
        lambda: next((m for m in markers(directory, phase) if m["task"] == task), None),
        timeout=60,
        what=f"{task} to reach {phase}",
    )


def _runs_done(directory: Path, task: str) -> int:
    return sum(m["task"] == task for m in markers(directory, "done"))


def _redelivered(directory: Path, task: str) -> None:
    wait_until(
        lambda: any(m["task"] == task for m in markers(directory, "redelivered")),
        timeout=REDELIVERY,
        what=f"{task} to be delivered again",
    )


def _turn(world):
    game = create_game(world.session, "hunt-derelict", "bob", label="Table 1")
    request = request_alien_turn(game, "bob", SeededDice(seed=5), expected_number=1)
    return game, request


def _schedule(world) -> int:
    schedule_session(
        world.session,
        when=timezone.now() + dt.timedelta(days=2),
        table=VenueTableFactory(tournament=world.tournament, name="4"),
    )
    return world.session.seats.exclude(player__email="").count()


def _turn_done(request) -> bool:
    return AlienTurnRequest.objects.get(pk=request.pk).status == TurnStatus.DONE


def _all_notices_sent(world) -> bool:
    return not Notice.objects.filter(
        seat__session=world.session, status=NoticeStatus.PENDING
    ).exists()


def _recipients(stack_env) -> Counter:
    return Counter(
        address for mail in mails(Path(stack_env["BOB_TEST_MAILBOX"])) for address in mail["to"]
    )


def test_a_killed_pool_process_loses_no_task(world, stack_env, marker_dir):
    paused = {**stack_env, "BOB_TEST_PAUSE_BEFORE": PAUSE, "BOB_TEST_PAUSE_TASKS": PAUSED_TASKS}
    worker = Worker(paused, marker_dir, "pool").start()
    try:
        game, request = _turn(world)
        kill_pool_process(_started(marker_dir, TURN)["pid"])
        _redelivered(marker_dir, TURN)
        wait_until(lambda: _turn_done(request), timeout=60, what="the Alien turn")
        assert game.snapshots.filter(kind=SnapshotKind.ALIEN_TURN).count() == 1

        seats = _schedule(world)
        kill_pool_process(_started(marker_dir, NOTICES)["pid"])
        _redelivered(marker_dir, NOTICES)
        wait_until(lambda: _all_notices_sent(world), timeout=60, what="the notices")
        recipients = _recipients(stack_env)
        assert len(recipients) == seats and set(recipients.values()) == {1}
    finally:
        worker.stop()


def test_a_killed_worker_s_tasks_come_back_and_find_their_work_done(world, stack_env, marker_dir):
    paused = {**stack_env, "BOB_TEST_PAUSE_AFTER": PAUSE, "BOB_TEST_PAUSE_TASKS": PAUSED_TASKS}
    first = Worker(paused, marker_dir, "first").start()
    try:
        game, request = _turn(world)
        _started(marker_dir, TURN, "finished")
        assert _turn_done(request)
    finally:
        first.kill()  # the turn is committed, its message not acknowledged
    second = Worker(paused, marker_dir, "second").start()
    try:
        seats = _schedule(world)
        _started(marker_dir, NOTICES, "finished")
        assert _all_notices_sent(world)
    finally:
        second.kill()
    third = Worker(stack_env, marker_dir, "third").start()
    try:
        _redelivered(marker_dir, TURN)
        _redelivered(marker_dir, NOTICES)
        wait_until(lambda: len(markers(marker_dir, "finished")) >= 2, timeout=30, what="the reruns")
    finally:
        third.stop()
    assert game.snapshots.filter(kind=SnapshotKind.ALIEN_TURN).count() == 1
    recipients = _recipients(stack_env)
    assert len(recipients) == seats and set(recipients.values()) == {1}, recipients


def test_the_one_window_left_mails_one_player_twice_and_no_one_else(world, stack_env, marker_dir):
    first = Worker({**stack_env, "BOB_TEST_PAUSE_AFTER_SEND": PAUSE}, marker_dir, "window").start()
    window = Path(stack_env["BOB_TEST_MAILBOX"]) / "window.paused"
    try:
        seats = _schedule(world)
        wait_until(window.exists, timeout=60, what="the first mail to be accepted")
    finally:
        first.kill()  # accepted by the mail server, not yet recorded
    second = Worker(stack_env, marker_dir, "after").start()
    try:
        _redelivered(marker_dir, NOTICES)
        wait_until(lambda: _all_notices_sent(world), timeout=60, what="the notices")
    finally:
        second.stop()
    recipients = _recipients(stack_env)
    assert len(recipients) == seats
    duplicates = {address: count for address, count in recipients.items() if count > 1}
    assert list(duplicates.values()) == [2], recipients  # the window, once
