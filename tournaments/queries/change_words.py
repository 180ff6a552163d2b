"""A catalogue edit's changes in the reader's words, for the activity log: each change is
stored as plain data, ``[field, before, after]``, and shown as "Armour: 1 → 3", "English
name: “Missile launcher” → “Laser rifle”", the field by the label its form gives it and the
values as the pages show them (dice as "2 white + 1 red", weapons and effects by name, a
choice by its label), in the language of whoever reads the log. A card's effect is stored
with the names the tournament gave it when it changed
(:func:`tournaments.queries.tournament_catalogue.effect_names`); so is the alien event card a
house rule's path runs through (``events.report.name.en``: the English name of the card the
tournament calls “Report In”; :func:`tournaments.queries.event_deck.event_card_names`).
Such a card's target and effect read in words too ("Effect of alien event card Report In: a
limit on the chosen player's next turn → the aliens named do not move"); a field or a value
the log does not know reads as the organiser wrote it."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from django.core.exceptions import FieldDoesNotExist
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from rules.engine.card_names import chapter_card_name
from rules.engine.figure_names import UNIT_NAMES, WEAPON_NAMES
from rules.engine.naming import in_language
from rules.engine.units import DiceSpec, load_rules_data
from tournaments.domain.engine_language import narration_language
from tournaments.domain.scoring import TOKEN_ALIEN_LABELS
from tournaments.models import ChapterCard, Squad, Weapon
from tournaments.queries.event_deck import EVENTS
from tournaments.queries.rules_values import LABELS, item_label, shown

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

#: Longest text a change quotes whole.
QUOTED = 60

#: The fields of an alien event card's form.
EVENT_LABELS: dict[str, StrOrPromise] = {
    "name_it": gettext_lazy("Italian name"),
    "name_en": gettext_lazy("English name"),
    "text_it": gettext_lazy("Italian text"),
    "text_en": gettext_lazy("English text"),
    "target": gettext_lazy("Target"),
}
#: An alien event card's target as the log shows it (``rules/engine/data/events.json``).
EVENT_TARGETS: dict[str, StrOrPromise] = {
    "none": gettext_lazy("nobody"),
    "player": gettext_lazy("a marine player chosen by the die"),
    "alien": gettext_lazy("an alien chosen by the engine"),
}
#: The fields of an alien event card as a house rule's path on the card names them
#: (``name.en``, ``target``, ``effect.limit``), the effect's as ``events.json`` writes them.
EVENT_PATH_LABELS: dict[str, StrOrPromise] = {
    **{key.replace("_", "."): label for key, label in EVENT_LABELS.items()},
    "effect": gettext_lazy("Effect"),
    "effect.code": gettext_lazy("Effect"),
    "effect.limit": gettext_lazy("Limit on the chosen player's next turn"),
    "effect.units": gettext_lazy("Aliens affected"),
    "effect.weapon": gettext_lazy("Special weapon"),
    "effect.firer_dies": gettext_lazy("Death of the firer"),
    "effect.dice.red": gettext_lazy("Red dice of the blast"),
    "effect.dice.white": gettext_lazy("White dice of the blast"),
    "effect.squares": gettext_lazy("Extra squares of movement"),
    "effect.acts_twice": gettext_lazy("The first alien acts twice"),
    "effect.unit": gettext_lazy("Alien that appears"),
    "policy_effects": gettext_lazy("Effect under an Alien policy"),
}
#: What each effect an alien event card may have does, by its code
#: (:data:`rules.engine.event_cards.EFFECT_CODES`, ``docs/alien-ai.md``).
EVENT_EFFECTS: dict[str, StrOrPromise] = {
    "cannot_move": gettext_lazy("the aliens named do not move"),
    "cannot_move_or_shoot": gettext_lazy("the aliens named neither move nor shoot"),
    "cannot_act": gettext_lazy("the aliens named do nothing"),
    "extra_movement": gettext_lazy("the aliens move extra squares"),
    "double_movement": gettext_lazy("the aliens named move up to double and still attack"),
    "activate_first": gettext_lazy("an alien of the types named acts first"),
    "swap_two_aliens": gettext_lazy("two aliens swap places"),
    "close_doors_blocking_sight": gettext_lazy("open doors cutting a line of sight are closed"),
    "player_turn_limit": gettext_lazy("a limit on the chosen player's next turn"),
    "special_weapon": gettext_lazy("an alien fires a special weapon"),
    "self_destruct": gettext_lazy("an alien explodes"),
    "alien_appears": gettext_lazy("an alien appears next to a marine of the chosen player"),
}
#: What a card played against a player forbids in that player's next turn, by its code
#: (:data:`rules.engine.event_cards.TURN_LIMITS`).
EVENT_TURN_LIMITS: dict[str, StrOrPromise] = {
    "commander_idle": gettext_lazy("the commander neither moves nor attacks"),
    "no_orders": gettext_lazy("no order cards"),
    "heavy_jammed": gettext_lazy("heavy weapons do not fire"),
}
#: The coded values of an alien event card's fields in words, by the field's path on it.
EVENT_VALUES: dict[str, Mapping[str, StrOrPromise]] = {
    "target": EVENT_TARGETS,
    "effect.code": EVENT_EFFECTS,
    "effect.limit": EVENT_TURN_LIMITS,
}
EFFECT_LABEL = gettext_lazy("Effect on the board")
#: The keys of a value shown as dice ("2 white + 1 red"): a weapon's or a unit's dice.
DICE_KEYS = frozenset({"white", "red"})
#: Fields whose values are model choices, shown by their label.
CHOICE_FIELDS = {
    "kind": ChapterCard,
    "use": ChapterCard,
    "confidence": ChapterCard,
    "weapon_class": Weapon,
}


def _event_card_path(path: str) -> tuple[str, list[str]] | None:
    """A house rule's ``path`` under an alien event card as the card's id and the rest
    (``events.report.name.en``: ``("report", ["name", "en"])``); None for any other path."""
    section, *rest = path.split(".")
    return (rest[0], rest[1:]) if section == EVENTS and rest else None


def house_rule_field(
    path: str, event_names: Mapping[str, Mapping[str, str]]
) -> str | dict[str, str]:
    """A house rule's ``path`` as the log keeps it: one under an alien event card
    (``events.report.name.en``) with the names ``event_names`` give that card, as
    ``{"path": ..., "en": ..., "it": ...}``; any other path, or a card without a name
    there, as it is."""
    card = _event_card_path(path)
    names = event_names.get(card[0]) if card is not None else None
    return {"path": path, **names} if names else path


def _event_card_label(field: Mapping[str, Any]) -> str:
    """A house rule under an event card, the card named as the tournament named it then:
    "English name of alien event card Report In"."""
    card = in_language(field, narration_language())
    key = _event_field(field_key(field))
    if not key:
        return _("alien event card %(card)s") % {"card": card}
    part = str(EVENT_PATH_LABELS[key]) if key in EVENT_PATH_LABELS else key
    return _("%(field)s of alien event card %(card)s") % {"field": part, "card": card}


def field_key(field: Any) -> str:
    """The field (or house rule's path) a stored change is about."""
    return str(field["path"]) if isinstance(field, Mapping) else str(field)


def field_label(field: Any) -> str:
    """What the organiser's forms call ``field`` (a house rule under an event card: with the
    card's name, :func:`house_rule_field`)."""
    if isinstance(field, Mapping):
        return _event_card_label(field)
    field = str(field)
    if field == "effect_code":
        return str(EFFECT_LABEL)
    for labels in (LABELS, TOKEN_ALIEN_LABELS, EVENT_LABELS):
        if field in labels:
            return str(labels[field])
    for model in (Squad, ChapterCard, Weapon):
        try:
            return capfirst(str(getattr(model._meta.get_field(field), "verbose_name", field)))
        except FieldDoesNotExist:
            continue
    return field


def _event_field(path: str) -> str | None:
    """The field a house rule's ``path`` under an alien event card changes, as its path on
    the card (``events.report.effect.limit``: ``effect.limit``; the card itself: ``""``);
    None for any other path."""
    card = _event_card_path(path)
    return _as_effect_key(".".join(card[1])) if card is not None else None


def _as_effect_key(key: str) -> str:
    """An effect field under one Alien policy (``policy_effects.solitaire.units``) named as
    the card's own effect's (``effect.units``): it is read and shown the same way."""
    parts = key.split(".")
    if parts[0] == "policy_effects" and len(parts) > 1:
        return ".".join(["effect", *parts[2:]])
    return key


def _event_value_words(key: str, value: Any) -> str:
    """``value`` of an alien event card's field ``key`` (its path on the card) in words: a
    coded value, the unit(s) and the weapon of an effect by name; one the log does not know
    as written."""
    words = EVENT_VALUES.get(key, {})
    if isinstance(value, str) and value in words:
        return str(words[value])
    if key == "effect.weapon" and isinstance(value, str) and value in WEAPON_NAMES:
        return shown((value,))
    if key == "effect.unit" and isinstance(value, str) and value in UNIT_NAMES:
        return item_label(load_rules_data(), "units", value, narration_language())
    if (
        key == "effect.units"
        and isinstance(value, list)
        and value
        and all(isinstance(unit, str) and unit in UNIT_NAMES for unit in value)
    ):
        data, language = load_rules_data(), narration_language()
        return ", ".join(item_label(data, "units", unit, language) for unit in value)
    return _as_written(value)


def _as_written(value: Any) -> str:
    """A number as it is; any other value quoted, an object or a list as the JSON it was
    (a house rule's, e.g. an empty "events": {}), a long one cut short."""
    if isinstance(value, int):
        return str(value)
    shown_text = (
        json.dumps(value, ensure_ascii=False) if isinstance(value, Mapping | list) else value
    )
    text = " ".join(str(shown_text).split())
    if len(text) > QUOTED:
        text = text[: QUOTED - 1].rstrip() + "…"
    return f"“{text}”"


def value_words(field: str, value: Any) -> str:
    """``value`` of ``field`` as the pages show it."""
    if value is None or value == "":
        return "–"
    if isinstance(value, bool):
        return str(_("yes") if value else _("no"))
    if field == "effect_code":
        if isinstance(value, Mapping):  # named as the tournament named its card then
            return in_language(value, narration_language())
        return chapter_card_name(str(value), narration_language())  # an older entry's code
    event_field = _event_field(field)
    if event_field is not None:
        return _event_value_words(event_field, value)
    if field in CHOICE_FIELDS:
        model_field = CHOICE_FIELDS[field]._meta.get_field(field)
        choices = dict(getattr(model_field, "flatchoices", ()))
        return str(choices.get(value, value))
    if isinstance(value, Mapping) and value and value.keys() <= DICE_KEYS:
        return shown(DiceSpec(int(value.get("white", 0)), int(value.get("red", 0))))
    if isinstance(value, list) and value and all(isinstance(item, Mapping) for item in value):
        return ", ".join(in_language(item, narration_language()) for item in value)  # names
    if isinstance(value, list):
        return shown(tuple(str(item) for item in value))
    return _as_written(value)


def store_changes(
    changes: Mapping[str, tuple[Any, Any] | list[Any]] | list[list[Any]],
) -> list[list[Any]]:
    """``{field: (before, after)}`` as the log stores it; already stored (``[[field, before,
    after], ...]``, a field kept as data: :func:`house_rule_field`), as it is."""
    if isinstance(changes, list):
        return [list(change) for change in changes]
    return [[field, before, after] for field, (before, after) in changes.items()]


def changes_text(stored: Any) -> str:
    """The stored changes in the reader's words, "Armour: 1 → 3; Shots: 1 → 2" (a stored
    value of another shape raises ``TypeError``: the entry shows its stored text)."""
    if not isinstance(stored, list) or not stored:
        raise TypeError(f"expected a list of changes, got {stored!r}")
    parts = []
    for change in stored:
        if not isinstance(change, list) or len(change) != 3:
            raise TypeError(f"expected [field, before, after], got {change!r}")
        field, before, after = change
        parts.append(
            _("%(field)s: %(before)s → %(after)s")
            % {
                "field": field_label(field),
                "before": value_words(field_key(field), before),
                "after": value_words(field_key(field), after),
            }
        )
    return "; ".join(parts)
