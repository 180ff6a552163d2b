"""Stages of a tournament and their score thresholds."""

from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from tournaments.models.choices import SeatingMethod, StageKind, StageStatus, StipulationKind


class Stage(models.Model):
    """One elimination step ("turno"): its sessions share a stipulation and a map."""

    tournament = models.ForeignKey(
        "tournaments.Tournament",
        verbose_name=_("tournament"),
        on_delete=models.CASCADE,
        related_name="stages",
    )
    number = models.PositiveSmallIntegerField(_("number"))
    kind = models.CharField(_("kind"), max_length=12, choices=StageKind.choices)
    qualifier_count = models.PositiveSmallIntegerField(
        _("qualifier count override"),
        null=True,
        blank=True,
        help_text=_("Leave empty for the standard rule (smallest multiple of 3 above sessions)."),
    )
    seating_method = models.CharField(
        _("seating method"),
        max_length=10,
        choices=SeatingMethod.choices,
        blank=True,
        help_text=_(
            "Leave empty to use the tournament's seating method. A stage of one session, "
            "such as the final, is seated by stage rank without dice, whatever is chosen."
        ),
    )
    status = models.CharField(
        _("status"), max_length=10, choices=StageStatus.choices, default=StageStatus.OPEN
    )
    stipulation_kind = models.CharField(
        _("stipulation type"), max_length=20, choices=StipulationKind.choices, blank=True
    )
    stipulation_params = models.JSONField(_("stipulation parameters"), default=dict, blank=True)
    map_name = models.CharField(_("map"), max_length=120, blank=True)
    qualifiers = models.JSONField(
        _("qualifiers"),
        default=list,
        blank=True,
        help_text=_("Player ids that qualified, best first (filled when the stage closes)."),
    )
    closed_at = models.DateTimeField(_("closed at"), null=True, blank=True)

    class Meta:
        verbose_name = _("stage")
        verbose_name_plural = _("stages")
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="stage_unique_number"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} – {self.get_kind_display()} ({self.number})"

    @property
    def effective_seating_method(self) -> str:
        return self.seating_method or self.tournament.seating_method

    @property
    def is_open(self) -> bool:
        return self.status == StageStatus.OPEN


#: The points a score threshold may be set at: reached from zero up, and a session's score
#: never comes near the top.
LOWEST_THRESHOLD, HIGHEST_THRESHOLD = 1, 9999


class ScoreThreshold(models.Model):
    """A points threshold giving +1 equipment card next session (RULES.md §9)."""

    stage = models.ForeignKey(
        Stage,
        verbose_name=_("stage"),
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="thresholds",
    )
    session = models.ForeignKey(
        "tournaments.Session",
        verbose_name=_("session"),
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="thresholds",
    )
    points = models.IntegerField(_("points"))

    class Meta:
        verbose_name = _("score threshold")
        verbose_name_plural = _("score thresholds")
        ordering = ["points"]
        constraints = [
            models.CheckConstraint(
                condition=(Q(stage__isnull=True) & Q(session__isnull=False))
                | (Q(stage__isnull=False) & Q(session__isnull=True)),
                name="threshold_stage_xor_session",
            ),
            models.UniqueConstraint(fields=["stage", "points"], name="threshold_unique_stage"),
            models.UniqueConstraint(fields=["session", "points"], name="threshold_unique_session"),
        ]

    def __str__(self) -> str:
        return str(self.points)

    def clean(self) -> None:
        if (self.stage_id is None) == (self.session_id is None):
            raise ValidationError(_("Set either a stage or a session for a threshold, not both."))
