"""Player forms: squad preferences and a log-in account (the loadout form is in loadout.py)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.utils.translation import gettext_lazy as _

from tournaments.actions.player_choices import preferences_version
from tournaments.forms.accessible import AccessibleForm, AccessibleFormMixin
from tournaments.forms.stale_edits import VersionedFormMixin
from tournaments.models import Tournament

CHOICE_LABELS = (_("1st choice"), _("2nd choice"), _("3rd choice"), _("4th choice"))


#: The name of the submit button that clears the whole list, whatever the menus hold.
CLEAR = "clear"


class PreferenceForm(VersionedFormMixin, AccessibleForm):
    """An ordered list of the tournament's squads, each at most once, over the ``current``
    list (the player's own page, the organiser's and the judge's: whoever saves second after
    another's change is told what changed). Only the ``clear`` button gives the empty list,
    which clears the stored one: every choice left empty is refused, so a list is never
    cleared by a "Save" sent without looking."""

    def __init__(
        self, *args, tournament: Tournament, current: Sequence[str] = (), **kwargs
    ) -> None:
        kwargs.setdefault("initial", {f"choice_{i}": slug for i, slug in enumerate(current, 1)})
        super().__init__(*args, **kwargs)
        squads = list(tournament.squads.order_by("order", "pk"))
        options = [("", "—")] + [(squad.slug, squad.name) for squad in squads]
        self.squad_count = len(squads)
        #: Whether a list is stored, so the page offers to clear it.
        self.clearable = bool(current)
        for index in range(self.squad_count):
            label = CHOICE_LABELS[index] if index < len(CHOICE_LABELS) else str(index + 1)
            self.fields[f"choice_{index + 1}"] = forms.ChoiceField(
                label=label, choices=options, required=False
            )
        self.add_version_fields(lambda: preferences_version(current), tournament=tournament)

    def clean(self) -> dict[str, Any]:
        super().clean()
        cleaned = self.cleaned_data
        if self.data.get(self.add_prefix(CLEAR)):
            cleaned["choices"] = []
            return cleaned
        chosen: list[str] = []
        gap = False
        for index in range(1, self.squad_count + 1):
            value = cleaned.get(f"choice_{index}")
            if not value:
                gap = True
                continue
            if gap:
                self.add_error(
                    f"choice_{index}", _("Fill the choices in order, without leaving one empty.")
                )
            elif value in chosen:
                self.add_error(
                    f"choice_{index}", _("This squad is already an earlier choice; pick another.")
                )
            chosen.append(value)
        if not chosen and not self.errors:
            self.add_error(
                "choice_1" if self.squad_count else None,
                _("Choose at least a 1st choice, or use Clear the preferences.")
                if self.clearable
                else _("Choose at least a 1st choice."),
            )
        cleaned["choices"] = chosen
        return cleaned


class PlayerAccountForm(AccessibleFormMixin, UserCreationForm):
    """A user name and password for a player (Django's checks on both)."""
