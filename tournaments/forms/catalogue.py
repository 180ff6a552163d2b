"""The organiser's catalogue forms: a chapter card, a weapon, the alien token values, an alien
event card."""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from rules.engine.catalogue_classes import catalogue_rules_data
from rules.engine.event_cards import EventCard
from rules.engine.naming import in_language
from rules.engine.units import RulesDataError
from tournaments.actions.catalogue_edits import TOKENS
from tournaments.domain.catalogue import DEFAULT_CARDS, CardKind
from tournaments.domain.engine_language import narration_language
from tournaments.domain.rules_limits import TOKEN_LIMIT
from tournaments.domain.scoring import TOKEN_ALIEN_LABELS
from tournaments.forms.accessible import AccessibleForm, AccessibleModelForm
from tournaments.forms.stale_edits import VersionedFormMixin
from tournaments.models import ChapterCard, Tournament, Weapon
from tournaments.queries.catalogue_names import card_name_problems, weapon_name_problems
from tournaments.queries.edit_versions import (
    CARD_FIELDS,
    WEAPON_FIELDS,
    card_version,
    overrides_version,
    weapon_version,
)
from tournaments.queries.event_deck import EVENTS
from tournaments.queries.loadout_checks import loadouts_holding
from tournaments.queries.rules_values import tournament_rules_data
from tournaments.queries.tournament_catalogue import catalogue_weapon_classes, effect_names

#: The kind of card each effect the board knows is written for (one per shipped card).
EFFECT_KINDS: dict[str, CardKind] = {card.effect_code: card.kind for card in DEFAULT_CARDS}
KIND_GROUPS = {CardKind.ORDER: _("Order cards"), CardKind.EQUIPMENT: _("Equipment cards")}


def _effect_names(card: ChapterCard) -> dict[str, str]:
    """The name of each effect the board knows, in the active language: the card it was
    written for as ``card``'s tournament and chapter name it
    (:func:`~tournaments.queries.tournament_catalogue.effect_names`)."""
    names = effect_names(card.squad.tournament, card.squad.slug)
    return {code: in_language(entry, narration_language()) for code, entry in names.items()}


def effect_choices(names: Mapping[str, str]) -> list[tuple[Any, Any]]:
    """The effects the board knows (named by ``names``, by code), grouped by the kind of
    card they are written for, and "reminder only"."""
    return [
        ("", _("None: the judge reads the card")),
        *(
            (
                KIND_GROUPS[kind],
                sorted(
                    ((code, name) for code, name in names.items() if EFFECT_KINDS[code] is kind),
                    key=lambda choice: choice[1],
                ),
            )
            for kind in KIND_GROUPS
        ),
    ]


def _card_in_use(count: int) -> str:
    return ngettext(
        "%(count)d loadout holds this card; changing its kind would make that loadout wrong. "
        "Leave it as it is, or ask the player to change the loadout first.",
        "%(count)d loadouts hold this card; changing its kind would make those loadouts "
        "wrong. Leave it as it is, or ask the players to change their loadouts first.",
        count,
    ) % {"count": count}


def _effect_of_other_kind(effect: str, kind: str) -> str:
    if kind == CardKind.ORDER:
        return _(
            "“%(effect)s” is an equipment card's effect; an order card takes an order's "
            "effect, or none (the judge reads the card)."
        ) % {"effect": effect}
    return _(
        "“%(effect)s” is an order's effect; an equipment card takes an equipment card's "
        "effect, or none (the judge reads the card)."
    ) % {"effect": effect}


def _weapon_in_use(count: int) -> str:
    return ngettext(
        "%(count)d loadout holds this weapon; changing its class would make that loadout "
        "wrong. Leave it as it is, or ask the player to change the loadout first.",
        "%(count)d loadouts hold this weapon; changing its class would make those loadouts "
        "wrong. Leave it as it is, or ask the players to change their loadouts first.",
        count,
    ) % {"count": count}


