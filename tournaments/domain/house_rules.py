"""A tournament's house rules (``Tournament.data_overrides``) checked as the app reads them.

The board, the catalogue, the result form and the scoring each read a part of the
overrides, and each refuses the whole tournament's when one value is wrong: house rules
taken as they came (an import, the organiser's house rules page) would leave a tournament
whose catalogue cannot save and whose judge cannot start a game. So they are checked with
the readers themselves: the unit, weapon and alien token data with the engine's loader
(:func:`rules.engine.units.load_rules_data`, which also checks the token values the
catalogue's form saves: whole numbers from 0) and within the limits the catalogue's form
holds them in (:mod:`tournaments.domain.rules_limits`), the event cards with the deck's
(:func:`rules.engine.event_cards.load_cards`) and the point values as
:func:`tournaments.queries.result_versions.scoring_values` takes them.

The engine's loader stops at the first problem; to name every one, the part it found wrong
is set aside and the rest read again, until the rest reads (each value is merged into the
shipped data on its own, so the others are still checked as they will be read).
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Iterator, Mapping
from dataclasses import fields
from typing import Any

from django.utils.translation import gettext as _

from rules.engine.catalogue_classes import SQUAD_WEAPON_KEYS, with_catalogue_classes
from rules.engine.event_cards import EventDataError, default_cards, load_cards
from rules.engine.units import LEAST_CLASS_VALUE, RulesDataError, load_rules_data
from tournaments.domain.engine_language import narration_language
from tournaments.domain.rules_limits import LIMITS, TOKEN_LIMIT, Limit
from tournaments.domain.scoring import ENGINE_TARANTULA, ScoringValues

#: Where an engine path (``units.ork.weapons[2]``) goes, key by key and index by index.
_PATH_PART = re.compile(r"([^.\[\]]+)|\[(\d+)\]")
#: An event deck error about one field of a card: ``cards[3].name: expected ...``.
_DECK_FIELD = re.compile(r"^cards\[\d+\]\.(?P<field>\w+): (?P<detail>.*)$", re.DOTALL)
#: The sections read by the tournament app rather than the engine's unit data loader.
SCORING = "scoring"
EVENTS = "events"
#: The least Dreadnought class value once read from ``scoring``, now RULES §7's alone.
LEAST_CLASS_VALUE_KEY = "dreadnought_min_class_value"
#: The engine's names of the §7 point values, written from ``scoring`` for a game only.
ENGINE_POINT_SECTIONS = ("marine_values", ENGINE_TARANTULA)
#: More problems than a document could hold; a bound on the reading loop all the same.
_MOST_PROBLEMS = 500

Part = str | int
#: A problem: where in the overrides (keys and indexes) and what is wrong, how to fix it.
OverrideProblem = tuple[tuple[Part, ...], str]


def override_problems(
    overrides: Any, weapon_classes: Mapping[str, str] | None = None
) -> list[OverrideProblem]:
    """Every problem of a tournament's rules data ``overrides``, each with its place in
    them and a message in the active language; empty when the app can read them.
    ``weapon_classes``: the class the tournament's catalogue gives each squad weapon, by slug (none:
    the shipped ones), which the board reads them with (decision 69): a Dreadnought class's
    weapon choices are checked against the catalogue's classes, not the shipped ones."""
    if not isinstance(overrides, Mapping):
        return []  # the document's schema says it must be an object
    shadowed = [key for key in ENGINE_POINT_SECTIONS if key in overrides]
    overrides = {key: value for key, value in overrides.items() if key not in shadowed}
    classes = list(_squad_weapon_classes(overrides))
    for key in classes:
        overrides["weapons"] = {**overrides["weapons"], key: dict(overrides["weapons"][key])}
        del overrides["weapons"][key]["weapon_class"]
    return [
        *((((key,), _point_values_elsewhere(key))) for key in shadowed),
        *((("weapons", key, "weapon_class"), _class_elsewhere()) for key in classes),
        *_rules_data_problems(overrides, weapon_classes or {}),
        *_limit_problems(overrides),
        *_scoring_problems(overrides),
        *_event_problems(overrides),
    ]


