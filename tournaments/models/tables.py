"""The tables of a tournament's venue: a managed list, so a session sits at a known table.

A table is named by its own number or name ("1", "finale (palco)"), never by the word for
table, which every page writes before it in the reader's language ("Table 1", "tavolo 1").
An organiser typing "Tavolo 1" or "Table 1" means the table "1": :func:`table_name` leaves
the word out when a table is added and when a name stored before that rule is shown, so a
page never says "Tavolo Tavolo 1", and "Tavolo 1" is the same table as "1"."""

import re

from django.db import models
from django.db.models import BigIntegerField, Case, Q, Value, When
from django.db.models.functions import Cast, Lower
from django.utils.translation import gettext_lazy as _

#: The word for table at the start of a name, Italian or English, whole or short ("Tav."),
#: with what separates it from the table's own name ("Tavolo n. 3", "Table #3", "Tav.3");
#: not the start of a longer word ("Tavolino", "Tabletop").
_TABLE_WORD = re.compile(
    r"""(?:tavolo|table|tav|tbl)(?![^\W\d_])\.?
        [\s:#\-–—]*
        (?:(?:n|nr|no|num)[.°º]\s*)?""",
    re.IGNORECASE | re.VERBOSE,
)


def table_name(typed: str) -> str:
    """The table's own name in ``typed``: spaces trimmed and collapsed, a leading word for
    table left out ("Tavolo 1" -> "1"); empty when nothing else is left ("Tavolo")."""
    name = " ".join(typed.split())
    word = _TABLE_WORD.match(name)
    return name[word.end() :].strip() if word else name


def same_table_name(first: str, second: str) -> bool:
    """Whether two names name one table: the same once the word for table is left out,
    whatever the capitals ("Tavolo 1", "table 1" and "1")."""
    return table_name(first).casefold() == table_name(second).casefold()


#: A table named by a number alone ("1", "10"); at most 9 digits, so it fits any integer.
_NUMBERED = r"^[0-9]{1,9}$"


def natural_table_key(table: "VenueTable") -> tuple[int, int, str, int]:
    """Where ``table`` goes in a list (the order :meth:`VenueTableQuerySet.natural_order`
    gives in the database): numbered tables by their number (1, 2, 10), then the others by
    name ("finale (palco)")."""
    if re.match(_NUMBERED, table.name):
        return (0, int(table.name), "", table.pk or 0)
    return (1, 0, table.name.lower(), table.pk or 0)


class VenueTableQuerySet(models.QuerySet):
    def natural_order(self) -> "VenueTableQuerySet":
        """The tables in natural order (:func:`natural_table_key`): numbered ones by their
        number, whatever order they were added in, then the others by name."""
        numbered = Q(name__regex=_NUMBERED)
        return self.order_by(
            Case(When(numbered, then=Value(0)), default=Value(1)),
            Case(When(numbered, then=Cast("name", BigIntegerField())), default=Value(0)),
            Lower("name"),
            "pk",
        )


class NaturalOrderManager(models.Manager.from_queryset(VenueTableQuerySet)):  # type: ignore[misc]
    """Every list of tables (a tournament's ``tables``, the forms' menus and checkboxes,
    the grid's columns) in natural order, unless a query orders them otherwise."""

    def get_queryset(self) -> VenueTableQuerySet:
        return super().get_queryset().natural_order()


class VenueTable(models.Model):
    tournament = models.ForeignKey(
        "tournaments.Tournament",
        verbose_name=_("tournament"),
        on_delete=models.CASCADE,
        related_name="tables",
    )
    name = models.CharField(_("name"), max_length=60)
    #: The order the tables were added in: export and import keep it, the admin lists by it;
    #: the pages use the natural order (:class:`NaturalOrderManager`).
    position = models.PositiveSmallIntegerField(
        _("position"),
        default=0,
        help_text=_(
            "The order the table was added in: the tournament document and this administration "
            "list the tables by it. The pages list them by name, numbers in numeric order."
        ),
    )

    objects = NaturalOrderManager()

    class Meta:
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        ordering = ["tournament", "position", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "name"], name="venuetable_unique_name"),
        ]

    def __str__(self) -> str:
        """The table's name as pages show it, after "Table"/"tavolo" (see the module)."""
        return table_name(self.name) or self.name
