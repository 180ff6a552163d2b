"""Recording, confirming and correcting session results, always as new versions.

A judge enters a result (a draft version, or confirmed at once); an organiser confirms it;
anyone allowed may correct it later with a reason. Each of these adds a
:class:`~tournaments.models.ResultVersion` numbered after the last one: the ``Result`` row is
locked (``select_for_update``) while the next number is chosen, and ``(result, number)`` is
unique, so concurrent corrections are serialised and none is lost.

The session ranking is computed here with the pure :mod:`tournaments.domain.ranking` (ties settled
by a recorded roll-off through the dice service) and stored in the version, so standings
never re-roll.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from django.db import transaction
from django.db.models import F, Max
from django.utils.translation import gettext as _

from rules.engine.dice import Dice, SeededDice
from tournaments.actions.activity_log import describe, log_activity
from tournaments.actions.attendance import check_in_ranked
from tournaments.actions.dice_records import record_dice
from tournaments.actions.optimistic_lock import update_if_current
from tournaments.actions.task_queue import schedule_rebuild
from tournaments.actions.tournament_setup import reopen_advice
from tournaments.domain.plausibility import Implausibility, check_result
from tournaments.domain.ranking import (
    RankingError,
    SeatResult,
    SessionRanking,
    forfeits_last,
    rank_session,
)
from tournaments.domain.scoring import (
    ScoreCard,
    ScoringError,
    SeatBreakdown,
    score_session,
    totals_key,
)
from tournaments.models import (
    ActivityVerb,
    Result,
    ResultVersion,
    Session,
    SessionStatus,
    Stage,
    StageStatus,
)
from tournaments.models.results import CONFIRMED_PREVIOUS
from tournaments.queries.result_versions import (
    has_confirmed_result,
    scored_totals,
    scoring_values,
    seat_names,
)
from tournaments.queries.session_stipulation import no_stipulation_message, result_limits
from tournaments.queries.session_stipulation import stipulation_kind as session_stipulation_kind


class ResultError(ValueError):
    """A result cannot be recorded as given; the message says what to fix."""


class NoStipulation(ResultError):
    """The session has no stipulation to rank its result by: an organiser must set one."""


class ImplausibleResult(ResultError):
    """The result breaks the game's limits (:mod:`tournaments.domain.plausibility`);
    ``problems`` says where, the message lists them all."""

    def __init__(self, problems: Sequence[Implausibility]) -> None:
        self.problems = list(problems)
        messages = list(dict.fromkeys(problem.message for problem in self.problems))
        super().__init__(" ".join(messages))


def check_plausible(
    session: Session, breakdowns: Sequence[SeatBreakdown], survivors: Iterable[int | str]
) -> None:
    """Refuse a result the game cannot have produced (ImplausibleResult)."""
    problems = check_result(
        breakdowns,
        [str(player) for player in survivors],
        result_limits(session),
        seat_names(session),
        both_sides=True,
    )
    if problems:
        raise ImplausibleResult(problems)


@dataclass(frozen=True)
class RecordedResult:
    version: ResultVersion
    cards: dict[str, ScoreCard]
    ranking: SessionRanking

    @property
    def problems(self) -> list[dict]:
        seen: dict[str, dict] = {}
        for card in self.cards.values():
            for problem in card.problems:
                seen.setdefault(problem.message, problem.as_dict())
        return list(seen.values())


def stipulation_kind(session: Session) -> str:
    """The session's stipulation type; ResultError when it has none."""
    kind = session_stipulation_kind(session)
    if not kind:
        raise NoStipulation(no_stipulation_message(session))
    return kind


def parse_breakdowns(
    session: Session, breakdowns: Sequence[SeatBreakdown | Mapping]
) -> list[SeatBreakdown]:
    """Check there is one breakdown per seat of ``session`` (seat = player id as text)."""
    parsed: list[SeatBreakdown] = []
    for index, item in enumerate(breakdowns):
        if isinstance(item, SeatBreakdown):
            parsed.append(item)
            continue
        try:
            parsed.append(SeatBreakdown.from_dict(item))
        except ScoringError as error:
            raise ResultError(
                _("Breakdown %(index)d: %(error)s") % {"index": index + 1, "error": error}
            ) from None
    expected = set(seat_names(session))
    given = [breakdown.seat for breakdown in parsed]
    if sorted(given) != sorted(expected):
        raise ResultError(
            _(
                "Give exactly one breakdown per seat of the session; expected seats "
                "%(expected)s, got %(given)s."
            )
            % {"expected": ", ".join(sorted(expected)), "given": ", ".join(given) or "-"}
        )
    return parsed


