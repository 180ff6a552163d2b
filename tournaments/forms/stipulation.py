"""Stipulation parameters (RULES §6) as ordinary form fields, one group per stipulation type.

The organiser fills the group of the chosen type; the group is turned into the parameters
dict and checked by :func:`tournaments.models.clean_stipulation_params`, whose messages name
the parameter to fix. Without JavaScript every group is shown; with it, only the chosen one.
"""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from tournaments.forms.accessible import FormMixinBase
from tournaments.forms.alien_material import (
    event_card_names,
    event_cards_field,
    field_parameters,
    material_fields,
    material_initial,
    material_lines,
    material_params,
)
from tournaments.models import StipulationKind
from tournaments.models.stipulations import (
    END_ALIENS_DEAD,
    END_FIXED_ROUNDS,
    FLAGS_ONE_FOR_ALL,
    FLAGS_ONE_PER_SQUAD,
    FLAGS_TWO_FOR_THREE,
    clean_stipulation_params,
    readable_rules,
)

if TYPE_CHECKING:
    from django.forms import BoundField
    from django_stubs_ext import StrOrPromise

    from rules.engine.units import RulesData
    from tournaments.models import Tournament


def _number(label, minimum: int = 1, help_text: str = "") -> forms.IntegerField:
    return forms.IntegerField(
        label=label, required=False, min_value=minimum, max_value=999, help_text=help_text
    )


def _flag(label) -> forms.BooleanField:
    return forms.BooleanField(label=label, required=False)


END_CHOICES = [
    (END_FIXED_ROUNDS, _("after a fixed number of rounds")),
    (END_ALIENS_DEAD, _("when all aliens are dead, then N rounds to reach the claws")),
]
FLAG_CHOICES = [
    (FLAGS_ONE_PER_SQUAD, _("one flag per squad")),
    (FLAGS_TWO_FOR_THREE, _("two flags for three squads")),
    (FLAGS_ONE_FOR_ALL, _("one flag for all")),
]

#: Per stipulation type: form field name -> (parameter name, field). The stall breaker's
#: fields are gathered into its own object.
GROUPS: dict[str, dict[str, tuple[str, forms.Field]]] = {
    StipulationKind.ALIEN_HUNT: {
        "ah_end_condition": (
            "end_condition",
            forms.ChoiceField(label=_("The game ends"), choices=END_CHOICES, required=False),
        ),
        "ah_rounds": ("rounds", _number(_("Rounds"))),
        "ah_escape_rounds": ("escape_rounds", _number(_("Rounds to reach the claws"))),
        "ah_event_deck": ("event_deck", _flag(_("Use the alien event deck"))),
        "ah_event_cards": ("event_cards", event_cards_field(_("Event cards in the deck"))),
    },
    StipulationKind.CATCH_THE_FLAG: {
        "ctf_flags": (
            "flags",
            forms.ChoiceField(label=_("Flags"), choices=FLAG_CHOICES, required=False),
        ),
        "ctf_flag_value": ("flag_value", _number(_("Flag value (points)"))),
        "ctf_hidden_flags": ("hidden_flags", _flag(_("Hidden flag locations"))),
        "ctf_rounds": ("rounds", _number(_("Rounds (empty: no limit)"))),
        "ctf_aliens": ("aliens", _flag(_("Aliens in play"))),
        "ctf_event_deck": ("event_deck", _flag(_("Use the alien event deck"))),
        "ctf_event_cards": ("event_cards", event_cards_field(_("Event cards in the deck"))),
    },
    StipulationKind.TPK: {
        "tpk_aliens": ("aliens", _flag(_("Aliens in play (not recommended)"))),
    },
}
GROUPS[StipulationKind.EXTENDED_TPK] = GROUPS[StipulationKind.TPK]
STALL_FIELDS: dict[str, tuple[str, forms.Field]] = {
    "stall_from_round": ("from_round", _number(_("Stall breaker from round"))),
    "stall_points": ("points", _number(_("Points per round (B)"))),
    "stall_growth": ("growth", _number(_("B grows each round by"), minimum=0)),
    "stall_max_extra_rounds": ("max_extra_rounds", _number(_("At most this many more rounds"))),
}
ALL_KINDS = " ".join(kind.value for kind in StipulationKind)
GROUP_LABELS = {
    StipulationKind.ALIEN_HUNT: _("Alien Hunt parameters"),
    StipulationKind.CATCH_THE_FLAG: _("Catch the Flag parameters"),
    StipulationKind.TPK: _("TPK and Extended TPK parameters"),
}


