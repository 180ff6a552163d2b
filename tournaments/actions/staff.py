"""The accounts that run a tournament: its judges and its organisers, added (an existing
account, or a new one with the password the organiser gives, or without one until its
owner sets it through a password link) and removed.

An organiser may act as judge of every session, so an account that plays in the tournament
(linked to one of its players) cannot organise it; a tournament keeps at least one organiser,
so someone can always reach its pages without the site's administrator.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.db import transaction
from django.db.models import F
from django.utils.translation import gettext as _

from tournaments.actions.activity_log import describe, log_activity
from tournaments.models import ActivityVerb, Registration, Session, SessionStatus, Tournament
from tournaments.queries.roles import CREATE_TOURNAMENTS


class StaffError(ValueError):
    """The change cannot be made; the message says why and what to do."""


def _account(username: str, password: str):
    """The account ``username``, created with ``password`` when there is none, or with no
    usable password when none is given (the organiser then hands over a link to set one)."""
    users = get_user_model().objects
    user = users.filter(username=username).first()
    if user is not None:
        return user
    # None, not "": an empty string would be hashed into a password anyone could type.
    return users.create_user(username=username, password=password or None)


def _log(tournament: Tournament, code: str, user, actor) -> None:
    """The activity entry of a change of the tournament's judges or organisers."""
    log_activity(
        tournament, ActivityVerb.UPDATED, describe(code, name=user.get_username()), actor=actor
    )


def add_judge(tournament: Tournament, username: str, password: str = "", *, actor):
    """Make the account ``username`` a judge of ``tournament``, creating the account with
    ``password`` (none usable when empty) when there is none; returns the account. Raises
    :class:`StaffError` for one that judges it already."""
    with transaction.atomic():
        user = _account(username, password)
        if tournament.judges.filter(pk=user.pk).exists():
            raise StaffError(
                _("%(name)s already judges this tournament.") % {"name": user.get_username()}
            )
        tournament.judges.add(user)
        _log(tournament, "judge_added", user, actor)
    return user


def remove_judge(tournament: Tournament, user, *, actor) -> None:
    """``user`` judges ``tournament`` no more; sessions they were scheduled for keep no
    judge, so the stage checklist shows them, and those not started are no longer
    scheduled (they await a judge)."""
    with transaction.atomic():
        if not tournament.judges.filter(pk=user.pk).exists():
            raise StaffError(
                _("%(name)s is not a judge of this tournament.") % {"name": user.get_username()}
            )
        tournament.judges.remove(user)
        judged = Session.objects.filter(stage__tournament=tournament, judge=user)
        judged.filter(status=SessionStatus.SCHEDULED).update(status=SessionStatus.PLANNED)
        judged.exclude(status=SessionStatus.COMPLETED).update(judge=None, version=F("version") + 1)
        _log(tournament, "judge_removed", user, actor)


def add_organiser(tournament: Tournament, username: str, password: str = "", *, actor):
    """Make the account ``username`` an organiser of ``tournament`` too, creating the
    account with ``password`` (none usable when empty) when there is none; returns the
    account. Raises
    :class:`StaffError` for an account that plays in the tournament."""
    with transaction.atomic():
        Tournament.objects.select_for_update().get(pk=tournament.pk)
        user = _account(username, password)
        if tournament.organisers.filter(pk=user.pk).exists():
            raise StaffError(
                _("%(name)s already organises this tournament.") % {"name": user.get_username()}
            )
        playing = (
            Registration.objects.filter(tournament=tournament, player__user=user)
            .select_related("player")
            .first()
        )
        if playing is not None:
            raise StaffError(
                _(
                    "%(name)s is the account of %(player)s, a player of this tournament: an "
                    "organiser may judge every session, so cannot play in it. Unlink the "
                    "account on the Players page first."
                )
                % {"name": user.get_username(), "player": playing.player.display_name}
            )
        tournament.organisers.add(user)
        _log(tournament, "organiser_added", user, actor)
    return user


def remove_organiser(tournament: Tournament, user, *, actor) -> None:
    """``user`` organises ``tournament`` no more (themselves included); refused for its
    last organiser."""
    with transaction.atomic():
        Tournament.objects.select_for_update().get(pk=tournament.pk)
        organisers = set(tournament.organisers.values_list("pk", flat=True))
        if user.pk not in organisers:
            raise StaffError(
                _("%(name)s is not an organiser of this tournament.")
                % {"name": user.get_username()}
            )
        if organisers == {user.pk}:
            raise StaffError(
                _(
                    "%(name)s is the tournament's only organiser: add another organiser "
                    "first, so someone can still run it."
                )
                % {"name": user.get_username()}
            )
        tournament.organisers.remove(user)
        _log(tournament, "organiser_removed", user, actor)


def allow_creating_tournaments(username: str, *, allowed: bool = True):
    """Let the account ``username`` create and import tournaments, or no longer (decision
    60: Django's permission on the model, which a superuser has anyway); the account. No
    tournament's activity log records it: the site's administrator decides it, for no one
    tournament."""
    user = get_user_model().objects.filter(username=username).first()
    if user is None:
        raise StaffError(
            _(
                "There is no account named “%(name)s”: check the spelling, or create the "
                "account first (python manage.py createsuperuser for the site's "
                "administrator, or the Django admin's Users page)."
            )
            % {"name": username}
        )
    app_label, codename = CREATE_TOURNAMENTS
    permission = Permission.objects.get(content_type__app_label=app_label, codename=codename)
    with transaction.atomic():
        if allowed:
            user.user_permissions.add(permission)
        else:
            user.user_permissions.remove(permission)
    return user
