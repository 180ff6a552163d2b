"""The names of the cards in everything the engine says: the chapter cards (RULES §5) and the
alien event cards (RULES §12).

The shipped chapter decks (``data/chapter_cards.json``, the catalogue a new tournament starts
from) name each card in English and, only where an Italian edition's name is known, in
Italian: the others keep their English name in Italian too; the event deck
(``data/events.json``) names its cards in both. A caller whose catalogue names the cards
otherwise (a tournament's, edited by its organiser) renders inside :func:`named_cards`, so
the step log, the panels and the errors say what its catalogue says; a card it leaves out
keeps the shipped name.

Chapter cards are named by their effect code (the same for every copy and chapter), e.g.
``blind_grenades``, event cards by their id; a text naming a fixed chapter card uses the
field ``{<code>_card}``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from types import MappingProxyType

from rules.engine.event_cards import card_name

#: The shipped chapter decks: every card with its chapters, names, effect and sources.
CARD_DATA = Path(__file__).with_name("data") / "chapter_cards.json"

#: Names by effect code and language.
CardNames = Mapping[str, Mapping[str, str]]

#: The suffix of a template field naming a fixed card (``{targeter_card}``).
CARD_FIELD_SUFFIX = "_card"


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

_names: ContextVar[CardNames] = ContextVar("chapter_card_names", default=SHIPPED_NAMES)
_event_names: ContextVar[CardNames] = ContextVar("event_card_names", default=MappingProxyType({}))


@contextmanager
def named_cards(
    chapter: CardNames | None = None, events: CardNames | None = None
) -> Iterator[None]:
    """Render the texts of this block with the chapter cards' names ``chapter`` (effect code
    -> language -> name) and the event cards' ``events`` (card id -> language -> name);
    None: the shipped names."""
    tokens = (_names.set(chapter or SHIPPED_NAMES), _event_names.set(events or {}))
    try:
        yield
    finally:
        _names.reset(tokens[0])
        _event_names.reset(tokens[1])


def _in(entry: Mapping[str, str], lang: str) -> str:
    return entry.get(lang) or entry["en"]


def chapter_card_name(code: str, lang: str) -> str:
    """A chapter card's name in ``lang``; an unknown code as it is."""
    entry = _names.get().get(code) or SHIPPED_NAMES.get(code)
    return _in(entry, lang) if entry else code


def event_card_name(card_id: str, lang: str) -> str:
    """An alien event card's name in ``lang``; an unknown id as it is."""
    entry = _event_names.get().get(card_id)
    return _in(entry, lang) if entry else card_name(card_id, lang)


def card_field(name: str) -> str | None:
    """The effect code a template field names (``targeter_card`` -> ``targeter``), or None."""
    if name.endswith(CARD_FIELD_SUFFIX):
        code = name[: -len(CARD_FIELD_SUFFIX)]
        if code in SHIPPED_NAMES:
            return code
    return None
