"""Every roll of the dice service kept for audit and replay (RULES.md §14)."""

import uuid

from django.db import models
from django.utils.translation import gettext_lazy as _

from tournaments.models.choices import DiceSource, DieKindChoice


class DiceRoll(models.Model):
    tournament = models.ForeignKey(
        "tournaments.Tournament",
        verbose_name=_("tournament"),
        on_delete=models.CASCADE,
        related_name="dice_rolls",
    )
    stage = models.ForeignKey(
        "tournaments.Stage",
        verbose_name=_("stage"),
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="dice_rolls",
    )
    session = models.ForeignKey(
        "tournaments.Session",
        verbose_name=_("session"),
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="dice_rolls",
    )
    batch = models.UUIDField(
        _("batch"), default=uuid.uuid4, db_index=True, help_text=_("Rolls made by one action.")
    )
    sequence = models.PositiveIntegerField(_("order in batch"))
    purpose = models.CharField(
        _("purpose"),
        max_length=200,
        help_text=_("What the roll was for, in English; shown as it is when there is no code."),
    )
    purpose_code = models.CharField(
        _("purpose code"),
        max_length=40,
        blank=True,
        help_text=_("What the roll was for as a code, shown in the reader's language."),
    )
    purpose_params = models.JSONField(
        _("purpose parameters"),
        default=dict,
        blank=True,
        help_text=_("The details the purpose code names (squad, points, figures...)."),
    )
    kind = models.CharField(_("die"), max_length=8, choices=DieKindChoice.choices)
    values = models.JSONField(_("values"))
    subject = models.CharField(_("subject"), max_length=200, blank=True)
    source = models.CharField(_("source"), max_length=10, choices=DiceSource.choices)
    seed = models.CharField(
        _("seed"), max_length=40, blank=True, help_text=_("Decimal seed (app-rolled dice only).")
    )
    seed_commitment = models.CharField(
        _("seed commitment"), max_length=64, blank=True, help_text=_("SHA-256 of the seed.")
    )
    created_at = models.DateTimeField(_("rolled at"), auto_now_add=True)

    class Meta:
        verbose_name = _("dice roll")
        verbose_name_plural = _("dice rolls")
        ordering = ["pk"]
        constraints = [
            models.UniqueConstraint(fields=["batch", "sequence"], name="diceroll_unique_sequence"),
        ]

    def __str__(self) -> str:
        values = ", ".join(str(value) for value in self.values)
        return f"{self.purpose}: {self.kind} [{values}]"


class SeedAnnouncement(models.Model):
    """A seed's hash made public before the app rolls with it (RULES.md §14).

    The tournament's Dice page lists the hash from ``announced_at``; the seed stays secret
    until the rolls are stored with it, when ``used_at`` is set. A row is never deleted, so
    anyone can see that the hash was public before the roll."""

    tournament = models.ForeignKey(
        "tournaments.Tournament",
        verbose_name=_("tournament"),
        on_delete=models.CASCADE,
        related_name="seed_announcements",
    )
    session = models.ForeignKey(
        "tournaments.Session",
        verbose_name=_("session"),
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="seed_announcements",
    )
    purpose = models.CharField(_("purpose"), max_length=20)
    seed = models.CharField(_("seed"), max_length=40)
    commitment = models.CharField(_("seed commitment"), max_length=64, db_index=True)
    announced_at = models.DateTimeField(_("announced at"), auto_now_add=True)
    used_at = models.DateTimeField(_("used at"), null=True, blank=True)

    class Meta:
        verbose_name = _("seed announcement")
        verbose_name_plural = _("seed announcements")
        ordering = ["announced_at", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "purpose"],
                condition=models.Q(used_at__isnull=True, session__isnull=True),
                name="seedannouncement_one_pending",
            ),
            models.UniqueConstraint(
                fields=["session", "purpose"],
                condition=models.Q(used_at__isnull=True, session__isnull=False),
                name="seedannouncement_one_pending_per_session",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.purpose}: {self.commitment}"
