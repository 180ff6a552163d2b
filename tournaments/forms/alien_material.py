"""The aliens' material of a stipulation as ordinary form fields (issue 13 item 4): the
reinforcement tokens and how they enter, the Solitaire blip pile, the Dreadnought's class,
class value and weapons, the blips that hide special equipment, and the choice of the alien event
deck's cards in the reader's language. No JSON is typed by hand.

:func:`material_fields` gives the fields, :func:`material_params` turns what was typed into
the stipulation's parameters (checked by
:func:`tournaments.models.clean_stipulation_params`), :func:`material_initial` does the
reverse and :func:`material_lines` describes them for the pages.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from rules.engine.card_names import event_card_name
from rules.engine.event_cards import load_cards
from rules.engine.units import LEAST_CLASS_VALUE, RulesData, load_rules_data
from tournaments.domain.engine_language import narration_language
from tournaments.domain.scoring import TOKEN_ALIEN_LABELS
from tournaments.models.stipulations import (
    EQUIPMENT_ITEMS,
    dreadnought_weapons_misfit,
    token_aliens,
)
from tournaments.queries.rules_values import heavy_weapon_choices, item_label

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

EQUIPMENT_LABELS = {
    "tarantula": _("Tarantula"),
    "abandoned_dreadnought": _("Dreadnought to pilot"),
    "lascannon": _("Lascannon"),
    "melta": _("Melta"),
    "conversion_beamer": _("Conversion beamer"),
}
COUNTED = {"reinforcements": _("Reinforcement tokens"), "blip_pile": _("Solitaire blip tokens")}
_SQUARES = re.compile(r"[\s;]+")
#: The material parameters given by one field each.
SINGLE = (
    "reinforcements_per_turn",
    "reinforcements_from_round",
    "dreadnought_class",
    "dreadnought_value",
)


def event_card_choices() -> list[tuple[str, str]]:
    """The alien event deck's cards (RULES §12) by id, named in the active language as the
    catalogue in effect names them (:func:`~rules.engine.naming.named`)."""
    language = narration_language()
    names = [(card.id, event_card_name(card.id, language)) for card in load_cards()]
    return sorted(names, key=lambda choice: choice[1].casefold())


def event_cards_field(label) -> forms.MultipleChoiceField:
    return forms.MultipleChoiceField(
        label=label,
        required=False,
        choices=event_card_choices,
        widget=forms.CheckboxSelectMultiple,
        help_text=_("Tick the cards the deck keeps; none ticked is the whole deck."),
    )


def _count(label, minimum: int = 0) -> forms.IntegerField:
    return forms.IntegerField(
        label=label,
        required=False,
        min_value=minimum,
        max_value=99,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )


def _alien_label(alien: str) -> str:
    return str(TOKEN_ALIEN_LABELS.get(alien, alien))


def _kept(key: str) -> str:
    """How a choice stored before the tournament's rules data lost it is offered: shown as
    it is, so the form loses nothing, and refused with the reason when saved."""
    return str(_("%(key)s (not in the tournament's rules data)") % {"key": key})


def _dreadnought_choices(
    rules: RulesData | None = None, stored: str = ""
) -> list[tuple[str, StrOrPromise]]:
    """The Dreadnought classes of ``rules`` (the tournament's rules data, with the classes
    its house rules add; None: the shipped), and ``stored``, the class a stipulation names,
    when they no longer have it."""
    classes = (rules or load_rules_data()).dreadnought_classes
    choices: list[tuple[str, StrOrPromise]] = [("", _("None named"))]
    choices += [(key, spec.name) for key, spec in classes.items()]
    if stored and stored not in classes:
        choices.append((stored, _kept(stored)))
    return choices


#: Weapon fields of the Dreadnought: as many as the class mounting most heavy weapons.
DREADNOUGHT_SLOTS = 4


def _slot(number: int) -> str:
    return f"dreadnought_weapon_{number}"


def _heavy_weapon_choices(rules: RulesData | None, stored: list[str]) -> list[tuple[str, str]]:
    choices = [("", "–"), *heavy_weapon_choices(data=rules)]
    offered = {key for key, _label in choices}
    return choices + [(key, _kept(key)) for key in dict.fromkeys(stored) if key not in offered]


def material_fields(
    rules: RulesData | None = None, params: dict[str, Any] | None = None
) -> dict[str, forms.Field]:
    """The form fields of the aliens' material, by form field name: the Dreadnought's class
    and weapons chosen among those of ``rules``, the tournament's rules data (None: the
    shipped), with those ``params``, the stored parameters, name and they lack."""
    params = params or {}
    stored_class = str(params.get("dreadnought_class") or "")
    stored_weapons = [str(w) for w in params.get("dreadnought_weapons") or []]
    fields: dict[str, forms.Field] = {}
    for parameter, heading in COUNTED.items():
        for alien in token_aliens():
            fields[f"{parameter}_{alien}"] = _count(
                _("%(what)s: %(alien)s") % {"what": heading, "alien": _alien_label(alien)}
            )
    fields["reinforcements_per_turn"] = _count(_("Reinforcement tokens entering each Alien turn"))
    fields["reinforcements_from_round"] = _count(_("Reinforcements from round"), minimum=1)
    fields["dreadnought_class"] = forms.ChoiceField(
        label=_("Dreadnought class"),
        choices=lambda: _dreadnought_choices(rules, stored_class),
        required=False,
    )
    fields["dreadnought_value"] = forms.IntegerField(
        label=_("Dreadnought class value (points)"),
        required=False,
        min_value=LEAST_CLASS_VALUE,
        max_value=999,
        help_text=_("%(least)d or more; empty: the class's value in the rules data.")
        % {"least": LEAST_CLASS_VALUE},
    )
    for number in range(1, DREADNOUGHT_SLOTS + 1):
        fields[_slot(number)] = forms.ChoiceField(
            label=_("Dreadnought weapon %(number)d") % {"number": number},
            choices=lambda: _heavy_weapon_choices(rules, stored_weapons),
            required=False,
            help_text=_(
                "As the session notes name them, as many as the class mounts (2 or 4); "
                "none: the class's usual weapons."
            )
            if number == 1
            else "",
        )
    for item in EQUIPMENT_ITEMS:
        fields[f"equipment_{item}"] = forms.CharField(
            label=_("Blips hiding: %(item)s") % {"item": EQUIPMENT_LABELS[item]},
            required=False,
            help_text=_("Squares of the map's blip markers, e.g. 4,7 10,2."),
        )
    return fields


def field_parameters() -> Iterator[tuple[str, str]]:
    """(form field, parameter as validation messages name it) of the aliens' material."""
    for parameter in COUNTED:
        for alien in token_aliens():
            yield f"{parameter}_{alien}", f"{parameter}.{alien}"
    for name in SINGLE:
        yield name, name
    for number in range(1, DREADNOUGHT_SLOTS + 1):
        yield _slot(number), "dreadnought_weapons"
    for item in EQUIPMENT_ITEMS:
        yield f"equipment_{item}", "equipment_blips"


