"""``verify_dice SLUG``: roll again, from its seed, every app-rolled stream of dice that
decided the tournament's bracket (the public Dice page lists them) and compare; with
``--all``, every app-rolled stream of the tournament (the sessions' own draws, initiative
and board games too, each on its session's page).

Prints one line per seed: its hash, whether the seed gives that hash, and whether every
replayed die equals the recorded one. Exits with status 1 when any differs and 2 when the
tournament does not exist.
"""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments.interchange.commands import tournament_by_slug
from tournaments.queries.dice_page import dice_streams


class Command(BaseCommand):
    help = _("Replay the app's dice that decided a tournament's bracket and compare them.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug", help=_("The tournament's slug."))
        parser.add_argument(
            "--all",
            action="store_true",
            dest="every",
            help=_(
                "Replay every app-rolled stream of the tournament, the sessions' own dice "
                "too, not only those that decided the bracket."
            ),
        )

    def handle(self, *args, slug: str, every: bool = False, **options) -> None:
        tournament = tournament_by_slug(slug)
        failed = 0
        streams = [s for s in dice_streams(tournament, deciding=not every) if s.seeded]
        for stream in streams:
            check = stream.replay()
            failed += not check.holds
            count = len(stream.rolls)
            rolls = ngettext("%(count)d roll", "%(count)d rolls", count) % {"count": count}
            if check.holds:
                verdict = _("the seed gives the hash and every die equals its replay")
            elif not check.commitment_holds:
                verdict = _("the seed does not give the published hash")
            else:
                verdict = _("some dice differ from their replay")
            self.stdout.write(f"{stream.commitment} ({rolls}): {verdict}")
        if not streams and every:
            self.stdout.write(_("This tournament has no app-rolled dice yet."))
        elif not streams:
            self.stdout.write(_("No app-rolled dice decided this tournament's bracket yet."))
        if failed:
            raise CommandError(
                ngettext(
                    "%(count)d seed does not replay to its records.",
                    "%(count)d seeds do not replay to their records.",
                    failed,
                )
                % {"count": failed},
                returncode=1,
            )
