"""The tournament's stages as the organiser's pages show them, with the plan of the stages
from the first (RULES §2): the dashboard's stages table and planned structure, and a
stage's own page.

A stage's stored kind is set when it is seated (``actions.stage_advance``). A stage not
seated (prepared ahead, or its seating undone) is named by the kind the plan makes of it
now, with the players who play and the organiser's qualifier counts as they stand: after
an undo and a new count, stage 2 of 9 players is the final, not the semifinal it was
seated as.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.db.models import Count, Q

from tournaments.domain.progression import ProgressionError, StagePlan, planned_kind, stages_after
from tournaments.models import Stage, Tournament


@dataclass(frozen=True)
class TournamentPlan:
    """``stages``: the tournament's stages, each with ``session_count`` (the sessions in
    play: an undone seating's are superseded) and, when not seated, the plan's kind;
    ``plan``: the stages from the first for the players who play (empty when they are too
    few or a count cannot be used); ``registered``: every registration, withdrawn too."""

    stages: Sequence[Stage]
    plan: list[StagePlan]
    registered: int


def tournament_plan(tournament: Tournament) -> TournamentPlan:
    """The stages and their plan (two queries)."""
    in_play = Q(sessions__superseded_at__isnull=True)
    stages = list(tournament.stages.annotate(session_count=Count("sessions", filter=in_play)))
    # The plan is of the players who play: a player withdrawn before the start is not seated.
    counts = tournament.registrations.aggregate(
        registered=Count("pk"), playing=Count("pk", filter=Q(withdrawn_at__isnull=True))
    )
    playing = counts["playing"]
    try:
        plan = stages_after(playing, qualifier_counts(tournament, stages)) if playing >= 3 else []
    except (ProgressionError, ValueError):
        plan = []
    for stage in stages:
        if not stage.session_count and stage.number <= len(plan):
            stage.kind = planned_kind(plan[stage.number - 1])
    return TournamentPlan(stages=stages, plan=plan, registered=counts["registered"])


def qualifier_counts(tournament: Tournament, stages: Sequence[Stage]) -> dict[int, int]:
    """The organiser's qualifier counts by stage index (0 = stage 1), as the close reads them:
    a stage's own, else the tournament's (``queries.stage_cut.qualifier_count``)."""
    counts = {
        int(number) - 1: count
        for number in tournament.qualifier_overrides or {}
        if (count := tournament.qualifier_override(int(number))) is not None
    }
    counts.update(
        {stage.number - 1: stage.qualifier_count for stage in stages if stage.qualifier_count}
    )
    return counts


def stage_kind_label(tournament: Tournament, stage: Stage) -> str:
    """What ``stage`` is called, in the active language: its kind once seated, else the
    kind the plan makes of it now (as the dashboard's stages table names it)."""
    shown = next((s for s in tournament_plan(tournament).stages if s.pk == stage.pk), stage)
    return shown.get_kind_display()
