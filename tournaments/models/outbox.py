"""The outbox of mails to players: one row per notice, written with the change it tells of.

A schedule change writes one :class:`Notice` per seat (and schedule sequence) in the same
transaction as the change, so a notice exists exactly when the change committed; a task
sends it afterwards and records the send on the row. A notice is never sent twice after its
send was recorded; the one window left (the mail server accepted the mail but the process
died before the row was updated) is described in docs/operations.md.
"""

from django.db import models
from django.utils.translation import gettext_lazy as _


class NoticeStatus(models.TextChoices):
    PENDING = "pending", _("Waiting to be sent")
    SENT = "sent", _("Sent")
    SUPERSEDED = "superseded", _("Replaced by a later schedule")
    NO_ADDRESS = "no_address", _("Not sent: no e-mail address")


class Notice(models.Model):
    """A seat's player is told of the session's schedule number ``sequence``."""

    seat = models.ForeignKey(
        "tournaments.Seat", verbose_name=_("seat"), on_delete=models.CASCADE, related_name="notices"
    )
    sequence = models.PositiveIntegerField(_("schedule sequence"))
    status = models.CharField(
        _("status"), max_length=12, choices=NoticeStatus.choices, default=NoticeStatus.PENDING
    )
    attempts = models.PositiveIntegerField(_("attempts"), default=0)
    last_error = models.TextField(_("last error"), blank=True)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    sent_at = models.DateTimeField(_("sent"), null=True, blank=True)

    class Meta:
        verbose_name = _("notice")
        verbose_name_plural = _("notices")
        ordering = ["created_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["seat", "sequence"], name="notice_unique_sequence"),
        ]
        indexes = [models.Index(fields=["status", "created_at"], name="notice_status_created")]

    def __str__(self) -> str:
        return f"{self.seat} #{self.sequence} ({self.get_status_display()})"
