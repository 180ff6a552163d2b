"""A form that remembers what it was loaded from, so that a save refused because someone else
saved meanwhile keeps both people's changes and says what changed (decision 46).

The form carries two hidden fields: ``version``, the digest of what it edits as stored
(:mod:`tournaments.queries.edit_versions`; the saving action compares it under its row
lock), and ``loaded``, each field's value as the form showed it. When the action refuses
the save (:class:`~tournaments.actions.optimistic_lock.StaleEditError`), the view builds
the form again over what is stored now and calls :meth:`VersionedFormMixin.refuse_stale`:
every field the other person changed takes their value unless this person changed it too
(then theirs is named and this person's is kept), the form now remembers the new version,
and the message above the form lists what changed and says to check and save again.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Iterable
from typing import Any, cast

from django import forms
from django.utils.formats import date_format
from django.utils.timezone import localtime
from django.utils.translation import gettext as _

from rules.engine import json_text
from tournaments.forms.accessible import FormMixinBase
from tournaments.models import Tournament
from tournaments.queries.activity_actors import latest_entry_id, saved_since

#: A field's value as the form shows it: text, or a list of texts (several choices).
Shown = str | list[str]

VERSION = "version"
LOADED = "loaded"
#: The id of the tournament's latest activity-log entry when the form was shown: the saves
#: logged after it are the ones a refusal names (who saved meanwhile, and when).
SEEN = "seen"
#: Longest value a message quotes whole.
QUOTED = 60


def _text(value: Any) -> Shown:
    """A field's value as text, whether it comes from the stored values or from a post: a
    browser's line ends, surrounding spaces, a ticked box's "on" all compare equal."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "on" if value else ""
    if isinstance(value, list | tuple):
        return [str(_text(item)) for item in value]
    return str(value).replace("\r\n", "\n").strip()


