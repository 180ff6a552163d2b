"""The round timer as plain values: start, pause, reset and what is left."""

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

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


@given(
    minutes=st.integers(min_value=1, max_value=600),
    gaps=st.lists(st.integers(min_value=0, max_value=4 * 3600), min_size=1, max_size=12),
)
def test_time_left_is_the_round_less_the_time_it_ran(minutes, gaps):
    """Whatever the starts and pauses, what is left is the round less the seconds the timer
    ran (never below zero), and it never grows."""
    state, now, ran, left = reset(minutes), NOON, 0, minutes * 60
    for number, gap in enumerate(gaps):
        later = now + timedelta(seconds=gap)
        if state.running:
            ran += gap
            state = pause(state, later)
        elif state.remaining > 0:
            state = start(state, later)
        now = later
        assert remaining_at(state, now) == max(0, minutes * 60 - ran), number
        assert remaining_at(state, now) <= left
        left = remaining_at(state, now)
