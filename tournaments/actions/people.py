"""Managing the players over the event: editing a player, withdrawing or dropping one (with
the effect of decision 32 in ``docs/decisions.md``); the judges and organisers are
:mod:`tournaments.actions.staff`'s.

Nothing is deleted: a withdrawn registration keeps its row with the time and the reason, a
seat the player leaves either passes to a reserve (logged with both names) or stays on record
marked as a forfeit, so the session plays short or the player is ranked last.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.actions.activity_log import describe, log_activity
from tournaments.actions.optimistic_lock import check_unchanged
from tournaments.actions.seat_events import announce_forfeit
from tournaments.actions.task_queue import schedule_rebuild
from tournaments.models import (
    ActivityVerb,
    Forfeit,
    Player,
    Registration,
    ScoreBonus,
    Seat,
    SessionStatus,
    SquadRank,
    StageStatus,
    Tournament,
)
from tournaments.queries.edit_versions import player_version
from tournaments.queries.player_profile import display_name_taken, session_started


class PeopleError(ValueError):
    """The change cannot be made; the message says why and what to do."""


def edit_player(
    tournament: Tournament,
    player: Player,
    *,
    name: str,
    nickname: str,
    email: str,
    actor,
    expected_version: str | None = None,
) -> Player:
    """Change a registered player's name, nickname and e-mail; the display name stays
    unique in the tournament (decision 36). Raises StaleEditError when the details changed
    since their form was loaded at ``expected_version``
    (:func:`~tournaments.queries.edit_versions.player_version`)."""
    with transaction.atomic():
        Tournament.objects.select_for_update().filter(pk=tournament.pk).values_list("pk").get()
        player = Player.objects.select_for_update().get(pk=player.pk)
        check_unchanged(expected_version, player_version(player))
        shown = (nickname or name).strip()
        if display_name_taken(tournament, shown, exclude_player=player.pk):
            raise PeopleError(
                _("%(name)s is already the name of another player of this tournament.")
                % {"name": shown}
            )
        player.name, player.nickname, player.email = name.strip(), nickname.strip(), email.strip()
        player.save(update_fields=["name", "nickname", "email"])
        log_activity(
            tournament,
            ActivityVerb.UPDATED,
            describe("player_edited", player=player.display_name),
            actor=actor,
            player=player.pk,
        )
    return player


def renew_private_link(tournament: Tournament, player: Player, *, actor) -> Player:
    """Give ``player`` a new private link, when the old one leaked: the old link is refused
    from now on, and so is every browser that opened it
    (:func:`tournaments.web.permissions.current_player` compares the link it was given
    with the player's); an account linked to the player still logs in."""
    with transaction.atomic():
        player = Player.objects.select_for_update().get(pk=player.pk)
        player.regenerate_access_token()
        log_activity(
            tournament,
            ActivityVerb.UPDATED,
            describe("private_link_renewed", player=player.display_name),
            actor=actor,
            player=player.pk,
        )
    return player


@dataclass(frozen=True)
class Withdrawal:
    """What a withdrawal did to each of the player's seats still to be played."""

    registration: Registration
    replaced: tuple[Seat, ...] = ()
    forfeited: tuple[Seat, ...] = ()


def _open_seats(registration: Registration) -> list[Seat]:
    """The player's seats in open stages whose session has no result yet."""
    return list(
        Seat.objects.filter(
            player_id=registration.player_id,
            session__stage__tournament_id=registration.tournament_id,
            session__stage__status=StageStatus.OPEN,
            session__result__isnull=True,
        )
        .exclude(session__status=SessionStatus.COMPLETED)
        .select_related("session__stage__tournament", "player")
        .order_by("session__stage__number", "session__number")
    )


def _check_reserve(tournament: Tournament, reserve: Player, seat: Seat) -> None:
    registration = Registration.objects.filter(tournament=tournament, player=reserve).first()
    if registration is None or registration.withdrawn:
        raise PeopleError(
            _("%(name)s is not an active player of this tournament; choose another reserve.")
            % {"name": reserve.display_name}
        )
    if Seat.objects.filter(session__stage=seat.session.stage, player=reserve).exists():
        raise PeopleError(
            _("%(name)s already plays in this stage; a reserve must be free.")
            % {"name": reserve.display_name}
        )


def withdraw_player(
    tournament: Tournament,
    player: Player,
    *,
    reason: str,
    actor,
    reserve: Player | None = None,
) -> Withdrawal:
    """Withdraw (or drop) ``player`` from ``tournament`` for ``reason``.

    Each seat still to be played goes to ``reserve`` when its session has not started and a
    reserve is named (only one seat may be handed over); otherwise it becomes a forfeit
    (the session plays short, or, once started, the player is ranked last)."""
    reason = reason.strip()
    if not reason:
        raise PeopleError(_("Say why the player leaves (the reason is kept on record)."))
    with transaction.atomic():
        Tournament.objects.select_for_update().filter(pk=tournament.pk).values_list("pk").get()
        registration = (
            Registration.objects.select_for_update()
            .select_related("player")
            .filter(tournament=tournament, player=player)
            .first()
        )
        if registration is None:
            raise PeopleError(_("This player is not registered in this tournament."))
        if registration.withdrawn:
            raise PeopleError(_("%(name)s has already withdrawn.") % {"name": player.display_name})
        registration.withdrawn_at = timezone.now()
        registration.withdrawal_reason = reason
        registration.save(update_fields=["withdrawn_at", "withdrawal_reason"])
        seats = _open_seats(registration)
        replaced: list[Seat] = []
        forfeited: list[Seat] = []
        for seat in seats:
            started = session_started(seat.session)
            if reserve is not None and not replaced and not started:
                _check_reserve(tournament, reserve, seat)
                _hand_over(seat, reserve, actor=actor)
                replaced.append(seat)
            else:
                seat.forfeit = Forfeit.WITHDRAWN if started else Forfeit.WITHDRAWN_UNPLAYED
                seat.save(update_fields=["forfeit"])
                announce_forfeit(seat, actor=actor)
                forfeited.append(seat)
        if reserve is not None and not replaced:
            raise PeopleError(
                _(
                    "%(name)s has no seat in a session that has not started: there is "
                    "nothing for a reserve to take. Withdraw without a reserve."
                )
                % {"name": player.display_name}
            )
        log_activity(
            tournament,
            ActivityVerb.WITHDREW,
            describe("player_withdrawn", player=player.display_name),
            actor=actor,
            player=player.pk,
            reason=reason,
            replaced_in=[seat.session_id for seat in replaced],
            forfeited_in=[seat.session_id for seat in forfeited],
        )
    schedule_rebuild(tournament.pk)
    return Withdrawal(registration, tuple(replaced), tuple(forfeited))


def _hand_over_bonuses(seat: Seat, leaving: Player, reserve: Player) -> None:
    """The seat's extra equipment cards are its player's (RULES §9): those of the reserve's
    own previous session, not of the player who left."""
    ScoreBonus.objects.filter(player=leaving, used_in=seat.session).update(used_in=None)
    previous = (
        Seat.objects.filter(
            player=reserve,
            session__stage__tournament=seat.session.stage.tournament_id,
            session__stage__number__lt=seat.session.stage.number,
        )
        .order_by("-session__stage__number")
        .values_list("session_id", flat=True)
        .first()
    )
    if previous is not None:
        ScoreBonus.objects.filter(
            player=reserve, earned_in_id=previous, used_in__isnull=True
        ).update(used_in=seat.session)


def _hand_over(seat: Seat, reserve: Player, *, actor) -> None:
    """The reserve takes the seat with its squad; their own rank goes with them (§4)."""
    leaving = seat.player
    tournament = seat.session.stage.tournament
    seat.player = reserve
    seat.checked_in_at = None
    seat.save(update_fields=["player", "checked_in_at"])
    if seat.squad_id is not None:
        SquadRank.objects.update_or_create(
            tournament=tournament, player=reserve, defaults={"squad_id": seat.squad_id}
        )
    _hand_over_bonuses(seat, leaving, reserve)
    log_activity(
        tournament,
        ActivityVerb.REPLACED,
        describe(
            "reserve_seated",
            reserve=reserve.display_name,
            player=leaving.display_name,
            session=seat.session,
        ),
        actor=actor,
        session=seat.session_id,
        player=leaving.pk,
        reserve=reserve.pk,
    )
