"""Sessions (one game of 2–3 squads), their seats and each seat's loadout."""

from datetime import datetime

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from tournaments.models.choices import AWAITING, CommanderCombo, Forfeit, SessionStatus


def schedule_gaps(
    scheduled_at: datetime | None, table_id: int | None, judge_id: int | None
) -> tuple[str, ...]:
    """What a session with this time, table and judge lacks to be scheduled, of "time",
    "table" and "judge" in that order (empty when it has all three)."""
    has = {"time": scheduled_at, "table": table_id, "judge": judge_id}
    return tuple(part for part, value in has.items() if value is None)


def current_status(
    status: str, scheduled_at: datetime | None, table_id: int | None, judge_id: int | None
) -> str:
    """The status a session stored as ``status``, with this time, table and judge, is shown
    with (decision 52): the stored one, except that a session not started yet is
    *scheduled* only with a time, a table and a judge, and *planned* otherwise. Every
    reader of a session's status asks this: the pages through :class:`Session`, the
    standings from their plain rows."""
    if status not in (SessionStatus.PLANNED, SessionStatus.SCHEDULED):
        return status
    if schedule_gaps(scheduled_at, table_id, judge_id):
        return SessionStatus.PLANNED
    return SessionStatus.SCHEDULED


def status_label(
    status: str, scheduled_at: datetime | None, table_id: int | None, judge_id: int | None
) -> str:
    """The status as pages show it (:func:`current_status`): a session not scheduled yet
    names what it awaits ("Awaiting a time and a judge"), the others their status."""
    shown = current_status(status, scheduled_at, table_id, judge_id)
    if shown == SessionStatus.PLANNED:
        return str(AWAITING[schedule_gaps(scheduled_at, table_id, judge_id)])
    return str(SessionStatus(shown).label)


class StaleSessionError(Exception):
    """The session changed since it was read (optimistic locking); reload and retry."""


class CurrentSessionManager(models.Manager):
    """Sessions in play: a seating undone by the organiser stays stored, superseded, and
    out of every page and rule (``Session.all_objects`` still lists it)."""

    def get_queryset(self) -> models.QuerySet:
        return super().get_queryset().filter(superseded_at__isnull=True)


class CurrentSeatManager(models.Manager):
    """Seats of the sessions in play (not of a superseded seating)."""

    def get_queryset(self) -> models.QuerySet:
        return super().get_queryset().filter(session__superseded_at__isnull=True)


