"""``allow_organising USERNAME``: the account may create and import tournaments, becoming
their organiser (decision 60); ``--revoke`` takes that back. A superuser may always; an
account that organises a tournament may create others."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandParser
from django.utils.translation import gettext as _

from tournaments.actions.staff import StaffError, allow_creating_tournaments
from tournaments.interchange.commands import fail
from tournaments.queries.roles import may_create_tournaments


class Command(BaseCommand):
    help = _("Allow an account to create tournaments (or, with --revoke, no longer).")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("username", help=_("The account's username."))
        parser.add_argument(
            "--revoke",
            action="store_true",
            help=_("Take the permission back (a tournament the account organises stays its)."),
        )

    def handle(self, *args, username: str, revoke: bool = False, **options) -> None:
        try:
            user = allow_creating_tournaments(username, allowed=not revoke)
        except StaffError as error:
            raise fail(str(error)) from None
        name = user.get_username()
        if not revoke:
            self.stdout.write(_("%(name)s may now create tournaments.") % {"name": name})
        elif may_create_tournaments(type(user).objects.get(pk=user.pk)):
            self.stdout.write(
                _(
                    "%(name)s no longer has the permission, but still may create tournaments: "
                    "the account is a superuser or organises a tournament."
                )
                % {"name": name}
            )
        else:
            self.stdout.write(_("%(name)s may no longer create tournaments.") % {"name": name})
