"""Judge forms: how the dice are rolled for a draw, initiative or a ranking tie."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from rules.engine.dice import DiceError
from tournaments.domain.typed_dice import parse_typed_dice
from tournaments.forms.accessible import AccessibleForm

APP = "app"
PHYSICAL = "physical"


class DiceForm(AccessibleForm):
    mode = forms.ChoiceField(
        label=_("Dice"),
        choices=[
            (APP, _("Let the app roll (seed hash shown now, seed after)")),
            (PHYSICAL, _("We rolled physical dice; I type the values")),
        ],
        initial=APP,
        widget=forms.RadioSelect,
    )
    dice = forms.CharField(
        label=_("Physical dice, in rolling order"),
        required=False,
        help_text=_("Each d6 as a number from 1 to 6, separated by commas, e.g. 3,6,5."),
        widget=forms.TextInput(attrs={"inputmode": "numeric", "autocomplete": "off"}),
    )
    version = forms.IntegerField(widget=forms.HiddenInput)

    def clean(self) -> dict[str, Any]:
        super().clean()
        cleaned = self.cleaned_data
        if cleaned.get("mode") == PHYSICAL:
            text = cleaned.get("dice", "")
            try:
                values = parse_typed_dice(text)
            except DiceError as error:
                self.add_error("dice", str(error))
                return cleaned
            if not values:
                self.add_error("dice", _("Type the dice you rolled, e.g. 3,6,5."))
            cleaned["values"] = values
        return cleaned
