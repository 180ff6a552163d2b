"""The tournament's list of tables: add one, remove an unused one, or find one by name
(the importer and the demo name tables in their data)."""

from __future__ import annotations

from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from tournaments.actions.activity_log import describe, log_activity
from tournaments.models import ActivityVerb, Tournament, VenueTable


class TableError(ValueError):
    """The change to the list of tables is refused; the message says why."""


def _next_position(tournament: Tournament) -> int:
    highest = tournament.tables.aggregate(highest=Max("position"))["highest"]
    return 0 if highest is None else highest + 1


@transaction.atomic
def add_table(tournament: Tournament, name: str, *, actor=None) -> VenueTable:
    """Add the table ``name`` at the end of the list; a name already listed is refused."""
    name = name.strip()
    if not name:
        raise TableError(_("Give the table a name."))
    Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.tables.filter(name__iexact=name).exists():
        raise TableError(_("There is already a table called %(name)s.") % {"name": name})
    table = VenueTable.objects.create(
        tournament=tournament, name=name, position=_next_position(tournament)
    )
    log_activity(tournament, ActivityVerb.UPDATED, describe("table_added", name=name), actor=actor)
    return table


@transaction.atomic
def add_tables(tournament: Tournament, count: int, *, actor=None) -> list[VenueTable]:
    """Add ``count`` tables named by the next free numbers (1, 2, 3… when the list is empty)."""
    names = set(tournament.tables.values_list("name", flat=True))
    added: list[VenueTable] = []
    number = 1
    while len(added) < count:
        if str(number) not in names:
            added.append(add_table(tournament, str(number), actor=actor))
        number += 1
    return added


@transaction.atomic
def remove_table(table: VenueTable, *, actor=None) -> None:
    """Remove a table no session sits at."""
    VenueTable.objects.select_for_update().filter(pk=table.pk).first()
    if table.sessions.exists():
        raise TableError(
            _("Table %(name)s has sessions; move them to another table first.")
            % {"name": table.name}
        )
    table.delete()
    log_activity(
        table.tournament,
        ActivityVerb.UPDATED,
        describe("table_removed", name=table.name),
        actor=actor,
    )


def table_named(tournament: Tournament, name: str) -> VenueTable | None:
    """The tournament's table called ``name``, added to the list when new; None for no name."""
    name = name.strip()
    if not name:
        return None
    table = tournament.tables.filter(name=name).first()
    return table or VenueTable.objects.create(
        tournament=tournament, name=name, position=_next_position(tournament)
    )
