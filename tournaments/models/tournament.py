"""The tournament itself and its per-tournament settings."""

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from tournaments.models.choices import SeatingMethod


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
        help_text=_(
            "How a stage is seated unless its own page says otherwise: seeded (the first "
            "stage in registration order, later ones by stage rank) or random (a recorded "
            "dice roll-off). A stage of one session, such as the final, is always seated by "
            "stage rank, without dice."
        ),
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
    no_show_minutes = models.PositiveSmallIntegerField(
        _("no-show delay (minutes)"),
        default=15,
        help_text=_(
            "How long after a session's start a player who has not checked in may be "
            "declared a no-show (a forfeit)."
        ),
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

    def clean(self) -> None:
        overrides = self.qualifier_overrides
        if not isinstance(overrides, dict):
            raise ValidationError(
                {"qualifier_overrides": _('Give an object such as {"1": 6} (stage: count).')}
            )
        for stage, count in overrides.items():
            if not str(stage).isdigit() or isinstance(count, bool) or not isinstance(count, int):
                raise ValidationError(
                    {
                        "qualifier_overrides": _(
                            "Stage %(stage)s: use a stage number as key and a whole number of "
                            "qualifiers as value."
                        )
                        % {"stage": stage}
                    }
                )
        if not isinstance(self.data_overrides, dict):
            raise ValidationError({"data_overrides": _("Give the overrides as a JSON object.")})

    def qualifier_override(self, stage_number: int) -> int | None:
        """The organiser's qualifier count for a stage, or None; ValueError when unusable."""
        value = (self.qualifier_overrides or {}).get(str(stage_number))
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError(
                _("The qualifier override for stage %(stage)d is %(value)r; use a whole number.")
                % {"stage": stage_number, "value": value}
            )
        return value

    def current_stage(self, stages: list | None = None):
        """The open stage with the lowest number, or None when every stage is closed
        (``stages``: the tournament's stages by number, when the caller has read them)."""
        if stages is not None:
            return next((stage for stage in stages if stage.status == "open"), None)
        return self.stages.filter(status="open").order_by("number").first()
