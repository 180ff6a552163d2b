"""The texts of the engine's own tools (``manage.py engine``), translatable without Django.

A state's text picture (:func:`rules.engine.render.render`), an attack's odds
(:meth:`rules.engine.odds.AttackOdds.describe`), a line of sight's verdict and a shortest
path are written in Italian or English, so the command line speaks one language: the one
chosen with ``--lang``. English is the tools' default and keeps its old wording.
"""

from __future__ import annotations

from typing import Any

from rules.engine.narration import LANGUAGES

TOOL_TEXTS: dict[str, dict[str, str]] = {
    # --- the picture (render) ---------------------------------------------------------------
    "title": {
        "it": "{title} ({width}x{height}), round {round}",
        "en": "{title} ({width}x{height}), round {round}",
    },
    "to_play": {"it": ", gioca {player}", "en": ", {player} to play"},
    "owner_player": {"it": "giocatore {player}", "en": "player {player}"},
    "owner_aliens": {"it": "Alieni", "en": "aliens"},
    "inside": {"it": "dentro {vehicle}", "en": "inside {vehicle}"},
    "figure": {
        "it": "{label} {figure}: {unit} ({owner}) in {where}, rivolto a {facing}, {lp} PV",
        "en": "{label} {figure}: {unit} ({owner}) at {where}, facing {facing}, {lp} LP",
    },
    "blip": {"it": "{label} blip {blip} in {square}", "en": "{label} blip {blip} at {square}"},
    "blip_hiding": {"it": " (nasconde: {unit})", "en": " hiding {unit}"},
    "surveyed": {"it": "tabelloni sondati: {sections}", "en": "surveyed sections: {sections}"},
    # --- an attack's odds (describe) ------------------------------------------------------
    "odds_target": {
        "it": "{name}: punti vita persi attesi {expected}, distrutto con probabilità "
        "{probability} (~{approx})",
        "en": "{name}: expected life points lost {expected}, destroyed with probability "
        "{probability} (~{approx})",
    },
    "odds_totals": {
        "it": "punti distrutti attesi {points}; punti vita tolti attesi {life_points}",
        "en": "expected points destroyed {points}; expected life points removed {life_points}",
    },
    "odds_points": {
        "it": "  P(punti distrutti = {points}) = {probability}",
        "en": "  P(points destroyed = {points}) = {probability}",
    },
    # --- a line of sight, a path ----------------------------------------------------------
    "visible": {"it": "visibile", "en": "visible"},
    "doubtful": {"it": "dubbia", "en": "doubtful"},
    "blocked": {"it": "bloccata", "en": "blocked"},
    "path": {"it": "{steps} caselle: {squares}", "en": "{steps} squares: {squares}"},
    "path_one": {"it": "1 casella: {squares}", "en": "1 square: {squares}"},
}

#: The way a figure faces, by its letter.
FACING_NAMES: dict[str, dict[str, str]] = {
    "N": {"it": "N", "en": "N"},
    "E": {"it": "E", "en": "E"},
    "S": {"it": "S", "en": "S"},
    "W": {"it": "O", "en": "W"},
}


def tool_text(code: str, lang: str, **params: Any) -> str:
    """The text ``code`` of the engine's tools in ``lang`` ("it" or "en")."""
    if lang not in LANGUAGES:
        raise ValueError(f"language {lang!r} is not available: use one of {', '.join(LANGUAGES)}")
    return TOOL_TEXTS[code][lang].format(**params)
