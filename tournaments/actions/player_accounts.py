"""Linking an existing user account to a player, so logging in opens the player's pages.

Organisers register players per tournament, so a returning person usually has one player per
tournament; an account may therefore speak for several players, but for at most one per
tournament (log-in opens the player of the most recent tournament, and the player pages
switch between them, see ``permissions.account_players``). An account already linked to
another player of a tournament this player is registered in is refused.
An account that may judge one of the player's games is refused too, following the rules of
:mod:`tournaments.web.permissions`: an organiser (or a superuser) may act as judge of every
session of the tournament, so they cannot also play in it; a judge judges only the sessions
assigned to them, so a judge is refused only while assigned to a session where the player
is seated.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils.translation import gettext as _

from tournaments.actions.activity_log import describe, log_activity
from tournaments.models import ActivityVerb, Player, Registration, Session, Tournament
from tournaments.queries.roles import is_organiser


class AccountLinkError(ValueError):
    """The account cannot be linked; the message says why and what to do."""


def find_account(identifier: str):
    """The user whose user name (exactly, any case) or email is ``identifier``.

    Raises :class:`AccountLinkError` when there is none, or when an email is shared by
    several accounts and so does not say which one is meant.
    """
    identifier = identifier.strip()
    users = get_user_model().objects
    user = users.filter(username__iexact=identifier).first()
    if user is not None:
        return user
    by_email = list(users.filter(email__iexact=identifier)[:2]) if "@" in identifier else []
    if len(by_email) == 1:
        return by_email[0]
    if by_email:
        raise AccountLinkError(
            _("Several accounts use the email “%(email)s”; give the user name instead.")
            % {"email": identifier}
        )
    raise AccountLinkError(
        _(
            "There is no account with the user name or email “%(value)s”. Check the spelling; "
            "a player without an account can create one from their private link."
        )
        % {"value": identifier}
    )


def link_problem(tournament: Tournament, player: Player, user) -> str | None:
    """Why ``user`` cannot be linked to ``player`` of ``tournament``, or ``None``."""
    if player.user_id == user.pk:
        return _("%(user)s is already linked to this player.") % {"user": user}
    if player.user_id is not None:
        return _("This player is already linked to the account %(other)s; unlink it first.") % {
            "other": player.user
        }
    shared = Registration.objects.filter(
        player__user=user,
        tournament__registrations__player=player,
    ).exclude(player=player)
    here = shared.filter(tournament=tournament).select_related("player").first()
    if here is not None:
        return _(
            "%(user)s is already linked to %(other)s, another player of this tournament. "
            "Unlink it there first."
        ) % {"user": user, "other": here.player}
    elsewhere = shared.select_related("player", "tournament").order_by("tournament__name").first()
    if elsewhere is not None:
        return _(
            "%(user)s is already linked to %(other)s, another player of the tournament "
            "%(tournament)s where this player is registered too; an account speaks for one "
            "player per tournament. Unlink it there first."
        ) % {"user": user, "other": elsewhere.player, "tournament": elsewhere.tournament}
    if user.is_superuser:
        return _(
            "%(user)s is a site administrator and may change any result, including this "
            "player's; use a separate account for playing."
        ) % {"user": user}
    if is_organiser(user, tournament):
        return _(
            "%(user)s organises this tournament, and organisers may act as judge of every "
            "session, including this player's; use a separate account for playing."
        ) % {"user": user}
    judged = (
        Session.objects.filter(stage__tournament=tournament, judge=user, seats__player=player)
        .select_related("stage")
        .order_by("stage__number", "number")
        .first()
    )
    if judged is not None:
        return _(
            "%(user)s is the judge of %(session)s, where this player is seated; give that "
            "session another judge first."
        ) % {"user": user, "session": judged}
    return None


@transaction.atomic
def link_account(tournament: Tournament, player: Player, user, *, actor=None) -> None:
    player = Player.objects.select_for_update().get(pk=player.pk)
    problem = link_problem(tournament, player, user)
    if problem:
        raise AccountLinkError(problem)
    player.user = user
    player.save(update_fields=["user"])
    log_activity(
        tournament,
        ActivityVerb.UPDATED,
        describe("account_linked", user=user, player=player),
        actor=actor,
        player=player.pk,
        user=user.pk,
    )


@transaction.atomic
def unlink_account(tournament: Tournament, player: Player, *, actor=None) -> bool:
    """Remove the player's account link; ``False`` when there was none."""
    player = Player.objects.select_for_update(of=("self",)).select_related("user").get(pk=player.pk)
    user = player.user
    if user is None:
        return False
    player.user = None
    player.save(update_fields=["user"])
    log_activity(
        tournament,
        ActivityVerb.UPDATED,
        describe("account_unlinked", user=user, player=player),
        actor=actor,
        player=player.pk,
        user=user.pk,
    )
    return True


@transaction.atomic
def create_player_account(player: Player, user):
    """Save ``user``, a new account built by the sign-up form (unsaved), and link it to
    ``player``, who has no account yet; returns the account."""
    player = Player.objects.select_for_update().get(pk=player.pk)
    if player.user_id is not None:
        raise AccountLinkError(_("%(player)s already has an account.") % {"player": player})
    user.save()
    player.user = user
    player.save(update_fields=["user"])
    return user
