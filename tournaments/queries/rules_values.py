"""The numbers of a tournament's units, weapons and Dreadnought classes (RULES §10b), and
each class's usual heavy weapons, as the organiser reviews and corrects them in the app:
each value with the tournament's figure, the shipped one, its source and whether only a
weak source backs it (``docs/unit-data.md``). The changes live in the tournament's rules
data overrides, the ones its games are played with."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from rules.engine.catalogue_classes import catalogue_rules_data
from rules.engine.narration import format_param
from rules.engine.units import (
    DiceSpec,
    DreadnoughtClass,
    RulesData,
    RulesDataError,
    UnitType,
    Weapon,
    load_rules_data,
)
from tournaments.domain.engine_language import narration_language
from tournaments.models import Tournament
from tournaments.queries.tournament_catalogue import catalogue_weapon_classes

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

#: The values the organiser corrects, by section of the rules data: whole numbers and dice.
VALUES: dict[str, tuple[str, ...]] = {
    "units": ("movement", "armour", "life_points", "hand_to_hand"),
    "weapons": ("dice", "shots", "hand_to_hand"),
    "dreadnought_classes": ("movement", "class_value", "default_weapons"),
}
#: What each value is called on the pages (the form's labels, the table's headings, the
#: activity log's changes).
LABELS: dict[str, StrOrPromise] = {
    "movement": gettext_lazy("Movement (squares)"),
    "armour": gettext_lazy("Armour"),
    "life_points": gettext_lazy("Life points"),
    "hand_to_hand": gettext_lazy("Hand-to-hand dice"),
    "dice": gettext_lazy("Dice per shot"),
    "shots": gettext_lazy("Shots"),
    "class_value": gettext_lazy("Class value (points for destroying it)"),
    "default_weapons": gettext_lazy("Usual heavy weapons"),
}


Value = int | DiceSpec | tuple[str, ...] | None


@dataclass(frozen=True)
class RulesValue:
    """One value of a unit or a weapon: the tournament's, the shipped one and its source."""

    name: str
    current: Value
    shipped: Value
    source: str
    unverified: bool

    @property
    def changed(self) -> bool:
        return self.current != self.shipped

    @property
    def text(self) -> str:
        """The tournament's value as the page shows it."""
        return shown(self.current)

    @property
    def is_list(self) -> bool:
        """A list of weapons, not a number: a table gives it room for its names."""
        return isinstance(self.current, tuple)


def shown(value: Value) -> str:
    """A value as the pages show it: a number, dice as "2 white + 1 red", weapons by name."""
    if isinstance(value, DiceSpec):
        return _("%(white)d white + %(red)d red") % {"white": value.white, "red": value.red}
    if isinstance(value, tuple):
        data, language = load_rules_data(), narration_language()
        return ", ".join(item_label(data, "weapons", key, language) for key in value)
    return "–" if value is None else str(value)


@dataclass(frozen=True)
class RulesItem:
    """A unit, a weapon or a Dreadnought class with its values. ``weapon_choices``: the
    weapons a Dreadnought class may mount (its usual weapons are among them); ``shoots``: a
    weapon fires (a close-combat weapon only adds hand-to-hand dice)."""

    section: str
    key: str
    label: str
    values: tuple[RulesValue, ...]
    weapon_choices: tuple[str, ...] = ()
    shoots: bool = False

    @property
    def unverified(self) -> int:
        return sum(1 for value in self.values if value.unverified)

    @property
    def changed(self) -> bool:
        return any(value.changed for value in self.values)


def tournament_rules_data(tournament: Tournament) -> tuple[RulesData, str]:
    """The tournament's rules data with its catalogue's weapon classes, as the board reads
    them, and, when they do not read (changes saved before the checks, or in the Django
    admin), the shipped data and what is wrong, in the page's language: the catalogue page
    says so above its values, so that the organiser can correct them there."""
    try:
        return catalogue_rules_data(
            tournament.data_overrides, catalogue_weapon_classes(tournament)
        ), ""
    except RulesDataError as error:
        return load_rules_data(), error.text_in(narration_language())


def section_entries(
    data: RulesData, section: str
) -> Mapping[str, UnitType | Weapon | DreadnoughtClass]:
    """The units, weapons or Dreadnought classes of ``data`` by key (``section``: a key of
    :data:`VALUES`, named as the rules data's own table)."""
    return getattr(data, section)


def item_label(data: RulesData, section: str, key: str, lang: str) -> str:
    """What a unit, a weapon or a Dreadnought class is called in ``lang`` (a class by its
    name, the same in both languages: "Mark VII Malignant")."""
    if section == "dreadnought_classes":
        return data.dreadnought_classes[key].name
    label = format_param("unit" if section == "units" else "weapon", key, lang)
    return label[:1].upper() + label[1:]


def heavy_weapon_choices(
    keys: tuple[str, ...] | None = None, data: RulesData | None = None
) -> list[tuple[str, str]]:
    """The heavy and extra-heavy weapons (what a Dreadnought mounts) of ``data`` (a
    tournament's rules data; None: the shipped) by key, named in the active language;
    ``keys``: only those (a class's weapon choices)."""
    data, language = data or load_rules_data(), narration_language()
    return [
        (key, item_label(data, "weapons", key, language))
        for key, weapon in data.weapons.items()
        if weapon.is_heavy and (keys is None or key in keys)
    ]


#: A weapon's values that only a weapon that fires has.
FIRING = ("dice", "shots")


def _item(section: str, key: str, current: RulesData, shipped: RulesData) -> RulesItem:
    table = section_entries(current, section)
    defaults = section_entries(shipped, section)
    entry = table[key]
    shoots = isinstance(entry, Weapon) and entry.pattern != "none"
    values = []
    for name in VALUES[section]:
        source = current.source(f"{section}.{key}.{name}")
        if isinstance(entry, Weapon) and not shoots and name in FIRING:
            # A close-combat weapon never fires: no dice per shot, no shots to correct.
            values.append(RulesValue(name, None, None, source.text, False))
            continue
        values.append(
            RulesValue(
                name,
                getattr(entry, name),
                getattr(defaults[key], name) if key in defaults else None,
                source.text,
                source.unverified,
            )
        )
    label = item_label(current, section, key, narration_language())
    choices = entry.weapon_choices if isinstance(entry, DreadnoughtClass) else ()
    return RulesItem(section, key, label, tuple(values), choices, shoots)


def rules_item(tournament: Tournament, section: str, key: str) -> RulesItem | None:
    """One unit or weapon of the tournament (None: no such section or key)."""
    current, _error = tournament_rules_data(tournament)
    if section not in VALUES or key not in section_entries(current, section):
        return None
    return _item(section, key, current, load_rules_data())


def rules_items(tournament: Tournament) -> tuple[dict[str, list[RulesItem]], str]:
    """Every unit and weapon of the tournament by section, and what is wrong with its
    stored changes (empty when nothing)."""
    current, error = tournament_rules_data(tournament)
    shipped = load_rules_data()
    return {
        section: [
            _item(section, key, current, shipped) for key in section_entries(current, section)
        ]
        for section in VALUES
    }, error
