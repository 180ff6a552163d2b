"""Unit, weapon, token and Dreadnought-class data (RULES §10b), loaded from ``data/*.json``.

Every number about units is data: the JSON files ship defaults, each leaf recorded as
``{"value": ..., "source": ..., "unverified": true?}`` so a judge can see where a value comes
from and which ones no reliable source backs. A tournament overrides values with a plain
nested dict mirroring the data tree (``{"units": {"gretchin": {"armour": 1}}}``); the override
is deep-merged and validated, and every error names the key path that is wrong.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any

from rules.engine.caches import memoised
from rules.engine.data_errors import data_error_text

DATA_DIR = Path(__file__).with_name("data")
DATA_FILES = ("units.json", "weapons.json", "tokens.json", "dreadnought_classes.json")
OVERRIDE_SOURCE = "tournament override"
#: Top-level sections of a tournament's ``data_overrides`` that other modules read (the
#: results' point values, the alien event deck, the Solitaire tables); the unit data
#: loader skips them instead of reporting them as unknown keys.
OTHER_SECTIONS = ("scoring", "events", "solitaire")

SIDES = ("marine", "alien")
WEAPON_CLASSES = ("light", "heavy", "extra_heavy", "close_combat")
PATTERNS = ("single", "split", "blast", "line", "lascannon", "melta", "conversion", "none")
HEAVY_CLASSES = ("heavy", "extra_heavy")
#: The unit of a marine (not the commander) by the class of the weapon it carries, the
#: heaviest first (RULES §10b: a heavy-weapon marine moves 4); "marine" for the others.
MARINE_UNITS_BY_CLASS = {"extra_heavy": "extra_heavy_weapon_marine", "heavy": "heavy_weapon_marine"}
#: Every unit a marine (not the commander) may be.
MARINE_UNITS = frozenset({"marine", *MARINE_UNITS_BY_CLASS.values()})


class RulesDataError(ValueError):
    """Rules data (defaults or a tournament override) is invalid; the message names the key.

    ``RulesDataError("unknown_weapon", key=..., known=...)`` names a code of
    :data:`rules.engine.data_errors.DATA_ERRORS`; ``str()`` is the English text and
    :meth:`text_in` the text in another language."""

    def __init__(self, code: str, /, **params: Any) -> None:
        self.code = code
        self.params = params
        super().__init__(data_error_text(code, params, "en"))

    def text_in(self, lang: str) -> str:
        """The message in ``lang`` ("it" or "en")."""
        return data_error_text(self.code, self.params, lang)


@dataclass(frozen=True)
class Source:
    """Where a data value comes from, and whether only a weak source backs it."""

    text: str
    unverified: bool = False


@dataclass(frozen=True, order=True)
class DiceSpec:
    """A handful of combat dice: how many white (light) and red (heavy)."""

    white: int = 0
    red: int = 0

    def __add__(self, other: DiceSpec) -> DiceSpec:
        return DiceSpec(self.white + other.white, self.red + other.red)

    def times(self, factor: int) -> DiceSpec:
        return DiceSpec(self.white * factor, self.red * factor)

    @property
    def count(self) -> int:
        return self.white + self.red

    def __str__(self) -> str:
        parts = []
        if self.red:
            parts.append(f"{self.red} red")
        if self.white:
            parts.append(f"{self.white} white")
        return " + ".join(parts) if parts else "no dice"


@dataclass(frozen=True)
class Weapon:
    key: str
    name: str
    weapon_class: str  # light | heavy | extra_heavy | close_combat
    dice: DiceSpec  # rolled per shot
    pattern: str  # single | split | blast | line | lascannon | melta | conversion | none
    shots: int
    hand_to_hand: DiceSpec | None

    @property
    def is_heavy(self) -> bool:
        """Heavy or extra-heavy: the weapons a Dreadnought loses one by one."""
        return self.weapon_class in HEAVY_CLASSES

    @property
    def can_shoot(self) -> bool:
        return self.pattern != "none" and self.shots > 0 and self.dice.count > 0


@dataclass(frozen=True)
class UnitType:
    key: str
    name: str
    side: str
    movement: int
    armour: int
    life_points: int
    life_points_per_heavy_weapon: int
    hand_to_hand: DiceSpec
    size: int
    weapons: tuple[str, ...]
    weapon_options: tuple[tuple[str, ...], ...]


@dataclass(frozen=True)
class DreadnoughtClass:
    key: str
    name: str
    movement: int
    heavy_weapons: int
    laser_rifles: bool
    weapon_choices: tuple[str, ...]
    default_weapons: tuple[str, ...]
    class_value: int


#: The least a Dreadnought class is worth (RULES §7: 25 or more): the catalogue's class
#: values, a stage's Dreadnought value and the scoring hold to it.
LEAST_CLASS_VALUE = 25


@dataclass(frozen=True)
class RulesData:
    """All unit data of one tournament (defaults merged with its overrides)."""

    units: Mapping[str, UnitType]
    weapons: Mapping[str, Weapon]
    dreadnought_classes: Mapping[str, DreadnoughtClass]
    alien_tokens: Mapping[str, int]
    marine_values: Mapping[str, int]
    tarantula_destroyed: int
    tarantula_gunner_armour_inside_arc: int
    tarantula_arc_half_width: int
    bulkhead_door_armour: int
    lascannon_area: tuple[tuple[int, int], ...]  # offsets from the aimed top-left square
    sources: Mapping[str, Source]

    def unit(self, key: str) -> UnitType:
        try:
            return self.units[key]
        except KeyError:
            known = ", ".join(sorted(self.units))
            raise RulesDataError("unknown_unit", key=key, known=known) from None

    def weapon(self, key: str) -> Weapon:
        try:
            return self.weapons[key]
        except KeyError:
            known = ", ".join(sorted(self.weapons))
            raise RulesDataError("unknown_weapon", key=key, known=known) from None

    def dreadnought_class(self, key: str) -> DreadnoughtClass:
        try:
            return self.dreadnought_classes[key]
        except KeyError:
            known = ", ".join(sorted(self.dreadnought_classes))
            raise RulesDataError("unknown_dreadnought_class", key=key, known=known) from None

    def dreadnought_weapons(
        self, class_key: str, heavy: tuple[str, ...] | list[str] | None = None
    ) -> tuple[str, ...]:
        """A Dreadnought's weapon list: its heavy weapons (the class defaults, or ``heavy``
        as the session notes name them), then the laser rifles if the class mounts them."""
        cls = self.dreadnought_class(class_key)
        chosen = tuple(cls.default_weapons if heavy is None else heavy)
        if len(chosen) != cls.heavy_weapons:
            raise RulesDataError(
                "dreadnought_weapon_count",
                name=cls.name,
                mounts=cls.heavy_weapons,
                given=len(chosen),
            )
        for weapon_key in chosen:
            if weapon_key not in cls.weapon_choices:
                raise RulesDataError(
                    "dreadnought_weapon_choice",
                    name=cls.name,
                    weapon=weapon_key,
                    choices=", ".join(cls.weapon_choices),
                )
        return chosen + (("laser_rifle",) if cls.laser_rifles else ())

    def movement(self, unit_key: str, equipment: tuple[str, ...] | list[str] = ()) -> int:
        """A figure's movement; a Dreadnought moves as its class (named in its equipment)."""
        if unit_key == "dreadnought":
            for item in equipment:
                if item in self.dreadnought_classes:
                    return self.dreadnought_classes[item].movement
        return self.unit(unit_key).movement

    def source(self, path: str) -> Source:
        """The source of one value, by its dotted path (``"units.ork.armour"``)."""
        try:
            return self.sources[path]
        except KeyError:
            raise RulesDataError("no_data_value", path=path) from None

    def unverified_paths(self) -> list[str]:
        return sorted(path for path, src in self.sources.items() if src.unverified)

    def hand_to_hand_dice(self, unit_key: str, weapons: tuple[str, ...] | list[str]) -> DiceSpec:
        """Hand-to-hand dice of a figure: its close-combat weapons' dice, else the unit's."""
        close = [self.weapon(w).hand_to_hand for w in weapons]
        close_dice = [d for d in close if d is not None]
        if close_dice:
            total = DiceSpec()
            for dice in close_dice:
                total = total + dice
            return total
        return self.unit(unit_key).hand_to_hand

    def max_life_points(self, unit_key: str, weapons: tuple[str, ...] | list[str]) -> int:
        """Starting life points; a Dreadnought has one more than its heavy weapons."""
        unit = self.unit(unit_key)
        heavy = sum(1 for w in weapons if self.weapon(w).is_heavy)
        return unit.life_points + unit.life_points_per_heavy_weapon * heavy

    def marine_unit(self, weapons: tuple[str, ...] | list[str]) -> str:
        """The unit of a marine (not the commander) carrying ``weapons``: its weapons'
        class makes it a light, heavy or extra-heavy weapon marine, whose move, armour
        and life points it has (RULES §10b), as its worth follows the class (RULES §7)."""
        classes = {self.weapon(w).weapon_class for w in weapons}
        return next(
            (unit for cls, unit in MARINE_UNITS_BY_CLASS.items() if cls in classes), "marine"
        )

    def marine_value(
        self, unit_key: str, weapons: tuple[str, ...] | list[str], *, gunner: bool = False
    ) -> int:
        """Points a marine is worth when killed (RULES §7)."""
        if gunner:
            return self.marine_values["tarantula_gunner"]
        if unit_key == "commander":
            return self.marine_values["commander"]
        classes = {self.weapon(w).weapon_class for w in weapons}
        if "extra_heavy" in classes:
            return self.marine_values["extra_heavy"]
        if "heavy" in classes:
            return self.marine_values["heavy"]
        if "light" in classes:
            return self.marine_values["light"]
        return self.marine_values["unarmed"]


