"""The tournament itself and its per-tournament settings."""

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from .choices import SeatingMethod


class Tournament(models.Model):
    name = models.CharField(_("name"), max_length=200)
    slug = models.SlugField(_("slug"), max_length=80, unique=True)
    starts_on = models.DateField(_("starts on"), null=True, blank=True)
    ends_on = models.DateField(_("ends on"), null=True, blank=True)
    venue = models.CharField(_("venue"), max_length=200, blank=True)
    description = models.TextField(_("description"), blank=True)
    organisers = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        verbose_name=_("organisers"),
        blank=True,
        related_name="organised_tournaments",
    )
    judges = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        verbose_name=_("judges"),
        blank=True,
        related_name="judged_tournaments",
    )
    players = models.ManyToManyField(
        "tournaments.Player",
        verbose_name=_("players"),
        through="tournaments.Registration",
        related_name="tournaments",
        blank=True,
    )
    seating_method = models.CharField(
        _("seating method"),
        max_length=10,
        choices=SeatingMethod.choices,
        default=SeatingMethod.RANDOM,
        help_text=_("How later stages are seated unless a stage says otherwise."),
    )
    qualifier_overrides = models.JSONField(
        _("qualifier overrides"),
        default=dict,
        blank=True,
        help_text=_(
            'How many players qualify from a stage, by stage number, e.g. {"1": 6}. '
            "Stages not listed use the standard rule."
        ),
    )
    data_overrides = models.JSONField(
        _("rules data overrides"),
        default=dict,
        blank=True,
        help_text=_("House-rule changes to the engine's unit and weapon data."),
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        ordering = ["-starts_on", "name"]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("tournaments:standings-plain", kwargs={"slug": self.slug})

    @property
    def squad_order(self) -> list[str]:
        """Squad slugs in the tournament's squad order (the order used for dice order)."""
        return list(self.squads.order_by("order", "pk").values_list("slug", flat=True))

    def qualifier_override(self, stage_number: int) -> int | None:
        value = (self.qualifier_overrides or {}).get(str(stage_number))
        return int(value) if value is not None else None

    def current_stage(self):
        """The open stage with the lowest number, or None when every stage is closed."""
        return self.stages.filter(status="open").order_by("number").first()