def _squares(name: str, text: str) -> list[str]:
    squares = [part for part in _SQUARES.split(text.strip()) if part]
    wrong = [part for part in squares if not re.fullmatch(r"\d{1,3},\d{1,3}", part)]
    if wrong:
        raise ValidationError(
            _(
                "%(square)s is not a square; write squares as x,y separated by spaces, "
                "e.g. 4,7 10,2."
            )
            % {"square": wrong[0]},
            code=name,
        )
    return squares


def material_params(
    cleaned: dict[str, Any], rules: RulesData | None = None
) -> tuple[dict[str, Any], dict[str, str]]:
    """The parameters typed into the material fields (empty ones left out), and the
    problems found on the way by form field name; the Dreadnought's weapons checked against
    its class in ``rules``, the tournament's rules data (None: the shipped)."""
    params: dict[str, Any] = {}
    problems: dict[str, str] = {}
    for parameter in COUNTED:
        counts = {alien: cleaned.get(f"{parameter}_{alien}") or 0 for alien in token_aliens()}
        if any(counts.values()):
            params[parameter] = {alien: count for alien, count in counts.items() if count}
    for name in SINGLE:
        if cleaned.get(name) not in (None, ""):
            params[name] = cleaned[name]
    blips: dict[str, str] = {}
    for item in EQUIPMENT_ITEMS:
        name = f"equipment_{item}"
        try:
            squares = _squares(name, cleaned.get(name) or "")
        except ValidationError as error:
            problems[name] = error.messages[0]
            continue
        for square in squares:
            if square in blips:
                problems[name] = str(
                    _("Square %(square)s already hides %(item)s; a blip hides one thing.")
                    % {"square": square, "item": EQUIPMENT_LABELS[blips[square]]}
                )
            blips[square] = item
    if blips:
        params["equipment_blips"] = blips
    weapons = [
        cleaned[_slot(number)]
        for number in range(1, DREADNOUGHT_SLOTS + 1)
        if cleaned.get(_slot(number))
    ]
    if weapons:
        problem = _dreadnought_weapons_problem(
            cleaned.get("dreadnought_class") or "", weapons, rules
        )
        if problem:
            problems[_slot(1)] = problem
        params["dreadnought_weapons"] = weapons
    return params, problems


