"""The organiser's form for one unit's or weapon's numbers (RULES §10b): whole numbers and
dice (white and red), each field saying the shipped value and its source."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from rules.engine.units import DiceSpec
from tournaments.forms.accessible import AccessibleForm
from tournaments.queries.rules_values import RulesItem, heavy_weapon_choices, shown

LABELS = {
    "movement": _("Movement (squares)"),
    "armour": _("Armour"),
    "life_points": _("Life points"),
    "hand_to_hand": _("Hand-to-hand dice"),
    "dice": _("Dice per shot"),
    "shots": _("Shots"),
    "class_value": _("Class value (points for destroying it)"),
    "default_weapons": _("Usual heavy weapons"),
}
#: Each section's table caption and the heading of its items' column.
SECTIONS = {
    "units": (_("Units"), _("Unit")),
    "weapons": (_("Weapons"), _("Weapon")),
    "dreadnought_classes": (_("Dreadnought classes"), _("Dreadnought class")),
}
COLOURS = {"white": _("white dice"), "red": _("red dice")}
WEAK = _("Only a weak source backs it: check it on your copy.")


def _number(label: str, initial: int, help_text: str) -> forms.IntegerField:
    return forms.IntegerField(
        label=label,
        min_value=0,
        max_value=99,
        initial=initial,
        help_text=help_text,
        error_messages={"required": _("Give a whole number (0 for none).")},
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "min": 0, "max": 99}),
    )


class RulesValuesForm(AccessibleForm):
    """The item's values; a weapon without hand-to-hand dice keeps none."""

    def __init__(self, *args: Any, item: RulesItem, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.item = item
        for value in item.values:
            if value.current is None:
                continue
            note = _("As shipped: %(value)s (source: %(source)s).") % {
                "value": shown(value.shipped),
                "source": value.source,
            }
            if value.unverified:
                note = f"{note} {WEAK}"
            label = str(LABELS[value.name])
            if isinstance(value.current, DiceSpec):
                for colour, words in COLOURS.items():
                    self.fields[f"{value.name}_{colour}"] = _number(
                        f"{label}: {words}", getattr(value.current, colour), note
                    )
            elif isinstance(value.current, tuple):
                weapons = heavy_weapon_choices()
                for number, weapon in enumerate(value.current, start=1):
                    self.fields[f"{value.name}_{number}"] = forms.ChoiceField(
                        label=f"{label}: {number}",
                        choices=weapons,
                        initial=weapon,
                        help_text=note if number == 1 else "",
                    )
            else:
                self.fields[value.name] = _number(label, value.current, note)

    def values(self) -> dict[str, int | dict[str, int] | list[str]]:
        """The cleaned values as the rules data writes them (dice as ``{"white", "red"}``,
        weapons as a list)."""
        data = self.cleaned_data
        out: dict[str, int | dict[str, int] | list[str]] = {}
        for value in self.item.values:
            if value.current is None:
                continue
            if isinstance(value.current, DiceSpec):
                out[value.name] = {colour: data[f"{value.name}_{colour}"] for colour in COLOURS}
            elif isinstance(value.current, tuple):
                out[value.name] = [
                    data[f"{value.name}_{number}"] for number in range(1, len(value.current) + 1)
                ]
            else:
                out[value.name] = data[value.name]
        return out
