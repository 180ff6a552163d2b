"""The organiser's page of the activity log: a tournament's entries, newest first, narrowed
to one action, one session or one account, a page at a time, so that an entry of any age
can be found in the app (the page once listed the latest 500 and nothing older)."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db.models import QuerySet
from django.utils.translation import gettext as _

from tournaments.models import ActivityLog, Session, Tournament

#: Entries a page: a phone's screenful is some ten, an organiser looking for one entry of
#: a busy day scrolls rather than pages.
ACTIVITY_PAGE_SIZE = 100


def activity_entries(
    tournament: Tournament,
    *,
    action: str = "",
    session: int | None = None,
    actor: int | None = None,
) -> QuerySet[ActivityLog]:
    """The tournament's entries, newest first, of ``action`` (a verb), about ``session`` (an
    id: the entries that name it in their details) and made by the account ``actor`` (an
    id), each where given."""
    entries = ActivityLog.objects.filter(tournament=tournament).select_related("actor")
    if action:
        entries = entries.filter(verb=action)
    if session is not None:
        entries = entries.filter(details__session=session)
    if actor is not None:
        entries = entries.filter(actor_id=actor)
    return entries.order_by("-created_at", "-pk")


def logged_accounts(tournament: Tournament) -> list[AbstractBaseUser]:
    """The accounts that made one of the tournament's entries, by user name."""
    made = ActivityLog.objects.filter(tournament=tournament, actor__isnull=False)
    users = get_user_model().objects.filter(pk__in=made.values("actor_id"))
    return list(users.order_by(get_user_model().USERNAME_FIELD))


def session_choices(tournament: Tournament) -> list[tuple[int, str]]:
    """The tournament's sessions in force as a list names them: ``Semifinal (2) – session
    1``, by stage then number."""
    sessions = (
        Session.objects.filter(stage__tournament=tournament)
        .select_related("stage")
        .order_by("stage__number", "number")
    )
    return [
        (
            session.pk,
            _("%(stage)s (%(stage_number)d) – session %(number)d")
            % {
                "stage": session.stage.get_kind_display(),
                "stage_number": session.stage.number,
                "number": session.number,
            },
        )
        for session in sessions
    ]