def _dreadnought_weapons_problem(
    class_key: str, weapons: list[str], rules: RulesData | None
) -> str:
    """What is wrong with the weapons typed for the Dreadnought of class ``class_key`` (of
    ``rules``; None: the shipped), in the organiser's words ("" when nothing)."""
    data = rules or load_rules_data()
    if not class_key:
        return str(_("Choose the Dreadnought class too: the weapons are mounted by its class."))
    if class_key not in data.dreadnought_classes:
        return ""  # the class is refused at its own field, saying why
    misfit = dreadnought_weapons_misfit(class_key, weapons, data)
    if misfit is None:
        return ""
    spec, weapon = misfit
    if weapon is None:
        return str(
            ngettext(
                "The %(name)s mounts %(mounts)d heavy weapons: choose %(mounts)d (you chose "
                "%(given)d).",
                "The %(name)s mounts %(mounts)d heavy weapons: choose %(mounts)d (you chose "
                "%(given)d).",
                len(weapons),
            )
            % {"name": spec.name, "mounts": spec.heavy_weapons, "given": len(weapons)}
        )
    language = narration_language()
    return str(
        _("The %(name)s cannot mount the %(weapon)s; it mounts: %(choices)s.")
        % {
            "name": spec.name,
            "weapon": item_label(data, "weapons", weapon, language),
            "choices": ", ".join(
                item_label(data, "weapons", key, language) for key in spec.weapon_choices
            ),
        }
    )


def _hiding(params: dict[str, Any], item: str) -> list[str]:
    return [sq for sq, hidden in (params.get("equipment_blips") or {}).items() if hidden == item]


def material_initial(params: dict[str, Any]) -> dict[str, Any]:
    """The material fields' initial values from stored parameters."""
    initial: dict[str, Any] = {}
    for parameter in COUNTED:
        for alien, count in (params.get(parameter) or {}).items():
            initial[f"{parameter}_{alien}"] = count
    for name in SINGLE:
        if name in params:
            initial[name] = params[name]
    for number, weapon in enumerate(params.get("dreadnought_weapons") or [], start=1):
        initial[_slot(number)] = weapon
    for item in EQUIPMENT_ITEMS:
        squares = [
            sq for sq, hidden in (params.get("equipment_blips") or {}).items() if hidden == item
        ]
        if squares:
            initial[f"equipment_{item}"] = " ".join(squares)
    return initial


def material_lines(params: dict[str, Any], rules: RulesData | None = None) -> list[tuple[str, str]]:
    """(label, value) lines describing the aliens' material of stored parameters, the
    Dreadnought's class named as ``rules`` (the tournament's rules data; None: the
    shipped) name it."""
    lines: list[tuple[str, str]] = []
    for parameter, heading in COUNTED.items():
        counts = params.get(parameter) or {}
        if counts:
            shown = ", ".join(f"{_alien_label(alien)} {count}" for alien, count in counts.items())
            lines.append((str(heading), shown))
    fields = material_fields()
    for name in ("reinforcements_per_turn", "reinforcements_from_round", "dreadnought_value"):
        if name in params:
            lines.append((str(fields[name].label), str(params[name])))
    if params.get("dreadnought_class"):
        cls = params["dreadnought_class"]
        classes = dict(_dreadnought_choices(rules, cls))
        lines.append((str(fields["dreadnought_class"].label), str(classes[cls])))
    if params.get("dreadnought_weapons"):
        data, language = rules or load_rules_data(), narration_language()
        lines.append(
            (
                str(_("Dreadnought weapons")),
                ", ".join(
                    item_label(data, "weapons", weapon, language)
                    for weapon in params["dreadnought_weapons"]
                ),
            )
        )
    for item in EQUIPMENT_ITEMS:
        squares = [
            sq for sq, hidden in (params.get("equipment_blips") or {}).items() if hidden == item
        ]
        if squares:
            lines.append((str(fields[f"equipment_{item}"].label), " ".join(squares)))
    return lines


def event_card_names(ids: list[str]) -> str:
    """The names of event cards ``ids`` in the active language (unknown ids as they are)."""
    names = dict(event_card_choices())
    return ", ".join(names.get(card, card) for card in ids)
