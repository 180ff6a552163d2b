"""Games played on the judge's board page: one game per table, its state history, Alien turns.

A :class:`Game` belongs to a session; its :class:`Snapshot` rows are an append-only history
of engine states (``GameState.to_json``). Nothing is ever edited or deleted: a move, an
attack, an Alien turn, a judge's correction or an undo each append a new snapshot, so the
whole game can be replayed and audited (RULES.md §14).
"""

from __future__ import annotations

import uuid
from datetime import datetime

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Game(models.Model):
    session = models.ForeignKey(
        "tournaments.Session",
        verbose_name=_("session"),
        on_delete=models.CASCADE,
        related_name="games",
    )
    number = models.PositiveSmallIntegerField(_("number"))
    label = models.CharField(_("label"), max_length=120, blank=True)
    map_name = models.CharField(_("map"), max_length=120)
    policy = models.CharField(
        _("Alien policy"), max_length=20, default="bob", help_text=_("bob, solitaire or priority")
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("created by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("game")
        verbose_name_plural = _("games")
        ordering = ["session", "number"]
        constraints = [
            models.UniqueConstraint(fields=["session", "number"], name="game_unique_number"),
        ]

    def __str__(self) -> str:
        name = self.label or _("game %(number)d") % {"number": self.number}
        return f"{self.session} – {name}"

    def latest(self) -> Snapshot | None:
        return self.snapshots.order_by("-number").first()


class SnapshotKind(models.TextChoices):
    SETUP = "setup", _("Setup")
    UPLOAD = "upload", _("State uploaded")
    JUDGE_EDIT = "judge_edit", _("Judge's edit")
    MARINE_MOVE = "marine_move", _("Marine move")
    MARINE_ATTACK = "marine_attack", _("Marine attack")
    ALIEN_TURN = "alien_turn", _("Alien turn")
    TURN = "turn", _("Turn and cards")
    UNDO = "undo", _("Undo")


class Snapshot(models.Model):
    """One state of a game and what produced it (append-only)."""

    game = models.ForeignKey(
        Game, verbose_name=_("game"), on_delete=models.CASCADE, related_name="snapshots"
    )
    number = models.PositiveIntegerField(_("number"))
    kind = models.CharField(_("produced by"), max_length=20, choices=SnapshotKind.choices)
    summary = models.CharField(_("summary"), max_length=300, blank=True)
    summary_parts = models.JSONField(
        _("summary parts"),
        default=list,
        blank=True,
        help_text=_("The summary as [code, params] pairs, written in the reader's language."),
    )
    state = models.JSONField(_("state"))
    steps = models.JSONField(
        _("steps"),
        default=list,
        blank=True,
        help_text=_("The Alien turn's step log (message codes and params), or the move's events."),
    )
    events = models.JSONField(
        _("engine events"), default=list, blank=True, help_text=_("Moves, doors, combat lines.")
    )
    policy = models.CharField(_("Alien policy"), max_length=20, blank=True)
    dice_source = models.CharField(_("dice"), max_length=10, blank=True)
    seed = models.CharField(_("seed"), max_length=40, blank=True)
    dice = models.JSONField(_("dice rolled"), default=list, blank=True)
    dice_batch = models.UUIDField(_("dice batch"), null=True, blank=True)
    reason = models.CharField(_("reason"), max_length=300, blank=True)
    restored_from = models.PositiveIntegerField(_("restored from snapshot"), null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    created_at = models.DateTimeField(_("at"), auto_now_add=True)

    class Meta:
        verbose_name = _("game snapshot")
        verbose_name_plural = _("game snapshots")
        ordering = ["game", "number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="snapshot_unique_number"),
        ]

    def __str__(self) -> str:
        return f"{self.game} #{self.number} ({self.get_kind_display()})"


class TurnStatus(models.TextChoices):
    PENDING = "pending", _("Being resolved")
    DONE = "done", _("Done")
    FAILED = "failed", _("Failed")


class AlienTurnRequest(models.Model):
    """A judge's request to resolve the Alien turn, carried out by a Celery task.

    The task works at most once per request (its id is the idempotency key): a retry or a
    duplicate delivery finds the request no longer pending and does nothing.
    """

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    game = models.ForeignKey(
        Game, verbose_name=_("game"), on_delete=models.CASCADE, related_name="turn_requests"
    )
    base_number = models.PositiveIntegerField(_("snapshot the judge saw"))
    policy = models.CharField(_("Alien policy"), max_length=20)
    seed = models.CharField(_("seed"), max_length=40, blank=True)
    typed_dice = models.JSONField(_("typed dice"), null=True, blank=True)
    #: The event card the judge drew from the real deck (its id), taken instead of the
    #: dice's draw; empty: the dice draw it.
    event_card = models.CharField(_("event card drawn"), max_length=60, blank=True)
    #: The requesting judge's language: the worker writes the summary and any error in it.
    language = models.CharField(_("language"), max_length=10, blank=True)
    status = models.CharField(
        _("status"), max_length=10, choices=TurnStatus.choices, default=TurnStatus.PENDING
    )
    error = models.TextField(_("error"), blank=True)
    snapshot = models.OneToOneField(
        Snapshot,
        verbose_name=_("resulting snapshot"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="turn_request",
    )
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("requested by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    created_at = models.DateTimeField(_("requested at"), auto_now_add=True)
    #: When the request was last handed to the task queue: a request still pending long
    #: after it (``BOB_ALIEN_TURN_DEADLINE_SECONDS``) is shown as failed, to be run again.
    queued_at = models.DateTimeField(_("queued at"), null=True, blank=True)

    class Meta:
        verbose_name = _("Alien turn request")
        verbose_name_plural = _("Alien turn requests")
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.game} – {self.policy} ({self.get_status_display()})"

    def overdue(self, now: datetime, deadline_seconds: int) -> bool:
        """Still pending ``deadline_seconds`` after it was queued: the task was lost or
        no worker is running."""
        since = self.queued_at or self.created_at
        return (
            self.status == TurnStatus.PENDING
            and since is not None
            and (now - since).total_seconds() > deadline_seconds
        )
