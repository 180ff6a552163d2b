"""``manage.py export_tournament SLUG [--output FILE]``: a whole tournament as JSON."""

from pathlib import Path

from django.core.management.base import BaseCommand
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments.domain.read_failures import write_failure
from tournaments.interchange.commands import fail, report_problems, tournament_by_slug
from tournaments.interchange.document import dumps
from tournaments.interchange.export import export_tournament
from tournaments.interchange.importer import check_document


class Command(BaseCommand):
    help = _(
        "Write a whole tournament as a versioned JSON document (docs/interchange.md) to "
        "standard output or to a file."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("slug", help=_("the tournament's slug"))
        parser.add_argument(
            "--output", "-o", help=_("file to write (default: standard output)"), default=None
        )

    def handle(self, *args, slug: str, output: str | None, **options) -> None:
        tournament = tournament_by_slug(slug)
        document = export_tournament(tournament)
        problems = check_document(document, check_slug=False)
        if problems:
            self.stderr.write(
                ngettext(
                    "Warning: %(count)d problem in the stored data breaks the document "
                    "format. The document is written all the same (a backup is never "
                    "refused), but an import will refuse it until the problem is corrected "
                    "in the tournament's pages or in the file:",
                    "Warning: %(count)d problems in the stored data break the document "
                    "format. The document is written all the same (a backup is never "
                    "refused), but an import will refuse it until each is corrected in the "
                    "tournament's pages or in the file:",
                    len(problems),
                )
                % {"count": len(problems)}
            )
            report_problems(self.stderr, problems)
        text = dumps(document)
        if output is None:
            self.stdout.write(text, ending="")
            return
        try:
            Path(output).write_text(text, encoding="utf-8")
        except OSError as error:
            raise fail(
                _("cannot write %(path)s (%(error)s); choose a writable file")
                % {"path": output, "error": write_failure(error)}
            ) from None
        self.stderr.write(
            _('Exported tournament "%(slug)s" to %(path)s.') % {"slug": slug, "path": output}
        )
