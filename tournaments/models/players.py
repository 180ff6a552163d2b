"""Players and their registration to tournaments."""

import secrets

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext


def new_access_token() -> str:
    """A fresh unguessable token for a player's private link."""
    return secrets.token_urlsafe(24)


class Player(models.Model):
    """A person who plays in tournaments; reachable through a private link without an account."""

    name = models.CharField(_("name"), max_length=120)
    nickname = models.CharField(_("nickname"), max_length=60, blank=True)
    email = models.EmailField(_("email"), blank=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("user account"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="players",
    )
    access_token = models.CharField(
        _("private access token"),
        max_length=64,
        unique=True,
        default=new_access_token,
        editable=False,
        help_text=_("Secret part of the player's private link; regenerate it if it leaks."),
    )
    language = models.CharField(
        _("language of the mails"),
        max_length=8,
        blank=True,
        choices=settings.LANGUAGES,
        help_text=_(
            "The language the player last read their own page in; their mails are written "
            "in it (empty: the site's language)."
        ),
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("player")
        verbose_name_plural = _("players")
        ordering = ["name", "pk"]

    def __str__(self) -> str:
        return f"{self.name} ({self.nickname})" if self.nickname else self.name

    @property
    def display_name(self) -> str:
        return self.nickname or self.name

    def regenerate_access_token(self) -> str:
        self.access_token = new_access_token()
        self.save(update_fields=["access_token"])
        return self.access_token


class Registration(models.Model):
    """A player entered in a tournament; ``number`` is the listing order used for dice order."""

    tournament = models.ForeignKey(
        "tournaments.Tournament",
        verbose_name=_("tournament"),
        on_delete=models.CASCADE,
        related_name="registrations",
    )
    player = models.ForeignKey(
        Player,
        verbose_name=_("player"),
        on_delete=models.CASCADE,
        related_name="registrations",
    )
    number = models.PositiveIntegerField(_("number"))
    registered_at = models.DateTimeField(_("registered"), auto_now_add=True)
    withdrawn_at = models.DateTimeField(
        _("withdrawn at"),
        null=True,
        blank=True,
        help_text=_("Set when the player withdrew or was dropped; they are seated no more."),
    )
    withdrawal_reason = models.TextField(_("reason for withdrawal"), blank=True)

    class Meta:
        verbose_name = _("registration")
        verbose_name_plural = _("registrations")
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "player"], name="registration_unique_player"
            ),
            models.UniqueConstraint(
                fields=["tournament", "number"], name="registration_unique_number"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} #{self.number}: {self.player}"

    @property
    def withdrawn(self) -> bool:
        return self.withdrawn_at is not None


class SquadPreference(models.Model):
    """A player's ordered squad choices for a tournament's first stage, or a given stage."""

    player = models.ForeignKey(
        Player, verbose_name=_("player"), on_delete=models.CASCADE, related_name="preferences"
    )
    tournament = models.ForeignKey(
        "tournaments.Tournament",
        verbose_name=_("tournament"),
        on_delete=models.CASCADE,
        related_name="preferences",
    )
    stage = models.ForeignKey(
        "tournaments.Stage",
        verbose_name=_("stage"),
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="preferences",
        help_text=_("Empty: the preference holds for the whole tournament."),
    )
    choices = models.JSONField(_("choices"), default=list, help_text=_("Squad slugs, 1st first."))
    updated_at = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        verbose_name = _("squad preference")
        verbose_name_plural = _("squad preferences")
        constraints = [
            models.UniqueConstraint(
                fields=["player", "tournament", "stage"], name="preference_unique_stage"
            ),
            models.UniqueConstraint(
                fields=["player", "tournament"],
                condition=models.Q(stage__isnull=True),
                name="preference_unique_tournament",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player}: {', '.join(self.choices)}"

    def clean(self) -> None:
        from django.core.exceptions import ValidationError

        slugs = set(self.tournament.squad_order) if self.tournament_id else set()
        if not isinstance(self.choices, list) or not all(isinstance(c, str) for c in self.choices):
            raise ValidationError({"choices": _("Give the choices as a list of squad slugs.")})
        unknown = [choice for choice in self.choices if choice not in slugs]
        if unknown:
            raise ValidationError(
                {
                    "choices": ngettext(
                        "Unknown squad %(unknown)s; this tournament has %(known)s.",
                        "Unknown squads %(unknown)s; this tournament has %(known)s.",
                        len(unknown),
                    )
                    % {"unknown": ", ".join(unknown), "known": ", ".join(sorted(slugs))}
                }
            )
        if len(set(self.choices)) != len(self.choices):
            raise ValidationError({"choices": _("Each squad may appear only once.")})
