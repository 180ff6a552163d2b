"""Squads (chapters), their chapter cards and the weapons available in a tournament."""

from django.db import models
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from tournaments.models.choices import (
    CardConfidence,
    CardKind,
    CardUse,
    SquadColour,
    WeaponClass,
)


class BilingualName(models.Model):
    """English and Italian names; ``name`` picks the active language."""

    name_en = models.CharField(_("English name"), max_length=120)
    name_it = models.CharField(_("Italian name"), max_length=120)

    class Meta:
        abstract = True

    def __str__(self) -> str:
        return self.name

    @property
    def name(self) -> str:
        language = (get_language() or "it").split("-")[0]
        return self.name_it if language == "it" and self.name_it else self.name_en


class Squad(BilingualName):
    tournament = models.ForeignKey(
        "tournaments.Tournament",
        verbose_name=_("tournament"),
        on_delete=models.CASCADE,
        related_name="squads",
    )
    slug = models.SlugField(_("slug"), max_length=40)
    colour = models.CharField(_("colour"), max_length=10, choices=SquadColour.choices)
    order = models.PositiveSmallIntegerField(
        _("squad order"), default=0, help_text=_("Position in the squad order used for dice.")
    )

    class Meta:
        verbose_name = _("squad")
        verbose_name_plural = _("squads")
        ordering = ["tournament", "order", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "slug"], name="squad_unique_slug"),
        ]


class ChapterCard(BilingualName):
    """One printed card of a chapter's deck (a card printed twice is two rows)."""

    squad = models.ForeignKey(
        Squad, verbose_name=_("squad"), on_delete=models.CASCADE, related_name="cards"
    )
    name_it = models.CharField(
        _("Italian name"),
        max_length=120,
        blank=True,
        help_text=_("Leave empty while the Italian edition's name is unknown."),
    )
    slug = models.SlugField(_("slug"), max_length=60)
    kind = models.CharField(_("kind"), max_length=10, choices=CardKind.choices)
    use = models.CharField(
        _("duration"), max_length=10, choices=CardUse.choices, default=CardUse.ONE_USE
    )
    effect_code = models.SlugField(
        _("effect code"),
        max_length=40,
        blank=True,
        help_text=_("The effect the board applies; the same for every copy of a card."),
    )
    effect_en = models.TextField(_("effect (English)"), blank=True)
    effect_it = models.TextField(_("effect (Italian)"), blank=True)
    source = models.TextField(_("source"), blank=True)
    confidence = models.CharField(
        _("confidence"),
        max_length=12,
        choices=CardConfidence.choices,
        default=CardConfidence.ONE_SOURCE,
    )
    order = models.PositiveSmallIntegerField(_("order"), default=0)

    class Meta:
        verbose_name = _("chapter card")
        verbose_name_plural = _("chapter cards")
        ordering = ["squad", "kind", "order", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["squad", "slug"], name="chaptercard_unique_slug"),
        ]

    @property
    def effect(self) -> str:
        """The effect in the active language (English when there is no Italian text)."""
        language = (get_language() or "it").split("-")[0]
        return self.effect_it if language == "it" and self.effect_it else self.effect_en


class Weapon(BilingualName):
    tournament = models.ForeignKey(
        "tournaments.Tournament",
        verbose_name=_("tournament"),
        on_delete=models.CASCADE,
        related_name="weapons",
    )
    slug = models.SlugField(_("slug"), max_length=40)
    weapon_class = models.CharField(_("class"), max_length=12, choices=WeaponClass.choices)
    colour_restricted = models.BooleanField(
        _("colour-restricted"),
        default=True,
        help_text=_("Only squads of the weapon's colour may take it (one per chapter box)."),
    )

    class Meta:
        verbose_name = _("weapon")
        verbose_name_plural = _("weapons")
        ordering = ["tournament", "weapon_class", "slug"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "slug"], name="weapon_unique_slug"),
        ]
