"""The organiser starts, pauses and resets the round timer every projector screen shows."""

from __future__ import annotations

from collections.abc import Callable

from django.db import transaction
from django.utils import timezone

from tournaments.actions.activity_log import describe, log_activity
from tournaments.domain import countdown
from tournaments.domain.countdown import TimerState
from tournaments.models import ActivityVerb, RoundTimer, Tournament


def _locked_timer(tournament: Tournament) -> RoundTimer:
    RoundTimer.objects.get_or_create(tournament=tournament)
    return RoundTimer.objects.select_for_update().get(tournament=tournament)


def _state(timer: RoundTimer) -> TimerState:
    return TimerState(
        duration=timer.duration_seconds,
        remaining=timer.remaining_seconds,
        running_since=timer.running_since,
    )


def _store(timer: RoundTimer, state: TimerState) -> RoundTimer:
    timer.duration_seconds = state.duration
    timer.remaining_seconds = state.remaining
    timer.running_since = state.running_since
    timer.save(update_fields=["duration_seconds", "remaining_seconds", "running_since"])
    return timer


def _change(
    tournament: Tournament,
    verb: ActivityVerb,
    change: Callable[[TimerState], TimerState],
    actor,
) -> RoundTimer:
    """Lock the timer, apply ``change`` to its state, log it and store it."""
    timer = _locked_timer(tournament)
    state = change(_state(timer))
    log_activity(
        tournament,
        verb,
        describe("round_timer"),
        actor=actor,
        duration=state.duration,
        remaining=state.remaining,
    )
    return _store(timer, state)


@transaction.atomic
def start_timer(tournament: Tournament, *, actor=None) -> RoundTimer:
    """Run the timer from what is left (a new round once it reached zero)."""
    now = timezone.now()
    return _change(
        tournament, ActivityVerb.STARTED_TIMER, lambda state: countdown.start(state, now), actor
    )


@transaction.atomic
def pause_timer(tournament: Tournament, *, actor=None) -> RoundTimer:
    """Stop the countdown; every screen shows what is left until it starts again."""
    now = timezone.now()
    return _change(
        tournament, ActivityVerb.PAUSED_TIMER, lambda state: countdown.pause(state, now), actor
    )


@transaction.atomic
def reset_timer(tournament: Tournament, minutes: int, *, actor=None) -> RoundTimer:
    """Stop the timer and set it to a whole round of ``minutes``."""
    return _change(
        tournament, ActivityVerb.RESET_TIMER, lambda _state: countdown.reset(minutes), actor
    )
