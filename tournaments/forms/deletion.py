"""The organiser's confirmation that a tournament is to be deleted: its short name typed."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments.forms.accessible import AccessibleForm


class TournamentDeleteForm(AccessibleForm):
    confirmation = forms.CharField(
        label=_("The tournament's short name, to confirm"),
        max_length=80,
        widget=forms.TextInput(attrs={"autocomplete": "off", "autocapitalize": "none"}),
    )
