"""Squads, weapons and chapter cards as plain data (RULES §1, §5), with the defaults.

The loadout rules (:mod:`tournaments.domain.loadout`) take a :class:`Catalogue`; the database
feeds one per tournament, and :data:`DEFAULT_CATALOGUE` is what a new tournament starts
from. Names are given in English and Italian; :meth:`Named.display_name` picks the
active language.

Chapter cards. Each chapter has 12 cards, 4 orders and 8 equipment (Targeter is printed
twice): the complete decks are shipped as the engine's data (:data:`rules.engine.card_names.
CARD_DATA`, from which the engine names the cards too), each card with its chapters, its
names (an Italian name only where an edition's name is known), whether it is discarded
after use or lasts the session, an effect code for the engine, the effect in this
project's own words, its sources and its confidence (RULES §5, §10b). A card printed
twice gets one slug per copy (``targeter``, ``targeter-2``). ``docs/chapter-cards.md`` lists
the decks.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path

from django.utils.translation import get_language
from django.utils.translation import gettext as _

from rules.engine.card_names import SHIPPED_DECK
from rules.engine.catalogue_classes import SQUAD_WEAPON_KEYS
from rules.engine.figure_names import WEAPON_NAMES
from rules.engine.units import load_rules_data


class WeaponClass(StrEnum):
    LIGHT = "light"  # laser rifle, laser pistol, bolter
    HEAVY = "heavy"  # assault cannon, missile launcher, plasma gun
    EXTRA_HEAVY = "extra_heavy"  # lascannon, melta, conversion beamer
    CLOSE = "close"  # power axe, power sword, power glove


class CardKind(StrEnum):
    ORDER = "order"
    EQUIPMENT = "equipment"


@dataclass(frozen=True)
class Named:
    slug: str
    name_en: str
    name_it: str

    def display_name(self) -> str:
        return _in_language(self.name_en, self.name_it)


def _in_language(english: str, italian: str) -> str:
    """``italian`` when the active language is Italian and it is given, else ``english``."""
    language = (get_language() or "en").split("-")[0]
    return italian if language == "it" and italian else english


@dataclass(frozen=True)
class SquadSpec(Named):
    """A squad (chapter) and its colour; weapons of that colour belong to its box."""

    colour: str = ""


@dataclass(frozen=True)
class WeaponSpec(Named):
    """A weapon type; ``colours`` are the squad colours it exists in (empty: every colour)."""

    weapon_class: WeaponClass = WeaponClass.LIGHT
    colours: frozenset[str] = field(default_factory=frozenset)

    def available_in(self, colour: str) -> bool:
        return not self.colours or colour in self.colours


class CardUse(StrEnum):
    """How long a card lasts: discarded after use, or in play for the whole session."""

    ONE_USE = "one_use"
    SESSION = "session"


class Confidence(StrEnum):
    """How well the sources support a card (RULES §10b)."""

    CONFIRMED = "confirmed"  # two independent sources or more
    ONE_SOURCE = "one_source"
    UNCERTAIN = "uncertain"


@dataclass(frozen=True)
class CardSpec(Named):
    """A chapter card of squad ``squad``.

    ``effect_code`` names the effect for the engine (the same for every copy and chapter),
    ``effect_en``/``effect_it`` say what it does in this project's own words, ``source`` where
    the card comes from and ``confidence`` how well the sources support it.
    """

    squad: str = ""
    kind: CardKind = CardKind.EQUIPMENT
    use: CardUse = CardUse.ONE_USE
    effect_code: str = ""
    effect_en: str = ""
    effect_it: str = ""
    source: str = ""
    confidence: Confidence = Confidence.ONE_SOURCE

    def effect(self) -> str:
        """The effect text in the active language (English when there is no Italian one)."""
        return _in_language(self.effect_en, self.effect_it)


def copy_names(cards: Iterable[CardSpec]) -> dict[str, str]:
    """Each card's name (by slug) in the active language, as a reader tells it from the
    other copies: a card printed more than once (Targeter) names each copy after the first
    ("Targeter (copy 2)")."""
    seen: Counter[str] = Counter()
    names = {}
    for card in cards:
        name = card.display_name()
        seen[name] += 1
        if seen[name] > 1:
            name = _("%(card)s (copy %(number)d)") % {"card": name, "number": seen[name]}
        names[card.slug] = name
    return names


#: Commander weapon combos (RULES §5), keyed like the loadout model's choices.
COMMANDER_COMBOS: dict[str, tuple[str, ...]] = {
    "axe_pistol": ("power-axe", "laser-pistol"),
    "bolter": ("bolter",),
    "sword_glove": ("power-sword", "power-glove"),
}

#: The weapon of which every squad needs at least one among its four marines.
LASER_RIFLE = "laser-rifle"


@dataclass(frozen=True)
class Catalogue:
    """Everything the loadout rules need to know about a tournament's material."""

    squads: tuple[SquadSpec, ...]
    weapons: tuple[WeaponSpec, ...]
    cards: tuple[CardSpec, ...]
    commander_combos: dict[str, tuple[str, ...]] = field(
        default_factory=lambda: dict(COMMANDER_COMBOS)
    )
    laser_rifle: str = LASER_RIFLE

    def squad(self, slug: str) -> SquadSpec | None:
        return next((squad for squad in self.squads if squad.slug == slug), None)

    def weapon(self, slug: str) -> WeaponSpec | None:
        return next((weapon for weapon in self.weapons if weapon.slug == slug), None)

    def chapter_cards(self, squad: str) -> tuple[CardSpec, ...]:
        return tuple(card for card in self.cards if card.squad == squad)

    def card_names(self, squad: str) -> dict[str, str]:
        """The names of squad ``squad``'s chapter cards by slug, in the active language, as
        every page listing a loadout shows them: each copy of a card printed more than once
        named apart (:func:`copy_names`: "Targeter", "Targeter (copy 2)")."""
        return copy_names(self.chapter_cards(squad))


