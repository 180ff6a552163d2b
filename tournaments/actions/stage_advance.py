"""Running the tournament's stages in the database (RULES.md §2–4, §9).

* :func:`start_tournament` seats the first stage from the registrations and draws the
  squads of its sessions from the players' preferences (§3).
* :func:`close_stage` refuses while a session lacks a confirmed result, awards honours and
  score bonuses (§9), then selects the qualifiers (§2) or, for the final, the podium.
* :func:`seat_next_stage` seats the qualifiers (random with recorded dice, or seeded; the
  final's one table by seed without a die, decision 21) and applies §4: players keep
  their squads, conflicts go to the previous winner / more points / a roll-off, displaced
  players draw among the free squads, and ranks follow players.
* :func:`advance` does whichever of these is due, in one transaction.

All decisions are made by the pure services (:mod:`.progression`, :mod:`.draw`,
:mod:`.honours`); this module reads and writes rows and stores every die rolled.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from copy import deepcopy
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from rules.engine.dice import Dice, DiceError, ScriptedDice, SeededDice
from rules.engine.dice_ahead import DiceAhead, ProbeLimitReached, dice_ahead
from tournaments.actions import session_setup
from tournaments.actions.activity_log import describe, log_activity
from tournaments.actions.dice_records import record_dice
from tournaments.actions.squad_ranks import ranks_snapshot
from tournaments.actions.task_queue import schedule_rebuild
from tournaments.caching import generations
from tournaments.domain.honours import (
    HonoursError,
    SquadStanding,
    after_session,
    thresholds_reached,
)
from tournaments.domain.progression import (
    ProgressionError,
    Qualifier,
    default_qualifiers,
    first_stage_seating,
    podium,
    seat_stage,
    select_qualifiers,
    session_sizes,
    stage_kind,
)
from tournaments.domain.ranking import SessionRanking
from tournaments.domain.typed_dice import (
    TypedDice,
    check_all_dice_used,
    dice_rounds,
    dice_rounds_text,
    extra_dice_message,
)
from tournaments.models import (
    ActivityVerb,
    Honour,
    Registration,
    ScoreBonus,
    ScoreThreshold,
    Seat,
    SeatingMethod,
    Session,
    SquadRank,
    Stage,
    StageStatus,
    Stipulation,
    Tournament,
)
from tournaments.models.stipulations import clean_stipulation_params, playing_rules
from tournaments.queries.dice_subjects import registered_player_names
from tournaments.queries.dispute_lists import unanswered_sessions, unanswered_text
from tournaments.queries.stage_cut import CutError, missing_results, stage_rankings, the_cut


class StageError(ValueError):
    """The stage cannot be advanced; the message says what is wrong and how to fix it."""


class MissingResultsError(StageError):
    """Some sessions of the stage have no confirmed result yet."""

    def __init__(self, stage: Stage, sessions: list[Session]):
        self.stage = stage
        self.sessions = sessions
        names = ", ".join(str(session.number) for session in sessions)
        super().__init__(
            ngettext(
                "Stage %(stage)d cannot close: session %(sessions)s has no confirmed result. "
                "Enter and confirm it first.",
                "Stage %(stage)d cannot close: sessions %(sessions)s have no confirmed "
                "result. Enter and confirm them first.",
                len(sessions),
            )
            % {"stage": stage.number, "sessions": names}
        )


@dataclass
class ClosedStage:
    stage: Stage
    rankings: dict[str, SessionRanking]
    qualifiers: tuple[Qualifier, ...]
    report: dict[str, Any]


def _display(player_ids, names: dict[str, str]) -> list[dict[str, Any]]:
    return [{"player_id": int(pid), "player": names.get(str(pid), str(pid))} for pid in player_ids]


def _create_sessions(stage: Stage, groups) -> list[Session]:
    """The stage's sessions, seats and stipulations in bulk inserts (they send no signals,
    so the tournament's cache generation is marked here)."""
    groups = [list(players) for players in groups]
    sessions = Session.objects.bulk_create(
        Session(stage=stage, number=number, map_name=stage.map_name)
        for number, _players in enumerate(groups, start=1)
    )
    Seat.objects.bulk_create(
        Seat(session=session, player_id=int(player_id), seat_order=order)
        for session, players in zip(sessions, groups, strict=True)
        for order, player_id in enumerate(players, start=1)
    )
    if stage.stipulation_kind:
        try:
            params = clean_stipulation_params(
                stage.stipulation_kind,
                stage.stipulation_params,
                playing_rules(stage.tournament),
            )
        except ValidationError as error:
            raise StageError(
                _("Stage %(n)d's stipulation parameters are not valid. %(problems)s")
                % {"n": stage.number, "problems": " ".join(error.messages)}
            ) from None
        Stipulation.objects.bulk_create(
            Stipulation(session=session, kind=stage.stipulation_kind, params=deepcopy(params))
            for session in sessions
        )
    generations.mark_changed(value=stage.tournament_id)
    return sessions


