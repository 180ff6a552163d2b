"""The versioned tournament document: its identity, its JSON Schema and its text form.

A document is plain JSON data (dicts, lists, strings, numbers). It names things by natural
keys -- slugs, stage and session numbers, usernames and player ids local to the document --
never by database primary keys, so it can be loaded into any BoB database.
``docs/interchange.md`` describes every field.
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from typing import Any

from django.utils.translation import gettext as _
from jsonschema import Draft202012Validator, ValidationError
from jsonschema.exceptions import best_match

from rules.engine.schema_inlining import inlined
from tournaments.interchange.explanations import schema_message, type_message
from tournaments.interchange.problems import Problem, json_path
from tournaments.interchange.sections import registered

FORMAT = "bob-tournament"
FORMAT_VERSION = 12
#: The versions this BoB reads (older ones through :func:`upgraded`).
READABLE_VERSIONS = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, FORMAT_VERSION)
SCHEMA_PATH = Path(__file__).with_name("tournament.schema.json")


@cache
def schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of the current format version: the tournament's
    parts (``tournament.schema.json``) and those the other apps add
    (:mod:`tournaments.interchange.sections`)."""
    document = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    for section in registered():
        document["properties"][section.key] = section.schema
        document["required"].append(section.key)
        document["$defs"].update(section.definitions)
    return document


@cache
def _validator() -> Draft202012Validator:
    return Draft202012Validator(
        inlined(schema()), format_checker=Draft202012Validator.FORMAT_CHECKER
    )


def dumps(document: dict[str, Any]) -> str:
    """The canonical text of a document: sorted keys, two-space indent, final newline.

    Equal documents always give identical text, which makes round trips comparable byte
    for byte and exports diffable.
    """
    return json.dumps(document, sort_keys=True, indent=2, ensure_ascii=False) + "\n"


def _with_defaults(items: Any, defaults: dict[str, Any]) -> Any:
    """``items`` with ``defaults`` added to each object that lacks them (a non-list, or an
    item that is not an object, is left for the schema to report)."""
    if not isinstance(items, list):
        return items
    return [{**defaults, **item} if isinstance(item, dict) else item for item in items]


#: What each version added, as defaults that give an older document's entries the meaning
#: they had: version 2 the dice rolls' purpose codes, version 3 the activity entries'
#: description codes (no code: the stored text is shown). Version 4 added the board's games
#: (a section, :mod:`tournaments.interchange.sections`): an older document has none.
#: Version 5 gave each chapter card its duration, effect and confidence and renamed its
#: ``text`` (which held the card's source) to ``source`` (:func:`_cards_upgraded`).
#: Version 6 added the players' withdrawals, the seats' check-ins and forfeits, the
#: superseded awards (:func:`_people_upgraded`) and the sections of the venue's tables,
#: round timer, disputes and seed announcements.
#: Version 7 gave each result version the board game it was filled from (``game_number``,
#: ``game_step``; null: typed in), :func:`_game_links_upgraded`.
#: Version 8 added the tournament's own maps (a section): an older document has none.
#: Version 9 gave each session ``without_map`` (played without a map, it keeps none when
#: its stage gets one): false in an older document, :func:`_without_map_upgraded`.
#: Version 10 gave each player the ``language`` of their mails: "" (the site's) in an older
#: document.
#: Version 11 let a seat's ``forfeit`` be ``not_played`` (withdrawn before the session
#: started, decision 65): an older document has none, so nothing to upgrade.
#: Version 12 let a loss's ``cause`` in a result's breakdown be ``left_on_board`` (a marine
#: still on the board at the game's end, game engine decision 33): an older document has
#: none, so nothing to upgrade.
_UPGRADES: dict[int, tuple[str, dict[str, Any]]] = {
    2: ("dice_rolls", {"purpose_code": "", "purpose_params": {}}),
    3: ("activity", {"description_code": "", "description_params": {}}),
    10: ("players", {"language": ""}),
}
PEOPLE_VERSION = 6
#: Version 6's new fields of each list, with the value that means "nothing happened".
_PEOPLE_DEFAULTS: dict[str, dict[str, Any]] = {
    "players": {"withdrawn_at": None, "withdrawal_reason": ""},
    "honours": {"superseded_at": None},
    "score_bonuses": {"superseded_at": None},
}
_SEAT_DEFAULTS = {"checked_in_at": None, "forfeit": ""}
#: The no-show delay a tournament had before it could be set.
_NO_SHOW_MINUTES = 15


def upgraded(document: Any) -> Any:
    """An older document (a version in :data:`READABLE_VERSIONS`) as the current version:
    the fields added since get their "nothing" values (see :data:`_UPGRADES`).

    Anything else comes back as it is. The document given is not changed.
    """
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        return document
    version = document.get("format_version")
    if isinstance(version, bool) or version not in READABLE_VERSIONS or version == FORMAT_VERSION:
        return document
    upgrade = {**document, "format_version": FORMAT_VERSION}
    for added_in, (key, defaults) in _UPGRADES.items():
        if version < added_in and key in upgrade:
            upgrade[key] = _with_defaults(upgrade[key], defaults)
    for section in registered():
        if version < section.added_in:
            upgrade.setdefault(section.key, [])
    if version < CARD_DETAILS_VERSION and isinstance(upgrade.get("squads"), list):
        upgrade["squads"] = [_cards_upgraded(squad) for squad in upgrade["squads"]]
    if version < PEOPLE_VERSION:
        _people_upgraded(upgrade)
    if version < GAME_LINK_VERSION and isinstance(upgrade.get("stages"), list):
        upgrade["stages"] = [_game_links_upgraded(stage) for stage in upgrade["stages"]]
    if version < WITHOUT_MAP_VERSION and isinstance(upgrade.get("stages"), list):
        upgrade["stages"] = [_without_map_upgraded(stage) for stage in upgrade["stages"]]
    return upgrade


