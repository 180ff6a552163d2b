"""A stage's tables × time grid for the organiser: a row per start time, a column per table,
each cell the sessions starting there (two means a double booking)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime

from django.db.models import Prefetch

from tournaments.models import Seat, Session, SessionStatus, Stage, VenueTable
from tournaments.queries.roles import staff_label


@dataclass
class GridCell:
    table: VenueTable
    starts_at: datetime
    sessions: list[Session] = field(default_factory=list)

    @property
    def double_booked(self) -> bool:
        return len(self.sessions) > 1


@dataclass
class GridRow:
    starts_at: datetime
    cells: list[GridCell]


@dataclass
class StageGrid:
    stage: Stage
    tables: list[VenueTable]
    rows: list[GridRow]
    sessions: list[Session]
    #: Sessions not in a cell: no time or no table yet.
    off_grid: list[Session]

    @property
    def movable(self) -> list[Session]:
        """The sessions that may still move (not started, not finished)."""
        open_statuses = (SessionStatus.PLANNED, SessionStatus.SCHEDULED)
        return [session for session in self.sessions if session.status in open_statuses]

    @property
    def movable_listed(self) -> list[tuple[Session, str]]:
        """The :attr:`movable` sessions, each with its judge as the organiser's pages name
        one (:func:`~tournaments.queries.roles.staff_label`), "" when it has none yet."""
        return [
            (session, staff_label(session.judge) if session.judge else "")
            for session in self.movable
        ]


def stage_grid(stage: Stage, extra_times: Iterable[datetime] = ()) -> StageGrid:
    """The grid of ``stage``: its sessions' start times and ``extra_times`` as rows, the
    tournament's tables as columns."""
    tables = list(stage.tournament.tables.all())  # natural order: 1, 2, 10, then by name
    sessions = list(
        stage.sessions.select_related("table", "judge")
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("player")))
        .order_by("number")
    )
    times = sorted(
        {s.scheduled_at for s in sessions if s.scheduled_at is not None} | set(extra_times)
    )
    rows = [GridRow(moment, [GridCell(table, moment) for table in tables]) for moment in times]
    cells: dict[tuple[datetime | None, int | None], GridCell] = {
        (cell.starts_at, cell.table.pk): cell for row in rows for cell in row.cells
    }
    off_grid = []
    for session in sessions:
        cell = cells.get((session.scheduled_at, session.table_id))
        if cell is None:
            off_grid.append(session)
        else:
            cell.sessions.append(session)
    return StageGrid(stage, tables, rows, sessions, off_grid)
