"""The texts of the engine's own tools (``manage.py engine``), translatable without Django.

A state's text picture (:func:`rules.engine.render.render`), an attack's odds
(:meth:`rules.engine.odds.AttackOdds.describe`), a line of sight's verdict and a shortest
path are written in Italian or English, so the command line speaks one language: the one
chosen with ``--lang``. English is the tools' default and keeps its old wording.
"""

from __future__ import annotations

from typing import Any

from rules.engine.narration_combat import pick

TOOL_TEXTS: dict[str, dict[str, str]] = {
    # --- the picture (render) ---------------------------------------------------------------
    "title": {
        "it": "{title} ({width}x{height}), round {round}",
        "en": "{title} ({width}x{height}), round {round}",
    },
    "to_play": {"it": ", gioca {player}", "en": ", {player} to play"},
    "owner_player": {"it": "giocatore {player}", "en": "player {player}"},
    "owner_aliens": {"it": "Alieni", "en": "aliens"},
    "owner_abandoned": {"it": "abbandonato", "en": "abandoned"},
    "item_lying": {
        "it": "-- {item}: {weapon} a terra in {square}",
        "en": "-- {item}: {weapon} lying on {square}",
    },
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
        "it": "{name}: punti vita persi attesi {expected}, probabilità di distruzione "
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
}

#: The texts whose count param of 1 takes a singular text (see ``narration_combat.pick``).
TOOL_SINGULAR = {"path": ("steps", {"it": "1 casella: {squares}", "en": "1 square: {squares}"})}

#: The way a figure faces, by its letter.
FACING_NAMES: dict[str, dict[str, str]] = {
    "N": {"it": "N", "en": "N"},
    "E": {"it": "E", "en": "E"},
    "S": {"it": "S", "en": "S"},
    "W": {"it": "O", "en": "W"},
}


def tool_text(code: str, lang: str, **params: Any) -> str:
    """The text ``code`` of the engine's tools in ``lang`` ("it" or "en")."""
    return pick(TOOL_TEXTS, TOOL_SINGULAR, code, params, lang).format(**params)


