"""The loadout form (RULES §5) and the checks shared by the player's and the judge's pages.

Validation is the pure :func:`tournaments.domain.loadout.validate_loadout`, on the catalogue
:func:`tournaments.queries.tournament_catalogue.tournament_catalogue` reads; this module maps
each problem to its field.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments.domain.catalogue import (
    CardKind,
    CardSpec,
    Catalogue,
    WeaponClass,
    copy_names,
)
from tournaments.domain.loadout import (
    EXTRA_MARINES,
    MARINES,
    Loadout,
    LoadoutProblem,
    is_targeter,
    validate_loadout,
)
from tournaments.forms.accessible import AccessibleForm
from tournaments.models import CommanderCombo, Rank, Seat
from tournaments.queries.loadout_checks import card_bonuses


@dataclass(frozen=True)
class SeatAllowance:
    rank: int
    thresholds_reached: int
    extended_tpk: bool


def allowance_for(seat: Seat) -> SeatAllowance:
    """The seat's rank, the extra equipment cards its player's previous session gave (the
    score bonuses given to this session when its stage was seated, none from any earlier
    session: RULES §9) and whether it is Extended TPK."""
    session = seat.session
    rank, bonus = card_bonuses(seat)
    stipulation = getattr(session, "stipulation", None)
    kind = stipulation.kind if stipulation is not None else session.stage.stipulation_kind
    return SeatAllowance(rank=rank, thresholds_reached=bonus, extended_tpk=kind == "extended_tpk")


def problems_for(seat: Seat, loadout: Loadout, catalogue: Catalogue) -> tuple[LoadoutProblem, ...]:
    allowance = allowance_for(seat)
    return validate_loadout(
        loadout,
        catalogue,
        extended_tpk=allowance.extended_tpk,
        rank=allowance.rank,
        thresholds_reached=allowance.thresholds_reached,
    )


def stored_loadout(seat: Seat) -> Loadout | None:
    row = getattr(seat, "loadout", None)
    if row is None or seat.squad is None:
        return None
    return Loadout(
        squad=seat.squad.slug,
        commander_combo=row.commander_combo,
        marine_weapons=row.marine_weapons,
        extra_marine_weapons=row.extra_marine_weapons,
        order_cards=row.order_cards,
        equipment_cards=row.equipment_cards,
        targeter_marks=row.targeter_marks,
    )


def card_choices(cards: Sequence[CardSpec], kind: CardKind) -> list[tuple[str, str]]:
    """The (slug, name) choices of the chapter cards of ``kind``, each copy of a card
    printed more than once named apart (:func:`copy_names`, counting the copies among all of
    ``cards``, a chapter's deck, as every page listing a loadout does)."""
    names = copy_names(cards)
    return [(card.slug, names[card.slug]) for card in cards if card.kind == kind]


class LoadoutForm(AccessibleForm):
    commander_combo = forms.ChoiceField(
        label=_("Commander's weapons"), choices=CommanderCombo.choices, widget=forms.RadioSelect
    )

    def __init__(self, *args, seat: Seat, catalogue: Catalogue, **kwargs):
        if seat.squad is None:
            raise ValueError("A loadout form needs the seat's squad: draw the squads first.")
        self.seat = seat
        self.squad = seat.squad
        self.catalogue = catalogue
        self.allowance = allowance_for(seat)
        super().__init__(*args, **kwargs)
        colour = self.squad.colour
        marine_choices = [("", "—")] + [
            (w.slug, w.display_name())
            for w in catalogue.weapons
            if w.available_in(colour)
            and (w.weapon_class == WeaponClass.HEAVY or w.slug == catalogue.laser_rifle)
        ]
        for number in range(1, MARINES + 1):
            self.fields[f"marine_{number}"] = forms.ChoiceField(
                label=_("Marine %(n)d") % {"n": number}, choices=marine_choices
            )
        if self.allowance.extended_tpk:
            extra_choices = [("", "—")] + [
                (w.slug, w.display_name())
                for w in catalogue.weapons
                if w.weapon_class == WeaponClass.EXTRA_HEAVY and w.available_in(colour)
            ]
            for number in range(1, EXTRA_MARINES + 1):
                self.fields[f"extra_{number}"] = forms.ChoiceField(
                    label=_("Extra marine %(n)d") % {"n": number}, choices=extra_choices
                )
        cards = catalogue.chapter_cards(self.squad.slug)
        self.fields["order_cards"] = forms.MultipleChoiceField(
            label=_("Order cards (%(n)d)") % {"n": 1 + self.allowance.rank},
            # Why more than the base count: the player checks it against RULES §5 and §9.
            help_text=(
                _("1, plus %(extra)d for your squad's rank (%(rank)s).")
                % {"extra": self.allowance.rank, "rank": Rank(self.allowance.rank).label}
                if self.allowance.rank
                else ""
            ),
            choices=card_choices(cards, CardKind.ORDER),
            widget=forms.CheckboxSelectMultiple,
            required=False,
        )
        self.fields["equipment_cards"] = forms.MultipleChoiceField(
            label=_("Equipment cards (%(n)d)") % {"n": 4 + self.allowance.thresholds_reached},
            help_text=(
                _(
                    "4, plus %(extra)d for the score thresholds you reached in your previous "
                    "session (for this session only)."
                )
                % {"extra": self.allowance.thresholds_reached}
                if self.allowance.thresholds_reached
                else ""
            ),
            choices=card_choices(cards, CardKind.EQUIPMENT),
            widget=forms.CheckboxSelectMultiple,
            required=False,
        )
        #: The squad's Targeter copies, in the order of their mark fields.
        self.targeter_slugs = [card.slug for card in cards if is_targeter(card.slug)]
        names = catalogue.card_names(self.squad.slug)
        markable = [("", "—")] + [
            (w.slug, w.display_name())
            for w in catalogue.weapons
            if w.weapon_class not in (WeaponClass.EXTRA_HEAVY, WeaponClass.CLOSE)
        ]
        for number, slug in enumerate(self.targeter_slugs, start=1):
            self.fields[f"targeter_{number}"] = forms.ChoiceField(
                label=_("Weapon type marked by %(card)s") % {"card": names[slug]},
                choices=markable,
                required=False,
                help_text=_(
                    "Only if you take %(card)s: a figure shooting the weapon type it marks "
                    "may re-roll."
                )
                % {"card": names[slug]},
            )

    def loadout(self) -> Loadout:
        data = self.cleaned_data
        extras = []
        if self.allowance.extended_tpk:
            extras = [data.get(f"extra_{n}", "") for n in range(1, EXTRA_MARINES + 1)]
        return Loadout(
            squad=self.squad.slug,
            commander_combo=data.get("commander_combo", ""),
            marine_weapons=tuple(data.get(f"marine_{n}", "") for n in range(1, MARINES + 1)),
            extra_marine_weapons=tuple(extras),
            order_cards=data.get("order_cards", []),
            equipment_cards=data.get("equipment_cards", []),
            targeter_marks=self._marks(data),
        )

    def _taken_targeters(self, data: dict) -> list[int]:
        """The numbers of the Targeter copies taken (their mark fields), in order."""
        return [
            n
            for n, slug in enumerate(self.targeter_slugs, start=1)
            if slug in data.get("equipment_cards", [])
        ]

    def _marks(self, data: dict) -> tuple[str, ...]:
        """The marks of the Targeter copies taken, in order (an untaken copy's is ignored)."""
        return tuple(data.get(f"targeter_{n}", "") for n in self._taken_targeters(data))

    def field_for(self, problem: LoadoutProblem, taken: Sequence[int]) -> str | None:
        """The form field a problem concerns (``marine_weapons[2]`` → ``marine_3``; ``taken``
        are the numbers of the Targeter copies taken: the second mark is the field of
        the second copy taken)."""
        name, _bracket, index = problem.field.partition("[")
        mapping = {
            "marine_weapons": "marine_",
            "extra_marine_weapons": "extra_",
            "targeter_marks": "targeter_",
        }
        if name in mapping and index:
            number = int(index.rstrip("]")) + 1
            if name == "targeter_marks" and number <= len(taken):
                number = taken[number - 1]
            field = f"{mapping[name]}{number}"
            return field if field in self.fields else None
        return name if name in self.fields else None

    def clean(self) -> dict[str, Any]:
        super().clean()
        cleaned = self.cleaned_data
        if self.errors:
            return cleaned
        taken = self._taken_targeters(cleaned)  # read before add_error drops fields
        for problem in problems_for(self.seat, self.loadout(), self.catalogue):
            self.add_error(self.field_for(problem, taken), problem.message)
        return cleaned

    @classmethod
    def initial_for(cls, seat: Seat) -> dict:
        row = getattr(seat, "loadout", None)
        if row is None:
            return {}
        initial = {
            "commander_combo": row.commander_combo,
            "order_cards": row.order_cards,
            "equipment_cards": row.equipment_cards,
        }
        for number, slug in enumerate(row.marine_weapons, start=1):
            initial[f"marine_{number}"] = slug
        for number, slug in enumerate(row.extra_marine_weapons, start=1):
            initial[f"extra_{number}"] = slug
        for number, slug in enumerate(row.targeter_marks or (), start=1):
            initial[f"targeter_{number}"] = slug
        return initial
