"""The stages a tournament will play that are not seated yet (RULES §2), read one way for
the bracket, the organiser's dashboard and a stage's page.

Read from what is known now: the players going on from the last seated stage (its
qualifiers once it is closed; before that, the count it will send on: the organiser's for
the stage, else the standard rule's), or, before the first stage is seated, the players
registered and not withdrawn. From there the stages follow the plan of
:func:`tournaments.domain.progression.stages_after`, with the organiser's counts for the
later stages. Nothing is invented: a count that cannot be used (the close would refuse it)
plans no stage.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tournaments.domain.progression import (
    ProgressionError,
    default_qualifiers,
    qualifier_limits,
    stage_kind,
    stages_after,
)
from tournaments.models import StageKind, StageStatus, Tournament


@dataclass(frozen=True)
class StageFacts:
    """What the plan reads of a stored stage: ``sessions`` and ``players`` in play (none
    for a stage not seated, or whose seating was undone), ``qualified``: the players its
    close sent on."""

    number: int
    kind: str
    status: str
    qualifier_count: int | None
    qualified: int
    sessions: int
    players: int


@dataclass(frozen=True)
class PlannedStage:
    """A stage as planned: its number, kind, players, sessions and the players it sends on
    (0 for the final)."""

    number: int
    kind: str
    players: int
    sessions: int
    qualifiers: int

    @property
    def is_final(self) -> bool:
        return self.kind == StageKind.FINAL


def standings_facts(stages: Sequence[Mapping[str, Any]]) -> list[StageFacts]:
    """The plan's facts of the standings' stage rows (``number``, ``kind``, ``status``,
    ``qualifier_count``, ``qualifiers``, ``sessions`` with their ``seats``)."""
    return [
        StageFacts(
            number=stage["number"],
            kind=stage["kind"],
            status=stage["status"],
            qualifier_count=stage["qualifier_count"],
            qualified=len(stage["qualifiers"]),
            sessions=len(stage["sessions"]),
            players=sum(len(session["seats"]) for session in stage["sessions"]),
        )
        for stage in stages
    ]


def planned_stages(
    tournament: Tournament, stages: Sequence[StageFacts], players_in: int | None = None
) -> list[PlannedStage]:
    """The stages after the last seated one, to the final. ``players_in``: the players
    registered and not withdrawn, when the caller counted them already (the dashboard, with
    its header's count); else they are counted, one query, only before the first stage is
    seated."""
    seated = [stage for stage in stages if stage.sessions]
    rows = {stage.number: stage for stage in stages}
    try:
        if seated:
            first_number = seated[-1].number + 1
            going_on = _going_on(tournament, seated[-1], rows)
        else:
            first_number = 1
            going_on = (
                tournament.registrations.filter(withdrawn_at__isnull=True).count()
                if players_in is None
                else players_in
            )
        if going_on is None or (not seated and going_on < 3):
            return []
        overrides = {
            number - first_number: count
            for number in _override_numbers(tournament, rows)
            if number >= first_number
            and (count := _qualifier_override(tournament, rows, number)) is not None
        }
        plan = stages_after(going_on, overrides)
    except (ProgressionError, ValueError):
        return []
    return [
        PlannedStage(
            number=first_number + step.index,
            kind=stage_kind(
                step.session_sizes, step.qualifiers, first=not seated and not step.index
            ),
            players=step.players,
            sessions=len(step.session_sizes),
            qualifiers=step.qualifiers,
        )
        for step in plan
    ]


def tournament_structure(
    tournament: Tournament, stages: Sequence[StageFacts], players_in: int | None = None
) -> list[PlannedStage]:
    """Every stage from the first to the final: the seated ones as they are seated, then
    :func:`planned_stages` (``players_in`` as it takes it); empty when no stage is seated
    and none can be planned."""
    rows = {stage.number: stage for stage in stages}
    seated = [
        PlannedStage(
            number=stage.number,
            kind=stage.kind,
            players=stage.players,
            sessions=stage.sessions,
            qualifiers=_sent_on(tournament, stage, rows),
        )
        for stage in stages
        if stage.sessions
    ]
    return seated + planned_stages(tournament, stages, players_in)


def _sent_on(tournament: Tournament, stage: StageFacts, rows: Mapping[int, StageFacts]) -> int:
    try:
        return _going_on(tournament, stage, rows) or 0
    except ValueError:
        return 0


def _going_on(
    tournament: Tournament, stage: StageFacts, rows: Mapping[int, StageFacts]
) -> int | None:
    """How many players the seated ``stage`` sends on; None for the final, or when its
    count cannot be used."""
    if stage.kind == StageKind.FINAL:
        return None
    if stage.status == StageStatus.CLOSED:
        return stage.qualified or None
    count = _qualifier_override(tournament, rows, stage.number) or default_qualifiers(
        stage.sessions
    )
    low, high = qualifier_limits(stage.sessions, stage.players)
    return count if low <= count <= high else None


def _qualifier_override(
    tournament: Tournament, rows: Mapping[int, StageFacts], number: int
) -> int | None:
    """The organiser's qualifier count for stage ``number``: the stage's own, else the
    tournament's (as ``queries.stage_cut.qualifier_count`` reads them); ValueError
    when the tournament's is unusable."""
    own = rows[number].qualifier_count if number in rows else None
    return own or tournament.qualifier_override(number)


def _override_numbers(tournament: Tournament, rows: Mapping[int, StageFacts]) -> set[int]:
    """The stage numbers some override may name: the stages with a row, and those of the
    tournament's overrides."""
    named = {int(key) for key in (tournament.qualifier_overrides or {}) if str(key).isdigit()}
    return set(rows) | named
