"""The chapter cards' names in everything the engine says (RULES §5).

The shipped decks (``data/chapter_cards.json``, the catalogue a new tournament starts from)
name each card in English and, only where an Italian edition's name is known, in Italian:
the others keep their English name in Italian too. A caller whose catalogue names the cards
otherwise (a tournament's, edited by its organiser) renders inside :func:`named_cards`, so
the step log, the panels and the errors say what its catalogue says; a card it leaves out
keeps the shipped name.

Cards are named by their effect code (the same for every copy and chapter), e.g.
``blind_grenades``; a text naming a fixed card uses the field ``{<code>_card}``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path

#: The shipped chapter decks: every card with its chapters, names, effect and sources.
CARD_DATA = Path(__file__).with_name("data") / "chapter_cards.json"

#: Names by effect code and language.
CardNames = Mapping[str, Mapping[str, str]]

#: The suffix of a template field naming a fixed card (``{targeter_card}``).
CARD_FIELD_SUFFIX = "_card"


def _shipped_names() -> dict[str, dict[str, str]]:
    names: dict[str, dict[str, str]] = {}
    for entry in json.loads(CARD_DATA.read_text(encoding="utf-8"))["cards"]:
        english = entry["name_en"]
        names.setdefault(entry["effect_code"], {"en": english, "it": entry["name_it"] or english})
    return names


SHIPPED_NAMES: dict[str, dict[str, str]] = _shipped_names()

_names: ContextVar[CardNames] = ContextVar("chapter_card_names", default=SHIPPED_NAMES)


@contextmanager
def named_cards(names: CardNames) -> Iterator[None]:
    """Render the texts of this block with ``names`` (effect code -> language -> name)."""
    token = _names.set(names)
    try:
        yield
    finally:
        _names.reset(token)


def chapter_card_name(code: str, lang: str) -> str:
    """A chapter card's name in ``lang``; an unknown code as it is."""
    entry = _names.get().get(code) or SHIPPED_NAMES.get(code)
    return entry.get(lang) or entry["en"] if entry else code


def card_field(name: str) -> str | None:
    """The effect code a template field names (``targeter_card`` -> ``targeter``), or None."""
    if name.endswith(CARD_FIELD_SUFFIX):
        code = name[: -len(CARD_FIELD_SUFFIX)]
        if code in SHIPPED_NAMES:
            return code
    return None
