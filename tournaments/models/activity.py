"""The tournament's activity log: who did what, when."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy


class ActivityVerb(models.TextChoices):
    CREATED = "created", pgettext_lazy("activity", "created")
    UPDATED = "updated", pgettext_lazy("activity", "updated")
    REGISTERED = "registered", pgettext_lazy("activity", "registered")
    SCHEDULED = "scheduled", pgettext_lazy("activity", "scheduled")
    RESCHEDULED = "rescheduled", pgettext_lazy("activity", "rescheduled")
    DREW_SQUADS = "drew_squads", pgettext_lazy("activity", "drew squads")
    REDREW_SQUADS = "redrew_squads", pgettext_lazy("activity", "redid the squad draw")
    ROLLED_INITIATIVE = "rolled_initiative", pgettext_lazy("activity", "rolled initiative")
    RECORDED_RESULT = "recorded_result", pgettext_lazy("activity", "recorded a result")
    CONFIRMED_RESULT = "confirmed_result", pgettext_lazy("activity", "confirmed a result")
    CORRECTED_RESULT = "corrected_result", pgettext_lazy("activity", "corrected a result")
    CLOSED_STAGE = "closed_stage", pgettext_lazy("activity", "closed a stage")
    SEATED_STAGE = "seated_stage", pgettext_lazy("activity", "seated a stage")
    AWARDED_HONOUR = "awarded_honour", pgettext_lazy("activity", "awarded an honour")
    WITHDREW = "withdrew", pgettext_lazy("activity", "withdrew a player")
    REPLACED = "replaced", pgettext_lazy("activity", "seated a reserve")
    CHECKED_IN = "checked_in", pgettext_lazy("activity", "checked a player in")
    FORFEITED = "forfeited", pgettext_lazy("activity", "recorded a forfeit")
    UNDID_ADVANCE = "undid_advance", pgettext_lazy("activity", "undid a stage advance")
    UNDID_DRAW = "undid_draw", pgettext_lazy("activity", "undid a squad draw")
    IMPORTED = "imported", pgettext_lazy("activity", "imported")
    EXPORTED = "exported", pgettext_lazy("activity", "exported")
    STARTED_TIMER = "started_timer", pgettext_lazy("activity", "started the round timer")
    PAUSED_TIMER = "paused_timer", pgettext_lazy("activity", "paused the round timer")
    RESET_TIMER = "reset_timer", pgettext_lazy("activity", "reset the round timer")
    FLAGGED_DISPUTE = "flagged_dispute", pgettext_lazy("activity", "disputed a result")
    RESOLVED_DISPUTE = "resolved_dispute", pgettext_lazy("activity", "resolved a dispute")


class ActivityLog(models.Model):
    tournament = models.ForeignKey(
        "tournaments.Tournament",
        verbose_name=_("tournament"),
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="activity",
    )
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("actor"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    verb = models.CharField(_("action"), max_length=30, choices=ActivityVerb.choices)
    object_description = models.CharField(
        _("object"),
        max_length=300,
        blank=True,
        help_text=_("What the entry is about, in English; shown as it is when there is no code."),
    )
    description_code = models.CharField(
        _("description code"),
        max_length=40,
        blank=True,
        help_text=_("What the entry is about as a code, shown in the reader's language."),
    )
    description_params = models.JSONField(
        _("description parameters"),
        default=dict,
        blank=True,
        help_text=_("The details the description code names (session, points, names...)."),
    )
    details = models.JSONField(_("details"), default=dict, blank=True)
    created_at = models.DateTimeField(_("when"), auto_now_add=True, db_index=True)

    class Meta:
        verbose_name = _("activity log entry")
        verbose_name_plural = _("activity log")
        ordering = ["-created_at", "-pk"]
        # A tournament's latest entry (the standings' data stamp) in one index step.
        indexes = [models.Index(fields=["tournament", "id"], name="activity_tournament_latest")]

    def __str__(self) -> str:
        return f"{self.actor or '-'} {self.get_verb_display()} {self.object_description}"