def _squad_weapon_classes(overrides: Mapping[str, Any]) -> Iterator[str]:
    """The squad weapons whose class the house rules set: the catalogue's weapon form is
    the one place for it (:func:`tournaments.domain.catalogue.with_catalogue_classes`)."""
    weapons = overrides.get("weapons")
    if not isinstance(weapons, Mapping):
        return
    for key, entry in weapons.items():
        if key in SQUAD_WEAPON_KEYS and isinstance(entry, Mapping) and "weapon_class" in entry:
            yield key


def _class_elsewhere() -> str:
    return _(
        "a squad weapon's class is set on its form on the catalogue page (Weapons), which "
        "the loadouts, the result form and the board all read; change it there, and "
        "remove it here"
    )


def _point_values_elsewhere(key: str) -> str:
    """The §7 point values have one place, ``scoring``: the engine's own names for them
    would be a second one, read by the board and not by the scoring."""
    where = "scoring.tarantula" if key == ENGINE_TARANTULA else "scoring"
    return _(
        "the point values of RULES §7 are kept under %(where)s, which the board and the "
        "scoring both read; move them there (%(known)s), or remove this"
    ) % {"where": where, "known": ", ".join(field.name for field in fields(ScoringValues))}


def problem_place(where: tuple[Part, ...]) -> str:
    """A problem's place as the house rules page names it: ``units.ork.weapons[2]``."""
    text = ""
    for part in where:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else part)
    return text


def engine_path(text: str) -> tuple[Part, ...]:
    """The keys and indexes of an engine path such as ``units.ork.weapons[2]``."""
    return tuple(key if key else int(index) for key, index in _PATH_PART.findall(text))


def _rules_data_problems(
    overrides: Mapping[str, Any], classes: Mapping[str, str]
) -> Iterator[OverrideProblem]:
    remaining = copy.deepcopy(dict(overrides))
    language = narration_language()
    for _attempt in range(_MOST_PROBLEMS):
        try:
            load_rules_data(with_catalogue_classes(remaining, classes))
        except RulesDataError as error:
            path = str(error.params.get("path", ""))
            text = error.text_in(language)
            if path and text.startswith(f"{path}: "):
                text = text[len(path) + 2 :]
            where = engine_path(path) if path and path != "overrides" else ()
            yield (
                where,
                _("%(problem)s; correct this house rule, or remove it to play with BoB's own value")
                % {"problem": text},
            )
            if not _set_aside(remaining, where):
                return
        else:
            return


def _set_aside(overrides: dict[str, Any], where: tuple[Part, ...]) -> bool:
    """Remove from ``overrides`` the value at ``where`` (a list's item goes with its list);
    False when they do not hold it: the problem is about something missing (a new alien's
    token value, say), whose cause cannot be set aside, so the reading stops there."""
    keys = [part for part in where if isinstance(part, str)][: _keys_before_index(where)]
    node: Any = overrides
    for key in keys[:-1]:
        if not isinstance(node, dict) or key not in node:
            return False
        node = node[key]
    if not keys or not isinstance(node, dict) or keys[-1] not in node:
        return False
    del node[keys[-1]]
    return True


def _keys_before_index(where: tuple[Part, ...]) -> int:
    """How many keys ``where`` has before its first list index (all of them without one)."""
    for position, part in enumerate(where):
        if isinstance(part, int):
            return position
    return len(where)


def _limit_problems(overrides: Mapping[str, Any]) -> Iterator[OverrideProblem]:
    """The numbers outside the limits the catalogue's form holds them in (decision 47),
    which the engine's loader reads all the same: a figure that cannot move, a weapon that
    never fires. A value of the wrong type is the loader's problem, named already."""
    for (section, name), limit in LIMITS.items():
        entries = overrides.get(section)
        if not isinstance(entries, Mapping):
            continue
        for key, entry in entries.items():
            value = entry.get(name) if isinstance(entry, Mapping) else None
            if isinstance(value, Mapping) and "value" in value:
                value = value["value"]
            if isinstance(value, Mapping):  # dice: the limit is per colour
                for colour, count in value.items():
                    if _outside(count, limit):
                        yield (section, key, name, colour), _limit_message(count, limit)
            elif _outside(value, limit):
                yield (section, key, name), _limit_message(value, limit)
    tokens = overrides.get("alien_tokens")
    if isinstance(tokens, Mapping):
        for alien, points in tokens.items():
            if _outside(points, TOKEN_LIMIT) and points > 0:  # below 0: the loader's
                yield ("alien_tokens", alien), _limit_message(points, TOKEN_LIMIT)