class StipulationFieldsMixin(FormMixinBase):
    """Adds the parameter fields to a form whose ``stipulation_kind`` field picks the type."""

    #: The tournament's rules data, whose Dreadnought classes the typed weapons must fit
    #: (None: the shipped; :func:`~tournaments.models.stipulations.playing_rules`).
    stipulation_rules: RulesData | None = None
    #: Why the tournament's rules data do not read (empty when they do): every save is
    #: refused with it, rather than checked against other rules data (decision 76).
    rules_problem: str = ""

    def add_stipulation_fields(
        self, params: dict | None, kind: str, tournament: Tournament
    ) -> None:
        """The parameters' fields, their menus from ``tournament``'s rules data."""
        rules, self.rules_problem = readable_rules(tournament)
        self.stipulation_rules = rules
        for group in (
            GROUPS[StipulationKind.ALIEN_HUNT],
            GROUPS[StipulationKind.CATCH_THE_FLAG],
            GROUPS[StipulationKind.TPK],
            STALL_FIELDS,
        ):
            for name, (_parameter, field) in group.items():
                # Each form gets its own copy: widgets carry per-request attributes.
                self.fields[name] = copy.deepcopy(field)
        params = params or {}
        self.fields.update(material_fields(rules, params))
        if kind in GROUPS:
            for name, (parameter, _field) in GROUPS[kind].items():
                if parameter in params:
                    self.initial[name] = params[parameter]
        self.initial.update(material_initial(params))
        stall = params.get("stall_breaker") or {}
        if stall:
            self.initial["tpk_stall"] = True
        for name, (parameter, _field) in STALL_FIELDS.items():
            if parameter in stall:
                self.initial[name] = stall[parameter]
        self.fields["tpk_stall"] = _flag(_("Use the stall breaker"))

    def stipulation_groups(self) -> list[tuple[str, StrOrPromise, list[BoundField]]]:
        """(type, heading, bound fields) for the template, one group per type."""
        tpk = [self[name] for name in GROUPS[StipulationKind.TPK]]
        tpk += [self["tpk_stall"]] + [self[name] for name in STALL_FIELDS]
        return [
            (
                StipulationKind.ALIEN_HUNT.value,
                GROUP_LABELS[StipulationKind.ALIEN_HUNT],
                [self[name] for name in GROUPS[StipulationKind.ALIEN_HUNT]],
            ),
            (
                StipulationKind.CATCH_THE_FLAG.value,
                GROUP_LABELS[StipulationKind.CATCH_THE_FLAG],
                [self[name] for name in GROUPS[StipulationKind.CATCH_THE_FLAG]],
            ),
            ("tpk extended_tpk", GROUP_LABELS[StipulationKind.TPK], tpk),
            (
                ALL_KINDS,
                _("The aliens' material"),
                [self[name] for name, _parameter in field_parameters()],
            ),
        ]

    def stipulation_params(self, kind: str) -> dict:
        """The parameters typed for ``kind`` (unchecked; empty fields are left out)."""
        cleaned = self.cleaned_data
        params: dict = {}
        for name, (parameter, field) in GROUPS.get(kind, {}).items():
            value = cleaned.get(name)
            if isinstance(field, forms.BooleanField):
                params[parameter] = bool(value)
            elif isinstance(field, forms.MultipleChoiceField):
                params[parameter] = list(value or [])
            elif value not in (None, ""):
                params[parameter] = value
        if kind in (StipulationKind.TPK, StipulationKind.EXTENDED_TPK) and cleaned.get("tpk_stall"):
            params["stall_breaker"] = {
                parameter: cleaned[name]
                for name, (parameter, _field) in STALL_FIELDS.items()
                if cleaned.get(name) is not None
            }
        material, problems = material_params(cleaned, self.stipulation_rules)
        for name, message in problems.items():
            self.add_error(name, message)
        return {**params, **material}

    def clean_stipulation(self, cleaned: dict[str, Any]) -> None:
        """Check the parameters typed for the chosen type into ``stipulation_params``.

        Each problem goes next to the field of the parameter it names (or above the form).
        """
        kind = cleaned.get("stipulation_kind")
        if not kind:
            return
        if self.rules_problem:
            self.add_error(None, self.rules_problem)
            return
        try:
            cleaned["stipulation_params"] = clean_stipulation_params(
                kind, self.stipulation_params(kind), self.stipulation_rules
            )
        except ValidationError as error:
            for message in error.messages:
                name = _field_named_in(kind, message)
                if name is not None and name in self.errors:
                    continue  # the field's own message already says what is wrong
                self.add_error(name, self._in_form_words(kind, message))

    def _in_form_words(self, kind: str, message: str) -> str:
        """``message`` (which names parameters and values as the stored parameters spell
        them, for documents and the command line) with the form's labels instead:
        “Flag value (points)”, not “flag_value”."""
        for name, parameter in _parameter_fields(kind):
            field = self.fields.get(name)
            if field is None:
                continue
            message = message.replace(f"“{parameter}”", f"“{field.label}”")
            for value, label in getattr(field, "choices", ()):
                if value:
                    message = message.replace(f"“{value}”", f"“{label}”")
        return message


