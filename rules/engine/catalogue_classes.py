"""The class a tournament's catalogue gives each squad weapon, as the rules data read it.

An organiser sets a squad weapon's class on the catalogue's weapon form (a bolter made a
heavy weapon); the loadout checks, the result form and the board all play that class
(``docs/decisions.md``, decision 69 of the tournament rules). Every reading of a
tournament's rules data merges the catalogue's classes into its overrides here, so a
Dreadnought class the house rules let mount that bolter reads the same way wherever it is
read. Catalogue classes are ``light``, ``heavy``, ``extra_heavy`` and ``close``; weapons
by slug (``laser-rifle``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.engine.units import RulesData, load_rules_data

#: The weapons a squad may carry, by the engine's key: their default names are the engine's
#: (:data:`rules.engine.figure_names.WEAPON_NAMES`; a name a tournament gives one reaches
#: the step log and the board through its naming table,
#: :func:`tournaments.queries.tournament_catalogue.weapon_names`) and their class the rules
#: data's, so each has one home. The aliens' guns and the Tarantula's twin lascannon are
#: nobody's to choose.
SQUAD_WEAPON_KEYS: tuple[str, ...] = (
    "laser_rifle",
    "laser_pistol",
    "bolter",
    "assault_cannon",
    "missile_launcher",
    "plasma_gun",
    "lascannon",
    "melta",
    "conversion_beamer",
    "power_axe",
    "power_sword",
    "power_glove",
)


def weapon_key(slug: str) -> str | None:
    """The engine's key of a catalogue weapon (``laser-rifle``: ``laser_rifle``), None for a
    weapon that is none of :data:`SQUAD_WEAPON_KEYS`."""
    key = slug.replace("-", "_")
    return key if key in SQUAD_WEAPON_KEYS else None


def engine_weapon_class(weapon_class: str) -> str:
    """A catalogue weapon class as the rules data name it (``close``: ``close_combat``)."""
    return "close_combat" if weapon_class == "close" else str(weapon_class)


def with_catalogue_classes(
    overrides: Mapping[str, Any], classes: Mapping[str, str]
) -> dict[str, Any]:
    """Rules data ``overrides`` with the class the catalogue gives each squad weapon
    (``classes``: catalogue class by weapon slug), where it is not the shipped rules data's:
    the catalogue's weapon form is the one place a weapon's class is set (RULES §5), and the
    board plays what the loadout checks and the result form count (the marine's kind, its
    move, its worth). A slug that is no squad weapon is left out."""
    shipped = load_rules_data().weapons
    changed = {
        key: engine_weapon_class(weapon_class)
        for slug, weapon_class in classes.items()
        if (key := weapon_key(slug)) is not None
        and engine_weapon_class(weapon_class) != shipped[key].weapon_class
    }
    if not changed:
        return dict(overrides)
    weapons = dict(overrides.get("weapons") or {})
    for key, weapon_class in changed.items():
        entry = weapons.get(key)
        weapons[key] = {
            **(entry if isinstance(entry, Mapping) else {}),
            "weapon_class": weapon_class,
        }
    return {**overrides, "weapons": weapons}


def catalogue_rules_data(
    overrides: Mapping[str, Any] | None, classes: Mapping[str, str]
) -> RulesData:
    """The rules data a tournament plays: the shipped data with its ``overrides`` (its
    house rules and catalogue values) and its catalogue's weapon ``classes`` (by slug).
    Raises :class:`~rules.engine.units.RulesDataError` when they do not read together."""
    merged = with_catalogue_classes(overrides or {}, classes)
    return load_rules_data(merged or None)