def _draw_stage(sessions: list[Session], dice: Dice, actor=None) -> list[dict[str, Any]]:
    """Draw the squads of every newly seated session with the one squad draw, read and
    written for all of them at once; the rank transfers of §4, session by session."""
    try:
        drawn = session_setup.draw_seated_squads(sessions, dice, actor=actor)
    except session_setup.SetupError as error:
        raise StageError(str(error)) from None
    return [transfer.as_dict() for result in drawn for transfer in result.rank_transfers]


def _sessions_report(
    tournament: Tournament, sessions: list[Session], names: dict[str, str]
) -> list[dict[str, Any]]:
    """Each seated session's players with squad and rank: two queries for the whole stage."""
    ranks = dict(SquadRank.objects.filter(tournament=tournament).values_list("player_id", "rank"))
    seats: dict[int, list[Seat]] = {session.pk: [] for session in sessions}
    for seat in (
        Seat.objects.filter(session__in=sessions)
        .select_related("squad")
        .order_by("session_id", "seat_order")
    ):
        seats[seat.session_id].append(seat)
    return [
        {
            "number": session.number,
            "players": [
                {
                    "player_id": seat.player_id,
                    "player": names.get(str(seat.player_id), str(seat.player_id)),
                    "squad": seat.squad.slug if seat.squad is not None else None,
                    "rank": ranks.get(seat.player_id, 0),
                }
                for seat in seats[session.pk]
            ],
        }
        for session in sessions
    ]


def _started(tournament: Tournament) -> bool:
    """Stages may be prepared in advance; the tournament starts when stage 1 is seated."""
    return Session.objects.filter(stage__tournament=tournament).exists()


def start_tournament(
    tournament: Tournament, dice: Dice, *, actor=None, draw_squads: bool = True
) -> dict[str, Any]:
    """Seat stage 1 from the registrations (random seating uses ``dice``) and draw squads."""
    if _started(tournament):
        raise StageError(_("%(t)s has already started.") % {"t": tournament})
    player_ids = list(
        Registration.objects.filter(tournament=tournament, withdrawn_at__isnull=True)
        .order_by("number")
        .values_list("player_id", flat=True)
    )
    if len(player_ids) < 3:
        raise StageError(
            _("A tournament needs at least 3 registered players; %(t)s has %(n)d.")
            % {"t": tournament, "n": len(player_ids)}
        )
    if tournament.squads.count() < 3:
        raise StageError(
            _("%(t)s needs 3 squads before it starts; add them first.") % {"t": tournament}
        )
    names = registered_player_names(tournament)
    sizes = session_sizes(len(player_ids))
    kind = stage_kind(sizes, None, first=True)
    stage, _created = Stage.objects.get_or_create(
        tournament=tournament, number=1, defaults={"kind": kind}
    )
    stage.kind = kind
    stage.save(update_fields=["kind"])
    random = tournament.seating_method == SeatingMethod.RANDOM
    start = len(dice.log)
    seating = first_stage_seating([str(pid) for pid in player_ids], dice if random else None)
    record_dice(dice, tournament=tournament, stage=stage, start=start)
    sessions = _create_sessions(stage, seating.sessions)
    SquadRank.objects.bulk_create(
        (SquadRank(tournament=tournament, player_id=player_id) for player_id in player_ids),
        ignore_conflicts=True,
    )
    if draw_squads:
        _draw_stage(sessions, dice, actor=actor)
    log_activity(
        tournament,
        ActivityVerb.SEATED_STAGE,
        describe("stage", stage=stage),
        actor=actor,
        stage=stage.number,
        sessions=[list(group) for group in seating.sessions],
    )
    return {
        "number": stage.number,
        "kind": stage.kind,
        "seating": tournament.seating_method,
        "sessions": _sessions_report(tournament, sessions, names),
    }


