"""What is wrong with rules data (the defaults or a tournament's overrides), in Italian and
English.

:class:`rules.engine.units.RulesDataError` carries one of these codes and its params; its
``str()`` is the English text (bug reports, tests) and ``text_in("it")`` the Italian one,
for the organiser's catalogue page, the judge's board and the command line in the chosen
language. The texts live here, beside the unit data, because the narration modules sit in
a higher layer of the engine than the data they would describe. Params are written with
``str.format`` (``{value!r}`` shows a value as the data holds it).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

DATA_ERRORS: dict[str, dict[str, str]] = {
    "unknown_unit": {
        "en": "unknown unit type {key!r}; known types: {known}",
        "it": "tipo di unità sconosciuto {key!r}; tipi noti: {known}",
    },
    "unknown_weapon": {
        "en": "unknown weapon {key!r}; known weapons: {known}",
        "it": "arma sconosciuta {key!r}; armi note: {known}",
    },
    "unknown_weapon_at": {
        "en": "{path}: unknown weapon {key!r}; known weapons: {known}",
        "it": "{path}: arma sconosciuta {key!r}; armi note: {known}",
    },
    "unknown_dreadnought_class": {
        "en": "unknown Dreadnought class {key!r}; known classes: {known}",
        "it": "classe di Dreadnought sconosciuta {key!r}; classi note: {known}",
    },
    "dreadnought_weapon_count": {
        "en": "a {name} mounts {mounts} heavy weapons, not {given}",
        "it": "un {name} monta {mounts} armi pesanti, non {given}",
    },
    "dreadnought_weapon_choice": {
        "en": "a {name} cannot mount {weapon!r}; choose from {choices}",
        "it": "un {name} non può montare {weapon!r}; scegli tra {choices}",
    },
    "no_data_value": {
        "en": "no data value at {path!r}",
        "it": "nessun valore nei dati in {path!r}",
    },
    "defined_twice": {
        "en": "{file}: top-level key {key!r} is defined twice",
        "it": "{file}: la chiave principale {key!r} è definita due volte",
    },
    "record_keys": {
        "en": "{path}: unexpected keys {keys}; a value record has only 'value', 'source' "
        "and 'unverified'",
        "it": "{path}: chiavi inattese {keys}; un valore ha solo 'value', 'source' e 'unverified'",
    },
    "expected_object": {
        "en": "{path}: expected an object, got {value!r}",
        "it": "{path}: serve un oggetto, trovato {value!r}",
    },
    "not_json": {
        "en": "overrides: not plain JSON data ({problem})",
        "it": "modifiche: non sono semplici dati JSON ({problem})",
    },
    "new_entry_object": {
        "en": "{path}: a new entry must be an object of fields",
        "it": "{path}: una nuova voce deve essere un oggetto di campi",
    },
    "new_entry_missing": {
        "en": "{path}: new entry is missing fields {fields}; give every field",
        "it": "{path}: alla nuova voce mancano i campi {fields}; indica tutti i campi",
    },
    "unknown_field": {
        "en": "{path}: unknown field; known fields: {known}",
        "it": "{path}: campo sconosciuto; campi noti: {known}",
    },
    "unknown_key": {
        "en": "{path}: unknown key; known keys here: {known}",
        "it": "{path}: chiave sconosciuta; chiavi note qui: {known}",
    },
    "whole_number": {
        "en": "{path}: expected a whole number, got {value!r}",
        "it": "{path}: serve un numero intero, trovato {value!r}",
    },
    "at_least": {
        "en": "{path}: must be at least {minimum}, got {value}",
        "it": "{path}: deve essere almeno {minimum}, trovato {value}",
    },
    "non_empty_text": {
        "en": "{path}: expected a non-empty text, got {value!r}",
        "it": "{path}: serve un testo non vuoto, trovato {value!r}",
    },
    "not_a_choice": {
        "en": "{path}: {value!r} is not one of {choices}",
        "it": "{path}: {value!r} non è tra {choices}",
    },
    "true_or_false": {
        "en": "{path}: expected true or false, got {value!r}",
        "it": "{path}: serve true o false, trovato {value!r}",
    },
    "dice": {
        "en": '{path}: expected dice as {{"white": n, "red": n}}, got {value!r}',
        "it": '{path}: servono dadi come {{"white": n, "red": n}}, trovato {value!r}',
    },
    "weapon_list": {
        "en": "{path}: expected a list of weapon keys, got {value!r}",
        "it": "{path}: serve una lista di chiavi di armi, trovato {value!r}",
    },
    "weapon_options": {
        "en": "{path}: expected a non-empty list of lists",
        "it": "{path}: serve una lista non vuota di liste",
    },
    "offsets": {
        "en": "{path}: expected a non-empty list of [dx, dy] offsets",
        "it": "{path}: serve una lista non vuota di spostamenti [dx, dy]",
    },
    "offset_pair": {
        "en": "{path}: expected [dx, dy], got {value!r}",
        "it": "{path}: serve [dx, dy], trovato {value!r}",
    },
    "offset_whole": {
        "en": "{path}: {name} must be a whole number, got {value!r}",
        "it": "{path}: {name} deve essere un numero intero, trovato {value!r}",
    },
    "needs_source": {
        "en": "{path}: every value needs a 'source' text",
        "it": "{path}: ogni valore richiede un testo 'source' (la fonte)",
    },
    "value_record": {
        "en": "{path}: expected a value record or an object",
        "it": "{path}: serve un valore con la sua fonte o un oggetto",
    },
    "not_heavy": {
        "en": "{path}: {weapon!r} is not a heavy or extra-heavy weapon",
        "it": "{path}: {weapon!r} non è un'arma pesante o extra-pesante",
    },
    "not_a_class_choice": {
        "en": "{path}: {weapon!r} is not among the class's weapon_choices",
        "it": "{path}: {weapon!r} non è tra le weapon_choices della classe",
    },
    "default_weapon_count": {
        "en": "{path}: lists {given} weapons but the class mounts {mounts}",
        "it": "{path}: elenca {given} armi ma la classe ne monta {mounts}",
    },
    "token_missing": {
        "en": "{path}: missing; every alien unit needs a token value (0 for none)",
        "it": "{path}: manca; ogni unità aliena ha bisogno di un valore del segnalino "
        "(0 se non vale nulla)",
    },
}


def data_error_text(code: str, params: Mapping[str, Any], lang: str) -> str:
    """The message of a rules-data problem in ``lang`` ("it" or "en"; English otherwise)."""
    texts = DATA_ERRORS[code]
    return texts.get(lang, texts["en"]).format(**params)