WITHOUT_MAP_VERSION = 9


def _without_map_upgraded(stage: Any) -> Any:
    """A stage of a document older than version 9: its sessions follow their stage's map."""
    if not isinstance(stage, dict) or not isinstance(stage.get("sessions"), list):
        return stage
    return {**stage, "sessions": _with_defaults(stage["sessions"], {"without_map": False})}


GAME_LINK_VERSION = 7
_GAME_LINK_DEFAULTS = {"game_number": None, "game_step": None}


def _game_links_upgraded(stage: Any) -> Any:
    """A stage of a document older than version 7: its result versions come from no game."""
    if not isinstance(stage, dict) or not isinstance(stage.get("sessions"), list):
        return stage
    sessions = []
    for session in stage["sessions"]:
        result = session.get("result") if isinstance(session, dict) else None
        if isinstance(result, dict) and "versions" in result:
            versions = _with_defaults(result["versions"], _GAME_LINK_DEFAULTS)
            session = {**session, "result": {**result, "versions": versions}}
        sessions.append(session)
    return {**stage, "sessions": sessions}


def _people_upgraded(upgrade: dict[str, Any]) -> None:
    """Give a document older than version 6 (a copy, changed in place) version 6's fields."""
    for key, defaults in _PEOPLE_DEFAULTS.items():
        if key in upgrade:
            upgrade[key] = _with_defaults(upgrade[key], defaults)
    if isinstance(upgrade.get("tournament"), dict):
        upgrade["tournament"] = {"no_show_minutes": _NO_SHOW_MINUTES, **upgrade["tournament"]}
    if isinstance(upgrade.get("stages"), list):
        upgrade["stages"] = [_stage_upgraded(stage) for stage in upgrade["stages"]]


def _stage_upgraded(stage: Any) -> Any:
    if not isinstance(stage, dict) or not isinstance(stage.get("sessions"), list):
        return stage
    sessions = [
        {**session, "seats": _with_defaults(session.get("seats"), _SEAT_DEFAULTS)}
        if isinstance(session, dict) and "seats" in session
        else session
        for session in _with_defaults(stage["sessions"], {"superseded_at": None})
    ]
    return {**stage, "sessions": sessions}


CARD_DETAILS_VERSION = 5
_CARD_DEFAULTS = {
    "use": "one_use",
    "effect_code": "",
    "effect_en": "",
    "effect_it": "",
    "confidence": "one_source",
}


def _cards_upgraded(squad: Any) -> Any:
    """A squad of a document older than version 5 with its cards' new fields: the old
    ``text`` becomes ``source``, the rest get their "nothing" values."""
    if not isinstance(squad, dict) or not isinstance(squad.get("cards"), list):
        return squad
    cards = [
        {**_CARD_DEFAULTS, "source": card.get("text", "")}
        | {key: value for key, value in card.items() if key != "text"}
        if isinstance(card, dict)
        else card
        for card in squad["cards"]
    ]
    return {**squad, "cards": cards}


def version_problems(document: Any) -> list[Problem]:
    """Is this a BoB tournament document of the current version (older versions are read
    through :func:`upgraded` first)?

    Checked before the schema, because a document of another version would otherwise drown
    the one useful message in schema errors.
    """
    if not isinstance(document, dict):
        return [Problem("$", _("the document must be a JSON object ({...}); this is not one"))]
    if document.get("format") != FORMAT:
        return [
            Problem(
                "$.format",
                _('this is not a BoB tournament document: "format" must be "%(format)s"')
                % {"format": FORMAT},
            )
        ]
    version = document.get("format_version")
    if version != FORMAT_VERSION:
        return [
            Problem(
                "$.format_version",
                _(
                    "format version %(found)s is not supported; this BoB reads versions "
                    "%(supported)s (export the tournament again from a matching BoB)"
                )
                % {
                    "found": json.dumps(version),
                    "supported": ", ".join(str(number) for number in READABLE_VERSIONS),
                },
            )
        ]
    return []


def schema_problems(document: Any) -> list[Problem]:
    """Every JSON Schema violation, in document order, each said once (a missing field
    is one finding per field, and the message names them all)."""
    problems = {_problem(error) for error in _validator().iter_errors(document)}
    return sorted(problems, key=lambda problem: (_path_key(problem.path), problem.message))


def _problem(error: ValidationError) -> Problem:
    """One violation in the reader's language (:mod:`.explanations`); for "null or an
    object" and similar choices, say what was expected.

    A choice that failed in every branch only says "is not valid under any of the given
    schemas"; a wrong type becomes "... is not an object {…} or null", and a value of the
    right type reports the error inside it (e.g. the bad card of a loadout).
    """
    if error.context:
        type_errors = [
            inner for inner in error.context if inner.validator == "type" and not inner.path
        ]
        if len(type_errors) == len(error.context):
            expected: set[str] = set()
            for inner in type_errors:
                value = inner.validator_value  # a type's name or a list of them
                if isinstance(value, str):
                    expected.add(value)
                elif isinstance(value, list):
                    expected.update(value)
            return Problem(json_path(error.absolute_path), type_message(error.instance, expected))
        error = best_match([error])
    return Problem(json_path(error.absolute_path), schema_message(error))


def _path_key(path: str) -> list[tuple[int, int, str]]:
    """Sort key of a JSON path that orders list indexes numerically."""
    return [
        (0, int(part), "") if part.isdigit() else (1, 0, part)
        for part in re.split(r"[.\[\]]+", path)
        if part
    ]
