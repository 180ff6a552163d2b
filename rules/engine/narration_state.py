"""Why a game state JSON is refused, translatable without Django.

:meth:`rules.engine.state.GameState.from_json` reports each problem as a
:class:`rules.engine.state.Problem`: a JSON path, a message *code* and JSON-ready *params*.
The English text here is the problem's ``message`` (the CLI, bug reports, ``str()`` of the
error); the judge's upload form and ``alien_turn --lang it`` show the Italian one.

Problems found by the JSON Schema (codes ``schema_*``) say in English exactly what
``jsonschema`` says, so their English templates copy its wording and show JSON values as
Python literals; the Italian ones show them as JSON, the way the judge typed them.

Params: ``square``/``a``/``b`` are squares written ``x,y``; ``value``/``expected``/
``property``/``pattern`` single JSON values, ``properties``/``allowed`` lists of them;
``types`` a list of JSON Schema type names; ``reason`` (with ``errno``) why a file cannot
be read; ``msg`` why a text is not JSON; ``maps`` a list of map names. Anything else (ids,
counts, a map's own English ``detail``) is shown as is.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from rules.engine.geometry import format_square
from rules.engine.narration import LANGUAGES, fields_of

STATE_ERRORS: dict[str, dict[str, str]] = {
    # --- reading the file ------------------------------------------------------------------
    "cannot_read": {
        "it": "impossibile leggere {file}: {reason}",
        "en": "cannot read {file}: {reason}",
    },
    "too_large": {
        "it": "impossibile leggere {file}: è più grande di {limit} MB, mentre uno stato o una "
        "mappa sono molto più piccoli; controlla che sia il file giusto",
        "en": "cannot read {file}: it is larger than {limit} MB, and a state or a map is much "
        "smaller; check that it is the right file",
    },
    "not_utf8": {
        "it": "impossibile leggere {file}: non è testo UTF-8 (salvalo come UTF-8 e riprova)",
        "en": "cannot read {file}: it is not UTF-8 text (save it as UTF-8 and try again)",
    },
    "not_json": {
        "it": "{file} non è JSON valido: {msg} alla riga {line}, colonna {column}",
        "en": "{file} is not JSON: {msg} at line {line}, column {column}",
    },
    # --- the JSON Schema (shape and types) -------------------------------------------------
    "schema_required": {
        "it": "manca la proprietà obbligatoria {property}",
        "en": "{property} is a required property",
    },
    "schema_additional": {
        "it": "proprietà non ammesse: {properties} (toglile o correggi il nome)",
        "en": "Additional properties are not allowed ({properties} were unexpected)",
    },
    "schema_type": {
        "it": "il valore {value} non va bene qui: serve {types}",
        "en": "{value} is not of type {types}",
    },
    "schema_enum": {
        "it": "il valore {value} non è ammesso: usa uno tra {allowed}",
        "en": "{value} is not one of {allowed}",
    },
    "schema_const": {
        "it": "il valore deve essere {expected}",
        "en": "{expected} was expected",
    },
    "schema_pattern": {
        "it": "il valore {value} non ha il formato richiesto (espressione regolare {pattern})",
        "en": "{value} does not match {pattern}",
    },
    "schema_minimum": {
        "it": "il valore {value} è inferiore al minimo consentito ({limit})",
        "en": "{value} is less than the minimum of {limit}",
    },
    "schema_maximum": {
        "it": "il valore {value} è superiore al massimo consentito ({limit})",
        "en": "{value} is greater than the maximum of {limit}",
    },
    "schema_min_items": {
        "it": "la lista {value} è troppo corta",
        "en": "{value} is too short",
    },
    "schema_max_items": {
        "it": "la lista {value} è troppo lunga",
        "en": "{value} is too long",
    },
    "schema_other": {
        "it": "valore non valido secondo lo schema: {detail}",
        "en": "{detail}",
    },
    # --- the map ---------------------------------------------------------------------------
    "unknown_map": {
        "it": "non c'è nessuna mappa inclusa di nome '{map}'; mappe disponibili: {maps}",
        "en": "no bundled map '{map}'; known maps: {maps}",
    },
    "bad_map": {
        "it": "la mappa non è valida: {detail}",
        "en": "{detail}",
    },
    # --- doors -----------------------------------------------------------------------------
    "door_not_adjacent": {
        "it": "le due caselle devono avere un lato in comune",
        "en": "the two squares must share a side",
    },
    "no_door": {
        "it": "la mappa non ha nessuna porta tra {a} e {b}",
        "en": "the map has no door between {a} and {b}",
    },
    "door_twice": {
        "it": "la porta tra {a} e {b} compare due volte",
        "en": "the door between {a} and {b} is listed twice",
    },
    "door_always_open": {
        "it": "la porta tra {a} e {b} è in una parete divisoria ed è sempre aperta",
        "en": "the door between {a} and {b} is in a dividing wall and is always open",
    },
    "bulkhead_state": {
        "it": "la porta tra {a} e {b} è una porta stagna rinforzata: il suo stato deve essere "
        '"bulkhead" o "destroyed", non "{door_state}"',
        "en": "the door between {a} and {b} is a reinforced bulkhead: its state must be "
        "bulkhead or destroyed, not {door_state}",
    },
    "ordinary_door_state": {
        "it": 'la porta tra {a} e {b} è una porta normale: il suo stato deve essere "closed" o '
        '"open", non "{door_state}"',
        "en": "the door between {a} and {b} is an ordinary door: its state must be closed or "
        "open, not {door_state}",
    },
    # --- players ---------------------------------------------------------------------------
    "player_id_twice": {
        "it": "l'id di giocatore '{player}' è usato due volte",
        "en": "player id '{player}' is used twice",
    },
    "no_claw": {
        "it": "la mappa non ha nessun artiglio d'attracco '{claw}'",
        "en": "the map has no docking claw '{claw}'",
    },
    "unknown_player": {
        "it": "giocatore sconosciuto '{player}'",
        "en": "unknown player '{player}'",
    },
    "player_twice": {
        "it": "il giocatore '{player}' compare due volte",
        "en": "player '{player}' appears twice",
    },
    # --- figures ---------------------------------------------------------------------------
    "figure_id_twice": {
        "it": "l'id di figura '{figure}' è usato due volte",
        "en": "figure id '{figure}' is used twice",
    },
    "number_twice": {
        "it": "la figura '{figure}' ha il numero {number}, che '{other}' dell'unità {unit} ha "
        "già: dai a ogni figura di un'unità un numero suo, o togli il numero per avere il "
        "primo libero",
        "en": "figure '{figure}' has number {number}, which '{other}' of unit {unit} already "
        "has: give each figure of a unit a number of its own, or leave the number out to get "
        "the next free one",
    },
    "number_not_taken": {
        "it": "solo gli Alieni, le Tarantole e i Dreadnought hanno un numero: togli 'number' "
        "dalla figura '{figure}'",
        "en": "only aliens, Tarantulas and Dreadnoughts are numbered: leave 'number' out of "
        "figure '{figure}'",
    },
    "marine_needs_player": {
        "it": "una figura dei Marine deve indicare il giocatore a cui appartiene",
        "en": "a marine-side figure needs its player",
    },
    "alien_has_player": {
        "it": "le figure degli Alieni non appartengono a nessun giocatore: usa null",
        "en": "alien figures belong to no player: use null",
    },
    "needs_square": {
        "it": "una figura deve occupare una casella, a meno che non piloti un veicolo",
        "en": "a figure needs a square unless it pilots a vehicle",
    },
    "square_count": {
        "it": "una figura occupa 1, 2 (Tarantola) o 4 caselle",
        "en": "a figure covers 1, 2 (Tarantula) or 4 squares",
    },
    "tarantula_squares": {
        "it": "le due caselle di una Tarantola devono avere un lato in comune",
        "en": "the two squares of a Tarantula must share a side",
    },
    "dreadnought_squares": {
        "it": "le quattro caselle di un Dreadnought devono formare un blocco 2x2",
        "en": "a Dreadnought's four squares must form a 2x2 block",
    },
    "off_board": {
        "it": "la casella {square} è fuori dal tabellone di {width}x{height} caselle",
        "en": "square {square} is outside the {width}x{height} board",
    },
    "solid": {
        "it": "la casella {square} è piena, non ci si può stare",
        "en": "square {square} is solid",
    },
    "square_taken": {
        "it": "la casella {square} è già occupata dalla figura '{figure}'",
        "en": "square {square} already holds figure '{figure}'",
    },
    "alien_in_claw": {
        "it": "la casella {square} è nell'artiglio d'attracco {claw}: gli Alieni non entrano "
        "mai negli artigli d'attracco",
        "en": "square {square} is in docking claw {claw}: aliens never enter the claws",
    },
    "unknown_figure": {
        "it": "figura sconosciuta '{figure}'",
        "en": "unknown figure '{figure}'",
    },
    "pilots_itself": {
        "it": "una figura non può pilotare se stessa",
        "en": "a figure cannot pilot itself",
    },
    "already_piloted": {
        "it": "la figura '{figure}' ha già un pilota, '{pilot}'",
        "en": "figure '{figure}' is already piloted by '{pilot}'",
    },
    "pilot_inside": {
        "it": "il pilota di un Dreadnought sta al suo interno: non dare caselle al pilota",
        "en": "a Dreadnought's pilot is inside it: give the pilot no squares",
    },
    # --- blips and tokens ------------------------------------------------------------------
    "blip_id_twice": {
        "it": "l'id di segnalino Blip '{blip}' è usato due volte",
        "en": "blip id '{blip}' is used twice",
    },
    "blip_off_board": {
        "it": "la casella {square} è fuori dal tabellone",
        "en": "square {square} is outside the board",
    },
    "blip_on_figure": {
        "it": "sulla casella {square} c'è la figura '{figure}'",
        "en": "square {square} holds figure '{figure}'",
    },
    "blip_on_blip": {
        "it": "sulla casella {square} c'è già un segnalino Blip",
        "en": "square {square} already holds a blip",
    },
    "token_id_twice": {
        "it": "l'id di segnalino '{token}' è usato due volte",
        "en": "token id '{token}' is used twice",
    },
    # --- sections, flags, stipulation ------------------------------------------------------
    "no_section": {
        "it": "la mappa non ha nessun tabellone '{section}'",
        "en": "the map has no section '{section}'",
    },
    "flag_place": {
        "it": "una bandiera sta su una casella oppure è portata da una figura (non tutte e due "
        "le cose)",
        "en": "a flag is either on a square or carried by a figure (not both)",
    },
    "flag_square": {
        "it": "la casella {square} non è una casella percorribile del tabellone",
        "en": "square {square} is not an open square of the board",
    },
    "item_id_twice": {
        "it": "l'equipaggiamento {item} compare due volte",
        "en": "item {item} appears twice",
    },
    "item_square": {
        "it": "la casella {square} non è una casella percorribile del tabellone",
        "en": "square {square} is not an open square of the board",
    },
    "unknown_stipulation": {
        "it": "stipulazione sconosciuta '{stipulation}'",
        "en": "unknown stipulation '{stipulation}'",
    },
}

#: Templates for a single item: code -> (the counting param, {lang: template}). The param
#: counts when it is 1 or a list of one.
SINGULAR: dict[str, tuple[str, dict[str, str]]] = {
    "schema_additional": (
        "properties",
        {
            "it": "proprietà non ammessa: {properties} (toglila o correggi il nome)",
            "en": "Additional properties are not allowed ({properties} was unexpected)",
        },
    ),
    "schema_min_items": (
        "limit",
        {
            "it": "la lista {value} non può essere vuota",
            "en": "{value} should be non-empty",
        },
    ),
}

#: What follows the first problem when a state has more: {lang: template} by count.
MORE_PROBLEMS: dict[str, str] = {
    "it": " (e altri {count} problemi)",
    "en": " (and {count} more problems)",
}
ONE_MORE_PROBLEM: dict[str, str] = {
    "it": " (e un altro problema)",
    "en": " (and 1 more problem)",
}

#: JSON Schema types in Italian (the ``types`` param).
TYPE_NAMES: dict[str, str] = {
    "string": "una stringa",
    "integer": "un numero intero",
    "number": "un numero",
    "boolean": "true o false",
    "null": "null",
    "array": "una lista",
    "object": "un oggetto",
}

#: Why a file cannot be read, in Italian, by ``errno`` name (the ``reason`` param).
OS_REASONS: dict[str, str] = {
    "ENOENT": "il file non esiste",
    "EACCES": "permesso negato",
    "EPERM": "permesso negato",
    "EISDIR": "è una cartella, non un file",
}

#: Python's JSON syntax errors in Italian (the ``msg`` param).
JSON_SYNTAX: dict[str, str] = {
    "Expecting value": "manca un valore",
    "Expecting ',' delimiter": "manca una virgola",
    "Expecting ':' delimiter": "mancano i due punti",
    "Expecting property name enclosed in double quotes": (
        "serve il nome di una proprietà tra virgolette doppie"
    ),
    "Extra data": "c'è altro testo dopo la fine del JSON",
    "Unterminated string starting at": "una stringa non è chiusa",
    "Invalid control character at": "carattere di controllo non valido",
    "Invalid \\escape": "sequenza di escape non valida",
    "Invalid \\uXXXX escape": "sequenza \\uXXXX non valida",
}

_JSON_VALUES = frozenset({"value", "expected", "property", "pattern"})
_JSON_LISTS = frozenset({"properties", "allowed"})


def _json_value(value: Any, lang: str) -> str:
    """A JSON value as ``jsonschema`` writes it (English) or as JSON (Italian)."""
    if lang == "en":
        return repr(value)
    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        return repr(value)


def format_state_param(name: str, value: Any, params: Mapping[str, Any], lang: str) -> str:
    """One param of a state problem in ``lang`` (see the module docstring)."""
    if name in ("square", "a", "b"):
        return format_square(tuple(value))
    if name in _JSON_VALUES:
        return _json_value(value, lang)
    if name == "properties":
        return ", ".join(_json_value(item, lang) for item in value)
    if name == "allowed":
        return repr(value) if lang == "en" else ", ".join(_json_value(v, lang) for v in value)
    if name == "types":
        if lang == "en":
            return ", ".join(repr(t) for t in value)
        return " o ".join(TYPE_NAMES.get(t, t) for t in value)
    if name == "reason" and lang == "it":
        return OS_REASONS.get(str(params.get("errno")), str(value))
    if name == "msg" and lang == "it":
        return JSON_SYNTAX.get(str(value), str(value))
    if name == "maps":
        return ", ".join(map(str, value))
    return str(value)


def _counts_one(value: Any) -> bool:
    return value == 1 or (isinstance(value, list | tuple) and len(value) == 1)


def state_error_text(code: str, params: Mapping[str, Any], lang: str) -> str:
    """The message of a state problem in ``lang`` ("it" or "en")."""
    if lang not in LANGUAGES:
        raise ValueError(f"language {lang!r} is not available: use one of {', '.join(LANGUAGES)}")
    one = SINGULAR.get(code)
    if one is not None and _counts_one(params.get(one[0])):
        template = one[1][lang]
    else:
        template = STATE_ERRORS[code][lang]
    values = {
        name: format_state_param(name, params.get(name), params, lang)
        for name in fields_of(template)
    }
    return template.format(**values)


def more_problems_text(count: int, lang: str) -> str:
    """What follows the first problem's text when ``count`` more problems were found."""
    return (ONE_MORE_PROBLEM if count == 1 else MORE_PROBLEMS)[lang].format(count=count)
