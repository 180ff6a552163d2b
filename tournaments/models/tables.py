"""The tables of a tournament's venue: a managed list, so a session sits at a known table."""

from django.db import models
from django.utils.translation import gettext_lazy as _


class VenueTable(models.Model):
    tournament = models.ForeignKey(
        "tournaments.Tournament",
        verbose_name=_("tournament"),
        on_delete=models.CASCADE,
        related_name="tables",
    )
    name = models.CharField(_("name"), max_length=60)
    position = models.PositiveSmallIntegerField(
        _("position"), default=0, help_text=_("Order of the table in lists and in the grid.")
    )

    class Meta:
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        ordering = ["tournament", "position", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "name"], name="venuetable_unique_name"),
        ]

    def __str__(self) -> str:
        return self.name
