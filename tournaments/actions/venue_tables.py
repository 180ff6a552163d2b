"""The tournament's list of tables: add one, remove an unused one, or find one by name
(the importer and the demo name tables in their data). A table is stored by its own name,
without the word for table (:func:`~tournaments.models.tables.table_name`)."""

from __future__ import annotations

from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from tournaments.actions.activity_log import describe, log_activity
from tournaments.models import ActivityVerb, Tournament, VenueTable
from tournaments.models.tables import same_table_name, table_name


class TableError(ValueError):
    """The change to the list of tables is refused; the message says why."""


def _next_position(tournament: Tournament) -> int:
    highest = tournament.tables.aggregate(highest=Max("position"))["highest"]
    return 0 if highest is None else highest + 1


def _listed(tournament: Tournament, name: str) -> VenueTable | None:
    """The tournament's table that ``name`` names (:func:`same_table_name`), if any."""
    return next(
        (table for table in tournament.tables.all() if same_table_name(table.name, name)), None
    )


@transaction.atomic
def add_table(tournament: Tournament, typed: str, *, actor=None) -> VenueTable:
    """Add the table ``typed`` names at the end of the list, stored by its own name ("Tavolo
    1" is the table "1"); a table already listed under that name is refused."""
    typed = " ".join(typed.split())
    if not typed:
        raise TableError(_("Give the table a name."))
    name = table_name(typed)
    if not name:
        raise TableError(
            _(
                "“%(typed)s” only says it is a table: give its own number or name, e.g. 5 or "
                "finale (palco). Pages write “Table” before it themselves."
            )
            % {"typed": typed}
        )
    Tournament.objects.select_for_update().get(pk=tournament.pk)
    listed = _listed(tournament, name)
    if listed is not None and typed.casefold() == name.casefold():
        raise TableError(_("There is already a table called %(name)s.") % {"name": name})
    if listed is not None:
        raise TableError(
            _(
                "There is already a table called %(name)s, and “%(typed)s” is the same table: "
                "pages write “Table” before each name themselves. Give another number or name."
            )
            % {"name": listed, "typed": typed}
        )
    table = VenueTable.objects.create(
        tournament=tournament, name=name, position=_next_position(tournament)
    )
    log_activity(tournament, ActivityVerb.UPDATED, describe("table_added", name=name), actor=actor)
    return table


@transaction.atomic
def add_tables(tournament: Tournament, count: int, *, actor=None) -> list[VenueTable]:
    """Add ``count`` tables named by the next free numbers (1, 2, 3… when the list is empty)."""
    names = {table_name(name) for name in tournament.tables.values_list("name", flat=True)}
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
            _("Table %(name)s has sessions; move them to another table first.") % {"name": table}
        )
    table.delete()
    log_activity(
        table.tournament,
        ActivityVerb.UPDATED,
        describe("table_removed", name=str(table)),
        actor=actor,
    )


def table_named(tournament: Tournament, typed: str) -> VenueTable | None:
    """The tournament's table ``typed`` names (:func:`same_table_name`: "Tavolo 1" is the
    table "1"), added to the list by its own name when new; None for no name."""
    typed = " ".join(typed.split())
    if not typed:
        return None
    name = table_name(typed) or typed
    return _listed(tournament, name) or VenueTable.objects.create(
        tournament=tournament, name=name, position=_next_position(tournament)
    )
