"""Squads, weapons and chapter cards as plain data (RULES §1, §5), with the defaults.

The loadout rules (:mod:`tournaments.domain.loadout`) take a :class:`Catalogue`; the database
feeds one per tournament, and :data:`DEFAULT_CATALOGUE` is what a new tournament starts
from. Names are given in English and Italian; :meth:`Named.display_name` picks the
active language.

Chapter cards. Each chapter has 12 cards in the original game, but the public sources
that could be searched name only a few of them; those are the defaults shipped here, each
with its source, an effect summary written for this project, which of its two names is
our own translation, and ``unverified`` when a single weak source supports it
(RULES §10b). No card is invented: the organiser completes each chapter's set in the
tournament's data. ``docs/chapter-cards.md`` lists the cards, the sources and the gaps.
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
    """A chapter card of squad ``squad``.

    ``source`` says where the card comes from, ``effect`` summarises what it does (in this
    project's own words), ``translated_name`` is the language (``"en"`` or ``"it"``) whose
    name is our translation rather than an edition's, and ``unverified`` marks a card
    supported by only one weak source.
    """

    squad: str = ""
    kind: CardKind = CardKind.EQUIPMENT
    source: str = ""
    effect: str = ""
    translated_name: str = ""
    unverified: bool = False


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

ALL_CHAPTERS: tuple[str, ...] = tuple(squad.slug for squad in DEFAULT_SQUADS)

_SEED_002 = "seed 002 (StarQuest BoB rulebook), Tarantula section"
_SEED_003 = "seed 003 (Advanced StarQuest v1.0), 'Carte da modificare'"
_SUPERHOFF = (
    "Star Quest Spielanleitung, superhoff.de, http://superhoff.de/star-quest-spielanleitung/ "
    "(says order cards give e.g. a double move or firing twice)"
)
_AMIGA_REVIEW = (
    "Space Crusade review (Gremlin computer version), everygamegoing.com, "
    "https://everygamegoing.com/larticle/space-crusade/81757 (the commander's order lets the "
    "marines move or fire twice in a turn)"
)
_AMIGA_TIPS = (
    "Ivan Sorensen, 'Games: Space Crusade', Every day Amiga user, 5 May 2022, "
    "https://medium.com/every-day-amiga-user/games-space-crusade-947f5e59bbf0 "
    "(the Melta bomb card and when it goes off, computer version)"
)
_INSIDETHE = (
    "'Space Marines, March!', insidethe.com, July 2008, "
    "https://www.insidethe.com/blog/2008/07/space-marines-march/ (the blue squad destroys a "
    "Dreadnought in close combat with a melta grenade)"
)
_ELAZAR = (
    "'Space Crusade', Elazar the Glorified blog, 6 Sep 2009, "
    "http://elazartheglorified.blogspot.com/2009/09/space-crusade.html "
    "(an Imperial Fists player's chosen equipment cards and what they did)"
)


@dataclass(frozen=True)
class _CardEntry:
    """One sourced card, given to each chapter in ``chapters``."""

    slug: str
    name_en: str
    name_it: str
    kind: CardKind
    chapters: tuple[str, ...]
    effect: str
    source: str
    translated_name: str = ""
    unverified: bool = False

    def specs(self) -> tuple[CardSpec, ...]:
        return tuple(
            CardSpec(
                self.slug,
                self.name_en,
                self.name_it,
                squad=chapter,
                kind=self.kind,
                source=self.source,
                effect=self.effect,
                translated_name=self.translated_name,
                unverified=self.unverified,
            )
            for chapter in self.chapters
        )


_ORDERS_NOTE = (
    "; seed 002 names it among the order cards that let a crewed Tarantula move and/or fire "
    "more than once in a turn, without saying which chapters hold it (given to every chapter "
    "here); English name is our translation"
)

_CARD_ENTRIES: tuple[_CardEntry, ...] = (
    _CardEntry(
        "charge",
        "Charge!",
        "All'Attacco!",
        CardKind.ORDER,
        ALL_CHAPTERS,
        effect=(
            "Played at the start of the turn, it lets the squad's models both move and fire "
            "beyond the normal limit (inferred from its name; the card text is not sourced)."
        ),
        source=_SEED_002 + _ORDERS_NOTE,
        translated_name="en",
        unverified=True,
    ),
    _CardEntry(
        "move",
        "Move!",
        "Muoversi!",
        CardKind.ORDER,
        ALL_CHAPTERS,
        effect=(
            "Played at the start of the turn, it gives the squad's models an extra move "
            "(inferred from its name; the card text is not sourced)."
        ),
        source=_SEED_002 + _ORDERS_NOTE + "; move twice: " + _AMIGA_REVIEW + "; " + _SUPERHOFF,
        translated_name="en",
        unverified=True,
    ),
    _CardEntry(
        "fire",
        "Fire!",
        "Fuoco!",
        CardKind.ORDER,
        ALL_CHAPTERS,
        effect=(
            "Played at the start of the turn, it lets the squad's models fire a second time "
            "(inferred from its name; the card text is not sourced)."
        ),
        source=_SEED_002 + _ORDERS_NOTE + "; fire twice: " + _AMIGA_REVIEW + "; " + _SUPERHOFF,
        translated_name="en",
        unverified=True,
    ),
    _CardEntry(
        "first-aid",
        "First Aid",
        "Pronto Soccorso",
        CardKind.EQUIPMENT,
        ("ultramarines",),
        effect=(
            "A one-use medical kit that cancels wounds an enemy inflicts on the squad; seed "
            "003 rewrites it for Advanced StarQuest to absorb two heavy-weapon dice of wounds "
            "(the base-game text is not sourced)."
        ),
        source=(
            _SEED_003 + ": names it as an Ultramarines equipment card; English name is our "
            "translation (the English edition's name is not sourced)"
        ),
        translated_name="en",
    ),
    _CardEntry(
        "melta-bomb",
        "Melta Bomb",
        "Bomba a Fusione",
        CardKind.EQUIPMENT,
        ("ultramarines",),
        effect=(
            "A one-use charge used in close assault that can destroy even a Dreadnought (its "
            "dice are not sourced); in the computer version an unused bomb stays primed until "
            "an alien first attacks the squad hand to hand."
        ),
        source=(
            _AMIGA_TIPS
            + "; chapter only from "
            + _INSIDETHE
            + " (blue is the Ultramarines; that post calls it a grenade); Italian name is our "
            "translation"
        ),
        translated_name="it",
        unverified=True,
    ),
    _CardEntry(
        "suspensors",
        "Suspensors",
        "Sospensori",
        CardKind.EQUIPMENT,
        ("imperial-fists",),
        effect="Marines carrying heavy weapons move 6 squares instead of 4.",
        source=_ELAZAR + "; Italian name is our translation",
        translated_name="it",
        unverified=True,
    ),
    _CardEntry(
        "bionic-eye",
        "Bionic Eye",
        "Occhio Bionico",
        CardKind.EQUIPMENT,
        ("imperial-fists",),
        effect="Each time the commander shoots he may roll one of the dice again.",
        source=_ELAZAR + "; Italian name is our translation",
        translated_name="it",
        unverified=True,
    ),
    _CardEntry(
        "combi-weapon",
        "Combi Weapon",
        "Arma Combinata",
        CardKind.EQUIPMENT,
        ("imperial-fists",),
        effect=(
            "Fits a plasma gun to the commander's bolter (the English edition's heavy "
            "bolter), so he carries both."
        ),
        source=_ELAZAR + "; Italian name is our translation",
        translated_name="it",
        unverified=True,
    ),
)

DEFAULT_CARDS: tuple[CardSpec, ...] = tuple(
    spec
    for chapter in ALL_CHAPTERS
    for entry in _CARD_ENTRIES
    for spec in entry.specs()
    if spec.squad == chapter
)

DEFAULT_CATALOGUE = Catalogue(squads=DEFAULT_SQUADS, weapons=DEFAULT_WEAPONS, cards=DEFAULT_CARDS)
