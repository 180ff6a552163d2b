"""The venue: the round timer the projector screens count down, and players' disputes."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

#: A round lasts three hours unless the organiser sets another duration.
DEFAULT_ROUND_SECONDS = 180 * 60


class RoundTimer(models.Model):
    """The tournament's round timer, one per tournament, shared by every projector screen.

    While it runs, ``running_since`` is when it was last started and ``remaining_seconds`` what
    was left then; while it is paused, ``running_since`` is empty and ``remaining_seconds`` is
    what is left."""

    tournament = models.OneToOneField(
        "tournaments.Tournament",
        verbose_name=_("tournament"),
        on_delete=models.CASCADE,
        related_name="round_timer",
    )
    duration_seconds = models.PositiveIntegerField(
        _("round duration (seconds)"), default=DEFAULT_ROUND_SECONDS
    )
    remaining_seconds = models.PositiveIntegerField(
        _("remaining (seconds)"), default=DEFAULT_ROUND_SECONDS
    )
    running_since = models.DateTimeField(_("running since"), null=True, blank=True)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        verbose_name = _("round timer")
        verbose_name_plural = _("round timers")

    def __str__(self) -> str:
        return f"{self.tournament}: {self.remaining_seconds}s"


class DisputeStatus(models.TextChoices):
    OPEN = "open", _("Open")
    CORRECTED = "corrected", _("Resolved with a correction")
    NOTED = "noted", _("Resolved with a note")


class ResultDispute(models.Model):
    """A player's objection to a session's confirmed result, until the organiser resolves it."""

    session = models.ForeignKey(
        "tournaments.Session",
        verbose_name=_("session"),
        on_delete=models.CASCADE,
        related_name="disputes",
    )
    player = models.ForeignKey(
        "tournaments.Player",
        verbose_name=_("player"),
        on_delete=models.CASCADE,
        related_name="disputes",
    )
    version_number = models.PositiveIntegerField(
        _("result version disputed"),
        help_text=_("The confirmed result version the player saw when flagging it."),
    )
    reason = models.TextField(_("reason"), max_length=1000)
    status = models.CharField(
        _("status"), max_length=12, choices=DisputeStatus.choices, default=DisputeStatus.OPEN
    )
    resolution_note = models.TextField(_("resolution note"), max_length=1000, blank=True)
    resolved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("resolved by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    resolved_at = models.DateTimeField(_("resolved at"), null=True, blank=True)
    created_at = models.DateTimeField(_("flagged at"), auto_now_add=True)

    class Meta:
        verbose_name = _("result dispute")
        verbose_name_plural = _("result disputes")
        ordering = ["-created_at", "-pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["session", "player"],
                condition=models.Q(status="open"),
                name="dispute_one_open_per_player",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.session}: {self.player}"
