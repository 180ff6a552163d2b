"""Why a line of sight is clear, doubtful or blocked, translatable without Django.

:func:`rules.engine.los.line_of_sight` answers with a reason *code* and JSON-ready
*params* (:class:`rules.engine.los.Sight`); the text is made here, in Italian or English,
only when shown. Squares are written ``x,y`` as the judge types them in the sight tool.

Params: ``square``, ``corner_a`` and ``corner_b`` are squares; ``blocker``, ``side1`` and
``side2`` are blockers (``blocked`` shows its ``blocker`` with "by": ``BY_BLOCKERS``);
``grazes`` is a list of ``{"blocker", "corner_a", "corner_b"}``.
A blocker is ``{"kind": "wall" | "door" | "bulkhead", "a", "b"}`` (the edge between two
squares) or ``{"kind": "solid", "square"}`` or ``{"kind": "figure", "figure", "square"}``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.engine.geometry import format_square
from rules.engine.narration import LANGUAGES, fields_of

REASONS: dict[str, dict[str, str]] = {
    "clear": {"it": "linea libera", "en": "clear line"},
    "same_square": {"it": "stessa casella", "en": "same square"},
    "solid_end": {"it": "la casella {square} è piena", "en": "square {square} is solid"},
    "diagonal": {
        "it": "le caselle adiacenti in diagonale non hanno linea di vista (regolamento BoB, §10)",
        "en": "diagonally adjacent squares have no line of sight (RULES §10)",
    },
    "blocked": {"it": "bloccata {by_blocker}", "en": "blocked {by_blocker}"},
    "corner_blocked": {
        "it": "passa esattamente per l'angolo comune a {corner_a} e {corner_b}, tra {side1} "
        "e {side2}",
        "en": "passes exactly through the corner of {corner_a} and {corner_b}, between {side1} "
        "and {side2}",
    },
    "doubtful": {
        "it": "dubbia: {grazes} (visibile; il Giudice può decidere con uno spareggio al dado "
        "rosso)",
        "en": "doubtful: {grazes} (visible; the judge may settle it by a heavy-die roll-off)",
    },
}

#: One grazed blocker of a doubtful line.
GRAZE: dict[str, str] = {
    "it": "sfiora {blocker} all'angolo comune a {corner_a} e {corner_b}",
    "en": "grazes {blocker} at the corner of {corner_a} and {corner_b}",
}

BLOCKERS: dict[str, dict[str, str]] = {
    "wall": {"it": "il muro tra {a} e {b}", "en": "the wall between {a} and {b}"},
    "door": {"it": "la porta chiusa tra {a} e {b}", "en": "the closed door between {a} and {b}"},
    "bulkhead": {
        "it": "la porta stagna rinforzata tra {a} e {b}",
        "en": "the reinforced bulkhead door between {a} and {b}",
    },
    "solid": {"it": "la casella piena {square}", "en": "the solid square {square}"},
    "figure": {"it": "la figura {figure} in {square}", "en": "the figure {figure} on {square}"},
}

#: A blocker after "blocked": Italian joins "da" with the article ("dal muro").
BY_BLOCKERS: dict[str, dict[str, str]] = {
    "wall": {"it": "dal muro tra {a} e {b}", "en": "by the wall between {a} and {b}"},
    "door": {
        "it": "dalla porta chiusa tra {a} e {b}",
        "en": "by the closed door between {a} and {b}",
    },
    "bulkhead": {
        "it": "dalla porta stagna rinforzata tra {a} e {b}",
        "en": "by the reinforced bulkhead door between {a} and {b}",
    },
    "solid": {"it": "dalla casella piena {square}", "en": "by the solid square {square}"},
    "figure": {
        "it": "dalla figura {figure} in {square}",
        "en": "by the figure {figure} on {square}",
    },
}

_SQUARES = frozenset({"square", "corner_a", "corner_b", "a", "b"})
_BLOCKER_PARAMS = frozenset({"blocker", "side1", "side2"})


def _fill(template: str, params: Mapping[str, Any], lang: str) -> str:
    values: dict[str, str] = {}
    for name in fields_of(template):
        value: Any = params.get(name)
        if name in _SQUARES:
            values[name] = format_square(tuple(value))
        elif name in _BLOCKER_PARAMS:
            values[name] = _fill(BLOCKERS[value["kind"]][lang], value, lang)
        elif name == "by_blocker":
            blocker = params["blocker"]
            values[name] = _fill(BY_BLOCKERS[blocker["kind"]][lang], blocker, lang)
        elif name == "grazes":
            values[name] = "; ".join(_fill(GRAZE[lang], graze, lang) for graze in value)
        else:
            values[name] = str(value)
    return template.format(**values)


def sight_reason(code: str, params: Mapping[str, Any], lang: str) -> str:
    """The reason of a line-of-sight verdict in ``lang`` ("it" or "en")."""
    if lang not in LANGUAGES:
        raise ValueError(f"language {lang!r} is not available: use one of {', '.join(LANGUAGES)}")
    return _fill(REASONS[code][lang], params, lang)