# --- loading and validation -------------------------------------------------------------


def _is_record(node: Any) -> bool:
    return isinstance(node, dict) and "value" in node


@memoised("units.default_tree_json", bound=1, depends_on="the data files")
def _default_tree_json() -> str:
    tree: dict[str, Any] = {}
    for name in DATA_FILES:
        with (DATA_DIR / name).open(encoding="utf-8") as handle:
            content = json.load(handle)
        for key, value in content.items():
            if key.startswith("_"):
                continue
            if key in tree:
                raise RulesDataError("defined_twice", file=name, key=key)
            tree[key] = value
    return json.dumps(tree)


def default_tree() -> dict[str, Any]:
    """The default data tree (records with value and source), as a fresh copy."""
    return json.loads(_default_tree_json())


def _as_record(value: Any, path: str) -> dict[str, Any]:
    if _is_record(value):
        extra = set(value) - {"value", "source", "unverified"}
        if extra:
            raise RulesDataError("record_keys", path=path, keys=sorted(extra))
        record = {"value": value["value"], "source": value.get("source", OVERRIDE_SOURCE)}
        if value.get("unverified"):
            record["unverified"] = True
        return record
    return {"value": value, "source": OVERRIDE_SOURCE}


def _merge(
    base: dict[str, Any], override: Any, path: str, new_entry_fields: set[str] | None
) -> None:
    """Deep-merge ``override`` (plain values or records) into the record tree ``base``."""
    if not isinstance(override, dict):
        raise RulesDataError("expected_object", path=path or "overrides", value=override)
    for key, value in override.items():
        where = f"{path}.{key}" if path else key
        if key in base:
            if _is_record(base[key]):
                base[key] = _as_record(value, where)
            else:
                _merge(base[key], value, where, None)
        elif new_entry_fields is not None:
            # A new entry (a house-rule unit or weapon): every field must be given.
            if not isinstance(value, dict):
                raise RulesDataError("new_entry_object", path=where)
            missing = new_entry_fields - set(value)
            if missing:
                raise RulesDataError("new_entry_missing", path=where, fields=sorted(missing))
            base[key] = {}
            for field_name, field_value in value.items():
                if field_name not in new_entry_fields:
                    raise RulesDataError(
                        "unknown_field",
                        path=f"{where}.{field_name}",
                        known=", ".join(sorted(new_entry_fields)),
                    )
                base[key][field_name] = _as_record(field_value, f"{where}.{field_name}")
        else:
            known = ", ".join(sorted(base)) or "(none)"
            raise RulesDataError("unknown_key", path=where, known=known)


