"""The organiser starts, pauses and resets the round timer every projector screen shows."""

from __future__ import annotations

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


def _log(tournament: Tournament, verb: ActivityVerb, state: TimerState, actor) -> None:
    log_activity(
        tournament,
        verb,
        describe("round_timer"),
        actor=actor,
        duration=state.duration,
        remaining=state.remaining,
    )


@transaction.atomic
def start_timer(tournament: Tournament, *, actor=None) -> RoundTimer:
    """Run the timer from what is left (a new round once it reached zero)."""
    timer = _locked_timer(tournament)
    state = countdown.start(_state(timer), timezone.now())
    _log(tournament, ActivityVerb.STARTED_TIMER, state, actor)
    return _store(timer, state)


@transaction.atomic
def pause_timer(tournament: Tournament, *, actor=None) -> RoundTimer:
    """Stop the countdown; every screen shows what is left until it starts again."""
    timer = _locked_timer(tournament)
    state = countdown.pause(_state(timer), timezone.now())
    _log(tournament, ActivityVerb.PAUSED_TIMER, state, actor)
    return _store(timer, state)


@transaction.atomic
def reset_timer(tournament: Tournament, minutes: int, *, actor=None) -> RoundTimer:
    """Stop the timer and set it to a whole round of ``minutes``."""
    timer = _locked_timer(tournament)
    state = countdown.reset(minutes)
    _log(tournament, ActivityVerb.RESET_TIMER, state, actor)
    return _store(timer, state)
