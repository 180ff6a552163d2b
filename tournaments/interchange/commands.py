"""What the interchange management commands share: finding the tournament, failing clearly.

Every failure ends the command with exit status 2 and a message saying what to fix.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.core.management.base import CommandError, OutputWrapper
from django.utils.translation import gettext as _

from tournaments.models import Tournament

#: Exit status of every interchange command when the input is unusable.
BAD_INPUT = 2


def fail(message: str) -> CommandError:
    return CommandError(message, returncode=BAD_INPUT)


def tournament_by_slug(slug: str) -> Tournament:
    tournament = Tournament.objects.filter(slug=slug).first()
    if tournament is None:
        known = list(Tournament.objects.order_by("slug").values_list("slug", flat=True)[:20])
        raise fail(
            _('no tournament has the slug "%(slug)s"; known slugs: %(known)s')
            % {"slug": slug, "known": ", ".join(known) or _("none yet")}
        )
    return tournament


def report_problems(stderr: OutputWrapper, problems: Iterable[object]) -> int:
    """Write one problem per line; returns how many there were."""
    count = 0
    for problem in problems:
        stderr.write(str(problem))
        count += 1
    return count
