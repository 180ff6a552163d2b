"""Squads, weapons and chapter cards as plain data (RULES §1, §5), with the defaults.

The loadout rules (:mod:`tournaments.loadout`) take a :class:`Catalogue`; the database
feeds one per tournament, and :data:`DEFAULT_CATALOGUE` is what a new tournament starts
from. Names are given in English and Italian; :meth:`Named.display_name` picks the
active language.

Chapter cards. The seeds name only a few cards: seed 002 names the order cards that let
a Tarantula move and fire more ("All'Attacco!", "Muoversi!", "Fuoco!") without saying
which chapters hold them, and seed 003 names the Ultramarines' equipment card "Pronto
Soccorso". Those are the only defaults shipped: the order cards are given to every
chapter (marked unverified), and the organiser completes each chapter's 12 cards (names
and texts) in the tournament's data. No card name is invented here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from django.utils.translation import get_language


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
        language = (get_language() or "en").split("-")[0]
        return self.name_it if language == "it" and self.name_it else self.name_en


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


@dataclass(frozen=True)
class CardSpec(Named):
    """A chapter card of squad ``squad``; ``source`` says where its name comes from."""

    squad: str = ""
    kind: CardKind = CardKind.EQUIPMENT
    source: str = ""


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


_COLOURS = frozenset({"blue", "red", "yellow"})

DEFAULT_SQUADS: tuple[SquadSpec, ...] = (
    SquadSpec("ultramarines", "Ultramarines", "Ultramarines", colour="blue"),
    SquadSpec("blood-angels", "Blood Angels", "Angeli Sanguinari", colour="red"),
    SquadSpec("imperial-fists", "Imperial Fists", "Pugni d'Acciaio", colour="yellow"),
)


def _weapon(slug: str, en: str, it: str, weapon_class: WeaponClass) -> WeaponSpec:
    return WeaponSpec(slug, en, it, weapon_class=weapon_class, colours=_COLOURS)


DEFAULT_WEAPONS: tuple[WeaponSpec, ...] = (
    _weapon("laser-rifle", "Laser rifle", "Fucile Laser", WeaponClass.LIGHT),
    _weapon("laser-pistol", "Laser pistol", "Pistola Laser", WeaponClass.LIGHT),
    _weapon("bolter", "Bolter", "Bolter", WeaponClass.LIGHT),
    _weapon("assault-cannon", "Assault cannon", "Cannone d'Assalto", WeaponClass.HEAVY),
    _weapon("missile-launcher", "Missile launcher", "Lanciarazzi", WeaponClass.HEAVY),
    _weapon("plasma-gun", "Plasma gun", "Fucile al Plasma", WeaponClass.HEAVY),
    # Extra-heavy weapons are special equipment, not part of a chapter box: any colour.
    WeaponSpec("lascannon", "Lascannon", "Cannone Laser", weapon_class=WeaponClass.EXTRA_HEAVY),
    WeaponSpec("melta", "Melta", "Fucile a Fusione", weapon_class=WeaponClass.EXTRA_HEAVY),
    WeaponSpec(
        "conversion-beamer",
        "Conversion beamer",
        "Raggio a Conversione",
        weapon_class=WeaponClass.EXTRA_HEAVY,
    ),
    _weapon("power-axe", "Power axe", "Ascia Mortale", WeaponClass.CLOSE),
    _weapon("power-sword", "Power sword", "Spada Mortale", WeaponClass.CLOSE),
    _weapon("power-glove", "Power glove", "Guanto Mortale", WeaponClass.CLOSE),
)

_TARANTULA_ORDERS_SOURCE = (
    "seed 002 (Tarantula, order cards): named as order cards; chapters not stated, unverified"
)


def _orders(squad: str) -> tuple[CardSpec, ...]:
    return (
        CardSpec(
            "charge",
            "Charge!",
            "All'Attacco!",
            squad=squad,
            kind=CardKind.ORDER,
            source=_TARANTULA_ORDERS_SOURCE,
        ),
        CardSpec(
            "move",
            "Move!",
            "Muoversi!",
            squad=squad,
            kind=CardKind.ORDER,
            source=_TARANTULA_ORDERS_SOURCE,
        ),
        CardSpec(
            "fire",
            "Fire!",
            "Fuoco!",
            squad=squad,
            kind=CardKind.ORDER,
            source=_TARANTULA_ORDERS_SOURCE,
        ),
    )


DEFAULT_CARDS: tuple[CardSpec, ...] = (
    *_orders("ultramarines"),
    CardSpec(
        "first-aid",
        "First Aid",
        "Pronto Soccorso",
        squad="ultramarines",
        kind=CardKind.EQUIPMENT,
        source="seed 003 (cards to change): an Ultramarines equipment card",
    ),
    *_orders("blood-angels"),
    *_orders("imperial-fists"),
)

DEFAULT_CATALOGUE = Catalogue(squads=DEFAULT_SQUADS, weapons=DEFAULT_WEAPONS, cards=DEFAULT_CARDS)