@dataclass(frozen=True)
class FromGame:
    """The game on the judge's board a result was filled from: its number in the session
    and the step (snapshot number) it stood at."""

    number: int
    step: int


def check_game(session: Session, source: FromGame) -> None:
    """Refuse a link to a game the session does not have, or to a step it never reached."""
    game = session.games.filter(number=source.number).first()
    steps = game.snapshots.count() if game is not None else 0
    if game is None or not 1 <= source.step <= steps:
        raise ResultError(
            _(
                "This session has no board game %(number)d at step %(step)d; fill the form "
                "from the game again, or enter the result without the game."
            )
            % {"number": source.number, "step": source.step}
        )


def _rank(
    session: Session, cards: Mapping[str, ScoreCard], survivors: set[str], dice: Dice
) -> SessionRanking:
    results = [
        SeatResult(seat=seat, points=card.total, survived=seat in survivors)
        for seat, card in cards.items()
    ]
    try:
        ranking = rank_session(stipulation_kind(session), results, dice=dice)
    except RankingError as error:
        raise ResultError(str(error)) from None
    forfeited = {
        str(player)
        for player in session.seats.exclude(forfeit="").values_list("player_id", flat=True)
    }
    return forfeits_last(ranking, forfeited) if forfeited else ranking


def _check_open(session: Session) -> None:
    """Refuse when the session's stage is closed, saying whether undoing its close would
    let the result change (decision 38). The stage row stays locked until commit, so a
    stage cannot close while a result of it is being written (and vice versa)."""
    status = (
        Stage.objects.select_for_update()
        .filter(pk=session.stage_id)
        .values_list("status", flat=True)
        .get()
    )
    if status != StageStatus.OPEN:
        closed = _("The stage of %(session)s is closed; its results can no longer change.") % {
            "session": session
        }
        raise ResultError(f"{closed} {reopen_advice(session.stage)}")


def _next_number(result: Result) -> int:
    return (result.versions.aggregate(top=Max("number"))["top"] or 0) + 1


def _locked_result(session: Session) -> Result:
    Result.objects.get_or_create(session=session)
    return Result.objects.select_for_update().get(session=session)


def _after_save(session: Session, version: ResultVersion) -> None:
    if version.confirmed:
        Session.objects.filter(pk=session.pk).exclude(status=SessionStatus.COMPLETED).update(
            status=SessionStatus.COMPLETED, version=F("version") + 1
        )
    schedule_rebuild(session.stage.tournament_id)


@transaction.atomic
def record_result(
    session: Session,
    breakdowns: Sequence[SeatBreakdown | Mapping],
    *,
    survivors: Iterable[int | str] = (),
    actor=None,
    reason: str = "",
    confirmed: bool = False,
    dice: Dice | None = None,
    from_game: FromGame | None = None,
) -> RecordedResult:
    """Add a result version for ``session`` scored from ``breakdowns``.

    ``survivors`` are the player ids whose squad had a marine alive at the end (they decide
    TPK sessions). Ties in the session ranking are settled by a roll-off with ``dice`` (the
    judge's physical dice) or, when not given, app-rolled seeded dice; every roll is stored.
    ``from_game``: the board game (and its step) the values were filled from, kept with the
    version. The seats it ranks played: any the judge had not checked in (nor declared
    forfeited) are checked in with it.
    """
    # The session's row stays locked until commit, as a board step locks it: a step on
    # one of its games lands wholly before the result, or is refused after it.
    session = (
        Session.objects.select_for_update(of=("self",))
        .select_related("stage__tournament")
        .get(pk=session.pk)
    )
    _check_open(session)
    if from_game is not None:
        check_game(session, from_game)
    parsed = parse_breakdowns(session, breakdowns)
    survivor_ids = {str(player) for player in survivors}
    unknown = survivor_ids - set(seat_names(session))
    if unknown:
        raise ResultError(
            _("Survivors %(unknown)s are not seated in this session.")
            % {"unknown": ", ".join(sorted(unknown))}
        )
    check_plausible(session, parsed, survivor_ids)
    try:
        values = scoring_values(session.stage.tournament)
    except ScoringError as error:
        raise ResultError(str(error)) from None
    cards = score_session(parsed, values, seat_names(session))
    dice = dice if dice is not None else SeededDice()
    start = len(dice.log)
    ranking = _rank(session, cards, survivor_ids, dice)
    result = _locked_result(session)
    previous = result.versions.exists()
    version = ResultVersion.objects.create(
        result=result,
        tournament_id=session.stage.tournament_id,
        number=_next_number(result),
        breakdown=[breakdown.to_dict() for breakdown in parsed],
        totals={seat: card.total for seat, card in cards.items()},
        totals_key=totals_key(values),
        survivors=sorted(int(player) for player in survivor_ids),
        ranking=[int(seat.seat) for seat in ranking.order],
        confirmed=confirmed,
        reason=reason,
        created_by=actor if actor is not None and actor.is_authenticated else None,
        game_number=from_game.number if from_game is not None else None,
        game_step=from_game.step if from_game is not None else None,
    )
    if len(dice.log) > start:
        record_dice(dice, tournament=session.stage.tournament, session=session, start=start)
    verb = ActivityVerb.CORRECTED_RESULT if previous else ActivityVerb.RECORDED_RESULT
    log_activity(
        session.stage.tournament,
        verb,
        describe("session", session=session),
        actor=actor,
        session=session.pk,
        version=version.number,
        confirmed=confirmed,
        reason=reason,
    )
    check_in_ranked(session, actor=actor)
    _after_save(session, version)
    return RecordedResult(version, cards, ranking)


