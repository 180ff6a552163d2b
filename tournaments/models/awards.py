"""Honours, squad ranks and score bonuses (RULES.md §9)."""

from django.db import models
from django.utils.translation import gettext_lazy as _

from tournaments.models.choices import Rank


class CurrentAwardManager(models.Manager):
    """Awards in force: those of a stage close that was undone stay stored, superseded."""

    def get_queryset(self) -> models.QuerySet:
        return super().get_queryset().filter(superseded_at__isnull=True)


class Honour(models.Model):
    """Won by a squad for winning a session."""

    tournament = models.ForeignKey(
        "tournaments.Tournament",
        verbose_name=_("tournament"),
        on_delete=models.CASCADE,
        related_name="honours",
    )
    player = models.ForeignKey(
        "tournaments.Player",
        verbose_name=_("player"),
        on_delete=models.CASCADE,
        related_name="honours",
    )
    squad = models.ForeignKey(
        "tournaments.Squad", verbose_name=_("squad"), on_delete=models.RESTRICT, related_name="+"
    )
    session = models.ForeignKey(
        "tournaments.Session",
        verbose_name=_("session won"),
        on_delete=models.CASCADE,
        related_name="honours_won",
    )
    created_at = models.DateTimeField(_("awarded at"), auto_now_add=True)
    superseded_at = models.DateTimeField(
        _("superseded at"),
        null=True,
        blank=True,
        help_text=_("Set when the stage close that awarded it was undone; kept on record."),
    )

    all_objects = models.Manager()
    objects = CurrentAwardManager()

    class Meta:
        verbose_name = _("honour")
        verbose_name_plural = _("honours")
        ordering = ["tournament", "created_at"]
        base_manager_name = "all_objects"
        default_manager_name = "objects"
        constraints = [
            models.UniqueConstraint(
                fields=["session"],
                condition=models.Q(superseded_at__isnull=True),
                name="honour_unique_session",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} – {self.session}"


class SquadRank(models.Model):
    """A player's current squad and its rank in a tournament; the rank follows the player."""

    tournament = models.ForeignKey(
        "tournaments.Tournament",
        verbose_name=_("tournament"),
        on_delete=models.CASCADE,
        related_name="squad_ranks",
    )
    player = models.ForeignKey(
        "tournaments.Player",
        verbose_name=_("player"),
        on_delete=models.CASCADE,
        related_name="squad_ranks",
    )
    squad = models.ForeignKey(
        "tournaments.Squad",
        verbose_name=_("squad"),
        null=True,
        blank=True,
        on_delete=models.RESTRICT,
        related_name="+",
    )
    rank = models.PositiveSmallIntegerField(
        _("rank"), choices=Rank.choices, default=Rank.MARINE_SQUAD
    )
    updated_at = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        verbose_name = _("squad rank")
        verbose_name_plural = _("squad ranks")
        ordering = ["tournament", "-rank", "player"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "player"], name="squadrank_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.player}: {self.get_rank_display()}"


class ScoreBonus(models.Model):
    """Extra equipment cards earned in one session for the player's next session only."""

    tournament = models.ForeignKey(
        "tournaments.Tournament",
        verbose_name=_("tournament"),
        on_delete=models.CASCADE,
        related_name="score_bonuses",
    )
    player = models.ForeignKey(
        "tournaments.Player",
        verbose_name=_("player"),
        on_delete=models.CASCADE,
        related_name="score_bonuses",
    )
    earned_in = models.ForeignKey(
        "tournaments.Session",
        verbose_name=_("earned in"),
        on_delete=models.CASCADE,
        related_name="bonuses_earned",
    )
    thresholds_reached = models.JSONField(_("thresholds reached"), default=list, blank=True)
    extra_equipment_cards = models.PositiveSmallIntegerField(_("extra equipment cards"), default=0)
    used_in = models.ForeignKey(
        "tournaments.Session",
        verbose_name=_("used in"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="bonuses_used",
    )
    superseded_at = models.DateTimeField(
        _("superseded at"),
        null=True,
        blank=True,
        help_text=_("Set when the stage close that gave it was undone; kept on record."),
    )

    all_objects = models.Manager()
    objects = CurrentAwardManager()

    class Meta:
        verbose_name = _("score bonus")
        verbose_name_plural = _("score bonuses")
        base_manager_name = "all_objects"
        default_manager_name = "objects"
        constraints = [
            models.UniqueConstraint(
                fields=["player", "earned_in"],
                condition=models.Q(superseded_at__isnull=True),
                name="scorebonus_unique",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player}: +{self.extra_equipment_cards}"