def _check_names(form: forms.ModelForm, problems_of: Any, fields: tuple[str, ...]) -> None:
    """Refuse at its field a name another card or weapon has (the saving action asks
    again, under its lock): the form's instance as typed, before it is built."""
    typed = copy.copy(form.instance)
    for name in fields:
        if name in form.cleaned_data:
            setattr(typed, name, form.cleaned_data[name])
    for field, problem in problems_of(typed).items():
        if field not in form.errors:
            form.add_error(field, problem)


class ChapterCardForm(VersionedFormMixin, AccessibleModelForm):
    """A card's names, kind, duration, effect, source and confidence (its slug and chapter
    stay: loadouts refer to them). An effect is one of the card's kind: the board plays an
    order's effect when the order is played at the start of a turn, an equipment's while
    the card is held."""

    effect_code = forms.ChoiceField(
        label=_("Effect on the board"),
        required=False,
        help_text=_(
            "What the board applies when the card is played; every copy of a card shares it."
        ),
    )

    class Meta:
        model = ChapterCard
        fields = list(CARD_FIELDS)  # what its version digests, and nothing else
        widgets = {
            "effect_en": forms.Textarea(attrs={"rows": 3}),
            "effect_it": forms.Textarea(attrs={"rows": 3}),
            "source": forms.Textarea(attrs={"rows": 2}),
        }
        error_messages = {"name_en": {"required": _("Give the card's English name.")}}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["effect_code"]
        assert isinstance(field, forms.ChoiceField)
        self.effect_names = _effect_names(self.instance)
        field.choices = effect_choices(self.effect_names)
        stored = self.instance
        self.add_version_fields(lambda: card_version(stored), tournament=stored.squad.tournament)

    def clean(self) -> dict[str, Any]:
        super().clean()
        cleaned = self.cleaned_data
        code, kind = cleaned.get("effect_code"), cleaned.get("kind")
        if code and kind and code in EFFECT_KINDS and EFFECT_KINDS[code] != kind:
            self.add_error("effect_code", _effect_of_other_kind(self.effect_names[code], kind))
        _check_names(self, card_name_problems, ("name_en", "name_it", "effect_code"))
        return cleaned

    def clean_kind(self) -> str:
        kind = self.cleaned_data["kind"]
        card = self.instance
        if card.pk and kind != card.kind:
            field = "order_cards" if card.kind == "order" else "equipment_cards"
            count = loadouts_holding(card.squad.tournament, field, card.slug, card.squad)
            if count:
                raise ValidationError(_card_in_use(count))
        return kind


class WeaponForm(VersionedFormMixin, AccessibleModelForm):
    """A weapon's names, class and colour restriction (its slug stays: loadouts and the
    board's rules data refer to it)."""

    class Meta:
        model = Weapon
        fields = list(WEAPON_FIELDS)
        error_messages = {"name_en": {"required": _("Give the weapon's English name.")}}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        stored = self.instance
        self.add_version_fields(lambda: weapon_version(stored), tournament=stored.tournament)

    def clean(self) -> dict[str, Any]:
        super().clean()
        _check_names(self, weapon_name_problems, ("name_en", "name_it"))
        return self.cleaned_data

    def clean_weapon_class(self) -> str:
        weapon_class = self.cleaned_data["weapon_class"]
        weapon = self.instance
        if weapon.pk and weapon_class != weapon.weapon_class:
            count = sum(
                loadouts_holding(weapon.tournament, field, weapon.slug)
                for field in ("marine_weapons", "extra_marine_weapons")
            )
            if count:
                raise ValidationError(_weapon_in_use(count))
        return weapon_class


#: What a token's points must be, said for any number the form refuses.
TOKEN_POINTS = _(
    "Give the points of one token as a whole number from 0 (it scores nothing) to 999."
)


