"""What changed between the result a judge started from, what they typed and the version
someone else saved meanwhile, field by field; and the judge's choice for each field.

A result form remembers the version it was loaded from (``based_on``). When a newer
version was saved before it is submitted, nothing is saved: the page lists every field
where the judge's value and the newer version's differ, with the value both started from,
and asks which to keep (:class:`FieldChange`). The choices only count for the version they
were made against (``compared_with``), and every difference needs one, so no value of the
newer version is put back to an older one without the judge choosing it on that page.

Values are compared as :func:`~tournaments.forms.result.initial_from_breakdowns` gives
them (the breakdown's own form: empty rows dropped, rows in entry order), so the same
result typed twice compares equal.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, cast

from django import forms
from django.utils.translation import gettext as _

from tournaments.forms.result import ResultForm, row_count_names, start_values
from tournaments.models import ResultVersion

MINE = "mine"
THEIRS = "theirs"


def choice_name(field: str) -> str:
    """The name of the radio buttons choosing the value of ``field``."""
    return f"keep-{field}"


@dataclass(frozen=True)
class FieldChange:
    """One field whose value differs between the judge's form and the newer version."""

    name: str
    #: Where the field is (seat and section) and its label, as the form shows them.
    where: str
    label: str
    base: str
    mine: str
    theirs: str
    #: ``mine``, ``theirs`` or None: the choice posted, else the one suggested (a field only
    #: one side changed keeps that side's value), else none (both changed it).
    choice: str | None
    #: Whether the choice was posted (rather than suggested).
    chosen: bool

    @property
    def choice_name(self) -> str:
        return choice_name(self.name)

    @property
    def both_changed(self) -> bool:
        return self.base not in (self.mine, self.theirs)


def _shown(form: ResultForm, name: str, value: Any) -> str:
    """A value as the form shows it: a choice by its label, a box as yes/no, a count left
    empty as 0 and an empty row field as a dash."""
    field = form.fields.get(name)
    if isinstance(field, forms.BooleanField):
        return _("yes") if value else _("no")
    if isinstance(field, forms.ChoiceField):
        choices = cast(Iterable[tuple[Any, Any]], field.choices)  # flat: no groups here
        labels = {str(key): str(label) for key, label in choices}
        return labels.get(str(value), str(value)) if value not in (None, "") else "—"
    if value in (None, ""):
        return "0" if name in form.count_fields else "—"
    return str(value)


def _same(first: Any, second: Any) -> bool:
    return (first in (None, "", False)) == (second in (None, "", False)) and (
        first in (None, "", False) or str(first) == str(second)
    )


def compare(
    labels: ResultForm,
    base: Mapping[str, Any],
    mine: Mapping[str, Any],
    theirs: Mapping[str, Any],
    posted: Mapping[str, Any],
) -> list[FieldChange]:
    """Every field where ``mine`` and ``theirs`` differ (values as
    :func:`~tournaments.forms.result.initial_from_breakdowns` gives them), in the order of
    ``labels`` (a form holding every field of the three); ``posted`` holds the choices the
    judge made against this same newer version, if any."""
    counts = row_count_names(labels)
    changes = []
    for name in labels.fields:
        if name in counts or name not in {*base, *mine, *theirs}:
            continue
        ours, other, start = mine.get(name), theirs.get(name), base.get(name)
        if _same(ours, other):
            continue
        posted_choice = posted.get(choice_name(name))
        chosen = posted_choice in (MINE, THEIRS)
        if chosen:
            choice: str | None = posted_choice
        elif _same(ours, start):
            choice = THEIRS
        elif _same(other, start):
            choice = MINE
        else:
            choice = None
        changes.append(
            FieldChange(
                name=name,
                where=labels.places.get(name, ""),
                label=str(labels.fields[name].label or ""),
                base=_shown(labels, name, start),
                mine=_shown(labels, name, ours),
                theirs=_shown(labels, name, other),
                choice=choice,
                chosen=chosen,
            )
        )
    return changes


def merged(
    mine: Mapping[str, Any], theirs: Mapping[str, Any], changes: list[FieldChange]
) -> dict[str, Any]:
    """The judge's values with the newer version's wherever they chose it."""
    values = dict(mine)
    for change in changes:
        if change.choice == THEIRS:
            values[change.name] = theirs.get(change.name)
    for name in [name for name in values if name.endswith("-TOTAL")]:
        del values[name]  # the rows present say how many there are
    return values


@dataclass(frozen=True)
class Conflict:
    """A save refused because ``theirs`` was saved after the form's ``based_on`` version:
    the fields that differ, and whether the judge has chosen for every one of them."""

    theirs: ResultVersion
    based_on: int
    changes: list[FieldChange]
    #: The judge's values (:meth:`ResultForm.values`) and the newer version's.
    mine: dict[str, Any]
    theirs_values: dict[str, Any]

    @property
    def resolved(self) -> bool:
        return all(change.chosen for change in self.changes)

    @property
    def undecided(self) -> list[FieldChange]:
        """Differences both sides made, where the page suggests nothing."""
        return [change for change in self.changes if change.choice is None]

    def merged(self) -> dict[str, Any]:
        return merged(self.mine, self.theirs_values, self.changes)


def find_conflict(
    form: ResultForm,
    latest: ResultVersion | None,
    base: ResultVersion | None,
    posted: Mapping[str, Any],
) -> Conflict | None:
    """The conflict between a valid ``form`` and the session's ``latest`` version, when it
    is newer than the form's ``based_on`` version ``base``; None otherwise. Choices in
    ``posted`` count only when the form says they were made against ``latest``."""
    based_on = form.cleaned_data.get("based_on") or 0
    if latest is None or latest.number == based_on:
        return None
    mine = form.values()
    theirs = start_values(form.seats, latest)
    start = start_values(form.seats, base)
    every = {**start, **theirs, **mine}
    labels = ResultForm(
        initial={name: value for name, value in every.items() if not name.endswith("-TOTAL")},
        seats=form.seats,
    )
    compared = form.cleaned_data.get("compared_with") == latest.number
    changes = compare(labels, start, mine, theirs, posted if compared else {})
    return Conflict(latest, based_on, changes, mine, theirs)