def _parameter_fields(kind: str) -> list[tuple[str, str]]:
    """(form field, parameter as the validation messages name it) for ``kind``."""
    pairs = [(name, parameter) for name, (parameter, _field) in GROUPS.get(kind, {}).items()]
    if kind in (StipulationKind.TPK, StipulationKind.EXTENDED_TPK):
        pairs += [
            (name, f"stall_breaker.{parameter}") for name, (parameter, _f) in STALL_FIELDS.items()
        ]
    return pairs + list(field_parameters())


MATERIAL_NAMES = frozenset(name for name, _parameter in field_parameters())


def _field_named_in(kind: str, message: str) -> str | None:
    """The form field whose parameter the validation message names, if any."""
    for name, parameter in _parameter_fields(kind):
        if re.search(rf"(?<![\w.]){re.escape(parameter)}(?!\w|\.\w)", message):
            return name
    return None


def parameter_lines(
    kind: str, params: dict, rules: RulesData | None = None
) -> list[tuple[str, str]]:
    """(label, value) pairs describing a stipulation's parameters, as the form names them
    (the Dreadnought's class as ``rules``, the tournament's rules data, name it)."""
    lines: list[tuple[str, str]] = []
    for name, parameter in _parameter_fields(kind):
        if name in MATERIAL_NAMES:
            continue
        if parameter.startswith("stall_breaker."):
            value = (params.get("stall_breaker") or {}).get(parameter.split(".", 1)[1])
        else:
            value = params.get(parameter)
        if value is None or value == []:
            continue
        field = STALL_FIELDS.get(name, (None, None))[1] or GROUPS[kind][name][1]
        if isinstance(value, bool):
            shown = str(_("yes") if value else _("no"))
        elif isinstance(value, list):
            shown = event_card_names(value)
        elif isinstance(field, forms.ChoiceField):
            # Django keeps a field's choices as (value, label) pairs once set (the stubs also
            # allow the raw inputs, e.g. a mapping or a callable).
            choices = cast("list[tuple[Any, Any]]", field.choices)
            shown = str(dict(choices).get(value, value))
        else:
            shown = str(value)
        lines.append((str(field.label), shown))
    return lines + material_lines(params, rules)


@dataclass(frozen=True)
class StipulationSummary:
    """A stipulation as pages show it: its type's name and its parameters' lines."""

    label: str
    lines: list[tuple[str, str]]


def describe_stipulation(
    kind: str, params: dict, rules: RulesData | None = None
) -> StipulationSummary | None:
    """The stipulation of type ``kind`` in words, or ``None`` when no type is set; its
    Dreadnought's class named as ``rules``, the tournament's rules data
    (:func:`~tournaments.models.stipulations.playing_rules`), name it."""
    if not kind:
        return None
    return StipulationSummary(
        str(StipulationKind(kind).label), parameter_lines(kind, params, rules)
    )