class TokenValuesForm(VersionedFormMixin, AccessibleForm):
    """The points of one token of each alien type in this tournament (RULES §7)."""

    def __init__(self, *args: Any, tournament: Tournament, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.tournament = tournament
        current, _problem = tournament_rules_data(tournament)
        for alien, label in TOKEN_ALIEN_LABELS.items():
            self.fields[alien] = forms.IntegerField(
                label=label,
                min_value=TOKEN_LIMIT.low,
                max_value=TOKEN_LIMIT.high,
                initial=current.alien_tokens.get(alien),
                error_messages={
                    "required": _("Give the points of one token (0 when it scores nothing)."),
                    "invalid": TOKEN_POINTS,
                    "min_value": TOKEN_POINTS,
                    "max_value": TOKEN_POINTS,
                },
                widget=forms.NumberInput(
                    attrs={"inputmode": "numeric", "min": TOKEN_LIMIT.low, "max": TOKEN_LIMIT.high}
                ),
            )
        self.fields["dreadnought"].help_text = _(
            "A Dreadnought of a named class is worth its class value instead (session notes)."
        )
        self.add_version_fields(
            lambda: overrides_version(tournament, TOKENS), tournament=tournament
        )

    def values(self) -> dict[str, int]:
        """The points typed, by alien type."""
        return {alien: self.cleaned_data[alien] for alien in TOKEN_ALIEN_LABELS}

    def clean(self) -> dict[str, Any]:
        super().clean()
        cleaned = self.cleaned_data
        if self.errors:
            return cleaned
        overrides = dict(self.tournament.data_overrides or {})
        overrides[TOKENS] = {**overrides.get(TOKENS, {}), **self.values()}
        try:
            catalogue_rules_data(overrides, catalogue_weapon_classes(self.tournament))
        except RulesDataError as error:
            raise ValidationError(
                _(
                    "The tournament's other rules data changes are wrong, so these values "
                    "cannot be checked: %(error)s"
                )
                % {"error": error.text_in(narration_language())}
            ) from None
        return cleaned


#: The event card form's fields: (field, what, language).
EVENT_CARD_FIELDS = (
    ("name_it", "name", "it"),
    ("name_en", "name", "en"),
    ("text_it", "text", "it"),
    ("text_en", "text", "en"),
)


class EventCardForm(VersionedFormMixin, AccessibleForm):
    """An alien event card's names and texts in both languages (RULES §12: the texts are
    data the organiser corrects; what the card does to the Aliens stays the engine's). Each
    field says the shipped wording, to put it back."""

    name_it = forms.CharField(label=_("Italian name"), max_length=120)
    name_en = forms.CharField(label=_("English name"), max_length=120)
    text_it = forms.CharField(label=_("Italian text"), widget=forms.Textarea(attrs={"rows": 4}))
    text_en = forms.CharField(label=_("English text"), widget=forms.Textarea(attrs={"rows": 4}))

    def __init__(
        self,
        *args: Any,
        tournament: Tournament,
        card: EventCard,
        shipped: EventCard,
        **kwargs: Any,
    ) -> None:
        kwargs.setdefault(
            "initial",
            {field: getattr(card, what)[lang] for field, what, lang in EVENT_CARD_FIELDS},
        )
        super().__init__(*args, **kwargs)
        for field, what, lang in EVENT_CARD_FIELDS:
            self.fields[field].help_text = _("As shipped: %(wording)s") % {
                "wording": getattr(shipped, what)[lang]
            }
            self.fields[field].error_messages["required"] = _(
                "Write it in both languages: the board shows the card in either."
            )
        self.add_version_fields(
            lambda: overrides_version(tournament, EVENTS, card.id), tournament=tournament
        )

    def wording(self, what: str) -> dict[str, str]:
        """The cleaned ``name`` or ``text`` as ``{"it": ..., "en": ...}``."""
        return {
            lang: self.cleaned_data[field].strip()
            for field, kind, lang in EVENT_CARD_FIELDS
            if kind == what
        }
