"""Forms of the venue: the round timer, a player's dispute and the organiser's answer."""

from __future__ import annotations

from django import forms
from django.utils.functional import lazy
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from tournaments.actions.result_disputes import MAX_TEXT
from tournaments.domain.countdown import MAX_MINUTES, MIN_MINUTES
from tournaments.forms.accessible import AccessibleForm
from tournaments.models import DisputeStatus


class TimerResetForm(AccessibleForm):
    minutes = forms.IntegerField(
        label=_("Round duration (minutes)"), min_value=MIN_MINUTES, max_value=MAX_MINUTES
    )


class DisputeForm(AccessibleForm):
    reason = forms.CharField(
        label=_("What is wrong with this result?"),
        max_length=MAX_TEXT,
        widget=forms.Textarea(attrs={"rows": 4}),
        # The limit said before the browser's maxlength stops the typing without a word,
        # translated when shown (an ngettext_lazy formatted here is translated at import,
        # in whatever language was active then, for every reader after).
        help_text=lazy(
            lambda: (
                ngettext(
                    "The organiser reads it and answers with a correction or a note. At most "
                    "%(limit)d character.",
                    "The organiser reads it and answers with a correction or a note. At most "
                    "%(limit)d characters.",
                    MAX_TEXT,
                )
                % {"limit": MAX_TEXT}
            ),
            str,
        )(),
    )


class DisputeResolutionForm(AccessibleForm):
    outcome = forms.ChoiceField(
        label=_("Answer"),
        choices=[
            (DisputeStatus.CORRECTED.value, _("The result was corrected")),
            (DisputeStatus.NOTED.value, _("The result stands; see the note")),
        ],
        widget=forms.RadioSelect,
    )
    note = forms.CharField(
        label=_("Note to the player"),
        max_length=MAX_TEXT,
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text=lazy(
            lambda: (
                ngettext(
                    "Needed when the result stands. At most %(limit)d character.",
                    "Needed when the result stands. At most %(limit)d characters.",
                    MAX_TEXT,
                )
                % {"limit": MAX_TEXT}
            ),
            str,
        )(),
    )
