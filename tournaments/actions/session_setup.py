"""Setting up a session at the table: the squad draw (RULES §3–4) and initiative (§5).

The pure rules (:mod:`tournaments.domain.draw`, :mod:`tournaments.domain.initiative`)
decide; these actions feed them the session's players, store the outcome on the seats, keep
every die (:mod:`tournaments.actions.dice_records`) and write the activity log — all or
nothing, and only if nobody changed the session since the judge's page was loaded
(optimistic locking). :func:`draw_squads` is the one squad draw: the stage seating, the
judge's table and the command line all call it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from rules.engine.dice import Dice
from tournaments.actions.activity_log import describe, log_activity
from tournaments.actions.dice_records import record_dice
from tournaments.actions.optimistic_lock import update_if_current
from tournaments.actions.squad_ranks import ranks_snapshot
from tournaments.domain.draw import DrawPlayer, DrawResult, squad_draw
from tournaments.domain.initiative import InitiativeResult, roll_initiative
from tournaments.domain.typed_dice import check_all_dice_used
from tournaments.models import ActivityVerb, Result, Seat, Session, SquadRank
from tournaments.queries.draw_inputs import draw_players
from tournaments.queries.session_sheet import draw_batches


class SetupError(ValueError):
    """The session is not ready for this step; the message says what to do first."""


def _seats(session: Session) -> list[Seat]:
    return list(session.seats.select_related("player", "squad").order_by("seat_order"))


def draw_squads(
    session: Session,
    dice: Dice,
    *,
    actor=None,
    expected_version: int | None = None,
    players: Sequence[DrawPlayer] | None = None,
    all_dice_used: bool = True,
) -> DrawResult:
    """Draw the squads of ``session`` and store them: each seat's squad, each player's squad
    and rank (the rank follows the player, §4), the dice and an activity-log entry.

    ``expected_version``: the session's version the caller's page was loaded at (none for a
    session seated in the same transaction). ``players``: the draw's players when the caller
    read them for several sessions at once (:func:`~tournaments.queries.draw_inputs.
    draw_players`). ``all_dice_used``: refuse typed dice left over (off when the same dice go
    on to other draws). Raises SetupError, DrawError, DiceError or StaleSessionError; nothing
    is stored then.
    """
    seats = _seats(session)
    if any(seat.squad_id for seat in seats):
        raise SetupError(_("The squads of this session are already drawn."))
    if len(seats) < 2:
        raise SetupError(_("Seat at least two players before drawing squads."))
    return _draw(
        session,
        seats,
        dice,
        actor=actor,
        expected_version=session.version if expected_version is None else expected_version,
        players=players,
        all_dice_used=all_dice_used,
        verb=ActivityVerb.DREW_SQUADS,
        details={},
    )


def redo_squad_draw(
    session: Session, dice: Dice, *, reason: str, actor, expected_version: int
) -> DrawResult:
    """Draw the squads of ``session`` again, e.g. after a mistyped die: a new version of the
    draw. Nothing of the earlier one is deleted: its dice stay in the log, marked replaced
    by this draw's activity entry, which keeps the ``reason``, the squads the players had
    and the batches of the dice it replaces. Refused once the session has a result (its
    points were scored with those squads)."""
    reason = reason.strip()
    if not reason:
        raise SetupError(_("Say why the draw is done again (the reason is kept on record)."))
    seats = _seats(session)
    if not seats or not all(seat.squad_id for seat in seats):
        raise SetupError(_("The squads of this session are not drawn yet: run the draw first."))
    if Result.objects.filter(session=session).exists():
        raise SetupError(
            _("This session has a result, scored with its squads: the draw can no longer change.")
        )
    replaced = draw_batches(session)
    return _draw(
        session,
        seats,
        dice,
        actor=actor,
        expected_version=expected_version,
        verb=ActivityVerb.REDREW_SQUADS,
        details={
            "reason": reason,
            "previous": {str(seat.player_id): seat.squad.slug for seat in seats if seat.squad},
            "replaced_batches": replaced,
        },
    )


def _draw(
    session: Session,
    seats: list[Seat],
    dice: Dice,
    *,
    actor,
    expected_version: int,
    verb: ActivityVerb,
    details: dict[str, Any],
    players: Sequence[DrawPlayer] | None = None,
    all_dice_used: bool = True,
) -> DrawResult:
    tournament = session.stage.tournament
    squads = {squad.slug: squad for squad in tournament.squads.all()}
    if players is None:
        players = draw_players([session])[session.pk]
    start = len(dice.log)
    result = squad_draw(tournament.squad_order, players, dice)
    if all_dice_used:
        check_all_dice_used(dice)
    transfers = [transfer.as_dict() for transfer in result.rank_transfers]
    with transaction.atomic():
        update_if_current(session, expected_version)
        ranks_before = ranks_snapshot(tournament, [seat.player_id for seat in seats])
        # Cleared first: two seats never hold one squad, even half-way through a redraw.
        Seat.objects.filter(session=session).update(squad=None)
        for seat in seats:
            player = str(seat.player_id)
            seat.squad = squads[result.assignments[player]]
            seat.save(update_fields=["squad"])
            defaults: dict[str, Any] = {"squad": seat.squad}
            if player in result.ranks:
                defaults["rank"] = result.ranks[player]
            SquadRank.objects.update_or_create(
                tournament=tournament, player_id=seat.player_id, defaults=defaults
            )
        record_dice(dice, tournament=tournament, stage=session.stage, session=session, start=start)
        log_activity(
            tournament,
            verb,
            describe("session", session=session),
            actor=actor,
            session=session.pk,
            assignments=result.assignments,
            rank_transfers=transfers,
            source=dice.source,
            ranks_before=ranks_before,
            **details,
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
        update_if_current(session, expected_version)
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
