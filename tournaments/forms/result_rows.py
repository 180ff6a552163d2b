"""The repeatable rows of the judge's result form: alien tokens, objectives, Dreadnoughts
destroyed and stall-breaker rounds.

A seat may record any number of each (up to :data:`MAX_ROWS`), so every
:class:`~tournaments.domain.scoring.SeatBreakdown` can be entered and a stored version loads back
row for row. Each kind says which fields a row has, which of them a filled row needs, and
how a row becomes a scoring entry and back. How many rows a seat shows travels in a hidden
``<kind>-TOTAL`` field, as in Django formsets, so the "add a row" and "remove" buttons work
with htmx and, without JavaScript, as plain submit buttons (:class:`RowAction`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django import forms
from django.http import QueryDict
from django.utils.translation import gettext_lazy as _

from tournaments.domain.scoring import (
    TOKEN_ALIEN_LABELS,
    AlienTokens,
    DreadnoughtKill,
    MarineClass,
    ObjectivePoints,
    StallBreakerRound,
)
from tournaments.domain.stored_labels import (
    OBJECTIVE,
    objective_label_code,
    shown_objective_label,
)

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

#: Most rows of one kind a seat can have (the hidden row count is refused above it).
MAX_ROWS = 20

PILOT_CLASSES = (
    ("", _("no Dreadnought destroyed")),
    (MarineClass.LIGHT.value, _("light weapon or unarmed")),
    (MarineClass.HEAVY.value, _("heavy weapon")),
    (MarineClass.EXTRA_HEAVY.value, _("extra-heavy weapon")),
)
#: For a form that lists unarmed marines apart (see ``forms.result.lists_unarmed_apart``).
PILOT_CLASSES_UNARMED_APART = (
    PILOT_CLASSES[0],
    (MarineClass.LIGHT.value, _("light weapon")),
    (MarineClass.UNARMED.value, _("unarmed")),
    *PILOT_CLASSES[2:],
)
ALIEN_TYPES = (("", _("none")), *TOKEN_ALIEN_LABELS.items())


def _blank(value: Any) -> bool:
    return value is None or value == ""


def _points(label: StrOrPromise) -> forms.IntegerField:
    return forms.IntegerField(label=label, required=False, min_value=-999, max_value=999)


class RowKind:
    """One repeatable kind of row; subclasses give the fields and the entry conversion."""

    #: Name used in field names (``p<player>-<name>-<row>-<part>``) and button names.
    name: str
    #: The :class:`~tournaments.domain.scoring.SeatBreakdown` field the entries go to.
    breakdown_field: str
    title: StrOrPromise
    add_label: StrOrPromise
    #: What one row is called, e.g. in "Remove alien tokens row 2".
    row_label: StrOrPromise
    too_many: StrOrPromise
    #: Why rows of this kind are to be removed from a version saved before the checks, in
    #: a session that cannot produce them (decision 79).
    not_here: StrOrPromise
    #: The fields of a row, in the order shown.
    parts: tuple[str, ...]
    default_rows: int = 1
    #: Parts a filled row needs, with the message shown next to a missing one.
    required: Mapping[str, StrOrPromise] = {}

    def fields(
        self, owners: Sequence[tuple[str, str]], unarmed_apart: bool = False
    ) -> dict[str, forms.Field]:
        """A row's fields; ``owners`` are the other seats, ``unarmed_apart`` says whether
        the form lists unarmed marines apart from light-weapon ones."""
        raise NotImplementedError

    def entry(self, values: Mapping[str, Any]) -> Any:
        """The scoring entry of a filled, complete row (cleaned values by part)."""
        raise NotImplementedError

    def values(self, entry: Any) -> dict[str, Any]:
        """The row's field values that reproduce ``entry``."""
        raise NotImplementedError

    def part_of(self, part: str | None) -> str:
        """The row's field holding an entry's ``part`` (as
        :class:`~tournaments.domain.plausibility.Implausibility` names it); the first field
        when the part is the entry as a whole."""
        return part if part in self.parts else self.parts[0]

    @staticmethod
    def is_empty(values: Mapping[str, Any]) -> bool:
        """An empty row is ignored: clearing every field of a row removes it."""
        return all(_blank(value) for value in values.values())

    def missing(self, values: Mapping[str, Any]) -> dict[str, StrOrPromise]:
        """Message by part for what a filled row lacks (nothing for an empty row)."""
        if self.is_empty(values):
            return {}
        return {part: text for part, text in self.required.items() if _blank(values.get(part))}

    def total_field(self) -> forms.IntegerField:
        return forms.IntegerField(
            required=False,
            min_value=0,
            max_value=MAX_ROWS,
            widget=forms.HiddenInput,
            error_messages={"max_value": self.too_many},
        )


