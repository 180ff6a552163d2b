"""``manage.py import_roster SLUG FILE.csv``: register a CSV list of players."""

from django.core.management.base import BaseCommand
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments.actions.registration import RegistrationClosed, register_roster
from tournaments.domain.file_limits import MAX_ROSTER_BYTES, megabytes, read_at_most
from tournaments.domain.read_failures import read_failure
from tournaments.interchange.commands import fail, report_problems, tournament_by_slug
from tournaments.interchange.roster import already_registered_note, parse_roster_for


class Command(BaseCommand):
    help = _(
        "Register the players listed in a CSV file (columns: name, nickname, email, "
        "preference_1...; see docs/interchange.md). Nothing is saved if any row is wrong; "
        "a row repeating a registered player exactly is left out."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("slug", help=_("the tournament's slug"))
        parser.add_argument("file", help=_("the CSV file"))

    def handle(self, *args, slug: str, file: str, **options) -> None:
        tournament = tournament_by_slug(slug)
        try:
            data = read_at_most(file, MAX_ROSTER_BYTES)
        except FileNotFoundError:
            raise fail(_("file %(path)s does not exist; check the path") % {"path": file}) from None
        except OSError as error:
            raise fail(
                _("cannot read %(path)s (%(error)s)") % {"path": file, "error": read_failure(error)}
            ) from None
        if data is None:
            raise fail(
                _(
                    "file %(path)s is larger than %(limit)s, and a roster is much smaller; "
                    "check that it is the roster's CSV file"
                )
                % {"path": file, "limit": megabytes(MAX_ROSTER_BYTES)}
            )
        result = parse_roster_for(tournament, data)
        if not result.ok:
            count = report_problems(self.stderr, result.errors)
            raise fail(
                ngettext(
                    "%(count)d problem found in %(file)s; no player was registered.",
                    "%(count)d problems found in %(file)s; no player was registered.",
                    count,
                )
                % {"count": count, "file": file}
            )
        try:
            players = register_roster(tournament, result.rows)
        except RegistrationClosed as error:
            raise fail(str(error)) from None
        registered = ngettext(
            'Registered %(count)d player in "%(slug)s".',
            'Registered %(count)d players in "%(slug)s".',
            len(players),
        ) % {"count": len(players), "slug": slug}
        self.stdout.write(" ".join(filter(None, [registered, already_registered_note(result)])))
