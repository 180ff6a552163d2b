"""``manage.py import_tournament FILE [--slug SLUG]``: a tournament document into the database."""

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand
from django.core.validators import validate_slug
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments.interchange.commands import fail, report_problems
from tournaments.interchange.importer import import_document, read_document
from tournaments.interchange.problems import InterchangeError


class Command(BaseCommand):
    help = _(
        "Create a tournament from a JSON document written by export_tournament. The whole "
        "document is checked first; if anything is wrong, every problem is listed and "
        "nothing is saved."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("file", help=_("the JSON document to import"))
        parser.add_argument(
            "--slug", default=None, help=_("import under this slug instead of the document's")
        )

    def handle(self, *args, file: str, slug: str | None, **options) -> None:
        if slug is not None:
            try:
                validate_slug(slug)
            except ValidationError:
                raise fail(
                    _('"%(slug)s" is not a valid slug; use letters, digits, - and _')
                    % {"slug": slug}
                ) from None
        try:
            outcome = import_document(read_document(file), slug=slug)
        except InterchangeError as error:
            count = report_problems(self.stderr, error.problems)
            raise fail(
                ngettext(
                    "%(count)d problem found in %(file)s; nothing was imported.",
                    "%(count)d problems found in %(file)s; nothing was imported.",
                    count,
                )
                % {"count": count, "file": file}
            ) from None
        tournament = outcome.tournament
        players = tournament.registrations.count()
        stages = tournament.stages.count()
        self.stdout.write(
            _('Imported tournament "%(slug)s" (%(players)s, %(stages)s).')
            % {
                "slug": tournament.slug,
                "players": ngettext("%(count)d player", "%(count)d players", players)
                % {"count": players},
                "stages": ngettext("%(count)d stage", "%(count)d stages", stages)
                % {"count": stages},
            }
        )
        if outcome.created_users:
            self.stdout.write(
                _(
                    "Created user accounts without a usable password: %(users)s. Set one with "
                    "'manage.py changepassword USERNAME' or the password-reset page."
                )
                % {"users": ", ".join(outcome.created_users)}
            )
