"""Setting up a session at the table: the squad draw (RULES §3–4) and initiative (§5).

The pure services (:mod:`tournaments.domain.draw`, :mod:`tournaments.domain.initiative`) decide; this
module feeds them the session's players, stores the outcome on the seats, keeps every die
(:mod:`tournaments.actions.dice_records`) and writes the activity log — all or nothing, and only if
nobody changed the session since the judge's page was loaded (optimistic locking).
"""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from rules.engine.dice import Dice
from tournaments.actions.activity_log import describe, log_activity
from tournaments.actions.dice_records import check_all_dice_used, record_dice
from tournaments.actions.results import scoring_values
from tournaments.domain.draw import DrawPlayer, DrawResult, PreviousSession, squad_draw
from tournaments.domain.initiative import InitiativeResult, roll_initiative
from tournaments.models import (
    ActivityVerb,
    ResultVersion,
    Seat,
    Session,
    SquadPreference,
    SquadRank,
)
from tournaments.queries.result_versions import version_totals


class SetupError(ValueError):
    """The session is not ready for this step; the message says what to do first."""


def _seats(session: Session) -> list[Seat]:
    return list(session.seats.select_related("player", "squad").order_by("seat_order"))


def preferences_for(session: Session) -> dict[int, list[str]]:
    """Each seated player's squad choices for this session's stage (or the whole tournament)."""
    tournament = session.stage.tournament
    rows = SquadPreference.objects.filter(
        tournament=tournament, player__seats__session=session
    ).filter(stage__isnull=True) | SquadPreference.objects.filter(
        tournament=tournament, player__seats__session=session, stage=session.stage
    )
    chosen: dict[int, list[str]] = {}
    for row in rows.order_by("stage_id"):
        # Stage-specific rows sort after the tournament-wide ones and override them.
        chosen[row.player_id] = list(row.choices)
    return chosen


def previous_sessions(session: Session) -> dict[int, PreviousSession]:
    """For later stages: each player's squad, win, points and rank in their last session."""
    stage = session.stage
    player_ids = [seat.player_id for seat in session.seats.all()]
    earlier = (
        Seat.objects.filter(
            player_id__in=player_ids,
            session__stage__tournament=stage.tournament,
            session__stage__number__lt=stage.number,
            squad__isnull=False,
        )
        .select_related("squad", "session")
        .order_by("-session__stage__number")
    )
    last: dict[int, Seat] = {}
    for seat in earlier:
        last.setdefault(seat.player_id, seat)
    versions: dict[int, ResultVersion] = {}
    for version in (
        ResultVersion.objects.filter(
            result__session_id__in=[seat.session_id for seat in last.values()], confirmed=True
        )
        .select_related("result")
        .order_by("number")
    ):
        versions[version.result.session_id] = version
    ranks = dict(
        SquadRank.objects.filter(tournament=stage.tournament, player_id__in=player_ids).values_list(
            "player_id", "rank"
        )
    )
    previous: dict[int, PreviousSession] = {}
    for player_id, seat in last.items():
        version = versions.get(seat.session_id)
        points = (
            version_totals(version, scoring_values(stage.tournament)).get(player_id, 0)
            if version
            else 0
        )
        won = bool(version) and version.positions().get(player_id) == 1
        previous[player_id] = PreviousSession(
            squad=seat.squad.slug, won=won, points=points, rank=ranks.get(player_id, 0)
        )
    return previous


def draw_players(session: Session) -> list[DrawPlayer]:
    preferences = preferences_for(session)
    previous = previous_sessions(session) if session.stage.number > 1 else {}
    return [
        DrawPlayer(
            id=str(seat.player_id),
            preferences=tuple(preferences.get(seat.player_id, ())),
            previous=previous.get(seat.player_id),
        )
        for seat in _seats(session)
    ]


def run_squad_draw(session: Session, dice: Dice, *, actor, expected_version: int) -> DrawResult:
    """Draw the squads of ``session`` and store them; raises SetupError, DrawError, DiceError
    or StaleSessionError (nothing is stored then)."""
    seats = _seats(session)
    if any(seat.squad_id for seat in seats):
        raise SetupError(_("The squads of this session are already drawn."))
    if len(seats) < 2:
        raise SetupError(_("Seat at least two players before drawing squads."))
    tournament = session.stage.tournament
    squads = {squad.slug: squad for squad in tournament.squads.all()}
    result = squad_draw(tournament.squad_order, draw_players(session), dice)
    check_all_dice_used(dice)
    with transaction.atomic():
        session.update_if_current(expected_version)
        for seat in seats:
            seat.squad = squads[result.assignments[str(seat.player_id)]]
            seat.save(update_fields=["squad"])
            SquadRank.objects.update_or_create(
                tournament=tournament,
                player_id=seat.player_id,
                defaults={"squad": seat.squad, "rank": result.ranks.get(str(seat.player_id), 0)}
                if str(seat.player_id) in result.ranks
                else {"squad": seat.squad},
            )
        record_dice(dice, tournament=tournament, stage=session.stage, session=session)
        log_activity(
            tournament,
            ActivityVerb.DREW_SQUADS,
            describe("session", session=session),
            actor=actor,
            session=session.pk,
            assignments=result.assignments,
            source=dice.source,
        )
    return result


def run_initiative(
    session: Session, dice: Dice, *, actor, expected_version: int
) -> InitiativeResult:
    """Roll initiative for ``session`` and store each seat's position (1 plays first)."""
    seats = _seats(session)
    if len(seats) < 2:
        raise SetupError(_("Seat at least two players before rolling initiative."))
    if any(seat.initiative_position for seat in seats):
        raise SetupError(_("Initiative is already rolled for this session; it holds all game."))
    result = roll_initiative([str(seat.player_id) for seat in seats], dice)
    check_all_dice_used(dice)
    position = {player: index for index, player in enumerate(result.order, start=1)}
    with transaction.atomic():
        session.update_if_current(expected_version)
        for seat in seats:
            seat.initiative_position = position[str(seat.player_id)]
            seat.save(update_fields=["initiative_position"])
        record_dice(dice, tournament=session.stage.tournament, stage=session.stage, session=session)
        log_activity(
            session.stage.tournament,
            ActivityVerb.ROLLED_INITIATIVE,
            describe("session", session=session),
            actor=actor,
            session=session.pk,
            order=list(result.order),
            source=dice.source,
        )
    return result