@transaction.atomic
def seat_first_stage(tournament: Tournament, dice: Dice, *, actor=None) -> dict[str, Any]:
    """Seat stage 1 from the registrations, leaving the squad draws to the judges at the
    tables; typed dice must all be used. All or nothing."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    report = start_tournament(tournament, dice, actor=actor, draw_squads=False)
    check_all_dice_used(dice)
    return report


def _thresholds(session: Session) -> list[int]:
    own = list(
        ScoreThreshold.objects.filter(session=session)
        .order_by("points")
        .values_list("points", flat=True)
    )
    if own:
        return own
    return list(
        ScoreThreshold.objects.filter(stage=session.stage)
        .order_by("points")
        .values_list("points", flat=True)
    )


def _award(
    stage: Stage,
    sessions: list[Session],
    rankings: dict[str, SessionRanking],
    names,
    actor=None,
) -> tuple[list[dict], list[dict]]:
    """Honours for session winners and score bonuses for thresholds reached (§9), logged as
    given by ``actor``, who closed the stage."""
    tournament = stage.tournament
    honours, bonuses = [], []
    for session in sessions:
        ranking = rankings[str(session.pk)]
        seats = {seat.player_id: seat for seat in session.seats.select_related("squad")}
        winner = int(ranking.winner)
        rank_row, _created = SquadRank.objects.get_or_create(
            tournament=tournament, player_id=winner
        )
        earned = tournament.honours.filter(player_id=winner).count()
        standing = after_session(SquadStanding(rank=rank_row.rank, honours=earned), won=True)
        rank_row.rank = standing.rank
        rank_row.save(update_fields=["rank", "updated_at"])
        winning_squad = seats[winner].squad
        if winning_squad is not None:
            Honour.objects.create(
                tournament=tournament, player_id=winner, squad=winning_squad, session=session
            )
        honours.append(
            {
                **_display([winner], names)[0],
                "session": session.number,
                "rank": standing.rank,
                "honours": standing.honours,
            }
        )
        log_activity(
            tournament,
            ActivityVerb.AWARDED_HONOUR,
            describe(
                "player_in_session", player=names.get(str(winner), str(winner)), session=session
            ),
            actor=actor,
            player=winner,
            rank=standing.rank,
        )
        thresholds = _thresholds(session)
        if not thresholds:
            continue
        for ranked in ranking.order:
            try:
                reached = thresholds_reached(ranked.points, thresholds)
            except HonoursError as error:
                raise StageError(f"{session}: {error}") from None
            if reached:
                ScoreBonus.objects.create(
                    tournament=tournament,
                    player_id=int(ranked.seat),
                    earned_in=session,
                    thresholds_reached=[t for t in thresholds if ranked.points >= t],
                    extra_equipment_cards=reached,
                )
                bonuses.append(
                    {
                        **_display([ranked.seat], names)[0],
                        "session": session.number,
                        "extra_equipment_cards": reached,
                    }
                )
    return honours, bonuses


def close_stage(stage: Stage, dice: Dice, *, actor=None) -> ClosedStage:
    """Close ``stage``: honours, bonuses, then qualifiers (or the podium for the final)."""
    stage = Stage.objects.select_for_update().select_related("tournament").get(pk=stage.pk)
    if stage.status != StageStatus.OPEN:
        raise StageError(_("Stage %(n)d is already closed.") % {"n": stage.number})
    sessions = list(stage.sessions.order_by("number"))
    if not sessions:
        raise StageError(_("Stage %(n)d has no sessions to close.") % {"n": stage.number})
    missing = missing_results(stage)
    if missing:
        raise MissingResultsError(stage, missing)
    disputed = unanswered_sessions(stage)
    if disputed:
        raise StageError(unanswered_text(disputed))
    names = registered_player_names(stage.tournament)
    ranks_before = ranks_snapshot(stage.tournament)
    rankings = stage_rankings(sessions)
    honours, bonuses = _award(stage, sessions, rankings, names, actor)
    start = len(dice.log)
    report: dict[str, Any] = {"number": stage.number, "kind": stage.kind}
    if len(sessions) == 1:
        try:
            places = podium(rankings[str(sessions[0].pk)])
        except ProgressionError as error:
            raise StageError(str(error)) from None
        report["podium"] = [
            {
                "position": place.position,
                **_display([place.player], names)[0],
                "points": place.points,
            }
            for place in places
        ]
        qualifiers: tuple[Qualifier, ...] = ()
        stage.qualifiers = [int(seat.seat) for seat in rankings[str(sessions[0].pk)].order]
    else:
        try:
            eligible, count = the_cut(stage, rankings)
        except CutError as error:
            raise StageError(str(error)) from None
        try:
            selection = select_qualifiers(eligible, count, dice)
        except ProgressionError as error:
            raise StageError(str(error)) from None
        qualifiers = selection.qualifiers
        stage.qualifiers = [int(q.player) for q in qualifiers]
        number_of = {str(session.pk): session.number for session in sessions}
        report["qualifier_count"] = count
        report["qualifiers"] = [
            {
                **_display([q.player], names)[0],
                "session": number_of[q.session],
                "position": q.position,
                "points": q.points,
            }
            for q in qualifiers
        ]
    record_dice(dice, tournament=stage.tournament, stage=stage, start=start)
    stage.status = StageStatus.CLOSED
    stage.closed_at = timezone.now()
    stage.save(update_fields=["qualifiers", "status", "closed_at"])
    report["honours"] = honours
    report["score_bonuses"] = bonuses
    log_activity(
        stage.tournament,
        ActivityVerb.CLOSED_STAGE,
        describe("stage", stage=stage),
        actor=actor,
        stage=stage.number,
        qualifiers=stage.qualifiers,
        ranks_before=ranks_before,
    )
    return ClosedStage(stage, rankings, qualifiers, report)


def _use_bonuses(tournament: Tournament, earned_in: Stage, sessions: list[Session]) -> None:
    """Each unused score bonus earned in ``earned_in`` goes to its player's new session:
    read once, written in bulk."""
    session_of = dict(
        Seat.objects.filter(session__in=sessions).values_list("player_id", "session_id")
    )
    bonuses = list(
        ScoreBonus.objects.filter(
            tournament=tournament,
            player_id__in=list(session_of),
            earned_in__stage=earned_in,
            used_in__isnull=True,
        ).only("pk", "player_id")
    )
    for bonus in bonuses:
        bonus.used_in_id = session_of[bonus.player_id]
    ScoreBonus.objects.bulk_update(bonuses, ["used_in"], batch_size=1000)


def _in_registration_order(
    tournament: Tournament, qualifiers: Sequence[Qualifier]
) -> tuple[Qualifier, ...]:
    numbers = dict(
        Registration.objects.filter(tournament=tournament).values_list("player_id", "number")
    )
    return tuple(sorted(qualifiers, key=lambda q: numbers.get(int(q.player), 0)))


def seat_next_stage(
    closed: ClosedStage, dice: Dice, *, seating: str | None = None, actor=None
) -> dict[str, Any]:
    """Seat the qualifiers of ``closed`` in the next stage and apply §4 to their squads."""
    previous_stage = closed.stage
    tournament = previous_stage.tournament
    names = registered_player_names(tournament)
    count = len(closed.qualifiers)
    sizes = session_sizes(count)
    stage = Stage.objects.filter(tournament=tournament, number=previous_stage.number + 1).first()
    if stage is not None and stage.sessions.exists():
        raise StageError(
            _("Stage %(n)d already has sessions; it was seated before.") % {"n": stage.number}
        )
    if stage is None:
        stage = Stage(tournament=tournament, number=previous_stage.number + 1)
    try:
        after = stage.qualifier_count or tournament.qualifier_override(stage.number)
    except ValueError as error:
        raise StageError(str(error)) from None
    if after is None and len(sizes) > 1:
        after = default_qualifiers(len(sizes))
    stage.kind = stage_kind(sizes, after)
    stage.save()
    mode = seating or stage.effective_seating_method
    if mode not in SeatingMethod.values:
        raise StageError(_("Unknown seating method %(m)r; use random or seeded.") % {"m": mode})
    qualifiers = closed.qualifiers
    if len(sizes) == 1:  # seated by seed, ties in registration order (decision 21)
        qualifiers = _in_registration_order(tournament, qualifiers)
    start = len(dice.log)
    try:
        placed = seat_stage(qualifiers, sizes, mode, dice)
    except ProgressionError as error:
        raise StageError(str(error)) from None
    record_dice(dice, tournament=tournament, stage=stage, start=start)
    sessions = _create_sessions(stage, placed.sessions)

    transfers = _draw_stage(sessions, dice, actor=actor)
    _use_bonuses(tournament, previous_stage, sessions)
    log_activity(
        tournament,
        ActivityVerb.SEATED_STAGE,
        describe("stage", stage=stage),
        actor=actor,
        stage=stage.number,
        seating=mode,
        sessions=[list(group) for group in placed.sessions],
    )
    return {
        "number": stage.number,
        "kind": stage.kind,
        "seating": mode,
        "clashes": placed.clashes,
        "sessions": _sessions_report(tournament, sessions, names),
        "rank_transfers": [
            {**transfer, "player": names.get(str(transfer["player"]), transfer["player"])}
            for transfer in transfers
        ],
    }


def _dice_report(dice: Dice) -> dict[str, Any]:
    seed = dice.seed if isinstance(dice, SeededDice) else None
    return {
        "source": dice.source,
        "seed": None if seed is None else str(seed),
        "seed_commitment": dice.commitment if isinstance(dice, SeededDice) else None,
        "rolls": [roll.as_dict() for roll in dice.log],
    }


def _advance_steps(
    tournament: Tournament, dice: Dice, *, seating: str | None, actor
) -> dict[str, Any]:
    """:func:`advance`'s steps, in the caller's transaction (its dry run's too)."""
    report: dict[str, Any] = {"tournament": tournament.slug}
    if not _started(tournament):
        report["action"] = "started"
        report["next_stage"] = start_tournament(tournament, dice, actor=actor)
        return report
    stage = tournament.current_stage()
    if stage is None:
        raise StageError(_("%(t)s is finished: every stage is closed.") % {"t": tournament})
    closed = close_stage(stage, dice, actor=actor)
    report["closed_stage"] = closed.report
    if closed.qualifiers:
        report["action"] = "advanced"
        report["next_stage"] = seat_next_stage(closed, dice, seating=seating, actor=actor)
    else:
        report["action"] = "finished"
        report["podium"] = closed.report["podium"]
    return report


def advance_dice_ahead(
    tournament: Tournament, values: Sequence[int], *, seating: str | None = None
) -> DiceAhead | None:
    """Which physical dice :func:`advance` needs after the typed ``values``, in rolling
    order, up to the first die whose need depends on what an earlier one shows (a tie's
    re-roll): the advance itself is played with made-up dice after the typed ones, in a
    transaction that is always rolled back (:func:`rules.engine.dice_ahead.dice_ahead`), so
    the list cannot disagree with the real close. None when the dice cannot be told (the
    made-up dice never settle it). Raises what the advance raises for anything else
    wrong (:class:`StageError`, :class:`DiceError` for a face a d6 cannot show)."""

    def run(dice: Dice) -> None:
        with transaction.atomic():
            _advance_steps(tournament, dice, seating=seating, actor=None)
            transaction.set_rollback(True)

    return _dry_run_dice(run, values)


def start_dice_ahead(tournament: Tournament, values: Sequence[int]) -> DiceAhead | None:
    """Which physical dice :func:`seat_first_stage` (the dashboard's "Seat the first
    stage": no squad draw, the judges draw at the tables) needs after the typed ``values``,
    found as :func:`advance_dice_ahead` finds the close's."""

    def run(dice: Dice) -> None:
        with transaction.atomic():
            start_tournament(tournament, dice, actor=None, draw_squads=False)
            transaction.set_rollback(True)

    return _dry_run_dice(run, values)


def _dry_run_dice(run: Callable[[Dice], None], values: Sequence[int]) -> DiceAhead | None:
    """``run`` played with the typed ``values`` then made-up dice, rolled back: the dice it
    needs (None when the made-up dice never settle it)."""
    try:
        return dice_ahead(run, lambda: TypedDice(values=list(values)))
    except ProbeLimitReached:
        return None
    except ProgressionError as error:
        raise StageError(str(error)) from None


class DiceRefused(DiceError):
    """Typed dice too few or too many for the advance, refused with nothing kept; ``ahead``
    is what the message names (:func:`advance_dice_ahead`), for the page to list again."""

    def __init__(self, message: str, ahead: DiceAhead):
        super().__init__(message)
        self.ahead = ahead


def _dice_refusal(
    tournament: Tournament, dice: ScriptedDice, seating: str | None
) -> DiceRefused | None:
    """Why the typed dice do not fit the advance, naming every die needed next that can be
    known before rolling; None when the dry run finds them right or cannot tell."""
    ahead = advance_dice_ahead(tournament, dice.values, seating=seating)
    if ahead is None or (ahead.complete and not ahead.extra):
        return None
    if ahead.complete:
        return DiceRefused(extra_dice_message(ahead.typed, ahead.used), ahead)
    rounds = dice_rounds(
        ahead.next,
        getattr(dice, "subjects", None),
        getattr(dice, "squads", None),
    )
    message = ngettext(
        "not enough dice: %(given)d value was given; roll these next and add them in this "
        "order: %(dice)s",
        "not enough dice: %(given)d values were given; roll these next and add them in this "
        "order: %(dice)s",
        ahead.typed,
    ) % {"given": ahead.typed, "dice": dice_rounds_text(rounds)}
    if ahead.more_after:
        message += "; " + _("what they show decides whether more dice follow (a tie rolls again)")
    return DiceRefused(message, ahead)


def _advance_typed(
    tournament: Tournament, dice: ScriptedDice, *, seating: str | None, actor
) -> dict[str, Any]:
    """:func:`_advance_steps` with typed dice, played once: right dice need no dry run.
    When they run out, nothing the steps wrote is kept and the dry run
    (:func:`_dice_refusal`) names the dice needed, as if it had run first: the steps take
    its path until the typed dice run out. Dice left over are refused as the dry run would
    refuse them (it would use as many)."""
    try:
        with transaction.atomic():
            report = _advance_steps(tournament, dice, seating=seating, actor=actor)
            try:
                check_all_dice_used(dice)
            except DiceError as error:
                given = len(dice.values)
                ahead = DiceAhead(typed=given, used=given - dice.remaining, complete=True)
                raise DiceRefused(str(error), ahead) from None
    except DiceRefused:
        raise
    except DiceError:
        refusal = _dice_refusal(tournament, dice, seating)
        if refusal is None:
            raise
        raise refusal from None
    except ProgressionError as error:  # as the dry run, run first, raised it
        raise StageError(str(error)) from None
    return report


@transaction.atomic
def advance(
    tournament: Tournament, dice: Dice, *, seating: str | None = None, actor=None
) -> dict[str, Any]:
    """Do the next step of ``tournament``: start it, or close the open stage and seat the
    next one. All or nothing; typed dice must be exactly those needed (refused with nothing
    written, naming the dice needed: :class:`DiceRefused`)."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if isinstance(dice, ScriptedDice):
        report = _advance_typed(tournament, dice, seating=seating, actor=actor)
    else:
        report = _advance_steps(tournament, dice, seating=seating, actor=actor)
    report["dice"] = _dice_report(dice)
    schedule_rebuild(tournament.pk)
    return report
