"""The tournament's stages as the organiser's pages show them, with the plan of the whole
tournament (RULES §2): the dashboard's stages table and structure, and a stage's own page.

A stage's stored kind is set when it is seated (``actions.stage_advance``). A stage not
seated (prepared ahead, or its seating undone) is named by the kind the plan makes of it
now, planned as the bracket plans it (:mod:`tournaments.queries.bracket_plan`): from the
last seated stage, with the organiser's qualifier counts as they stand. After an undo and
a new count, stage 2 of 9 players is the final, not the semifinal it was seated as.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.db.models import Count, Q

from tournaments.models import Stage, Tournament
from tournaments.queries.bracket_plan import PlannedStage, StageFacts, tournament_structure


@dataclass(frozen=True)
class TournamentPlan:
    """``stages``: the tournament's stages, each with ``session_count`` (the sessions in
    play: an undone seating's are superseded) and, when not seated, the plan's kind;
    ``plan``: every stage from the first, the seated ones as seated (empty when none is
    seated and the players are too few or a count cannot be used); ``registered``: every
    registration, withdrawn too (the dashboard's header)."""

    stages: Sequence[Stage]
    plan: list[PlannedStage]
    registered: int


def tournament_plan(tournament: Tournament) -> TournamentPlan:
    """The stages and their plan, in two queries: the stages, and the registrations counted
    once for both the header (all) and the plan before stage 1 is seated (those still in)."""
    in_play = Q(sessions__superseded_at__isnull=True)
    stages = list(
        tournament.stages.annotate(
            session_count=Count("sessions", filter=in_play, distinct=True),
            seat_count=Count("sessions__seats", filter=in_play, distinct=True),
        )
    )
    counts = tournament.registrations.aggregate(
        registered=Count("pk"), players_in=Count("pk", filter=Q(withdrawn_at__isnull=True))
    )
    plan = tournament_structure(
        tournament, [_facts(stage) for stage in stages], counts["players_in"]
    )
    kinds = {step.number: step.kind for step in plan}
    for stage in stages:
        if not stage.session_count and stage.number in kinds:
            stage.kind = kinds[stage.number]
    return TournamentPlan(stages=stages, plan=plan, registered=counts["registered"])


def _facts(stage: Stage) -> StageFacts:
    return StageFacts(
        number=stage.number,
        kind=stage.kind,
        status=stage.status,
        qualifier_count=stage.qualifier_count,
        qualified=len(stage.qualifiers or ()),
        sessions=stage.session_count,  # type: ignore[attr-defined]  # annotated above
        players=stage.seat_count,  # type: ignore[attr-defined]
    )


def stage_kind_label(tournament: Tournament, stage: Stage) -> str:
    """What ``stage`` is called, in the active language: its kind once seated, else the
    kind the plan makes of it now (as the dashboard's stages table names it)."""
    shown = next((s for s in tournament_plan(tournament).stages if s.pk == stage.pk), stage)
    return shown.get_kind_display()
