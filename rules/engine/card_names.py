"""The names of the cards in everything the engine says: the chapter cards (RULES §5) and the
alien event cards (RULES §12).

The shipped chapter decks (``data/chapter_cards.json``, the catalogue a new tournament starts
from) name each card in English and, only where an Italian edition's name is known, in
Italian: the others keep their English name in Italian too; the event deck
(``data/events.json``) names its cards in both. A caller whose catalogue names the cards
otherwise renders inside :func:`rules.engine.naming.named`, its chapters' names apart.

Chapter cards are named by their effect code (the same for every copy and chapter), e.g.
``blind_grenades``, event cards by their id; a text naming a fixed chapter card uses the
field ``{<code>_card}``. A text names a card as the chapter of the player or figure it is
about names it (:func:`card_owners`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from rules.engine.event_cards import card_name
from rules.engine.naming import current_naming, in_language

#: The shipped chapter decks: every card with its chapters, names, effect and sources.
CARD_DATA = Path(__file__).with_name("data") / "chapter_cards.json"

#: The suffix of a template field naming a fixed card (``{targeter_card}``).
CARD_FIELD_SUFFIX = "_card"

#: The cards whose effect hinders the figure their holder fights (RULES §5: Close Assault
#: Blades, Photon Grenades!): a text about the hindered figure names its opponent's card.
HINDERING = frozenset({"close_assault_blades", "photon_grenades"})

#: The params that may say whose card a text names, in the order they are read: the player
#: (or players), else the figure attacking, else the figure the text is about, else the
#: target it shields.
OWNER_PARAMS = ("player", "players", "attacker", "figure", "target")


#: The shipped decks' entries as the file gives them, read once (the catalogue's defaults
#: are built from them too).
SHIPPED_DECK: list[dict] = json.loads(CARD_DATA.read_text(encoding="utf-8"))["cards"]


def _shipped_names() -> dict[str, dict[str, str]]:
    names: dict[str, dict[str, str]] = {}
    for entry in SHIPPED_DECK:
        english = entry["name_en"]
        names.setdefault(entry["effect_code"], {"en": english, "it": entry["name_it"] or english})
    return names


SHIPPED_NAMES: dict[str, dict[str, str]] = _shipped_names()


def chapter_card_name(code: str, lang: str, owner: str | None = None) -> str:
    """A chapter card's name in ``lang``: as the chapter of ``owner`` (a player's or a
    figure's id) names it, else as the naming in effect names its effect, else the shipped
    name; an unknown code as it is."""
    naming = current_naming()
    entry = (
        naming.chapter_of(owner).get(code)
        or naming.chapter_cards.get(code)
        or SHIPPED_NAMES.get(code)
    )
    return in_language(entry, lang) if entry else code


def event_card_name(card_id: str, lang: str) -> str:
    """An alien event card's name in ``lang``; an unknown id as it is."""
    entry = current_naming().event_cards.get(card_id)
    return in_language(entry, lang) if entry else card_name(card_id, lang)


def card_field(name: str) -> str | None:
    """The effect code a template field names (``targeter_card`` -> ``targeter``), or None."""
    if name.endswith(CARD_FIELD_SUFFIX):
        code = name[: -len(CARD_FIELD_SUFFIX)]
        if code in SHIPPED_NAMES:
            return code
    return None


def card_owners(code: str, params: Mapping[str, Any]) -> list[str]:
    """The ids of whoever holds the card ``code`` a text with ``params`` names: a hindering
    card's (:data:`HINDERING`) opponent, else the first of :data:`OWNER_PARAMS` given; none
    when the text names nobody."""
    if code in HINDERING and params.get("opponent"):
        return [str(params["opponent"])]
    for name in OWNER_PARAMS:
        value = params.get(name)
        if value:
            return [str(v) for v in value] if isinstance(value, list | tuple) else [str(value)]
    return []


def _owned_card_name(code: str, params: Mapping[str, Any], lang: str) -> str:
    """``code``'s name as its holders' chapter names it; by its effect alone when the text
    names nobody, or holders whose chapters name it apart."""
    names = {chapter_card_name(code, lang, owner) for owner in card_owners(code, params)}
    return names.pop() if len(names) == 1 else chapter_card_name(code, lang)


def card_param(name: str, value: Any, params: Mapping[str, Any], lang: str) -> str | None:
    """A param of a text with ``params`` that names chapter cards, in ``lang``: ``chapter_card``
    (an effect code), ``chapter_cards`` (a list of them) or a fixed card's field (no value);
    None for any other param."""
    if name == "chapter_card" and value is not None:
        codes = [str(value)]
    elif name == "chapter_cards" and isinstance(value, list | tuple):
        codes = [str(code) for code in value]
    elif value is None and (fixed := card_field(name)) is not None:
        codes = [fixed]
    else:
        return None
    return ", ".join(_owned_card_name(code, params, lang) for code in codes)
