"""Who may do what: an organiser per tournament, a judge per session, the players an
account speaks for. The pages' decorators (:mod:`tournaments.web.permissions`) and the
actions ask these."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, time
from typing import TYPE_CHECKING, TypedDict

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.db.models import Max, Q, QuerySet
from django.utils import timezone

from tournaments.models import Player, Registration, Session, Tournament

if TYPE_CHECKING:
    from django.contrib.auth.models import User
    from django_stubs_ext import WithAnnotations

    class _LatestSession(TypedDict):
        latest_session: datetime | None

    #: A registration annotated with its tournament's latest scheduled session.
    DatedRegistration = WithAnnotations[Registration, _LatestSession]


def is_organiser(user, tournament: Tournament) -> bool:
    if not user.is_authenticated:
        return False
    if user.is_superuser:
        return True
    return tournament.organisers.filter(pk=user.pk).exists()


def tournament_staff(tournament: Tournament) -> QuerySet:
    """The accounts that may judge the tournament's sessions: its judges and organisers, by
    user name."""
    staff = Q(judged_tournaments=tournament) | Q(organised_tournaments=tournament)
    return get_user_model().objects.filter(staff).distinct().order_by("username")


def staff_label(user: User) -> str:
    """An account of the tournament's staff (a judge, an organiser) as the organiser's pages
    name it: "Anna Bianchi (judge1)", the full name with the user name the organiser added
    the account by and the activity log shows; just the user name when there is no full name.
    """
    username = user.get_username()
    full_name = user.get_full_name()
    return f"{full_name} ({username})" if full_name else username


def labelled_staff(accounts: Iterable[User]) -> list[tuple[User, str]]:
    """``accounts`` (judges, organisers), each with its :func:`staff_label`, for a page."""
    return [(account, staff_label(account)) for account in accounts]


def can_judge(user, session: Session) -> bool:
    """The session's own judge, an organiser of its tournament, or a superuser."""
    if not user.is_authenticated:
        return False
    if user.is_superuser or (session.judge_id is not None and session.judge_id == user.pk):
        return True
    return is_organiser(user, session.stage.tournament)


@dataclass(frozen=True)
class AccountPlayer:
    """One player an account speaks for, with the tournaments that player is registered in."""

    player: Player
    tournaments: tuple[Tournament, ...]


def _tournament_recency(registration: DatedRegistration) -> tuple[int, datetime]:
    """How recent a tournament is: its latest scheduled session, else its start date; a
    tournament with neither counts as older than any dated one (then by creation)."""
    if registration.latest_session is not None:
        return (1, registration.latest_session)
    starts_on = registration.tournament.starts_on
    if starts_on is not None:
        return (1, timezone.make_aware(datetime.combine(starts_on, time.min)))
    return (0, registration.tournament.created_at)


def account_players(user) -> list[AccountPlayer]:
    """The players linked to ``user``, the one of the most recent tournament first.

    An account speaks for at most one player per tournament (see
    :mod:`tournaments.actions.player_accounts`); a returning person usually has one player per
    tournament, so logging in opens the player of the tournament happening now or last."""
    registrations = (
        Registration.objects.filter(player__user=user)
        .select_related("tournament")
        .annotate(latest_session=Max("tournament__stages__sessions__scheduled_at"))
    )
    by_player: dict[int, list[DatedRegistration]] = {}
    for registration in registrations:
        by_player.setdefault(registration.player_id, []).append(registration)
    oldest = (-1, timezone.make_aware(datetime(1970, 1, 1)))

    def recency(player: Player) -> tuple:
        moments = [_tournament_recency(r) for r in by_player.get(player.pk, [])]
        return (max(moments, default=oldest), player.pk)

    players = sorted(Player.objects.filter(user=user), key=recency, reverse=True)
    return [
        AccountPlayer(
            player,
            tuple(
                r.tournament
                for r in sorted(by_player.get(player.pk, []), key=_tournament_recency, reverse=True)
            ),
        )
        for player in players
    ]


@dataclass(frozen=True)
class StaffRoles:
    """What an account does in tournaments."""

    #: :func:`organises_anything`.
    organises: bool
    #: Has sessions to judge or may judge some: the judge of a session or of a tournament,
    #: an organiser (who may judge every session of theirs) or a superuser.
    judges: bool


def staff_roles(user) -> StaffRoles:
    """Whether ``user`` organises and whether they judge, the organisers read once (an
    organiser judges too, so the judges are read only for who does not organise)."""
    if not user.is_authenticated:
        return StaffRoles(organises=False, judges=False)
    organises = organises_anything(user)
    judges = (
        organises
        or Session.objects.filter(judge=user).exists()
        or Tournament.objects.filter(judges=user).exists()
    )
    return StaffRoles(organises=organises, judges=judges)


def organises_anything(user) -> bool:
    """Whether ``user`` organises a tournament (a superuser organises them all)."""
    if not user.is_authenticated:
        return False
    return user.is_superuser or Tournament.objects.filter(organisers=user).exists()


#: The permission that lets an account create or import tournaments (decision 60): Django's
#: own for the model ("Can add tournament"), granted by ``manage.py allow_organising`` or
#: the site's admin, to the account or to a group of it.
CREATE_TOURNAMENTS = ("tournaments", "add_tournament")


def may_create_tournaments(user, *, organises: bool | None = None) -> bool:
    """Whether ``user`` may create or import a tournament and so become its organiser
    (decision 60): an account that organises one already (a superuser organises them all)
    or one the site's administrator allowed. ``organises``: :func:`organises_anything`,
    when the caller knows it."""
    if not user.is_authenticated or not user.is_active:
        return False
    if organises is None:
        organises = organises_anything(user)
    if organises:
        return True
    # One query where user.has_perm reads the account's and its groups' permissions apart.
    app_label, codename = CREATE_TOURNAMENTS
    return Permission.objects.filter(
        Q(user=user) | Q(group__user=user), content_type__app_label=app_label, codename=codename
    ).exists()


def offers_organising(user, *, roles: StaffRoles | None = None) -> bool:
    """Whether the site offers ``user`` the organiser's pages and "Create a tournament":
    to those who organise, and to an account allowed to create a tournament
    (:func:`may_create_tournaments`), whose way in that is. ``roles``: :func:`staff_roles`
    when the caller knows them."""
    if not user.is_authenticated:
        return False
    roles = staff_roles(user) if roles is None else roles
    return may_create_tournaments(user, organises=roles.organises)


def sessions_to_judge(user) -> QuerySet[Session]:
    """The sessions in play assigned to ``user`` to judge whose result is not confirmed
    yet, the soonest first."""
    if not user.is_authenticated:
        return Session.objects.none()
    return (
        Session.objects.filter(judge=user)
        .exclude(result__versions__confirmed=True)
        .select_related("stage__tournament", "table")
        .order_by("scheduled_at", "stage__tournament__name", "stage__number", "number")
    )


def account_tournament_ids(user) -> set[int]:
    """The ids of the tournaments where ``user`` has a role: organiser, judge (of the
    tournament or of one of its sessions) or the account of a registered player."""
    return (
        set(Tournament.objects.filter(organisers=user).values_list("pk", flat=True))
        | set(Tournament.objects.filter(judges=user).values_list("pk", flat=True))
        | set(Session.objects.filter(judge=user).values_list("stage__tournament_id", flat=True))
        | set(
            Registration.objects.filter(player__user=user).values_list("tournament_id", flat=True)
        )
    )
