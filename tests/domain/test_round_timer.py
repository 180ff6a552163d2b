"""The round timer as plain values: start, pause, reset and what is left."""

from datetime import UTC, datetime, timedelta

import pytest

from tournaments.domain.countdown import (
    TimerError,
    TimerState,
    ends_at,
    pause,
    remaining_at,
    reset,
    start,
)

NOON = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)


def test_a_running_timer_counts_down_and_stops_at_zero():
    running = start(reset(90), NOON)
    assert remaining_at(running, NOON + timedelta(minutes=30)) == 60 * 60
    assert ends_at(running) == NOON + timedelta(minutes=90)
    assert remaining_at(running, NOON + timedelta(hours=5)) == 0


def test_a_pause_keeps_what_is_left_and_a_start_goes_on_from_it():
    paused = pause(start(reset(10), NOON), NOON + timedelta(minutes=4))
    assert paused == TimerState(duration=600, remaining=360, running_since=None)
    assert remaining_at(paused, NOON + timedelta(hours=1)) == 360
    again = start(paused, NOON + timedelta(hours=1))
    assert remaining_at(again, NOON + timedelta(hours=1, minutes=1)) == 300


def test_a_finished_timer_starts_a_new_round():
    finished = pause(start(reset(1), NOON), NOON + timedelta(minutes=2))
    assert finished.remaining == 0
    assert start(finished, NOON).remaining == 60


def test_wrong_moves_and_durations_are_refused_with_a_reason():
    with pytest.raises(TimerError, match="already running"):
        start(start(reset(5), NOON), NOON)
    with pytest.raises(TimerError, match="not running"):
        pause(reset(5), NOON)
    with pytest.raises(TimerError, match="from 1 to 600 minutes, not 0"):
        reset(0)
    with pytest.raises(TimerError, match="not 601"):
        reset(601)
