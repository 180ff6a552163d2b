"""Combat texts, translatable without Django: attack descriptions and combat events.

:class:`rules.engine.combat.AttackOption` and :class:`rules.engine.combat.CombatEvent`
carry a *code* and JSON-ready *params* (an attack event reuses its option's code); the
text is made here, in Italian or English, only when shown. English is the engine's own
``description`` / ``text`` (the CLI and bug reports); the judge's board page renders the
page's language.

Params (see :func:`fill`): ``square``/``origin``/``blocked``/``a``/``b`` are squares
written ``x,y`` as the judge types them; ``squares`` a list of them; ``door`` a pair of
squares; ``weapon`` a weapon key; ``weapons`` a list of them; ``cause`` what hit (a weapon
key, ``hand_to_hand``, ``split_share`` or ``self_destruct``); ``direction`` a step such
as ``[1, 0]``; ``dice``/``their_dice`` a dice spec ``{"red": n, "white": m}``; ``values``
the faces rolled; ``purpose`` (with ``purpose_params``) a roll's purpose code of
:mod:`rules.engine.narration_dice`; ``targets``/``eligible`` lists of figure ids;
``shares`` a list of ``[figure id, points]``; ``areas`` a list of ``[top-left square,
shots]``. Anything else is shown as is.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.engine.geometry import format_square
from rules.engine.narration import LANGUAGES, fields_of, format_param
from rules.engine.narration_cards import CARD_ATTACKS, CARD_EVENTS
from rules.engine.narration_dice import purpose_text

#: Attack descriptions (an option's code; the ``attack`` event of its resolution too).
ATTACKS: dict[str, dict[str, str]] = {
    "fight": {
        "it": "{attacker} combatte in corpo a corpo con {target} ({dice} contro {their_dice})",
        "en": "{attacker} fights {target} hand-to-hand ({dice} against {their_dice})",
    },
    "fight_brief": {
        "it": "{attacker} combatte in corpo a corpo con {target}",
        "en": "{attacker} fights {target} hand-to-hand",
    },
    "fight_tarantula": {
        "it": "{attacker} assale in corpo a corpo la Tarantola {target} ({dice} contro l'armatura)",
        "en": "{attacker} attacks the Tarantula {target} hand-to-hand ({dice} vs armour)",
    },
    "shot": {
        "it": "{attacker} spara con {weapon} a {target} ({dice} contro armatura {armour})",
        "en": "{attacker} fires the {weapon} at {target} ({dice} vs armour {armour})",
    },
    "shot_brief": {
        "it": "{attacker} spara con {weapon} a {target}",
        "en": "{attacker} fires the {weapon} at {target}",
    },
    "split_shot": {
        "it": "{attacker} spara con {weapon}, ripartendo {dice} tra {targets}",
        "en": "{attacker} fires the {weapon}, splitting {dice} among {targets}",
    },
    "line_shot": {
        "it": "{attacker} spara con {weapon} da {origin} {direction}: {targets}",
        "en": "{attacker} fires the {weapon} from {origin} {direction}: {targets}",
    },
    "beam_shot": {
        "it": "{attacker} spara con {weapon} da {origin} verso {square}",
        "en": "{attacker} fires the {weapon} from {origin} towards {square}",
    },
    "blast_shot": {
        "it": "{attacker} spara con {weapon} sulla casella {square}",
        "en": "{attacker} fires the {weapon} at square {square}",
    },
    "area_shot": {
        "it": "{attacker} spara con {weapon}: {areas}",
        "en": "{attacker} fires the {weapon}: {areas}",
    },
    "area_shot_first": {
        "it": "{attacker} spara con {weapon}: {areas}; sceglie dove sparare gli altri "
        "{left} colpi dopo aver visto il tiro",
        "en": "{attacker} fires the {weapon}: {areas}; chooses where the other {left} shots "
        "go after seeing the roll",
    },
    "door_fight": {
        "it": "{attacker} colpisce in corpo a corpo la porta stagna rinforzata {door} ({dice})",
        "en": "{attacker} batters the bulkhead door {door} ({dice})",
    },
    "door_shot": {
        "it": "{attacker} spara con {weapon} alla porta stagna rinforzata {door}",
        "en": "{attacker} fires the {weapon} at the bulkhead door {door}",
    },
    **CARD_ATTACKS,
}

#: What happened while an attack was resolved.
EVENTS: dict[str, dict[str, str]] = {
    "roll": {"it": "{purpose}: {values} = {total}", "en": "{purpose}: {values} = {total}"},
    "cannot_be_damaged": {
        "it": "{figure} non può subire danni",
        "en": "{figure} cannot be damaged",
    },
    "shielded": {
        "it": "{figure} è protetto dalla carta {blind_grenades_card}: non subisce danni",
        "en": "{figure} is shielded by {blind_grenades_card} and takes no damage",
    },
    "damage": {
        "it": "{figure} perde {lost} punti vita; punti vita rimasti: {left}",
        "en": "{figure} loses {lost} life points, {left} left",
    },
    "damage_by": {
        "it": "{figure} perde {lost} punti vita; punti vita rimasti: {left} ({cause})",
        "en": "{figure} loses {lost} life points, {left} left ({cause})",
    },
    "weapon_lost": {"it": "{figure} perde l'arma {weapon}", "en": "{figure} loses its {weapon}"},
    "killed": {
        "it": "{figure} è eliminato e tolto dal tabellone (vale {points} punti)",
        "en": "{figure} is destroyed and removed from the board (worth {points} points)",
    },
    "pilot_killed": {
        "it": "{figure}, che pilota {vehicle}, muore con esso",
        "en": "{figure}, piloting {vehicle}, dies with it",
    },
    "gunner_freed": {
        "it": "{figure} torna un Marine normale",
        "en": "{figure} is an ordinary marine again",
    },
    "hit": {
        "it": "{cause}: {attack} contro armatura {armour} di {figure}",
        "en": "{cause}: {attack} against {figure}'s armour {armour}",
    },
    "miss": {
        "it": "{cause}: {attack} contro armatura {armour} di {figure}: nessun danno",
        "en": "{cause}: {attack} against {figure}'s armour {armour}: no damage",
    },
    "tie": {
        "it": "totali pari: nessuno perde punti vita",
        "en": "equal totals: nobody loses life points",
    },
    "door_destroyed": {
        "it": "{attack} supera l'armatura {armour}: la porta stagna rinforzata {door} è distrutta",
        "en": "{attack} beats armour {armour}: the bulkhead door {door} is destroyed",
    },
    "door_holds": {
        "it": "{attack} non supera l'armatura {armour} della porta stagna rinforzata",
        "en": "{attack} does not beat the bulkhead's armour {armour}",
    },
    "blast": {
        "it": "la casella {square} subisce {total}; le caselle intorno subiscono {highest}",
        "en": "square {square} takes {total}; the squares around it take {highest}",
    },
    "self_destruct_blast": {
        "it": "{figure} esplode in {square}: chi sta in {squares} subisce {total}",
        "en": "{figure} explodes on {square}: whoever stands on {squares} takes {total}",
    },
    "self_destructed": {
        "it": "{figure} è distrutto dalla propria esplosione",
        "en": "{figure} is destroyed by its own blast",
    },
    "beam": {
        "it": "il raggio colpisce {square} con {total}, uno in meno per ogni casella intorno e "
        "lungo la linea a ritroso",
        "en": "the beam strikes {square} with {total}, one less per square around it and back "
        "along the line",
    },
    "best_split": {
        "it": "migliore ripartizione di {total}: {shares}",
        "en": "best split of {total}: {shares}",
    },
    "split_wasted": {
        "it": "un totale di {total} non ferisce nessuno",
        "en": "a total of {total} harms nobody",
    },
    "skipped": {
        "it": "{figure} non ha più l'arma {weapon}",
        "en": "{figure} no longer has its {weapon}",
    },
    **CARD_EVENTS,
}

#: Templates for a count of exactly one: code -> (the counting param, {lang: template}).
SINGULAR: dict[str, tuple[str, dict[str, str]]] = {
    "damage": (
        "lost",
        {
            "it": "{figure} perde 1 punto vita; punti vita rimasti: {left}",
            "en": "{figure} loses 1 life point, {left} left",
        },
    ),
    "damage_by": (
        "lost",
        {
            "it": "{figure} perde 1 punto vita; punti vita rimasti: {left} ({cause})",
            "en": "{figure} loses 1 life point, {left} left ({cause})",
        },
    ),
    "killed": (
        "points",
        {
            "it": "{figure} è eliminato e tolto dal tabellone (vale 1 punto)",
            "en": "{figure} is destroyed and removed from the board (worth 1 point)",
        },
    ),
}

#: What hit, besides a weapon (the ``cause`` param).
CAUSES: dict[str, dict[str, str]] = {
    "split_share": {"it": "quota del cannone d'assalto", "en": "assault cannon share"},
    "self_destruct": {"it": "autodistruzione", "en": "self-destruct"},
}

#: Small words of the params: dice colours (one, several), "no dice", "nobody".
WORDS: dict[str, dict[str, str]] = {
    "red": {"it": "{n} rossi", "en": "{n} red"},
    "red_one": {"it": "1 rosso", "en": "1 red"},
    "white": {"it": "{n} bianchi", "en": "{n} white"},
    "white_one": {"it": "1 bianco", "en": "1 white"},
    "no_dice": {"it": "nessun dado", "en": "no dice"},
    "none": {"it": "nessuno", "en": "none"},
    "share": {"it": "{points} su {figure}", "en": "{points} on {figure}"},
    "area": {"it": "{n} colpi sull'area da {square}", "en": "{n} shots at the area from {square}"},
    "area_one": {"it": "1 colpo sull'area da {square}", "en": "1 shot at the area from {square}"},
}

#: States of a door (the ``door_state`` param).
DOOR_STATES: dict[str, dict[str, str]] = {
    "closed": {"it": "chiusa", "en": "closed"},
    "open": {"it": "aperta", "en": "open"},
    "bulkhead": {"it": "una porta stagna rinforzata", "en": "bulkhead"},
    "destroyed": {"it": "distrutta", "en": "destroyed"},
}

#: The way a figure faces (a Tarantula's move names it).
FACINGS: dict[str, dict[str, str]] = {
    "N": {"it": "nord", "en": "north"},
    "E": {"it": "est", "en": "east"},
    "S": {"it": "sud", "en": "south"},
    "W": {"it": "ovest", "en": "west"},
}

SQUARE_PARAMS = frozenset({"square", "origin", "blocked", "a", "b"})
LIST_PARAMS = frozenset({"targets", "eligible"})


def _word(key: str, lang: str, **values: Any) -> str:
    return WORDS[key][lang].format(**values)


def dice_spec(red: int, white: int) -> dict[str, int]:
    """The JSON-ready ``dice`` param of a handful of combat dice."""
    return {"red": red, "white": white}


def _dice(value: Mapping[str, int], lang: str) -> str:
    parts = []
    for colour in ("red", "white"):
        n = int(value.get(colour, 0))
        if n:
            parts.append(_word(f"{colour}_one", lang) if n == 1 else _word(colour, lang, n=n))
    return " + ".join(parts) if parts else _word("no_dice", lang)


def _cause(value: str, lang: str) -> str:
    entry = CAUSES.get(value)
    return entry[lang] if entry else format_param("weapon", value, lang)


def _area(area: Any, lang: str) -> str:
    square, shots = format_square(tuple(area[0])), int(area[1])
    if shots == 1:
        return _word("area_one", lang, square=square)
    return _word("area", lang, n=shots, square=square)


def format_combat_param(name: str, value: Any, params: Mapping[str, Any], lang: str) -> str:
    """One param of a combat text or engine error in ``lang`` (see the module docstring)."""
    if name in SQUARE_PARAMS:
        return format_square(tuple(value))
    if name == "squares":
        return ", ".join(format_square(tuple(sq)) for sq in value)
    if name == "door":
        return "|".join(format_square(tuple(sq)) for sq in value)
    if name in ("dice", "their_dice"):
        return _dice(value, lang)
    if name == "cause":
        return _cause(str(value), lang)
    if name == "values":
        return ", ".join(map(str, value)) or _word("no_dice", lang)
    if name == "purpose":
        return purpose_text(str(value), params.get("purpose_params"), lang)
    if name == "weapons":
        return ", ".join(format_param("weapon", w, lang) for w in value) or _word("none", lang)
    if name in LIST_PARAMS:
        return ", ".join(map(str, value)) or _word("none", lang)
    if name == "shares":
        return ", ".join(_word("share", lang, figure=k, points=p) for k, p in value)
    if name == "areas":
        return ", ".join(_area(area, lang) for area in value)
    if name == "door_state":
        entry = DOOR_STATES.get(str(value))
        return entry[lang] if entry else str(value)
    if name == "facing":
        entry = FACINGS.get(str(value))
        return entry[lang] if entry else str(value)
    return format_param(name, value, lang, params)


def fill(template: str, params: Mapping[str, Any], lang: str) -> str:
    """``template`` with its params formatted in ``lang``."""
    values = {
        name: format_combat_param(name, params.get(name), params, lang)
        for name in fields_of(template)
    }
    return template.format(**values)


def pick(
    table: Mapping[str, Mapping[str, str]],
    singular: Mapping[str, tuple[str, Mapping[str, str]]],
    code: str,
    params: Mapping[str, Any],
    lang: str,
) -> str:
    """The template of ``code`` in ``lang``: the singular one when its count is exactly 1."""
    if lang not in LANGUAGES:
        raise ValueError(f"language {lang!r} is not available: use one of {', '.join(LANGUAGES)}")
    one = singular.get(code)
    if one is not None and params.get(one[0]) == 1:
        return one[1][lang]
    return table[code][lang]


def combat_text(code: str, params: Mapping[str, Any], lang: str) -> str:
    """An attack description or a combat event in ``lang`` ("it" or "en")."""
    table = ATTACKS if code in ATTACKS else EVENTS
    return fill(pick(table, SINGULAR, code, params, lang), params, lang)