@dataclass(frozen=True)
class ValueDifference:
    """One value two sets of overrides disagree on: its key ``path``
    (``units.marine.movement``) and what each gives as the data would read it (the default
    when it sets none; None when there is no default either)."""

    path: str
    ours: Any
    theirs: Any


def override_differences(ours: Any, theirs: Any) -> list[ValueDifference]:
    """Every value on which the overrides ``theirs`` would give other rules data than
    ``ours``, sorted by path. Values are compared one by one (a record by its value, an
    object key by key), a value a side does not set counting as the default, so an
    override that restates the default differs from nothing."""
    defaults = _leaves(default_tree())
    mine, other = _leaves(ours or {}), _leaves(theirs or {})
    found = []
    for path in sorted(set(mine) | set(other)):
        kept = mine.get(path, defaults.get(path))
        given = other.get(path, defaults.get(path))
        if kept != given:
            found.append(ValueDifference(path, kept, given))
    return found


def _leaves(node: Any, path: str = "") -> dict[str, Any]:
    """``node`` as ``{dotted path: value}``: a record stands for its value, an object for
    each of its keys, anything else is one value."""
    if _is_record(node):
        return _leaves(node["value"], path)
    if not isinstance(node, Mapping):
        return {path: node}
    leaves: dict[str, Any] = {}
    for key, value in node.items():
        leaves.update(_leaves(value, f"{path}.{key}" if path else str(key)))
    return leaves


