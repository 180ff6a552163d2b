"""A catalogue edit's changes in the reader's words, for the activity log: each change is
stored as plain data, ``[field, before, after]``, and shown as "Armour: 1 → 3", "English
name: “Missile launcher” → “Laser rifle”", the field by the label its form gives it and the
values as the pages show them (dice as "2 white + 1 red", weapons and effects by name, a
choice by its label), in the language of whoever reads the log. A card's effect is stored
with the names the tournament gave it when it changed
(:func:`tournaments.queries.tournament_catalogue.effect_names`); so is the alien event card a
house rule's path runs through (``events.report.name.en``: the English name of the card the
tournament calls “Report In”; :func:`tournaments.queries.event_deck.event_card_names`)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from django.core.exceptions import FieldDoesNotExist
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from rules.engine.card_names import chapter_card_name
from rules.engine.naming import in_language
from rules.engine.units import DiceSpec
from tournaments.domain.engine_language import narration_language
from tournaments.domain.scoring import TOKEN_ALIEN_LABELS
from tournaments.models import ChapterCard, Weapon
from tournaments.queries.event_deck import EVENTS
from tournaments.queries.rules_values import LABELS, shown

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
    _card_id, rest = _event_card_path(field_key(field)) or ("", [])
    if not rest:
        return _("alien event card %(card)s") % {"card": card}
    key = "_".join(rest)
    part = str(EVENT_LABELS[key]) if key in EVENT_LABELS else ".".join(rest)
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
    for model in (ChapterCard, Weapon):
        try:
            return capfirst(str(getattr(model._meta.get_field(field), "verbose_name", field)))
        except FieldDoesNotExist:
            continue
    return field


def _is_event_target(path: str) -> bool:
    """Whether the house rule's ``path`` is an alien event card's target
    (``events.report.target``)."""
    card = _event_card_path(path)
    return card is not None and card[1] == ["target"]


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
    if _is_event_target(field) and value in EVENT_TARGETS:
        return str(EVENT_TARGETS[value])
    if field in CHOICE_FIELDS:
        model_field = CHOICE_FIELDS[field]._meta.get_field(field)
        choices = dict(getattr(model_field, "flatchoices", ()))
        return str(choices.get(value, value))
    if isinstance(value, Mapping) and value and value.keys() <= DICE_KEYS:
        return shown(DiceSpec(int(value.get("white", 0)), int(value.get("red", 0))))
    if isinstance(value, list):
        return shown(tuple(str(item) for item in value))
    if isinstance(value, int):
        return str(value)
    # Any other object (a house rule's, e.g. an empty "events": {}) as the JSON it was.
    shown_text = json.dumps(value, ensure_ascii=False) if isinstance(value, Mapping) else value
    text = " ".join(str(shown_text).split())
    if len(text) > QUOTED:
        text = text[: QUOTED - 1].rstrip() + "…"
    return f"“{text}”"


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
