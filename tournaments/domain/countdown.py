"""The round timer as plain values: started, paused, reset, and what is left at a moment.

The state is what is left (``remaining``, whole seconds) and, while it runs, when it was last
started (``running_since``); every screen computes the same countdown from it, so several
projectors agree and the state survives a restart of any of them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from django.utils.translation import gettext as _

MIN_MINUTES, MAX_MINUTES = 1, 600


class TimerError(ValueError):
    """The timer cannot do that now; the message says why."""


@dataclass(frozen=True)
class TimerState:
    duration: int
    remaining: int
    running_since: datetime | None = None

    @property
    def running(self) -> bool:
        return self.running_since is not None


def check_minutes(minutes: int) -> int:
    """A round duration in minutes, within what a round can last."""
    if not MIN_MINUTES <= minutes <= MAX_MINUTES:
        raise TimerError(
            _("A round lasts from %(min)d to %(max)d minutes, not %(minutes)d.")
            % {"min": MIN_MINUTES, "max": MAX_MINUTES, "minutes": minutes}
        )
    return minutes


def remaining_at(state: TimerState, now: datetime) -> int:
    """Whole seconds left at ``now`` (never below zero)."""
    if state.running_since is None:
        return state.remaining
    elapsed = (now - state.running_since).total_seconds()
    return max(0, math.ceil(state.remaining - elapsed))


def ends_at(state: TimerState) -> datetime | None:
    """When a running timer reaches zero; ``None`` while paused."""
    if state.running_since is None:
        return None
    return state.running_since + timedelta(seconds=state.remaining)


def start(state: TimerState, now: datetime) -> TimerState:
    """Run the timer from what is left; a timer at zero starts a new round."""
    if state.running:
        raise TimerError(_("The round timer is already running."))
    remaining = state.remaining if state.remaining > 0 else state.duration
    return replace(state, remaining=remaining, running_since=now)


def pause(state: TimerState, now: datetime) -> TimerState:
    """Stop the countdown, keeping what is left."""
    if not state.running:
        raise TimerError(_("The round timer is not running."))
    return replace(state, remaining=remaining_at(state, now), running_since=None)


def reset(minutes: int) -> TimerState:
    """A stopped timer holding a whole round of ``minutes``."""
    seconds = check_minutes(minutes) * 60
    return TimerState(duration=seconds, remaining=seconds, running_since=None)