def _outside(value: Any, limit: Limit) -> bool:
    whole = isinstance(value, int) and not isinstance(value, bool)
    return whole and not limit.low <= value <= limit.high


def _limit_message(value: Any, limit: Limit) -> str:
    """Why ``value`` (a whole number, :func:`_outside` its limit) is refused."""
    if limit.why:
        return _(
            "%(value)d is outside %(low)d–%(high)d: %(why)s; correct this house rule, or "
            "remove it to play with BoB's own value"
        ) % {"value": value, "low": limit.low, "high": limit.high, "why": limit.why}
    return _(
        "%(value)d is outside %(low)d–%(high)d; correct this house rule, or remove it to "
        "play with BoB's own value"
    ) % {"value": value, "low": limit.low, "high": limit.high}


def _scoring_problems(overrides: Mapping[str, Any]) -> Iterator[OverrideProblem]:
    scoring = overrides.get(SCORING)
    if scoring is None:
        return
    known = [field.name for field in fields(ScoringValues)]
    if not isinstance(scoring, Mapping):
        yield (
            (SCORING,),
            _('the point values must be an object such as {"heavy": 10}; known keys: %(known)s')
            % {"known": ", ".join(known)},
        )
        return
    for key, value in scoring.items():
        if key == LEAST_CLASS_VALUE_KEY:
            yield (SCORING, key), _least_class_value_fixed()
        elif key not in known:
            yield (
                (SCORING, key),
                _("unknown point value; use one of %(known)s, or remove it")
                % {"known": ", ".join(known)},
            )
        elif isinstance(value, bool) or not isinstance(value, int) or value < 0:
            yield (
                (SCORING, key),
                _("points must be a whole number from 0 up, not %(value)s")
                % {"value": _shown(value)},
            )


def _least_class_value_fixed() -> str:
    """The least Dreadnought class value is RULES §7's, the one the catalogue's Dreadnought
    classes and the stage form hold every class value to (decision 67): a house value would
    let the catalogue save class values the scoring then questions."""
    return _(
        "the least Dreadnought class value is %(least)d, as RULES §7 says, for the "
        "catalogue's Dreadnought classes, the stage form and the scoring alike; it cannot be "
        "changed here: remove this, and set each class's own value on the catalogue page "
        "(Dreadnought classes)"
    ) % {"least": LEAST_CLASS_VALUE}


def _event_problems(overrides: Mapping[str, Any]) -> Iterator[OverrideProblem]:
    events = overrides.get(EVENTS)
    if events is None:
        return
    known = [card.id for card in default_cards()]
    if not isinstance(events, Mapping):
        yield (
            (EVENTS,),
            _("the event cards' changes must be an object of cards by id; known ids: %(known)s")
            % {"known": ", ".join(known)},
        )
        return
    for card_id, changes in events.items():
        if card_id not in known:
            yield (
                (EVENTS, card_id),
                _("there is no alien event card with this id; use one of %(known)s")
                % {"known": ", ".join(known)},
            )
            continue
        try:
            load_cards({card_id: changes})
        except EventDataError as error:
            # The deck names the card by its place in it ("cards[3].name: ..."): name the
            # field of the document's change instead.
            found = _DECK_FIELD.match(str(error))
            where, detail = (
                ((EVENTS, card_id, found["field"]), found["detail"])
                if found
                else ((EVENTS, card_id), str(error))
            )
            yield (
                where,
                _(
                    "the alien event deck cannot read this change (%(error)s); correct it "
                    "or remove it"
                )
                % {"error": detail},
            )


def _shown(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)