class VersionedFormMixin(FormMixinBase):
    """Mix into a form; call :meth:`add_version_fields` at the end of ``__init__``."""

    #: Whether the form is shown again because someone else saved first (a 409 page).
    stale = False

    def add_version_fields(
        self, version: Callable[[], str], *, tournament: Tournament, remember: bool = True
    ) -> None:
        """Add the hidden ``version`` (``version()``: the stored state's digest, read only
        when the form is shown), ``seen`` (the ``tournament``'s latest activity-log entry,
        so a refusal names who saved meanwhile) and, unless not ``remember`` (a map's
        drawing, too long to carry twice: a refusal then keeps every value typed),
        ``loaded`` fields."""
        self.fields[VERSION] = forms.CharField(widget=forms.HiddenInput, required=False)
        self.fields[SEEN] = forms.CharField(widget=forms.HiddenInput, required=False)
        self.tournament_of_version = tournament
        self.initial = {
            **self.initial,
            VERSION: version,
            SEEN: lambda: str(latest_entry_id(tournament)),
        }
        if remember:
            self.fields[LOADED] = forms.CharField(widget=forms.HiddenInput, required=False)
            self.initial[LOADED] = lambda: json.dumps(self.field_values(), ensure_ascii=False)

    @property
    def expected_version(self) -> str | None:
        """The version the form was loaded at (None: posted without one)."""
        return self.cleaned_data.get(VERSION) or None

    def edited_fields(self) -> list[str]:
        return [
            name
            for name, field in self.fields.items()
            if name not in (VERSION, LOADED, SEEN) and not isinstance(field, forms.FileField)
        ]

    def field_values(self) -> dict[str, Shown]:
        """Each edited field's value as the form shows it (posted, or as loaded)."""
        return {name: _text(self[name].value()) for name in self.edited_fields()}

    def _loaded(self) -> dict[str, Shown]:
        try:
            loaded = json_text.loads(self.data.get(self.add_prefix(LOADED)) or "{}")
        except ValueError:
            return {}
        return loaded if isinstance(loaded, dict) else {}

    def refuse_stale(self, current: VersionedFormMixin) -> None:
        """Show this posted form again over ``current`` (the same form, unbound, over what is
        stored now): see the module's docstring."""
        base, mine, theirs = self._loaded(), self.field_values(), current.field_values()
        data: Any = copy.copy(self.data)  # a QueryDict's copy can be changed
        lines = []
        for name, now in theirs.items():
            if name not in mine or name not in base or base[name] == now:
                continue
            if mine[name] == base[name]:
                self._set(data, name, current[name].value())
                lines.append(
                    _("%(field)s: %(before)s → %(after)s")
                    % {
                        "field": self[name].label,
                        "before": self._shown(name, base[name]),
                        "after": self._shown(name, now),
                    }
                )
            elif mine[name] != now:
                lines.append(
                    _(
                        "%(field)s: %(before)s → %(after)s; you changed it too: yours, "
                        "%(mine)s, is kept"
                    )
                    % {
                        "field": self[name].label,
                        "before": self._shown(name, base[name]),
                        "after": self._shown(name, now),
                        "mine": self._shown(name, mine[name]),
                    }
                )
        savers = self._saved_meanwhile()
        data[self.add_prefix(VERSION)] = current[VERSION].value()
        data[self.add_prefix(SEEN)] = current[SEEN].value()
        if LOADED in self.fields:
            data[self.add_prefix(LOADED)] = json.dumps(theirs, ensure_ascii=False)
        self.data = data
        self.stale = True
        self.full_clean()
        if LOADED not in self.fields:
            message = _(
                "This was saved in another tab or by someone else while you were editing it. "
                "Nothing of yours was saved yet: the form keeps what you typed and the page "
                "shows what is saved now; compare them and save again."
            )
        elif lines:
            message = _(
                "This was saved in another tab or by someone else while you were editing it: "
                "%(changes)s. Nothing of yours was saved yet: the form now shows those values "
                "and yours together; check it and save again."
            ) % {"changes": "; ".join(lines)}
        else:
            message = _(
                "This was saved in another tab or by someone else while you were editing it. "
                "Nothing of yours was saved yet: the form now holds what is saved with your "
                "changes; check it and save again."
            )
        self.add_error(None, message)
        if savers:
            self.add_error(None, savers)

    def _saved_meanwhile(self) -> str:
        """Who saved a change of the tournament since the form was shown, and when ("" when
        the page did not say when it was shown)."""
        seen = str(self.data.get(self.add_prefix(SEEN)) or "")
        if not seen.isascii() or not seen.isdigit() or len(seen) > 18:
            return ""
        savers = saved_since(self.tournament_of_version, int(seen))
        if not savers:
            return ""
        people = ", ".join(
            _("%(who)s at %(time)s")
            % {"who": who, "time": date_format(localtime(when), "TIME_FORMAT")}
            for who, when in savers
        )
        return _(
            "Saved in this tournament since you opened the form: by %(people)s (your own "
            "name: another tab of yours)."
        ) % {"people": people}

    def _set(self, data: Any, name: str, value: Any) -> None:
        """Put ``value`` (as a fresh form holds it) into the posted ``data``."""
        key = self.add_prefix(name)
        widget = self.fields[name].widget
        if isinstance(widget, forms.CheckboxInput):
            if value:
                data[key] = "on"
            else:
                data.pop(key, None)
        elif isinstance(value, list | tuple):
            texts = [str(item) for item in value]
            if hasattr(data, "setlist"):
                data.setlist(key, texts)
            else:
                data[key] = texts
        else:
            data[key] = "" if value is None else str(value)

    def _shown(self, name: str, value: Shown) -> str:
        """``value`` of field ``name`` as a reader knows it: a choice by its label (no choice
        by the blank choice's label when it has one, not dashes), a box as yes or no, a text
        in quotes (shortened), nothing as a dash."""
        field = self.fields[name]
        if isinstance(field, forms.BooleanField):
            return str(_("yes") if value else _("no"))
        if isinstance(field, forms.ChoiceField):
            labels = {str(key): str(label) for key, label in _flat_choices(field)}
            values = value if isinstance(value, list) else [value]
            shown = ", ".join(labels.get(item, item) for item in values if item)
            blank = labels.get("", "")
            return shown or (blank if blank.strip("-") else "–")
        text = value if isinstance(value, str) else ", ".join(value)
        if not text:
            return "–"
        if isinstance(field, forms.IntegerField):
            return text
        if len(text) > QUOTED:
            text = text[: QUOTED - 1].rstrip() + "…"
        return f"“{text}”"


def _flat_choices(field: forms.ChoiceField) -> list[tuple[Any, Any]]:
    """A choice field's (value, label) pairs, groups opened."""
    pairs: list[tuple[Any, Any]] = []
    for key, label in cast(Iterable[tuple[Any, Any]], field.choices):
        if isinstance(label, list | tuple):
            pairs.extend(label)
        else:
            pairs.append((key, label))
    return pairs
