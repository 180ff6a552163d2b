"""Scheduling rules as pure functions: which placements clash, a whole stage's plan, and
the judges shared out among it.

A *placement* is one session at a time, for a duration, at a table, with a judge and its
players. Two placements overlap when their time spans intersect; overlapping placements
clash when they share the table, the judge or a player. A placement whose day falls outside
the tournament's dates is flagged too. The rules only warn: the organiser may confirm.
Sharing judges out (:func:`share_judges`) never makes a judge clash: a session no judge is
free for is left without one, for the page to say.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from enum import StrEnum

from django.utils.translation import gettext as _


@dataclass(frozen=True)
class Placement:
    """One session placed (or to be placed) in time; ids only, no database objects."""

    session_id: int
    starts_at: datetime
    minutes: int
    table_id: int | None = None
    judge_id: int | None = None
    player_ids: frozenset[int] = field(default_factory=frozenset)

    @property
    def ends_at(self) -> datetime:
        return self.starts_at + timedelta(minutes=self.minutes)

    def overlaps(self, other: Placement) -> bool:
        return self.starts_at < other.ends_at and other.starts_at < self.ends_at


class ClashKind(StrEnum):
    TABLE = "table"
    JUDGE = "judge"
    PLAYER = "player"
    OUTSIDE_DATES = "outside_dates"


@dataclass(frozen=True)
class Clash:
    """What is wrong with a placement: the kind, the other session (for double bookings),
    the shared players (ids) and the shared table (its id, for a table clash)."""

    kind: ClashKind
    session_id: int
    other_session_id: int | None = None
    player_ids: frozenset[int] = field(default_factory=frozenset)
    table_id: int | None = None


def outside_dates(placement: Placement, starts_on: date | None, ends_on: date | None) -> bool:
    """True when the placement starts before the first or ends after the last day."""
    if starts_on is not None and placement.starts_at.date() < starts_on:
        return True
    return ends_on is not None and placement.ends_at.date() > ends_on


def clashes(
    placement: Placement,
    others: Iterable[Placement],
    *,
    starts_on: date | None = None,
    ends_on: date | None = None,
) -> list[Clash]:
    """Every clash of ``placement`` with the ``others`` (its own earlier placement is ignored),
    and the tournament's dates, in a stable order: dates first, then by other session."""
    found: list[Clash] = []
    if outside_dates(placement, starts_on, ends_on):
        found.append(Clash(ClashKind.OUTSIDE_DATES, placement.session_id))
    for other in sorted(others, key=lambda o: (o.starts_at, o.session_id)):
        if other.session_id == placement.session_id or not placement.overlaps(other):
            continue
        if placement.table_id is not None and placement.table_id == other.table_id:
            found.append(
                Clash(
                    ClashKind.TABLE,
                    placement.session_id,
                    other.session_id,
                    table_id=placement.table_id,
                )
            )
        if placement.judge_id is not None and placement.judge_id == other.judge_id:
            found.append(Clash(ClashKind.JUDGE, placement.session_id, other.session_id))
        shared = placement.player_ids & other.player_ids
        if shared:
            found.append(
                Clash(ClashKind.PLAYER, placement.session_id, other.session_id, frozenset(shared))
            )
    return found


def plan_clashes(
    plan: Sequence[Placement],
    others: Iterable[Placement],
    *,
    starts_on: date | None = None,
    ends_on: date | None = None,
) -> list[Clash]:
    """The clashes of a whole plan: each placement against the plan's other placements and
    the sessions outside it; a pair inside the plan is reported once."""
    planned = {placement.session_id for placement in plan}
    outside = [other for other in others if other.session_id not in planned]
    found: list[Clash] = []
    for index, placement in enumerate(plan):
        found += clashes(
            placement, [*plan[index + 1 :], *outside], starts_on=starts_on, ends_on=ends_on
        )
    return found


class PlanError(ValueError):
    """The stage cannot be planned with what was given (no table, a duration of zero)."""


def plan_stage(
    session_ids: Sequence[int], *, start: datetime, minutes: int, table_ids: Sequence[int]
) -> list[tuple[int, datetime, int]]:
    """Sessions in the given order, in rounds of one session per table: round ``k`` starts
    ``k × minutes`` after ``start``. Returns ``(session id, start, table id)`` per session."""
    if not table_ids:
        raise PlanError(_("Choose at least one table."))
    if minutes <= 0:
        raise PlanError(_("The duration must be at least one minute."))
    return [
        (
            session_id,
            start + timedelta(minutes=minutes * (index // len(table_ids))),
            table_ids[index % len(table_ids)],
        )
        for index, session_id in enumerate(session_ids)
    ]


def share_judges(
    plan: Sequence[Placement],
    judge_ids: Sequence[int],
    others: Iterable[Placement] = (),
    plays: Mapping[int, frozenset[int]] | None = None,
) -> dict[int, int | None]:
    """A judge from ``judge_ids`` for each placement of ``plan``, by session id (None: none
    is free). A judge is free for a placement unless they would judge, or play in (their
    account's players, ``plays`` by judge id), a session at an overlapping time: one of the
    plan's or of the ``others`` (the sessions outside the plan, where they are). Placements
    are served in start order; each takes the free judge with the fewest sessions of the
    plan so far, then the first in ``judge_ids``, so the judges share the work evenly."""
    plays = plays or {}
    others = list(others)
    booked: dict[int, list[Placement]] = {judge: [] for judge in judge_ids}
    for other in others:
        if other.judge_id in booked:
            booked[other.judge_id].append(other)
    everyone = [*plan, *others]
    load = dict.fromkeys(judge_ids, 0)
    chosen: dict[int, int | None] = {}
    for placement in sorted(plan, key=lambda p: p.starts_at):
        candidates = [
            judge
            for judge in judge_ids
            if _free(placement, booked[judge], plays.get(judge, frozenset()), everyone)
        ]
        judge = min(candidates, key=load.__getitem__) if candidates else None
        chosen[placement.session_id] = judge
        if judge is not None:
            booked[judge].append(placement)
            load[judge] += 1
    return chosen


def _free(
    placement: Placement,
    judging: Sequence[Placement],
    players: frozenset[int],
    everyone: Sequence[Placement],
) -> bool:
    """Whether a judge who judges ``judging`` and plays as ``players`` may judge
    ``placement``: no session they judge overlaps it, and they play neither in it nor in
    a session of ``everyone`` that overlaps it."""
    if any(placement.overlaps(other) for other in judging):
        return False
    return not any(
        players & other.player_ids
        for other in everyone
        if other.session_id == placement.session_id or placement.overlaps(other)
    )
