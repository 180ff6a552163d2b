"""The organiser's form for one unit's, weapon's or Dreadnought class's numbers (RULES §10b):
whole numbers and dice (white and red), each field saying the shipped value and its source,
each within the limits the rules and the engine need (``domain.rules_limits.LIMITS``), so
every refusal sits at its field, in words."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from django import forms
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _

from rules.engine.units import DiceSpec, RulesDataError
from tournaments.domain.engine_language import narration_language
from tournaments.domain.rules_limits import LIMITS, Limit
from tournaments.forms.accessible import AccessibleForm
from tournaments.forms.stale_edits import VersionedFormMixin
from tournaments.models import Tournament
from tournaments.queries.edit_versions import overrides_version
from tournaments.queries.rules_values import (
    LABELS,
    RulesItem,
    heavy_weapon_choices,
    shown,
    tournament_rules_data,
)

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

#: Each section's table caption and the heading of its items' column.
SECTIONS = {
    "units": (_("Units"), _("Unit")),
    "weapons": (_("Weapons"), _("Weapon")),
    "dreadnought_classes": (_("Dreadnought classes"), _("Dreadnought class")),
}
COLOURS = {"white": _("white dice"), "red": _("red dice")}
WEAK = _("Only a weak source backs it: check it on your copy.")
#: A rules data path as its problems name it: ``units.ork.hand_to_hand.white``,
#: ``dreadnought_classes.malignant.default_weapons[1]``.
_PATH = re.compile(
    r"^[a-z_]+\.[a-z0-9_]+\.(?P<name>[a-z_]+)(?:\.(?P<colour>white|red))?(?:\[(?P<index>\d+)\])?"
)


def _number(label: str, initial: int, help_text: str, limit: Limit) -> forms.IntegerField:
    if limit.why:
        outside = _("Give a whole number from %(low)d to %(high)d: %(why)s.") % {
            "low": limit.low,
            "high": limit.high,
            "why": limit.why,
        }
    else:
        outside = _("Give a whole number from %(low)d to %(high)d.") % {
            "low": limit.low,
            "high": limit.high,
        }
    return forms.IntegerField(
        label=label,
        min_value=limit.low,
        max_value=limit.high,
        initial=initial,
        help_text=help_text,
        error_messages={
            "required": _("Give a whole number (0 for none).") if limit.low == 0 else outside,
            "invalid": outside,
            "min_value": outside,
            "max_value": outside,
        },
        widget=forms.NumberInput(
            attrs={"inputmode": "numeric", "min": limit.low, "max": limit.high}
        ),
    )


class RulesValuesForm(VersionedFormMixin, AccessibleForm):
    """The item's values; a weapon without hand-to-hand dice keeps none, a close-combat
    weapon has no dice per shot nor shots (it never fires)."""

    def __init__(self, *args: Any, item: RulesItem, tournament: Tournament, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.item = item
        #: The tournament's rules data, whose weapons (a house rule's among them) a
        #: Dreadnought class's usual weapons are chosen from.
        self.rules, _problem = tournament_rules_data(tournament)
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
                limit = LIMITS[(item.section, value.name)]
                for colour, words in COLOURS.items():
                    self.fields[f"{value.name}_{colour}"] = _number(
                        f"{label}: {words}", getattr(value.current, colour), note, limit
                    )
            elif isinstance(value.current, tuple):
                weapons = heavy_weapon_choices(item.weapon_choices or None, self.rules)
                for number, weapon in enumerate(value.current, start=1):
                    self.fields[f"{value.name}_{number}"] = forms.ChoiceField(
                        label=f"{label}: {number}",
                        choices=weapons,
                        initial=weapon,
                        help_text=note if number == 1 else "",
                    )
            else:
                self.fields[value.name] = _number(
                    label, value.current, note, LIMITS[(item.section, value.name)]
                )
        self.add_version_fields(
            lambda: overrides_version(tournament, item.section, item.key), tournament=tournament
        )

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        if self.item.section == "weapons":
            if self.item.shoots:
                self._at_least_one_die(
                    "dice",
                    _("A weapon rolls at least one die per shot: give it white or red dice."),
                )
            else:
                self._at_least_one_die(
                    "hand_to_hand",
                    _(
                        "A close-combat weapon gives at least one die in hand-to-hand combat: "
                        "give it white or red dice."
                    ),
                )
        chosen = [
            data.get(name)
            for name in self.fields
            if name.startswith("default_weapons_") and data.get(name)
        ]
        for number, weapon in enumerate(chosen, start=1):
            if weapon in chosen[: number - 1]:
                self.add_error(
                    f"default_weapons_{number}",
                    _(
                        "%(weapon)s is already one of its usual weapons: a Dreadnought mounts "
                        "each weapon once; choose another."
                    )
                    % {
                        "weapon": dict(heavy_weapon_choices(data=self.rules)).get(
                            str(weapon), weapon
                        )
                    },
                )
        return data

    def _at_least_one_die(self, name: str, message: StrOrPromise) -> None:
        white, red = (self.cleaned_data.get(f"{name}_{colour}") for colour in COLOURS)
        if white == 0 and red == 0:
            self.add_error(f"{name}_white", message)

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

    def add_data_error(self, error: RulesDataError) -> None:
        """Put a problem of the whole rules data at the field it names, in words (the
        path "units.ork.armour" stands for the field's label); one no field shows goes
        above the form."""
        text = error.text_in(narration_language())
        path = str(error.params.get("path", ""))
        found = _PATH.match(path)
        field = None
        if found:
            name, colour, index = found.group("name", "colour", "index")
            if colour:
                field = f"{name}_{colour}"
            elif index is not None:
                field = f"{name}_{int(index) + 1}"
            else:
                field = name
        if field in self.fields:
            self.add_error(field, capfirst(text.replace(f"{path}: ", "", 1)))
        else:
            label = self.item.label
            self.add_error(None, text.replace(path, label, 1) if path else text)
