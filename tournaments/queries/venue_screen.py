"""What the venue screen shows: the next round's tables and the round timer."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from tournaments.domain.countdown import TimerState, remaining_at
from tournaments.models import RoundTimer, Tournament
from tournaments.models.tables import natural_table_key
from tournaments.models.venue import DEFAULT_ROUND_SECONDS
from tournaments.queries.pages import SessionLines


@dataclass(frozen=True)
class TimerView:
    """The round timer at one moment, as every screen shows it."""

    running: bool
    remaining: int
    duration: int

    @property
    def clock(self) -> str:
        """What is left as H:MM:SS (the projector script writes the same)."""
        hours, rest = divmod(self.remaining, 3600)
        minutes, seconds = divmod(rest, 60)
        return f"{hours}:{minutes:02d}:{seconds:02d}"

    @property
    def minutes(self) -> int:
        return self.duration // 60

    def as_dict(self) -> dict[str, Any]:
        return {"running": self.running, "remaining": self.remaining, "duration": self.duration}


def timer_view(tournament: Tournament, now: datetime) -> TimerView:
    """The tournament's round timer at ``now`` (a full stopped round before the first start)."""
    timer = RoundTimer.objects.filter(tournament=tournament).first()
    if timer is None:
        state = TimerState(duration=DEFAULT_ROUND_SECONDS, remaining=DEFAULT_ROUND_SECONDS)
    else:
        state = TimerState(
            duration=timer.duration_seconds,
            remaining=timer.remaining_seconds,
            running_since=timer.running_since,
        )
    return TimerView(
        running=state.running and remaining_at(state, now) > 0,
        remaining=remaining_at(state, now),
        duration=state.duration,
    )


def next_round(sessions: list[SessionLines]) -> list[SessionLines]:
    """The table assignments still to play: the sessions without a result of the earliest
    stage that has any, by time, then those with a table by table, then by number."""
    waiting = [entry for entry in sessions if not entry.has_result]
    if not waiting:
        return []
    stage_number = min(entry.stage.number for entry in waiting)
    tables = [entry for entry in waiting if entry.stage.number == stage_number]
    tables.sort(
        key=lambda entry: (
            entry.session.scheduled_at is None,
            entry.session.scheduled_at or datetime.min,
            entry.session.table is None,
            natural_table_key(entry.session.table) if entry.session.table else (),
            entry.session.number,
        )
    )
    return tables