_COLOURS = frozenset({"blue", "red", "yellow"})

DEFAULT_SQUADS: tuple[SquadSpec, ...] = (
    SquadSpec("ultramarines", "Ultramarines", "Ultramarines", colour="blue"),
    SquadSpec("blood-angels", "Blood Angels", "Angeli Sanguinari", colour="red"),
    SquadSpec("imperial-fists", "Imperial Fists", "Pugni d'Acciaio", colour="yellow"),
)


def _title(name: str) -> str:
    """A name as a list shows it: "cannone d'assalto" as "Cannone d'assalto"."""
    return name[:1].upper() + name[1:]


def _default_weapon(key: str) -> WeaponSpec:
    """The squad weapon ``key`` as the rules data describe it. Extra-heavy weapons are
    special equipment, not part of a chapter's box: they exist in any colour."""
    rules_class = load_rules_data().weapons[key].weapon_class
    weapon_class = WeaponClass.CLOSE if rules_class == "close_combat" else WeaponClass(rules_class)
    names = WEAPON_NAMES[key]
    return WeaponSpec(
        key.replace("_", "-"),
        _title(names["en"]),
        _title(names["it"]),
        weapon_class=weapon_class,
        colours=frozenset() if weapon_class == WeaponClass.EXTRA_HEAVY else _COLOURS,
    )


DEFAULT_WEAPONS: tuple[WeaponSpec, ...] = tuple(_default_weapon(key) for key in SQUAD_WEAPON_KEYS)

ALL_CHAPTERS: tuple[str, ...] = tuple(squad.slug for squad in DEFAULT_SQUADS)


def _copy_slug(slug: str, copy: int) -> str:
    """The slug of the ``copy``-th printed copy of a card (the first keeps the card's slug)."""
    return slug if copy == 1 else f"{slug}-{copy}"


def load_card_data(path: Path | None = None) -> tuple[CardSpec, ...]:
    """The chapter cards of ``path`` (None: the shipped decks), chapter by chapter, one spec
    per printed copy."""
    entries = json.loads(path.read_text(encoding="utf-8"))["cards"] if path else SHIPPED_DECK
    specs = {
        chapter: [
            CardSpec(
                _copy_slug(entry["slug"], copy),
                entry["name_en"],
                entry["name_it"],
                squad=chapter,
                kind=CardKind(entry["kind"]),
                use=CardUse(entry["use"]),
                effect_code=entry["effect_code"],
                effect_en=entry["effect_en"],
                effect_it=entry["effect_it"],
                source=entry["source"],
                confidence=Confidence(entry["confidence"]),
            )
            for entry in entries
            if chapter in entry["chapters"]
            for copy in range(1, entry.get("copies", 1) + 1)
        ]
        for chapter in ALL_CHAPTERS
    }
    return tuple(spec for chapter in ALL_CHAPTERS for spec in specs[chapter])


DEFAULT_CARDS: tuple[CardSpec, ...] = load_card_data()

DEFAULT_CATALOGUE = Catalogue(squads=DEFAULT_SQUADS, weapons=DEFAULT_WEAPONS, cards=DEFAULT_CARDS)
