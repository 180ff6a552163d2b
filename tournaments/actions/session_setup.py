"""Setting up a session at the table: the squad draw (RULES §3–4) and initiative (§5).

The pure rules (:mod:`tournaments.domain.draw`, :mod:`tournaments.domain.initiative`)
decide; these actions feed them the session's players, store the outcome on the seats, keep
every die (:mod:`tournaments.actions.dice_records`) and write the activity log — all or
nothing, and only if nobody changed the session since the judge's page was loaded
(optimistic locking). :func:`draw_squads` is the one squad draw: the stage seating, the
judge's table and the command line all call it.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from rules.engine.dice import Dice
from tournaments.actions.activity_log import activity_entry, describe, log_activity
from tournaments.actions.dice_records import dice_seed, record_dice, roll_rows, store_rolls
from tournaments.actions.optimistic_lock import update_if_current
from tournaments.actions.squad_ranks import ranks_snapshot
from tournaments.caching import generations
from tournaments.domain.draw import DrawError, DrawPlayer, DrawResult, squad_draw
from tournaments.domain.initiative import InitiativeResult, roll_initiative
from tournaments.domain.typed_dice import check_all_dice_used
from tournaments.models import (
    ActivityLog,
    ActivityVerb,
    DiceRoll,
    Player,
    Result,
    Seat,
    Session,
    SessionStatus,
    SquadRank,
    StaleSessionError,
)
from tournaments.queries.draw_inputs import draw_players
from tournaments.queries.result_versions import has_confirmed_result
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


def draw_seated_squads(sessions: Sequence[Session], dice: Dice, *, actor=None) -> list[DrawResult]:
    """:func:`draw_squads` for every session of a stage just seated, in a fixed number of
    queries however many sessions there are: the same draws with the same dice in the same
    order, the same seats, ranks, dice batches and one activity entry per session, read
    once and written in bulk. Typed dice left over are not refused (the caller checks).

    Raises SetupError naming the session (also for a DrawError); nothing is stored then."""
    if not sessions:
        return []
    stage = sessions[0].stage
    tournament = stage.tournament
    seats: dict[int, list[Seat]] = {session.pk: [] for session in sessions}
    for seat in Seat.objects.filter(session__in=sessions).order_by("session_id", "seat_order"):
        seats[seat.session_id].append(seat)
    squads = {squad.slug: squad for squad in tournament.squads.all()}
    order = sorted(squads.values(), key=lambda squad: (squad.order, squad.pk))
    squad_order = [squad.slug for squad in order]
    players = draw_players(sessions)
    player_ids = [seat.player_id for session in sessions for seat in seats[session.pk]]
    before = ranks_snapshot(tournament, player_ids)
    seed = dice_seed(dice)
    results: list[DrawResult] = []
    rolls: list[DiceRoll] = []
    entries: list[ActivityLog] = []
    for session in sessions:
        own = seats[session.pk]
        try:
            if any(seat.squad_id for seat in own):
                raise SetupError(_("The squads of this session are already drawn."))
            if len(own) < 2:
                raise SetupError(_("Seat at least two players before drawing squads."))
            start = len(dice.log)
            result = squad_draw(squad_order, players[session.pk], dice)
        except (DrawError, SetupError) as error:
            raise SetupError(f"{session}: {error}") from None
        results.append(result)
        for seat in own:
            seat.squad = squads[result.assignments[str(seat.player_id)]]
        rolls.extend(
            roll_rows(
                dice.log[start:], tournament=tournament, stage=stage, session=session, seed=seed
            )
        )
        entries.append(
            activity_entry(
                tournament,
                ActivityVerb.DREW_SQUADS,
                describe("session", session=session),
                actor=actor,
                session=session.pk,
                assignments=result.assignments,
                rank_transfers=[transfer.as_dict() for transfer in result.rank_transfers],
                source=dice.source,
                ranks_before={
                    str(seat.player_id): before[str(seat.player_id)]
                    for seat in own
                    if str(seat.player_id) in before
                },
            )
        )
    with transaction.atomic():
        _store_seated_draws(tournament, sessions, seats, results)
        store_rolls(rolls)
        ActivityLog.objects.bulk_create(entries)
        # Bulk writes send no save signals.
        generations.mark_changed(value=tournament.pk)
    return results


def _store_seated_draws(
    tournament, sessions: Sequence[Session], seats: dict[int, list[Seat]], results
) -> None:
    """The sessions' new versions, the seats' squads and the players' squads and ranks."""
    ids = [session.pk for session in sessions]
    versions = {session.pk: session.version for session in sessions}
    updated = 0
    for version in set(versions.values()):
        updated += Session.objects.filter(
            pk__in=[pk for pk in ids if versions[pk] == version], version=version
        ).update(version=F("version") + 1)
    if updated != len(ids):
        raise StaleSessionError(
            _("Session %(session)s was changed by someone else; reload it and try again.")
            % {"session": sessions[0]}
        )
    for session in sessions:
        session.version += 1
    drawn = [seat for session in sessions for seat in seats[session.pk]]
    # One UPDATE per squad (per squad and rank for the ranks), not per row: a stage has a
    # handful of squads and ranks however many players it seats.
    by_squad: dict[int | None, list[int]] = defaultdict(list)
    for seat in drawn:
        by_squad[seat.squad_id].append(seat.pk)
    for squad_id, pks in by_squad.items():
        Seat.objects.filter(pk__in=pks).update(squad_id=squad_id)
    ranks: dict[str, int] = {}
    for result in results:
        ranks.update(result.ranks)
    current = dict(
        SquadRank.objects.filter(
            tournament=tournament, player_id__in=[seat.player_id for seat in drawn]
        ).values_list("player_id", "rank")
    )
    SquadRank.objects.bulk_create(
        SquadRank(tournament=tournament, player_id=seat.player_id)
        for seat in drawn
        if seat.player_id not in current
    )
    rank_default = SquadRank._meta.get_field("rank").get_default()
    groups: dict[tuple[int | None, int], list[int]] = defaultdict(list)
    for seat in drawn:
        rank = ranks.get(str(seat.player_id), current.get(seat.player_id, rank_default))
        groups[(seat.squad_id, rank)].append(seat.player_id)
    now = timezone.now()
    for (squad_id, rank), players in groups.items():
        SquadRank.objects.filter(tournament=tournament, player_id__in=players).update(
            squad_id=squad_id, rank=rank, updated_at=now
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
    with transaction.atomic():
        # The players' rows locked before their preferences are read: a preferences save
        # (which locks the player's row) lands before the draw reads them, or waits and
        # then finds the squad drawn and is refused; never in between.
        list(
            Player.objects.select_for_update()
            .filter(pk__in=[seat.player_id for seat in seats])
            .order_by("pk")
            .values_list("pk", flat=True)
        )
        if players is None:
            players = draw_players([session])[session.pk]
        start = len(dice.log)
        result = squad_draw(tournament.squad_order, players, dice)
        if all_dice_used:
            check_all_dice_used(dice)
        transfers = [transfer.as_dict() for transfer in result.rank_transfers]
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
    if has_confirmed_result(session):
        raise SetupError(
            _(
                "This session's result is confirmed: the session was played, so there is no "
                "play order left to roll."
            )
        )
    result = roll_initiative([str(seat.player_id) for seat in seats], dice)
    check_all_dice_used(dice)
    position = {player: index for index, player in enumerate(result.order, start=1)}
    with transaction.atomic():
        update_if_current(session, expected_version)
        mark_in_play(session)
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


def mark_in_play(session: Session) -> None:
    """The session is being played (its initiative is rolled, or a game of it starts on the
    board): *in progress* until its result is confirmed, on the judges' and the public
    pages. Only a planned or scheduled session changes; its version is left alone (what
    the judge's open forms were loaded at still holds)."""
    changed = Session.objects.filter(
        pk=session.pk, status__in=(SessionStatus.PLANNED, SessionStatus.SCHEDULED)
    ).update(status=SessionStatus.IN_PROGRESS)
    if changed:
        session.status = SessionStatus.IN_PROGRESS
        generations.mark_changed(lookup="stages", value=session.stage_id)


def start_board_game(session: Session) -> None:
    """A game of ``session`` begins on the judge's board, in the caller's transaction,
    before the game reads anything of the session. The session's row stays locked until
    that transaction ends, so a loadout save (which locks it too:
    :func:`~tournaments.actions.player_choices.save_loadout`) lands wholly before the game
    reads the loadouts, or is refused after; the session is marked in play; and the
    tournament's pages are marked changed even when it already was in play (its initiative
    rolled), since they link the game being played, which no tournament row records."""
    Session.objects.select_for_update().filter(pk=session.pk).values_list("pk").get()
    mark_in_play(session)
    generations.mark_changed(lookup="stages", value=session.stage_id)