#: A map drawing's problems (``engine map``, :class:`rules.engine.maps.MapProblem`);
#: params written ``_repr`` are shown quoted, as the drawing has them.
MAP_PROBLEMS: dict[str, dict[str, str]] = {
    "where": {
        "it": "riga {line}, colonna {column}: {message}",
        "en": "line {line}, column {column}: {message}",
    },
    "no_drawing": {
        "it": "manca il disegno della mappa: comincia con una riga '+'",
        "en": "no map drawing: it starts with a '+' line",
    },
    "header_line": {
        "it": "prima del disegno servono 'name:', 'title:', 'description:', 'title.it:' o "
        "'description.it:', trovato {got_repr}",
        "en": "expected 'name:', 'title:', 'description:', 'title.it:' or "
        "'description.it:' before the drawing, got {got_repr}",
    },
    "header_twice": {"it": "'{key}' è indicato due volte", "en": "'{key}' is given twice"},
    "bad_name": {
        "it": "il nome può avere solo lettere minuscole, cifre, '-' o '_' (ad es. crossroads)",
        "en": "the name must be lowercase letters, digits, '-' or '_' (e.g. crossroads)",
    },
    "first_line": {
        "it": "la prima riga del disegno ha {length} caratteri; devono essere 3 per casella "
        "più 1 (come '+--+--+')",
        "en": "the first line of the drawing has {length} characters; it must be "
        "3 per square plus 1 (like '+--+--+')",
    },
    "line_count": {
        "it": "il disegno ha {count} righe; devono essere in numero dispari (una riga di bordi, "
        "poi caselle e bordi alternati, chiudendo con una riga di bordi)",
        "en": "the drawing has {count} lines; it must be an odd number (a line of "
        "edges, then squares and edges alternating, ending with a line of edges)",
    },
    "line_too_long": {
        "it": "la riga è più lunga della prima riga del disegno ({length} caratteri)",
        "en": "line is longer than the drawing's first line ({length} characters)",
    },
    "bad_corner": {
        "it": "un angolo dev'essere '+', '-', '|' o uno spazio, trovato {got_repr}",
        "en": "corner must be '+', '-', '|' or a space, got {got_repr}",
    },
    "edge_mismatch": {
        "it": "i due caratteri di un bordo devono essere uguali (ad es. '--' o 'DD'), "
        "trovato {got_repr}",
        "en": "the two characters of an edge must match (e.g. '--' or 'DD'), got {got_repr}",
    },
    "unknown_edge_row": {
        "it": "bordo sconosciuto {got_repr}: usa '--' muro, '  ' niente, o una porta "
        "(DD chiusa, OO aperta, BB porta stagna rinforzata, XX distrutta, AA sempre aperta)",
        "en": "unknown edge {got_repr}: use '--' wall, '  ' nothing, or a door "
        "(DD closed, OO open, BB bulkhead, XX destroyed, AA always open)",
    },
    "unknown_edge_column": {
        "it": "bordo sconosciuto {got_repr}: usa '|' muro, ' ' niente, o una porta "
        "(D chiusa, O aperta, B porta stagna rinforzata, X distrutta, A sempre aperta)",
        "en": "unknown edge {got_repr}: use '|' wall, ' ' nothing, or a door "
        "(D closed, O open, B bulkhead, X destroyed, A always open)",
    },
    "outer_door": {
        "it": "una porta non può stare sul bordo esterno della mappa",
        "en": "a door cannot sit on the outer edge of the map",
    },
    "outer_edge": {
        "it": "il bordo esterno dev'essere '|' o uno spazio, trovato {got_repr}",
        "en": "the outer edge must be '|' or a space, got {got_repr}",
    },
    "marker_usage": {
        "it": "scrivi un marcatore così: marker <lettera minuscola> <tipo di Alieno>",
        "en": "write a marker as: marker <lowercase letter> <alien type>",
    },
    "bad_alien": {
        "it": "tipo di Alieno non valido {got_repr}",
        "en": "bad alien type {got_repr}",
    },
    "unknown_alien": {
        "it": "tipo di Alieno sconosciuto {got_repr}; i tipi noti: {known}",
        "en": "unknown alien type {got_repr}; the known types: {known}",
    },
    "marker_twice": {
        "it": "la lettera di marcatore {got_repr} è definita due volte",
        "en": "marker letter {got_repr} is defined twice",
    },
    "claw_usage": {
        "it": "scrivi un artiglio così: claw <cifra 1-9> [nome]",
        "en": "write a claw as: claw <digit 1-9> [name]",
    },
    "claw_twice": {
        "it": "l'artiglio {claw} ha due nomi",
        "en": "claw {claw} is named twice",
    },
    "legend_line": {
        "it": "riga di legenda sconosciuta {got_repr}: servono 'section', 'marker', 'claw' "
        "o un commento '#'",
        "en": "unknown legend line {got_repr}: expected 'section', 'marker', 'claw' "
        "or a '#' comment",
    },
    "section_usage": {
        "it": "scrivi un tabellone così: section <id> board|tile <x0>,<y0> <x1>,<y1> [nome]",
        "en": "write a section as: section <id> board|tile <x0>,<y0> <x1>,<y1> [name]",
    },
    "bad_section_id": {
        "it": "id di tabellone non valido {got_repr} (lettere e cifre)",
        "en": "bad section id {got_repr} (letters and digits)",
    },
    "section_kind": {
        "it": "il tipo di tabellone dev'essere board o tile, non {got_repr}",
        "en": "section kind must be board or tile, not {got_repr}",
    },
    "section_corners": {
        "it": "gli angoli si scrivono x,y; scrivi un tabellone così: section <id> board|tile "
        "<x0>,<y0> <x1>,<y1> [nome]",
        "en": "corners must be written x,y; write a section as: section <id> board|tile "
        "<x0>,<y0> <x1>,<y1> [name]",
    },
    "section_top_left": {
        "it": "il primo angolo dev'essere quello in alto a sinistra",
        "en": "the first corner must be the top-left one",
    },
    "section_kind_changed": {
        "it": "il tabellone {section} era stato dichiarato {kind}",
        "en": "section {section} was declared as {kind}",
    },
    "unknown_square": {
        "it": "casella sconosciuta {got_repr}: usa '.' corridoio, ':' stanza, '#' piena",
        "en": "unknown square {got_repr}: use '.' corridor, ':' room, '#' solid",
    },
    "solid_marker": {
        "it": "una casella piena non può avere un marcatore",
        "en": "a solid square cannot carry a marker",
    },
    "marker_not_in_legend": {
        "it": "la lettera di marcatore {got_repr} non è nella legenda: aggiungi "
        "'marker {letter} <tipo di Alieno>' dopo il disegno",
        "en": "marker letter {got_repr} is not in the legend: add "
        "'marker {letter} <alien type>' after the drawing",
    },
    "unknown_marker": {
        "it": "marcatore di casella sconosciuto {got_repr}: usa R (rinforzi), F (bandiera), "
        "1-9 (artiglio d'attracco) o una lettera della legenda",
        "en": "unknown square marker {got_repr}: use R (reinforcement), F (flag), "
        "1-9 (docking claw) or a legend letter",
    },
    "claw_not_drawn": {
        "it": "l'artiglio {claw} ha un nome nella legenda ma non è disegnato",
        "en": "claw {claw} is named in the legend but not drawn",
    },
    "door_on_solid": {
        "it": "una porta deve collegare due caselle che non sono piene",
        "en": "a door must lead between two squares that are not solid",
    },
    "always_open_inside": {
        "it": "una porta sempre aperta (A) sta in un muro divisorio tra due tabelloni; "
        "questa è dentro un solo tabellone (usa O per una normale porta aperta)",
        "en": "an always-open door (A) belongs to a dividing wall between two sections; "
        "this one is inside one section (use O for an ordinary open door)",
    },
    "section_outside": {
        "it": "il tabellone {section} arriva a {x},{y}, fuori dalla mappa di {width}x{height}",
        "en": "section {section} reaches {x},{y}, outside the {width}x{height} map",
    },
    "section_overlap": {
        "it": "il tabellone {section} si sovrappone al tabellone {other} in {x},{y}",
        "en": "section {section} overlaps section {other} at {x},{y}",
    },
    "square_without_section": {
        "it": "la casella {x},{y} non è in nessun tabellone: estendi una riga 'section' "
        "per coprirla",
        "en": "square {x},{y} is in no section: extend a 'section' line to cover it",
    },
    # A problem the board itself found (its text is the engine's own, in English).
    "board": {"it": "{detail}", "en": "{detail}"},
}


def map_problem_text(code: str, params: dict[str, Any], lang: str) -> str:
    """A map drawing's problem in ``lang``: ``*_repr`` params are shown quoted."""
    return pick(MAP_PROBLEMS, {}, code, params, lang).format(**params)
