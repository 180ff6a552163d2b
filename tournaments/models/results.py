"""Session results, kept as an append-only list of versions.

Nothing is ever overwritten: entering, confirming or correcting a result always adds a new
:class:`ResultVersion`. Standings use the latest confirmed version.
"""

from django.conf import settings
from django.db import models
from django.utils import translation
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

#: The reason code of a version that confirms the version before it, given no reason.
CONFIRMED_PREVIOUS = "confirmed_previous"
#: The source text of that reason; ``number`` is the confirmed version's number.
CONFIRMED_PREVIOUS_TEXT = "Confirmed version %(number)d."


def version_reason(code: str, reason: str, number: int) -> str:
    """The reason of result version ``number`` in the reader's language: the text of its
    reason ``code`` when it has one, else the ``reason`` a person typed, as typed
    (stored tournament decision 31)."""
    if code == CONFIRMED_PREVIOUS:
        return gettext("Confirmed version %(number)d.") % {"number": number - 1}
    return reason


def version_reason_code(reason: str, number: int) -> str:
    """The reason code of a stored ``reason`` of version ``number`` written by the app in
    any language of the site (an imported or older version); empty for a typed reason."""
    for language, _name in settings.LANGUAGES:
        with translation.override(language):
            if reason.strip() == version_reason(CONFIRMED_PREVIOUS, "", number):
                return CONFIRMED_PREVIOUS
    return ""


class ImmutableVersionError(Exception):
    """A saved result version may not be changed or deleted; add a new version instead."""


class Result(models.Model):
    session = models.OneToOneField(
        "tournaments.Session",
        verbose_name=_("session"),
        on_delete=models.CASCADE,
        related_name="result",
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("result")
        verbose_name_plural = _("results")

    def __str__(self) -> str:
        return str(self.session)

    def latest_version(self) -> "ResultVersion | None":
        return self.versions.order_by("-number").first()

    def latest_confirmed(self) -> "ResultVersion | None":
        return self.versions.filter(confirmed=True).order_by("-number").first()


class ResultVersion(models.Model):
    result = models.ForeignKey(
        Result, verbose_name=_("result"), on_delete=models.CASCADE, related_name="versions"
    )
    #: The tournament of the result's session, kept on each version so that a tournament's
    #: newest version is one step down an index (its data stamp, read by every public page
    #: and live poll: ``queries.standings``), not a look at each of its results (4.9 ms for
    #: the 729 results of 2,187 players). Set from the result when not given.
    tournament = models.ForeignKey(
        "tournaments.Tournament",
        verbose_name=_("tournament"),
        on_delete=models.CASCADE,
        related_name="+",
        editable=False,
        db_index=False,  # the (tournament, id) index serves it
    )
    number = models.PositiveIntegerField(_("version"))
    breakdown = models.JSONField(
        _("score breakdown"),
        default=list,
        help_text=_("One entry per seat, as the scoring service's SeatBreakdown."),
    )
    survivors = models.JSONField(
        _("survivors"),
        default=list,
        blank=True,
        help_text=_("Player ids whose squad still had a marine in play at the end."),
    )
    ranking = models.JSONField(
        _("session ranking"),
        default=list,
        help_text=_("Player ids, first place first, ties already settled by recorded dice."),
    )
    totals = models.JSONField(
        _("seat totals"),
        default=dict,
        blank=True,
        help_text=_(
            "Each seat's total points, scored from the breakdown when the version was "
            "written; used only while its key matches the scoring."
        ),
    )
    totals_key = models.CharField(
        _("totals key"),
        max_length=64,
        blank=True,
        help_text=_("The scoring values and code the totals were scored with."),
    )
    confirmed = models.BooleanField(_("confirmed"), default=False)
    reason = models.TextField(_("reason"), blank=True)
    #: The reason the app gave, as a code translated when shown (``version_reason``), so a
    #: reader sees it in their language; ``reason`` then stays empty.
    reason_code = models.CharField(
        _("reason code"),
        max_length=20,
        blank=True,
        choices=[(CONFIRMED_PREVIOUS, _("confirms the previous version"))],
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("entered by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="result_versions",
    )
    created_at = models.DateTimeField(_("entered at"), auto_now_add=True)
    #: The game on the judge's board this version was filled from (its number in the
    #: session) and the step it stood at; empty when the result was typed in otherwise.
    game_number = models.PositiveSmallIntegerField(_("from board game"), null=True, blank=True)
    game_step = models.PositiveIntegerField(_("at board step"), null=True, blank=True)

    class Meta:
        verbose_name = _("result version")
        verbose_name_plural = _("result versions")
        ordering = ["result", "number"]
        constraints = [
            models.UniqueConstraint(fields=["result", "number"], name="resultversion_unique"),
        ]
        indexes = [models.Index(fields=["tournament", "id"], name="resultversion_newest")]

    def __str__(self) -> str:
        state = _("confirmed") if self.confirmed else _("draft")
        return f"{self.result} v{self.number} ({state})"

    def save(self, *args, **kwargs) -> None:
        if self.pk is not None:
            raise ImmutableVersionError(
                _("Result versions cannot be changed; record a correction as a new version.")
            )
        if self.tournament_id is None:
            self.tournament_id = (
                Result.objects.filter(pk=self.result_id)
                .values_list("session__stage__tournament_id", flat=True)
                .get()
            )
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise ImmutableVersionError(
            _("Result versions cannot be deleted; record a correction as a new version.")
        )

    def shown_reason(self) -> str:
        """Why this version was written, in the reader's language when the app wrote it."""
        return version_reason(self.reason_code, self.reason, self.number)

    def positions(self) -> dict[int, int]:
        """Session place per player id (1 = winner); ties were settled when recorded."""
        return {int(player): place for place, player in enumerate(self.ranking, start=1)}