class TokenRows(RowKind):
    name = "token"
    parts = ("type", "count", "value")
    breakdown_field = "alien_tokens"
    title = _("Alien tokens collected")
    add_label = _("Add an alien-token row")
    row_label = _("alien tokens")
    too_many = _(
        "At most %(limit_value)s alien-token rows per seat: put tokens of the same alien "
        "and value in one row."
    )
    not_here = _(
        "This session is played without aliens, so nobody took alien tokens: remove these rows."
    )
    default_rows = 2
    required = {
        "type": _("Choose which alien the tokens are for."),
        "count": _("Give how many tokens and the points of each."),
        "value": _("Give how many tokens and the points of each."),
    }

    def fields(self, owners, unarmed_apart=False):
        return {
            "type": forms.ChoiceField(label=_("alien type"), choices=ALIEN_TYPES, required=False),
            "count": forms.IntegerField(
                label=_("tokens"),
                min_value=0,
                max_value=99,
                required=False,
                widget=forms.NumberInput(attrs={"inputmode": "numeric", "min": 0, "max": 99}),
            ),
            "value": forms.IntegerField(
                label=_("points each"), min_value=0, max_value=999, required=False
            ),
        }

    def part_of(self, part):
        return "type" if part == "alien_type" else super().part_of(part)

    def missing(self, values):
        problems = super().missing(values)
        if values.get("count") == 0:
            problems["count"] = self.required["count"]
        return problems

    def entry(self, values):
        return AlienTokens(values["type"], values["value"], values["count"])

    def values(self, entry):
        return {"type": entry.alien_type, "count": entry.count, "value": entry.value}


class ObjectiveRows(RowKind):
    name = "objective"
    parts = ("label", "points")
    breakdown_field = "objectives"
    title = _("Objectives")
    add_label = _("Add an objective row")
    row_label = _("objective")
    too_many = _("At most %(limit_value)s objective rows per seat: add up similar objectives.")
    not_here = _(
        "Only Catch the Flag scores objectives (a flag brought home), and this session's "
        "stipulation is another: remove these rows."
    )
    required = {
        "points": _(
            "Give the points of this objective: in Catch the Flag, the flag's value for each "
            "flag brought home."
        )
    }

    def fields(self, owners, unarmed_apart=False):
        return {
            "label": forms.CharField(label=_("objective"), max_length=80, required=False),
            "points": _points(_("objective points")),
        }

    def entry(self, values):
        return ObjectivePoints(objective_label_code(values["label"]) or OBJECTIVE, values["points"])

    def values(self, entry):
        return {"label": shown_objective_label(entry.label), "points": entry.points}


class DreadnoughtRows(RowKind):
    name = "dread"
    parts = ("owner", "value", "pilot")
    breakdown_field = "dreadnoughts"
    title = _("Marine-piloted Dreadnoughts destroyed")
    add_label = _("Add a Dreadnought row")
    row_label = _("Dreadnought")
    too_many = _("At most %(limit_value)s Dreadnought rows per seat.")
    not_here = _(
        "No abandoned Dreadnought is among this session's special equipment, so no marine "
        "piloted one: remove these rows."
    )
    required = dict.fromkeys(
        ("owner", "value", "pilot"),
        _("A destroyed Dreadnought needs its owner, class value and pilot."),
    )

    def fields(self, owners, unarmed_apart=False):
        return {
            "owner": forms.ChoiceField(
                label=_("Dreadnought of"), choices=[("", "—"), *owners], required=False
            ),
            "value": forms.IntegerField(
                label=_("class value"), min_value=0, max_value=999, required=False
            ),
            "pilot": forms.ChoiceField(
                label=_("pilot"),
                choices=PILOT_CLASSES_UNARMED_APART if unarmed_apart else PILOT_CLASSES,
                required=False,
            ),
        }

    def entry(self, values):
        return DreadnoughtKill(values["owner"], values["value"], MarineClass(values["pilot"]))

    def values(self, entry):
        return {
            "owner": entry.owner,
            "value": entry.class_value,
            "pilot": MarineClass(entry.pilot_class).value,
        }