def correct_result(
    session: Session,
    breakdowns: Sequence[SeatBreakdown | Mapping],
    *,
    reason: str,
    survivors: Iterable[int | str] = (),
    actor=None,
    confirmed: bool = True,
    dice: Dice | None = None,
    from_game: FromGame | None = None,
) -> RecordedResult:
    """A correction: a new version that must say why; confirmed unless told otherwise."""
    if not reason or not reason.strip():
        raise ResultError(_("Say why the result is corrected (the reason is kept on record)."))
    if not Result.objects.filter(session=session).exists():
        raise ResultError(
            _("Session %(session)s has no result to correct; record one first.")
            % {"session": session}
        )
    return record_result(
        session,
        breakdowns,
        survivors=survivors,
        actor=actor,
        reason=reason.strip(),
        confirmed=confirmed,
        dice=dice,
        from_game=from_game,
    )


@transaction.atomic
def confirm_result(session: Session, *, actor=None, reason: str = "") -> ResultVersion:
    """Confirm the latest version by adding a confirmed copy of it (nothing is overwritten)."""
    session = Session.objects.select_related("stage__tournament").get(pk=session.pk)
    _check_open(session)
    if not Result.objects.filter(session=session).exists():
        raise ResultError(_("Session %(session)s has no result to confirm.") % {"session": session})
    result = _locked_result(session)
    latest = result.versions.order_by("-number").first()
    if latest is None:  # a result row is only ever written with its first version
        raise ResultError(_("Session %(session)s has no result to confirm.") % {"session": session})
    if latest.confirmed:
        raise ResultError(
            _("Version %(number)d of %(session)s is already confirmed.")
            % {"number": latest.number, "session": session}
        )
    version = ResultVersion.objects.create(
        result=result,
        tournament_id=session.stage.tournament_id,
        number=latest.number + 1,
        breakdown=latest.breakdown,
        **scored_totals(session.stage.tournament, latest.breakdown),
        survivors=latest.survivors,
        ranking=latest.ranking,
        confirmed=True,
        reason=reason,
        reason_code="" if reason else CONFIRMED_PREVIOUS,
        created_by=actor if actor is not None and actor.is_authenticated else None,
        game_number=latest.game_number,  # a copy comes from the same board game
        game_step=latest.game_step,
    )
    log_activity(
        session.stage.tournament,
        ActivityVerb.CONFIRMED_RESULT,
        describe("session", session=session),
        actor=actor,
        session=session.pk,
        version=version.number,
    )
    _after_save(session, version)
    return version


def enter_result(
    session: Session,
    breakdowns: Sequence[SeatBreakdown | Mapping],
    *,
    survivors: Iterable[int | str],
    expected_version: int,
    actor,
    dice: Dice | None = None,
    correction: bool = False,
    reason: str = "",
    from_game: FromGame | None = None,
) -> RecordedResult:
    """A result typed in on the judge's page (confirmed at once), or a correction with its
    reason: the organiser's (``correction``), or the judge's new version of a result
    already confirmed (decision 50: the record says why a confirmed result changed, whoever
    changes it). Refused with StaleSessionError, nothing stored, when the session changed
    since the page was loaded at ``expected_version``. ``from_game``: the board game the
    form was filled from."""
    with transaction.atomic():
        update_if_current(session, expected_version)
        if correction or has_confirmed_result(session):
            return correct_result(
                session,
                breakdowns,
                reason=reason,
                survivors=survivors,
                actor=actor,
                dice=dice,
                from_game=from_game,
            )
        return record_result(
            session,
            breakdowns,
            survivors=survivors,
            actor=actor,
            confirmed=True,
            dice=dice,
            from_game=from_game,
        )
