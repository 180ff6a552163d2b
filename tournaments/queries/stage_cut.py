"""What a stage's close reads: each session's confirmed ranking, the players who cannot
qualify, how many qualify (RULES §2) and the ties at the cut a roll-off will settle. The
close itself (``actions.stage_advance``) and the stage's checklist read them here, so the
checklist's warning of a tie at the cut and the close's roll-off never disagree."""

from __future__ import annotations

from dataclasses import replace

from django.utils.translation import gettext as _

from tournaments.domain.progression import (
    CutTie,
    ProgressionError,
    cut_ties,
    default_qualifiers,
    qualifier_limits,
    qualifier_range_message,
)
from tournaments.domain.ranking import RankedSeat, SessionRanking, leave_out
from tournaments.domain.scoring import ScoringError
from tournaments.models import Registration, Seat, Session, Stage
from tournaments.queries.dice_subjects import registered_player_names
from tournaments.queries.result_versions import (
    confirmed_session_ids,
    latest_confirmed_versions,
    score_version,
    scoring_values,
)


class CutError(ValueError):
    """The stage's qualifier count cannot be used; the message says what to fix."""


def qualifier_count(stage: Stage, sessions: int, players: int) -> int:
    """The organiser's count for the stage, else the standard rule; checked against size."""
    try:
        count = stage.qualifier_count or stage.tournament.qualifier_override(stage.number)
    except ValueError as error:
        raise CutError(str(error)) from None
    overridden = count is not None
    if count is None:
        count = default_qualifiers(sessions)
    low, high = qualifier_limits(sessions, players)
    if not low <= count <= high:
        # With no count of the organiser's, the standard rule's no longer fits (players
        # left): say where a count that fits is set, not to fix an override there is none of.
        fix = (
            _("Fix the override.")
            if overridden
            else _(
                "That is the standard rule's count, too many for the players left: set the "
                "stage's qualifier count on its page."
            )
        )
        raise CutError(qualifier_range_message(stage.number, sessions, players, count) + " " + fix)
    return count


def missing_results(stage: Stage) -> list[Session]:
    """The stage's sessions without a confirmed result, by number."""
    sessions = list(stage.sessions.order_by("number"))
    confirmed = confirmed_session_ids(sessions)
    return [session for session in sessions if session.pk not in confirmed]


def stage_rankings(sessions: list[Session]) -> dict[str, SessionRanking]:
    """Each session's ranking from its latest confirmed version (places already settled)."""
    versions = latest_confirmed_versions(sessions)
    # The tournament's values read once; the totals need no names (they only label lines).
    values = scoring_values(sessions[0].stage.tournament) if sessions else None
    rankings: dict[str, SessionRanking] = {}
    for session in sessions:
        version = versions[session.pk]
        cards = score_version(version, values, {})
        totals = {int(seat): card.total for seat, card in cards.items()}
        survivors = set(version.survivors)
        rankings[str(session.pk)] = SessionRanking(
            order=tuple(
                RankedSeat(
                    seat=str(player),
                    position=place,
                    points=totals.get(player, 0),
                    survived=player in survivors,
                )
                for place, player in enumerate(version.ranking, start=1)
            )
        )
    return rankings


def out_of_the_cut(stage: Stage) -> set[str]:
    """Players of ``stage`` who cannot qualify: withdrawn, or forfeited a session of it."""
    withdrawn = Registration.objects.filter(
        tournament_id=stage.tournament_id, withdrawn_at__isnull=False
    ).values_list("player_id", flat=True)
    forfeited = (
        Seat.objects.filter(session__stage=stage)
        .exclude(forfeit="")
        .values_list("player_id", flat=True)
    )
    return {str(player) for player in [*withdrawn, *forfeited]}


def the_cut(
    stage: Stage, rankings: dict[str, SessionRanking], out: set[str] | None = None
) -> tuple[dict[str, SessionRanking], int]:
    """The sessions' rankings without the players who cannot qualify (``out``:
    :func:`out_of_the_cut`, when the caller read it already), and how many qualify
    (RULES §2)."""
    out = out_of_the_cut(stage) if out is None else out
    eligible = {key: leave_out(ranking, out) for key, ranking in rankings.items()}
    players = sum(len(ranking.order) for ranking in eligible.values())
    return eligible, qualifier_count(stage, len(rankings), players)


def ties_at_the_cut(stage: Stage, out: set[str] | None = None) -> tuple[CutTie, ...]:
    """The ties for a qualifying place that closing ``stage`` will settle by a roll-off,
    players by name; none for a final (its podium is the final's ranking, whose ties the
    judge settled with the result) or while a session lacks a confirmed result. ``out``:
    as :func:`the_cut` takes it."""
    sessions = list(stage.sessions.order_by("number"))
    if len(sessions) < 2 or missing_results(stage):
        return ()
    try:
        ties = cut_ties(*the_cut(stage, stage_rankings(sessions), out))
    except (CutError, ProgressionError, ScoringError):
        return ()  # the checklist names what is wrong with the count or the values
    names = registered_player_names(stage.tournament)
    return tuple(replace(tie, players=tuple(names.get(p, p) for p in tie.players)) for tie in ties)
