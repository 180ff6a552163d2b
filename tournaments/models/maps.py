"""A tournament's own session maps: drawings in the engine's map format (``docs/maps.md``),
kept beside the maps BoB ships, so an organiser plays the boards their event was designed
on. The drawing is the one source of the map: its name, title and squares are read from
it (the name is also kept in a column, to find the map by it)."""

from django.db import models
from django.utils.translation import gettext_lazy as _

#: The longest drawing a map may have, in characters, typed, uploaded or imported: a
#: 40 × 40 board with its legend is about 12,000.
DRAWING_LIMIT = 200_000


class TournamentMap(models.Model):
    tournament = models.ForeignKey(
        "tournaments.Tournament",
        verbose_name=_("tournament"),
        on_delete=models.CASCADE,
        related_name="maps",
    )
    name = models.SlugField(
        _("name"),
        max_length=120,
        help_text=_("The name in the drawing's 'name:' line; stages and sessions use it."),
    )
    drawing = models.TextField(_("drawing"))
    updated_at = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        verbose_name = _("map")
        verbose_name_plural = _("maps")
        ordering = ["tournament", "name"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "name"], name="tournamentmap_unique_name"
            ),
        ]

    def __str__(self) -> str:
        return self.name