#: Categories whose entries are objects of fields; an override may add a complete new entry.
_ENTRY_CATEGORIES = ("units", "weapons", "dreadnought_classes")


def merge_overrides(tree: dict[str, Any], overrides: Mapping[str, Any] | None) -> dict[str, Any]:
    """Return ``tree`` with ``overrides`` deep-merged (``tree`` is not changed)."""
    merged = copy.deepcopy(tree)
    if not overrides:
        return merged
    if not isinstance(overrides, Mapping):
        raise RulesDataError("expected_object", path="overrides", value=overrides)
    for key, value in overrides.items():
        if key in OTHER_SECTIONS:
            continue
        if key not in merged:
            raise RulesDataError("unknown_key", path=key, known=", ".join(sorted(merged)))
        if _is_record(merged[key]):
            merged[key] = _as_record(value, key)
            continue
        fields = None
        if key in _ENTRY_CATEGORIES:
            fields = set(next(iter(merged[key].values())))
        if key == "alien_tokens":
            if not isinstance(value, dict):
                raise RulesDataError("expected_object", path=key, value=value)
            for token, token_value in value.items():
                merged[key][token] = _as_record(token_value, f"{key}.{token}")
            continue
        _merge(merged[key], value, key, fields)
    return merged


def _int(value: Any, path: str, minimum: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RulesDataError("whole_number", path=path, value=value)
    if value < minimum:
        raise RulesDataError("at_least", path=path, minimum=minimum, value=value)
    return value


def _str(value: Any, path: str, choices: tuple[str, ...] | None = None) -> str:
    if not isinstance(value, str) or not value:
        raise RulesDataError("non_empty_text", path=path, value=value)
    if choices is not None and value not in choices:
        raise RulesDataError("not_a_choice", path=path, value=value, choices=", ".join(choices))
    return value


def _bool(value: Any, path: str) -> bool:
    if not isinstance(value, bool):
        raise RulesDataError("true_or_false", path=path, value=value)
    return value


def dice_from_data(value: Any, path: str, *, either: bool = False) -> DiceSpec:
    """``{"white": n, "red": m}`` (whole numbers from 0) as a :class:`DiceSpec`; with
    ``either``, a colour left out is none of it (``{"red": 2}``, as an event card's dice
    are written). Raises :class:`RulesDataError` naming ``path``."""
    colours = {"white", "red"}
    keys = set(value) if isinstance(value, dict) else None
    if keys is None or not keys or (keys - colours if either else keys != colours):
        raise RulesDataError("dice", path=path, value=value)
    return DiceSpec(
        _int(value.get("white", 0), f"{path}.white"), _int(value.get("red", 0), f"{path}.red")
    )


def _weapon_list(value: Any, path: str, known: Mapping[str, Any]) -> tuple[str, ...]:
    if not isinstance(value, list):
        raise RulesDataError("weapon_list", path=path, value=value)
    for index, item in enumerate(value):
        if item not in known:
            raise RulesDataError(
                "unknown_weapon_at",
                path=f"{path}[{index}]",
                key=item,
                known=", ".join(sorted(known)),
            )
    return tuple(value)


def _offsets(value: Any, path: str) -> tuple[tuple[int, int], ...]:
    if not isinstance(value, list) or not value:
        raise RulesDataError("offsets", path=path)
    out = []
    for i, item in enumerate(value):
        if not isinstance(item, list) or len(item) != 2:
            raise RulesDataError("offset_pair", path=f"{path}[{i}]", value=item)
        dx, dy = item
        for name, v in (("dx", dx), ("dy", dy)):
            if isinstance(v, bool) or not isinstance(v, int):
                raise RulesDataError("offset_whole", path=f"{path}[{i}]", name=name, value=v)
        out.append((dx, dy))
    return tuple(out)


def _values(entry: dict[str, Any]) -> dict[str, Any]:
    return {key: record["value"] for key, record in entry.items()}


def build_rules_data(tree: dict[str, Any]) -> RulesData:
    """Validate a merged record tree and build the typed :class:`RulesData`."""
    sources: dict[str, Source] = {}

    def collect(node: Any, path: str) -> None:
        if _is_record(node):
            if not isinstance(node.get("source"), str) or not node["source"]:
                raise RulesDataError("needs_source", path=path)
            sources[path] = Source(node["source"], bool(node.get("unverified", False)))
            return
        if not isinstance(node, dict):
            raise RulesDataError("value_record", path=path)
        for key, child in node.items():
            collect(child, f"{path}.{key}" if path else key)

    collect(tree, "")

    weapons: dict[str, Weapon] = {}
    for key, entry in tree["weapons"].items():
        v = _values(entry)
        p = f"weapons.{key}"
        hth = v["hand_to_hand"]
        weapons[key] = Weapon(
            key=key,
            name=_str(v["name"], f"{p}.name"),
            weapon_class=_str(v["weapon_class"], f"{p}.weapon_class", WEAPON_CLASSES),
            dice=dice_from_data(v["dice"], f"{p}.dice"),
            pattern=_str(v["pattern"], f"{p}.pattern", PATTERNS),
            shots=_int(v["shots"], f"{p}.shots"),
            hand_to_hand=None if hth is None else dice_from_data(hth, f"{p}.hand_to_hand"),
        )

    units: dict[str, UnitType] = {}
    for key, entry in tree["units"].items():
        v = _values(entry)
        p = f"units.{key}"
        options = v["weapon_options"]
        if not isinstance(options, list) or not options:
            raise RulesDataError("weapon_options", path=f"{p}.weapon_options")
        units[key] = UnitType(
            key=key,
            name=_str(v["name"], f"{p}.name"),
            side=_str(v["side"], f"{p}.side", SIDES),
            movement=_int(v["movement"], f"{p}.movement"),
            armour=_int(v["armour"], f"{p}.armour"),
            life_points=_int(v["life_points"], f"{p}.life_points", 1),
            life_points_per_heavy_weapon=_int(
                v["life_points_per_heavy_weapon"], f"{p}.life_points_per_heavy_weapon"
            ),
            hand_to_hand=dice_from_data(v["hand_to_hand"], f"{p}.hand_to_hand"),
            size=_int(v["size"], f"{p}.size", 1),
            weapons=_weapon_list(v["weapons"], f"{p}.weapons", weapons),
            weapon_options=tuple(
                _weapon_list(option, f"{p}.weapon_options[{i}]", weapons)
                for i, option in enumerate(options)
            ),
        )

    classes: dict[str, DreadnoughtClass] = {}
    for key, entry in tree["dreadnought_classes"].items():
        v = _values(entry)
        p = f"dreadnought_classes.{key}"
        choices = _weapon_list(v["weapon_choices"], f"{p}.weapon_choices", weapons)
        default = _weapon_list(v["default_weapons"], f"{p}.default_weapons", weapons)
        heavy = _int(v["heavy_weapons"], f"{p}.heavy_weapons", 1)
        for index, weapon_key in enumerate(choices):
            if not weapons[weapon_key].is_heavy:
                raise RulesDataError(
                    "not_heavy", path=f"{p}.weapon_choices[{index}]", weapon=weapon_key
                )
        for index, weapon_key in enumerate(default):
            if weapon_key not in choices:
                raise RulesDataError(
                    "not_a_class_choice", path=f"{p}.default_weapons[{index}]", weapon=weapon_key
                )
        if len(default) != heavy:
            raise RulesDataError(
                "default_weapon_count",
                path=f"{p}.default_weapons",
                given=len(default),
                mounts=heavy,
            )
        classes[key] = DreadnoughtClass(
            key=key,
            name=_str(v["name"], f"{p}.name"),
            movement=_int(v["movement"], f"{p}.movement"),
            heavy_weapons=heavy,
            laser_rifles=_bool(v["laser_rifles"], f"{p}.laser_rifles"),
            weapon_choices=choices,
            default_weapons=default,
            class_value=_int(v["class_value"], f"{p}.class_value"),
        )

    tokens = {
        key: _int(record["value"], f"alien_tokens.{key}")
        for key, record in tree["alien_tokens"].items()
    }
    for key in units:
        if units[key].side == "alien" and key not in tokens:
            raise RulesDataError("token_missing", path=f"alien_tokens.{key}")
    marine_values = {
        key: _int(record["value"], f"marine_values.{key}")
        for key, record in tree["marine_values"].items()
    }
    return RulesData(
        units=MappingProxyType(units),
        weapons=MappingProxyType(weapons),
        dreadnought_classes=MappingProxyType(classes),
        alien_tokens=MappingProxyType(tokens),
        marine_values=MappingProxyType(marine_values),
        tarantula_destroyed=_int(tree["tarantula_destroyed"]["value"], "tarantula_destroyed"),
        tarantula_gunner_armour_inside_arc=_int(
            tree["tarantula"]["gunner_armour_inside_arc"]["value"],
            "tarantula.gunner_armour_inside_arc",
        ),
        tarantula_arc_half_width=_int(
            tree["tarantula"]["arc_half_width"]["value"], "tarantula.arc_half_width"
        ),
        bulkhead_door_armour=_int(tree["bulkhead_door"]["armour"]["value"], "bulkhead_door.armour"),
        lascannon_area=_offsets(
            tree["templates"]["lascannon_area"]["value"], "templates.lascannon_area"
        ),
        sources=MappingProxyType(sources),
    )


@memoised("units.load_cached", bound=32, depends_on="the data files and the overrides")
def _load_cached(overrides_json: str) -> RulesData:
    overrides = json.loads(overrides_json) if overrides_json else None
    return build_rules_data(merge_overrides(default_tree(), overrides))


def load_rules_data(overrides: Mapping[str, Any] | None = None) -> RulesData:
    """Default unit data deep-merged with a tournament's ``overrides`` (validated, cached)."""
    if overrides is None:
        return _load_cached("")
    if not isinstance(overrides, Mapping):
        raise RulesDataError("expected_object", path="overrides", value=overrides)
    try:
        key = json.dumps(overrides, sort_keys=True)
    except (TypeError, ValueError) as exc:
        raise RulesDataError("not_json", problem=str(exc)) from None
    return _load_cached(key)
