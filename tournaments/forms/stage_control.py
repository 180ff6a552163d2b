"""Organiser forms of stage control: a reasoned undo (of the last advance or a squad draw)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments.forms.accessible import AccessibleForm


class UndoForm(AccessibleForm):
    reason = forms.CharField(
        label=_("Why is it undone?"),
        max_length=500,
        widget=forms.Textarea(attrs={"rows": 2}),
        error_messages={"required": _("Say why it is undone (the reason is kept on record).")},
    )
    version = forms.IntegerField(widget=forms.HiddenInput, required=False)
