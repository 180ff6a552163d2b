"""What the game's figures, weapons and found items are called in both languages, one
table each: the step log, the board's pictures and the catalogue's rules values name them
from here (lower case where a sentence carries them: "fires the laser rifle"). A weapon a
caller's catalogue renames is named as the naming in effect names it
(:func:`weapon_name`, :mod:`rules.engine.naming`)."""

from __future__ import annotations

from rules.engine.naming import current_naming, in_language

UNIT_NAMES: dict[str, dict[str, str]] = {
    "commander": {"it": "Comandante", "en": "Commander"},
    "marine": {"it": "Marine", "en": "Marine"},
    "heavy_weapon_marine": {"it": "Marine con arma pesante", "en": "heavy-weapon Marine"},
    "extra_heavy_weapon_marine": {
        "it": "Marine con arma extra-pesante",
        "en": "extra-heavy-weapon Marine",
    },
    "tarantula": {"it": "Tarantola", "en": "Tarantula"},
    "gretchin": {"it": "Gretchin", "en": "Gretchin"},
    "ork": {"it": "Orco", "en": "Ork"},
    "android": {"it": "Androide", "en": "Android"},
    "chaos_marine": {"it": "Marine del Caos", "en": "Chaos Marine"},
    "chaos_marine_heavy": {
        "it": "Marine del Caos con arma pesante",
        "en": "heavy-weapon Chaos Marine",
    },
    "chaos_commander": {"it": "Comandante del Caos", "en": "Chaos Commander"},
    "genestealer": {"it": "Ladro Genetico", "en": "Genestealer"},
    "dreadnought": {"it": "Dreadnought", "en": "Dreadnought"},
}

WEAPON_NAMES: dict[str, dict[str, str]] = {
    "hand_to_hand": {"it": "corpo a corpo", "en": "hand-to-hand"},
    "laser_rifle": {"it": "fucile laser", "en": "laser rifle"},
    "laser_pistol": {"it": "pistola laser", "en": "laser pistol"},
    "bolter": {"it": "bolter", "en": "bolter"},
    "assault_cannon": {"it": "cannone d'assalto", "en": "assault cannon"},
    "missile_launcher": {"it": "lanciarazzi", "en": "missile launcher"},
    "plasma_gun": {"it": "fucile al plasma", "en": "plasma gun"},
    "lascannon": {"it": "cannone laser", "en": "lascannon"},
    "melta": {"it": "fucile a fusione", "en": "melta"},
    "conversion_beamer": {"it": "raggio a conversione", "en": "conversion beamer"},
    "twin_lascannon": {"it": "cannone laser binato", "en": "twin lascannon"},
    "power_axe": {"it": "ascia mortale", "en": "power axe"},
    "power_sword": {"it": "spada mortale", "en": "power sword"},
    "power_glove": {"it": "guanto mortale", "en": "power glove"},
    "gretchin_weapon": {"it": "arma del Gretchin", "en": "Gretchin gun"},
    "ork_weapon": {"it": "arma dell'Orco", "en": "Ork gun"},
    "android_weapon": {"it": "arma dell'Androide", "en": "Android gun"},
    "chaos_commander_weapon": {
        "it": "arma del Comandante del Caos",
        "en": "Chaos Commander's gun",
    },
}

#: What a special-equipment blip may hide: the Tarantula (a unit), a Dreadnought to pilot,
#: or an extra-heavy weapon.
ITEM_NAMES: dict[str, dict[str, str]] = {
    "tarantula": UNIT_NAMES["tarantula"],
    "abandoned_dreadnought": {"it": "Dreadnought da pilotare", "en": "Dreadnought to pilot"},
    **{weapon: WEAPON_NAMES[weapon] for weapon in ("lascannon", "melta", "conversion_beamer")},
}


def weapon_name(key: str, lang: str) -> str:
    """A weapon's name in ``lang``: as the naming in effect names it, else this module's;
    an unknown key as it is."""
    entry = current_naming().weapons.get(key) or WEAPON_NAMES.get(key)
    return in_language(entry, lang) if entry else key


def item_name(key: str, lang: str) -> str:
    """A found item's name in ``lang`` (a weapon's as :func:`weapon_name` gives it); an
    unknown key as it is."""
    if key in WEAPON_NAMES:
        return weapon_name(key, lang)
    entry = ITEM_NAMES.get(key)
    return entry[lang] if entry else key