class Session(models.Model):
    stage = models.ForeignKey(
        "tournaments.Stage",
        verbose_name=_("stage"),
        on_delete=models.CASCADE,
        related_name="sessions",
    )
    number = models.PositiveSmallIntegerField(_("number"))
    scheduled_at = models.DateTimeField(_("scheduled at"), null=True, blank=True)
    duration_minutes = models.PositiveSmallIntegerField(
        _("expected duration (minutes)"), default=180
    )
    table = models.ForeignKey(
        "tournaments.VenueTable",
        verbose_name=_("table"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="sessions",
    )
    judge = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("judge"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="judged_sessions",
    )
    status = models.CharField(
        _("status"), max_length=12, choices=SessionStatus.choices, default=SessionStatus.PLANNED
    )
    map_name = models.CharField(_("map"), max_length=120, blank=True)
    without_map = models.BooleanField(
        _("played without a map"),
        default=False,
        help_text=_(
            "Set when its stage got a map after this session was played without one: it "
            "keeps playing none (decision 54)."
        ),
    )
    notes = models.TextField(
        _("session notes"), blank=True, help_text=_("e.g. the Dreadnought class value.")
    )
    version = models.PositiveIntegerField(
        _("version"), default=1, help_text=_("Raised on every change (optimistic locking).")
    )
    schedule_sequence = models.PositiveIntegerField(
        _("schedule sequence"),
        default=0,
        help_text=_("Raised each time the session is (re)scheduled; the calendar SEQUENCE."),
    )
    superseded_at = models.DateTimeField(
        _("superseded at"),
        null=True,
        blank=True,
        help_text=_("Set when the stage advance that seated it was undone; kept on record."),
    )

    all_objects = models.Manager()
    objects = CurrentSessionManager()

    class Meta:
        verbose_name = _("session")
        verbose_name_plural = _("sessions")
        ordering = ["stage", "number"]
        base_manager_name = "all_objects"
        default_manager_name = "objects"
        constraints = [
            models.UniqueConstraint(
                fields=["stage", "number"],
                condition=Q(superseded_at__isnull=True),
                name="session_unique_number",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.stage} – {_('session')} {self.number}"

    @property
    def table_name(self) -> str:
        """The table's name as pages show it (without the word for table, which they write
        before it), or "" when the session has no table yet."""
        return str(self.table) if self.table is not None else ""

    @property
    def tournament(self):
        return self.stage.tournament

    @property
    def schedule_gaps(self) -> tuple[str, ...]:
        """What the session lacks to be scheduled (:func:`schedule_gaps`)."""
        return schedule_gaps(self.scheduled_at, self.table_id, self.judge_id)

    @property
    def current_status(self) -> str:
        """The status the pages show (:func:`current_status`), whatever was stored (a judge
        removed from the tournament, a session edited in the admin or imported)."""
        return current_status(self.status, self.scheduled_at, self.table_id, self.judge_id)

    @property
    def status_label(self) -> str:
        """The status as pages show it (:func:`status_label`): "Awaiting a time and a
        judge", "Scheduled"..."""
        return status_label(self.status, self.scheduled_at, self.table_id, self.judge_id)

    @property
    def in_progress(self) -> bool:
        """Being played: started at the table (initiative rolled or a game begun on the
        board); a confirmed result completes it."""
        return self.status == SessionStatus.IN_PROGRESS


class Seat(models.Model):
    session = models.ForeignKey(
        Session, verbose_name=_("session"), on_delete=models.CASCADE, related_name="seats"
    )
    player = models.ForeignKey(
        "tournaments.Player",
        verbose_name=_("player"),
        on_delete=models.PROTECT,
        related_name="seats",
    )
    squad = models.ForeignKey(
        "tournaments.Squad",
        verbose_name=_("squad"),
        null=True,
        blank=True,
        on_delete=models.RESTRICT,
        related_name="seats",
    )
    seat_order = models.PositiveSmallIntegerField(
        _("seat order"), help_text=_("Listing order at the table; it fixes the dice order.")
    )
    initiative_position = models.PositiveSmallIntegerField(
        _("initiative position"), null=True, blank=True
    )
    notified_sequence = models.PositiveIntegerField(
        _("last schedule notified"),
        default=0,
        help_text=_("The schedule sequence last emailed to this player (no duplicate mails)."),
    )
    checked_in_at = models.DateTimeField(_("checked in at"), null=True, blank=True)
    forfeit = models.CharField(
        _("forfeit"),
        max_length=12,
        choices=Forfeit.choices,
        blank=True,
        help_text=_("Set when the player forfeits the session: last place, out of play."),
    )

    all_objects = models.Manager()
    objects = CurrentSeatManager()

    class Meta:
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        ordering = ["session", "seat_order"]
        base_manager_name = "all_objects"
        default_manager_name = "objects"
        constraints = [
            models.UniqueConstraint(fields=["session", "player"], name="seat_unique_player"),
            models.UniqueConstraint(fields=["session", "seat_order"], name="seat_unique_order"),
            models.UniqueConstraint(
                fields=["session", "squad"],
                condition=Q(squad__isnull=False),
                name="seat_unique_squad",
            ),
        ]

    def __str__(self) -> str:
        squad = f" – {self.squad}" if self.squad_id else ""
        return f"{self.session}: {self.player}{squad}"


class Loadout(models.Model):
    """Weapons and cards a player takes into a session (RULES.md §5)."""

    seat = models.OneToOneField(
        Seat, verbose_name=_("seat"), on_delete=models.CASCADE, related_name="loadout"
    )
    commander_combo = models.CharField(
        _("commander weapons"), max_length=12, choices=CommanderCombo.choices
    )
    marine_weapons = models.JSONField(
        _("marine weapons"), default=list, help_text=_("Four weapon slugs, one per marine.")
    )
    extra_marine_weapons = models.JSONField(
        _("extra marines' weapons"),
        default=list,
        blank=True,
        help_text=_("Extended TPK only: two extra-heavy weapon slugs."),
    )
    order_cards = models.JSONField(_("order cards"), default=list, blank=True)
    equipment_cards = models.JSONField(_("equipment cards"), default=list, blank=True)
    targeter_marks = models.JSONField(
        _("weapons marked by the Targeters"),
        default=list,
        blank=True,
        help_text=_("The weapon slug each chosen Targeter marks, in the order of the copies."),
    )
    updated_at = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        verbose_name = _("loadout")
        verbose_name_plural = _("loadouts")

    def __str__(self) -> str:
        return str(self.seat)
