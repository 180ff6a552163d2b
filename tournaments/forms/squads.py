"""The organiser's form of the tournament's squads (decision 59): each squad's names and its
place in the squad order, read-only once a squad draw was made."""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from tournaments.actions.squad_edits import order_fixed_message
from tournaments.forms.accessible import AccessibleForm
from tournaments.forms.stale_edits import VersionedFormMixin
from tournaments.models import Squad, Tournament
from tournaments.queries.catalogue_names import squad_field, squad_name_problems
from tournaments.queries.edit_versions import squads_version
from tournaments.queries.squad_order import squad_order_fixed


class SquadsForm(VersionedFormMixin, AccessibleForm):
    """Every squad's English and Italian name and place (1 = first) in the squad order."""

    def __init__(self, *args: Any, tournament: Tournament, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.squads = list(tournament.squads.order_by("order", "pk"))
        self.order_fixed = squad_order_fixed(tournament)
        count = len(self.squads)
        for place, squad in enumerate(self.squads, start=1):
            for field, label in (
                ("name_it", _("%(squad)s: Italian name")),
                ("name_en", _("%(squad)s: English name")),
            ):
                self.fields[squad_field(squad.slug, field)] = forms.CharField(
                    label=label % {"squad": squad.name},
                    max_length=120,
                    initial=getattr(squad, field),
                    error_messages={"required": _("Give the squad a name.")},
                )
            self.fields[squad_field(squad.slug, "order")] = forms.IntegerField(
                label=_("%(squad)s: place in the squad order") % {"squad": squad.name},
                min_value=1,
                max_value=count,
                initial=place,
                disabled=self.order_fixed,
                required=not self.order_fixed,
                widget=forms.NumberInput(attrs={"inputmode": "numeric", "min": 1, "max": count}),
            )
        self.add_version_fields(
            lambda: squads_version(tournament.squads.order_by("order", "pk")),
            tournament=tournament,
        )

    def names(self) -> dict[str, tuple[str, str]]:
        """The names typed, ``{slug: (English, Italian)}``."""
        return {
            squad.slug: (
                self.cleaned_data[squad_field(squad.slug, "name_en")],
                self.cleaned_data[squad_field(squad.slug, "name_it")],
            )
            for squad in self.squads
        }

    def order(self) -> list[str] | None:
        """The squads' slugs in the order typed (None: the order is fixed)."""
        if self.order_fixed:
            return None
        return sorted(
            (squad.slug for squad in self.squads),
            key=lambda slug: self.cleaned_data[squad_field(slug, "order")],
        )

    def clean(self) -> dict[str, Any]:
        super().clean()
        edited = [
            Squad(
                slug=squad.slug,
                name_en=self.cleaned_data.get(squad_field(squad.slug, "name_en"), ""),
                name_it=self.cleaned_data.get(squad_field(squad.slug, "name_it"), ""),
            )
            for squad in self.squads
        ]
        for field, problem in squad_name_problems(edited).items():
            if field not in self.errors:  # a blank name is already said
                self.add_error(field, problem)
        if self.order_fixed:
            self._refuse_posted_order()
        else:
            places = [self.cleaned_data.get(squad_field(s.slug, "order")) for s in self.squads]
            if None not in places and len(set(places)) != len(places):
                raise ValidationError(
                    _("Give each squad its own place in the order, 1 to %(count)d.")
                    % {"count": len(places)}
                )
        return self.cleaned_data

    def _refuse_posted_order(self) -> None:
        """A page loaded before the first draw may post another order: say it is refused
        rather than drop it (a disabled field keeps its stored value)."""
        for squad in self.squads:
            name = squad_field(squad.slug, "order")
            posted = self.data.get(self.add_prefix(name))
            if posted not in (None, "", str(self.fields[name].initial)):
                self.add_error(None, order_fixed_message())
                return
