"""A person's password: set by themselves, or through a one-time link an organiser issues.

An account created by an import has no password, and a judge who forgets theirs at the
venue needs a new one; neither should need the site's administrator. The organiser hands
over a link (a message, a note) instead of a password, so only the account's owner ever
knows it. The link carries Django's password-reset token: it stops working once a password
is set with it, once the account logs in, and after ``PASSWORD_RESET_TIMEOUT``.

A password gives the whole account, so an organiser may issue a link only for an account
whose every role (organiser, judge, the account of a player) is in tournaments they
organise: nothing they could not already do there. A site administrator's account, the
organiser's own and an inactive one get no link.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth.tokens import default_token_generator
from django.urls import reverse
from django.utils import timezone
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from django.utils.translation import gettext as _

from tournaments.actions.activity_log import describe, log_activity
from tournaments.models import ActivityVerb, Tournament
from tournaments.queries.roles import account_tournament_ids


class PasswordLinkError(ValueError):
    """No link for this account; the message says why and what the person can do instead."""


class NoRoleHere(PasswordLinkError):
    """The account has no role in the tournament the link is asked from."""


@dataclass(frozen=True)
class PasswordLink:
    """An issued link: its path on this site and when it stops working."""

    path: str
    expires_at: datetime


def password_link_problem(tournament: Tournament, issuer, user, roles: set[int]) -> str | None:
    """Why ``issuer`` may not issue a password link for ``user`` from ``tournament``, or
    ``None``; ``roles``: the ids of the tournaments where ``user`` has a role (this one
    among them)."""
    name = user.get_username()
    if user.pk == issuer.pk:
        return _("This is your own account: change your password on your account page.")
    if user.is_superuser or user.is_staff:
        return _(
            "%(name)s is a site administrator's account: only its owner changes its password, "
            "on their account page."
        ) % {"name": name}
    if not user.is_active:
        return _(
            "The account %(name)s is deactivated; the site's administrator can reactivate it."
        ) % {"name": name}
    if issuer.is_superuser:
        return None
    beyond = (
        Tournament.objects.filter(pk__in=roles).exclude(organisers=issuer).order_by("name").first()
    )
    if beyond is not None:
        return _(
            "%(name)s also has a role in the tournament %(tournament)s, which you do not "
            "organise: they can change their password on their account page, or an organiser "
            "of every tournament they are in, or the site's administrator, can give them a link."
        ) % {"name": name, "tournament": beyond.name}
    return None


def issue_password_link(tournament: Tournament, user, *, actor) -> PasswordLink:
    """A new link for ``user`` to set their password, written to the activity log (the link
    itself is not: it is a password until used). Raises :class:`PasswordLinkError`, and
    :class:`NoRoleHere` for an account with no role in ``tournament``."""
    roles = account_tournament_ids(user)
    if tournament.pk not in roles:
        raise NoRoleHere(user.get_username())
    problem = password_link_problem(tournament, actor, user, roles)
    if problem:
        raise PasswordLinkError(problem)
    account = urlsafe_base64_encode(force_bytes(user.pk))
    path = reverse(
        "tournaments:password_set", args=[account, default_token_generator.make_token(user)]
    )
    log_activity(
        tournament,
        ActivityVerb.UPDATED,
        describe("password_link", name=user.get_username()),
        actor=actor,
        user=user.pk,
    )
    expires_at = timezone.now() + timedelta(seconds=settings.PASSWORD_RESET_TIMEOUT)
    return PasswordLink(path, expires_at)


def set_password(user, password: str) -> None:
    """Give ``user`` the ``password`` (checked by the form that asked for it), which also ends
    every link issued for them (their tokens hash the old password)."""
    user.set_password(password)
    user.save(update_fields=["password"])
