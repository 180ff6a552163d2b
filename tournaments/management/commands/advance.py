"""``advance SLUG``: start the tournament, or close its current stage and seat the next one.

Prints a JSON report of what was done (qualifiers, honours, seating, squads, rank transfers,
podium and every die rolled). Exits with status 2 and a message saying what to fix when the
input is bad or the stage is not ready (the sessions still missing a confirmed result are
listed).
"""

from __future__ import annotations

import json

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils.translation import gettext as _

from rules.engine.dice import DiceError
from tournaments.actions.stage_advance import MissingResultsError, StageError, advance
from tournaments.domain.progression import ProgressionError
from tournaments.domain.typed_dice import make_dice
from tournaments.interchange.commands import tournament_by_slug
from tournaments.models import SeatingMethod
from tournaments.queries.dice_subjects import registered_player_names


class Command(BaseCommand):
    help = _("Close the tournament's current stage and seat the next one (or start it).")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug", help=_("The tournament's slug."))
        source = parser.add_mutually_exclusive_group()
        source.add_argument(
            "--dice",
            help=_("Physical dice rolled by the judge, in order, e.g. 3,6,5 (all must be used)."),
        )
        source.add_argument(
            "--seed", type=int, help=_("Seed for app-rolled dice (a new one when omitted).")
        )
        parser.add_argument(
            "--seating",
            choices=SeatingMethod.values,
            help=_("Seating of the next stage; defaults to the stage's or tournament's setting."),
        )
        parser.add_argument("--actor", help=_("Username recorded in the activity log."))

    def handle(self, *args, **options) -> None:
        tournament = tournament_by_slug(options["slug"])
        actor = None
        if options["actor"]:
            actor = get_user_model().objects.filter(username=options["actor"]).first()
            if actor is None:
                raise CommandError(
                    _("No user named %(name)r.") % {"name": options["actor"]}, returncode=2
                )
        if options["seed"] is not None and options["seed"] < 0:
            raise CommandError(_("--seed must be a non-negative whole number."), returncode=2)
        try:
            dice = make_dice(
                options["dice"], options["seed"], subjects=registered_player_names(tournament)
            )
            report = advance(tournament, dice, seating=options["seating"], actor=actor)
        except MissingResultsError as error:
            lines = [str(error)]
            for session in error.sessions:
                players = ", ".join(
                    seat.player.display_name
                    for seat in session.seats.select_related("player").order_by("seat_order")
                )
                lines.append(
                    _("  - session %(number)d (%(players)s)")
                    % {"number": session.number, "players": players}
                )
            raise CommandError("\n".join(lines), returncode=2) from None
        except (StageError, DiceError, ProgressionError, ValueError) as error:
            raise CommandError(str(error), returncode=2) from None
        self.stdout.write(json.dumps(report, indent=2, ensure_ascii=False))
