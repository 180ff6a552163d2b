"""The organiser's page of the activity log: a tournament's entries, newest first, narrowed
to one action, one stage or session, or one account, a page at a time, so that an entry of
any age can be found in the app (the page once listed the latest 500 and nothing older)."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Q, QuerySet

from tournaments.models import ActivityLog, Session, Stage, Tournament

#: Entries a page: a phone's screenful is some ten, an organiser looking for one entry of
#: a busy day scrolls rather than pages.
ACTIVITY_PAGE_SIZE = 100


def activity_entries(
    tournament: Tournament,
    *,
    action: str = "",
    stage: Stage | None = None,
    session: Session | None = None,
    actor: int | None = None,
) -> QuerySet[ActivityLog]:
    """The tournament's entries, newest first, of ``action`` (a verb), about ``stage`` (the
    entries naming it or one of its sessions) or about ``session``, and made by the account
    ``actor`` (an id), each where given."""
    entries = ActivityLog.objects.filter(tournament=tournament).select_related("actor")
    if action:
        entries = entries.filter(verb=action)
    if session is not None:
        entries = entries.filter(details__session=session.pk)
    elif stage is not None:
        sessions = list(Session.objects.filter(stage=stage).values_list("pk", flat=True))
        entries = entries.filter(Q(details__stage=stage.number) | Q(details__session__in=sessions))
    if actor is not None:
        entries = entries.filter(actor_id=actor)
    return entries.order_by("-created_at", "-pk")


def logged_accounts(tournament: Tournament) -> list[AbstractBaseUser]:
    """The accounts that made one of the tournament's entries, by user name."""
    made = ActivityLog.objects.filter(tournament=tournament, actor__isnull=False)
    users = get_user_model().objects.filter(pk__in=made.values("actor_id"))
    return list(users.order_by(get_user_model().USERNAME_FIELD))