class StallBreakerRows(RowKind):
    name = "stall"
    parts = ("round", "points")
    breakdown_field = "stall_breaker"
    title = _("TPK stall breaker")
    add_label = _("Add a stall-breaker round")
    row_label = _("stall-breaker round")
    too_many = _("At most %(limit_value)s stall-breaker rows per seat.")
    not_here = _(
        "This session's stipulation has no stall breaker (only a TPK may have one, when the "
        "organiser sets it): remove these rows."
    )
    required = {
        "round": _("Give the round of these stall-breaker points."),
        "points": _("Give the stall-breaker points of this round."),
    }

    def fields(self, owners, unarmed_apart=False):
        return {
            "round": forms.IntegerField(
                label=_("stall breaker round"), required=False, min_value=1, max_value=99
            ),
            "points": _points(_("stall breaker points")),
        }

    def entry(self, values):
        return StallBreakerRound(values["round"], values["points"])

    def values(self, entry):
        return {"round": entry.round, "points": entry.points}


#: In the order the form shows them.
ROW_KINDS: tuple[RowKind, ...] = (
    TokenRows(),
    ObjectiveRows(),
    DreadnoughtRows(),
    StallBreakerRows(),
)
KINDS_BY_NAME = {kind.name: kind for kind in ROW_KINDS}


def row_prefix(player_id: int, kind: RowKind) -> str:
    return f"p{player_id}-{kind.name}-"


def total_name(player_id: int, kind: RowKind) -> str:
    return f"{row_prefix(player_id, kind)}TOTAL"


def row_name(player_id: int, kind: RowKind, row: int, part: str) -> str:
    return f"{row_prefix(player_id, kind)}{row}-{part}"


def rows_given(source: Mapping[str, Any], player_id: int, kind: RowKind) -> int:
    """How many rows ``source`` (posted data or initial values) has for a seat's kind.

    The hidden count says it; without one (a client that does not send it) the highest
    row number present counts, and never fewer than the kind's default. Not capped.
    """
    try:
        return max(0, int(source[total_name(player_id, kind)]))
    except (KeyError, TypeError, ValueError):
        pass
    pattern = re.compile(re.escape(row_prefix(player_id, kind)) + r"(\d+)-")
    found = [int(match.group(1)) + 1 for key in source if (match := pattern.match(key))]
    return max([kind.default_rows, *found])


def add_button_name(player_id: int, kind: RowKind) -> str:
    return f"add_{kind.name}_{player_id}"


def remove_button_name(player_id: int, kind: RowKind, row: int) -> str:
    return f"remove_{kind.name}_{player_id}_{row}"


_ACTION = re.compile(r"^(add|remove)_([a-z]+)_(\d+)(?:_(\d+))?$")


@dataclass(frozen=True)
class RowAction:
    """A press of "add a row" (``add_<kind>_<player>``) or "remove"
    (``remove_<kind>_<player>_<row>``): the form comes back with the rows changed."""

    kind: RowKind
    player_id: int
    remove: int | None = None

    @classmethod
    def from_post(cls, data: Mapping[str, Any], player_ids: Sequence[int]) -> RowAction | None:
        for key in data:
            match = _ACTION.match(key)
            if not match:
                continue
            verb, kind, player, row = match.groups()
            if kind not in KINDS_BY_NAME or int(player) not in player_ids:
                continue
            if verb == "remove" and row is None:
                continue
            return cls(KINDS_BY_NAME[kind], int(player), int(row) if verb == "remove" else None)
        return None

    def apply(self, data: QueryDict) -> QueryDict:
        """A copy of ``data`` with one more empty row, or without the removed row."""
        changed = data.copy()
        count = min(rows_given(data, self.player_id, self.kind), MAX_ROWS)
        if self.remove is None:
            count = min(count + 1, MAX_ROWS)
        elif 0 <= self.remove < count:
            parts = self.kind.parts
            for row in range(self.remove, count):
                for part in parts:
                    name = row_name(self.player_id, self.kind, row, part)
                    following = row_name(self.player_id, self.kind, row + 1, part)
                    changed.setlist(name, data.getlist(following))
            count -= 1
            for part in parts:
                changed.pop(row_name(self.player_id, self.kind, count, part), None)
        changed[total_name(self.player_id, self.kind)] = str(count)
        return changed
