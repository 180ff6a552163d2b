"""Judge forms: how the dice are rolled for a draw, initiative or a ranking tie."""

from __future__ import annotations

from typing import Any, ClassVar

from django import forms
from django.utils.translation import gettext_lazy as _

from rules.engine.dice import DiceError, DieKind
from tournaments.domain.typed_dice import parse_typed_dice
from tournaments.forms.accessible import AccessibleForm
from tournaments.models.row_ids import ROW_IDS

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
    #: The die every value is rolled with, when it is one kind: then every value it cannot
    #: show is named at once with every item that is not a number (else the roll names the
    #: first impossible value, when it gets there).
    die: ClassVar[DieKind | None] = None

    def add_error(self, field: str | None, error: Any) -> None:
        """Also the errors an action finds after validation bring the judge back to the
        dice field (the page reloads after a refused roll)."""
        super().add_error(field, error)
        if field == "dice":
            self.fields["dice"].widget.attrs.update(
                {
                    "autofocus": True,
                    "aria-invalid": "true",
                    "aria-describedby": f"id_{self.add_prefix('dice')}_error",
                }
            )

    def clean(self) -> dict[str, Any]:
        super().clean()
        cleaned = self.cleaned_data
        if cleaned.get("mode") == PHYSICAL:
            text = cleaned.get("dice", "")
            try:
                values = parse_typed_dice(text, self.die)
            except DiceError as error:
                self.add_error("dice", str(error))
                return cleaned
            if not values:
                self.add_error("dice", _("Type the dice you rolled, e.g. 3,6,5."))
            cleaned["values"] = values
        return cleaned


class RollOffForm(DiceForm):
    """Dice of the tournament's rules, all d6: the squad draw, initiative, a tie in the
    ranking, seating a stage and closing one."""

    die = DieKind.D6


class RedrawForm(RollOffForm):
    """The squad draw done again (a mistyped die), with the reason kept on record."""

    reason = forms.CharField(
        label=_("Why the draw is done again (kept on record)"),
        max_length=300,
        help_text=_("E.g. “die 3 was typed as 5, the player rolled 3”."),
    )

    field_order = ["reason", "mode", "dice", "version"]


class AttendanceForm(AccessibleForm):
    """A seated player checked in, or declared a no-show (decision 34)."""

    player = forms.IntegerField(
        widget=forms.HiddenInput, min_value=ROW_IDS.start, max_value=ROW_IDS.stop - 1
    )
    version = forms.IntegerField(widget=forms.HiddenInput)
