"""A session's stipulation (RULES.md §6) and the validation of its parameters per type."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import get_language, gettext, ngettext
from django.utils.translation import gettext_lazy as _

from rules.engine.catalogue_classes import catalogue_rules_data
from rules.engine.event_cards import load_cards
from rules.engine.units import (
    LEAST_CLASS_VALUE,
    DreadnoughtClass,
    RulesData,
    RulesDataError,
    load_rules_data,
)
from tournaments.models.choices import StipulationKind

if TYPE_CHECKING:
    from tournaments.models.tournament import Tournament

END_FIXED_ROUNDS = "fixed_rounds"
END_ALIENS_DEAD = "aliens_dead"
FLAGS_ONE_PER_SQUAD = "one_per_squad"
FLAGS_TWO_FOR_THREE = "two_for_three"
FLAGS_ONE_FOR_ALL = "one_for_all"


def _bool(value: Any, key: str) -> bool:
    if not isinstance(value, bool):
        raise ValidationError(gettext("“%(key)s” must be true or false.") % {"key": key})
    return value


def _int(minimum: int) -> Callable[[Any, str], int]:
    def check(value: Any, key: str) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
            raise ValidationError(
                gettext("“%(key)s” must be a whole number of at least %(min)d (got %(value)r).")
                % {"key": key, "min": minimum, "value": value}
            )
        return value

    return check


def _one_of(*allowed: str) -> Callable[[Any, str], str]:
    def check(value: Any, key: str) -> str:
        if value not in allowed:
            raise ValidationError(
                gettext("“%(key)s” must be one of %(allowed)s (got %(value)r).")
                % {"key": key, "allowed": ", ".join(allowed), "value": value}
            )
        return value

    return check


def _event_cards(value: Any, key: str) -> list[str]:
    """Cards of the alien event deck, stored as the engine's card ids (an empty list is the
    whole deck). A card's name in either language is accepted and stored as its id, so a
    name typed in a JSON upload cannot break the Alien turns; an unknown name is refused."""
    if not isinstance(value, list) or not all(isinstance(item, str) and item for item in value):
        raise ValidationError(gettext("“%(key)s” must be a list of card names.") % {"key": key})
    by_name = {}
    for card in load_cards():
        by_name[card.id.casefold()] = card.id
        for name in card.name.values():
            by_name[name.casefold()] = card.id
    unknown = [item for item in value if item.strip().casefold() not in by_name]
    if unknown:
        raise ValidationError(
            ngettext(
                "“%(key)s”: %(unknown)s is no card of the alien event deck; choose the "
                "cards from the deck's list.",
                "“%(key)s”: %(unknown)s are no cards of the alien event deck; choose the "
                "cards from the deck's list.",
                len(unknown),
            )
            % {"key": key, "unknown": ", ".join(unknown)}
        )
    return list(dict.fromkeys(by_name[item.strip().casefold()] for item in value))


def _alien_counts(value: Any, key: str) -> dict[str, int]:
    """Token counts by alien type (types with tokens: no Genestealers); zeros left out."""
    types = token_aliens()
    if not isinstance(value, dict):
        raise ValidationError(
            gettext("“%(key)s” must be an object of token counts by alien type.") % {"key": key}
        )
    counts = {}
    for alien, count in value.items():
        if alien not in types:
            raise ValidationError(
                gettext("“%(key)s”: %(alien)s is no alien type with tokens; use one of %(known)s.")
                % {"key": key, "alien": alien, "known": ", ".join(types)}
            )
        counts[alien] = _int(0)(count, f"{key}.{alien}")
    return {alien: count for alien, count in counts.items() if count}


def token_aliens() -> list[str]:
    """The alien types with blip and reinforcement tokens, in the rules data's order."""
    return [alien for alien in load_rules_data().alien_tokens if alien != "genestealer"]


#: What a special-equipment blip may hide (RULES §10, seed 002 "Equipaggiamenti speciali").
EQUIPMENT_ITEMS = ("tarantula", "abandoned_dreadnought", "lascannon", "melta", "conversion_beamer")
_SQUARE = re.compile(r"^\d{1,3},\d{1,3}$")


def _equipment_blips(value: Any, key: str) -> dict[str, str]:
    """Blip marker squares (``"x,y"``) that hide special equipment instead of an alien."""
    if not isinstance(value, dict):
        raise ValidationError(
            gettext('“%(key)s” must be an object of items by square ("x,y").') % {"key": key}
        )
    for square, item in value.items():
        if not isinstance(square, str) or not _SQUARE.match(square):
            raise ValidationError(
                gettext("“%(key)s”: %(square)r is not a square; write it as x,y (e.g. 4,7).")
                % {"key": key, "square": square}
            )
        _one_of(*EQUIPMENT_ITEMS)(item, f"{key}.{square}")
    return dict(value)


def _dreadnought_class(value: Any, key: str) -> str:
    """A class's key; that the tournament's rules data have it is checked by
    :func:`clean_stipulation_params`, which has them (the house rules may add a class)."""
    if not isinstance(value, str) or not value:
        raise ValidationError(
            gettext("“%(key)s” must be the key of a Dreadnought class, e.g. “predator”.")
            % {"key": key}
        )
    return value


def _dreadnought_weapons(value: Any, key: str) -> list[str]:
    """The heavy weapons the session notes name for the Dreadnought (checked against its
    class, in the tournament's rules data, by :func:`clean_stipulation_params`)."""
    if not isinstance(value, list) or not value or not all(isinstance(w, str) for w in value):
        raise ValidationError(
            gettext('“%(key)s” must be a list of weapons, e.g. ["assault_cannon", "melta"].')
            % {"key": key}
        )
    return list(value)


def playing_rules(tournament: Tournament) -> RulesData:
    """The rules data ``tournament`` plays: its house rules and catalogue values with the
    class its catalogue gives each squad weapon (decision 69), as the board sets a game up;
    a session's Dreadnought is checked against its Dreadnought classes (decision 48). One
    query. Raises ``ValidationError`` saying what to correct when they do not read
    together: the house rules page and the weapon's form refuse such a change, so only
    data saved before those checks (or in the Django admin) can, and nothing is checked
    against other rules data instead (decision 76)."""
    classes = dict(tournament.weapons.values_list("slug", "weapon_class"))
    try:
        return catalogue_rules_data(tournament.data_overrides, classes)
    except RulesDataError as error:
        raise ValidationError(_unreadable(error)) from None


def readable_rules(tournament: Tournament) -> tuple[RulesData | None, str]:
    """:func:`playing_rules`, or None and why they do not read, for what only shows a
    stipulation or offers its menus (a class then named as shipped); whatever checks one
    refuses it with that reason instead."""
    try:
        return playing_rules(tournament), ""
    except ValidationError as error:
        return None, " ".join(error.messages)


def _unreadable(error: RulesDataError) -> str:
    """Why a tournament's rules data do not read (``error``), and where to correct them."""
    return gettext(
        "The tournament's rules data do not read with its catalogue's weapon classes, so "
        "nothing can be checked against them: %(problem)s Correct the house rules "
        "(Catalogue → House rules) or the weapon's class on the catalogue page."
    ) % {"problem": error.text_in("it" if (get_language() or "").startswith("it") else "en")}


def _check_dreadnought(cleaned: dict[str, Any], rules: RulesData | None) -> None:
    """The class value and weapons are the named class's (in ``rules``, the tournament's
    rules data; None: the shipped): the class is set, and the weapons are as many as it
    mounts, each one it may mount."""
    for key in ("dreadnought_value", "dreadnought_weapons"):
        if key in cleaned and "dreadnought_class" not in cleaned:
            raise ValidationError(
                gettext("“%(key)s” belongs to a Dreadnought class: set “dreadnought_class” too.")
                % {"key": key}
            )
    data = rules or load_rules_data()
    class_key = cleaned.get("dreadnought_class")
    if class_key is not None and class_key not in data.dreadnought_classes:
        raise ValidationError(
            gettext(
                "“dreadnought_class”: the tournament's rules data have no Dreadnought class "
                "“%(value)s” (its house rules may have removed it); choose one of %(known)s."
            )
            % {
                "value": class_key,
                "known": ", ".join(f"“{key}”" for key in data.dreadnought_classes),
            }
        )
    weapons = cleaned.get("dreadnought_weapons")
    if weapons is None:
        return
    misfit = dreadnought_weapons_misfit(cleaned["dreadnought_class"], weapons, data)
    if misfit is None:
        return
    spec, weapon = misfit
    if weapon is None:
        raise ValidationError(
            gettext(
                "“dreadnought_weapons”: the %(name)s mounts %(mounts)d heavy weapons, "
                "not %(given)d."
            )
            % {"name": spec.name, "mounts": spec.heavy_weapons, "given": len(weapons)}
        )
    raise ValidationError(
        gettext(
            "“dreadnought_weapons”: the %(name)s cannot mount %(weapon)s; it mounts %(choices)s."
        )
        % {"name": spec.name, "weapon": weapon, "choices": ", ".join(spec.weapon_choices)}
    )


def dreadnought_weapons_misfit(
    class_key: str, weapons: list[str], rules: RulesData | None = None
) -> tuple[DreadnoughtClass, str | None] | None:
    """What keeps ``weapons`` off the Dreadnought class ``class_key`` of ``rules`` (the
    tournament's rules data, :func:`playing_rules`; None: the shipped): None when they fit;
    else the class and the first weapon it cannot mount (None: they are not as many as
    it mounts). The parameters' check and the organiser's form word it each their way."""
    spec = (rules or load_rules_data()).dreadnought_classes[class_key]
    if len(weapons) != spec.heavy_weapons:
        return spec, None
    return next(((spec, weapon) for weapon in weapons if weapon not in spec.weapon_choices), None)


def _stall_breaker(value: Any, key: str) -> dict | None:
    if value is None:
        return None
    if not isinstance(value, dict):
        raise ValidationError(
            gettext(
                "“%(key)s” must be null or an object with from_round, points, growth and "
                "max_extra_rounds."
            )
            % {"key": key}
        )
    return _check_fields(
        value,
        {
            "from_round": (_int(1), _REQUIRED),
            "points": (_int(1), _REQUIRED),
            "growth": (_int(0), 0),
            "max_extra_rounds": (_int(1), _REQUIRED),
        },
        prefix=f"{key}.",
    )


#: Markers for a parameter with no default: it must be given, or it is simply left out.
_REQUIRED = object()
_ABSENT = object()

#: Per stipulation type: parameter -> (checker, default value or _REQUIRED or _ABSENT).
_SCHEMAS: dict[str, dict[str, tuple[Callable[[Any, str], Any], Any]]] = {
    StipulationKind.ALIEN_HUNT: {
        "end_condition": (_one_of(END_FIXED_ROUNDS, END_ALIENS_DEAD), END_FIXED_ROUNDS),
        "rounds": (_int(1), _ABSENT),
        "escape_rounds": (_int(1), _ABSENT),
        "event_deck": (_bool, False),
        "event_cards": (_event_cards, []),
    },
    StipulationKind.CATCH_THE_FLAG: {
        "flags": (
            _one_of(FLAGS_ONE_PER_SQUAD, FLAGS_TWO_FOR_THREE, FLAGS_ONE_FOR_ALL),
            FLAGS_ONE_PER_SQUAD,
        ),
        "flag_value": (_int(1), _REQUIRED),
        "hidden_flags": (_bool, False),
        "rounds": (_int(1), _ABSENT),
        "aliens": (_bool, False),
        "event_deck": (_bool, False),
        "event_cards": (_event_cards, []),
    },
    StipulationKind.TPK: {
        "aliens": (_bool, False),
        "stall_breaker": (_stall_breaker, None),
    },
    StipulationKind.EXTENDED_TPK: {
        "aliens": (_bool, False),
        "stall_breaker": (_stall_breaker, None),
    },
}


#: The aliens' material, for every stipulation type (RULES §10, §10b): the reinforcement
#: tokens and how they enter, the Solitaire blip pile, the Dreadnought's class, class
#: value and weapons, and the blips that hide special equipment. Absent when not set.
ALIEN_MATERIAL: dict[str, tuple[Callable[[Any, str], Any], Any]] = {
    "reinforcements": (_alien_counts, _ABSENT),
    "reinforcements_per_turn": (_int(0), _ABSENT),
    "reinforcements_from_round": (_int(1), _ABSENT),
    "blip_pile": (_alien_counts, _ABSENT),
    "dreadnought_class": (_dreadnought_class, _ABSENT),
    "dreadnought_value": (_int(LEAST_CLASS_VALUE), _ABSENT),
    "dreadnought_weapons": (_dreadnought_weapons, _ABSENT),
    "equipment_blips": (_equipment_blips, _ABSENT),
}
for _schema in _SCHEMAS.values():
    _schema.update(ALIEN_MATERIAL)


def _check_fields(params: dict, schema: dict, prefix: str = "") -> dict:
    unknown = sorted(set(params) - set(schema))
    if unknown:
        raise ValidationError(
            ngettext(
                "Unknown parameter %(unknown)s; allowed: %(allowed)s.",
                "Unknown parameters %(unknown)s; allowed: %(allowed)s.",
                len(unknown),
            )
            % {
                "unknown": ", ".join(prefix + name for name in unknown),
                "allowed": ", ".join(prefix + name for name in schema),
            }
        )
    cleaned: dict[str, Any] = {}
    for key, (check, default) in schema.items():
        if key in params:
            cleaned[key] = check(params[key], prefix + key)
        elif default is _REQUIRED:
            raise ValidationError(
                gettext("Parameter “%(key)s” is required.") % {"key": prefix + key}
            )
        elif default is not _ABSENT:
            cleaned[key] = list(default) if isinstance(default, list) else default
    return cleaned


def clean_stipulation_params(kind: str, params: Any, rules: RulesData | None = None) -> dict:
    """Check a stipulation's parameters for its type and fill in the defaults; a named
    Dreadnought's weapons against its class in ``rules``, the tournament's rules data
    (:func:`playing_rules`; None: the shipped).

    Raises ``ValidationError`` naming the offending parameter and what it should be.
    """
    if kind not in _SCHEMAS:
        raise ValidationError(
            gettext("Unknown stipulation type %(kind)r; use one of %(kinds)s.")
            % {"kind": kind, "kinds": ", ".join(_SCHEMAS)}
        )
    if params is None:
        params = {}
    if not isinstance(params, dict):
        raise ValidationError(gettext("Stipulation parameters must be a JSON object."))
    cleaned = _check_fields(params, _SCHEMAS[kind])
    _check_dreadnought(cleaned, rules)
    if cleaned.get("event_deck") and cleaned.get("aliens") is False:
        # The deck is drawn in the Alien turn, which a game without aliens never has.
        raise ValidationError(
            gettext(
                "The alien event deck is drawn in the Alien turn, which a game without aliens "
                "does not have: set “%(aliens)s” too, or leave “%(deck)s” out."
            )
            % {"aliens": "aliens", "deck": "event_deck"}
        )
    if kind == StipulationKind.ALIEN_HUNT:
        needed = "rounds" if cleaned["end_condition"] == END_FIXED_ROUNDS else "escape_rounds"
        if needed not in cleaned:
            raise ValidationError(
                gettext("Alien Hunt ending “%(end)s” needs the parameter “%(key)s”.")
                % {"end": cleaned["end_condition"], "key": needed}
            )
    return cleaned


class Stipulation(models.Model):
    session = models.OneToOneField(
        "tournaments.Session",
        verbose_name=_("session"),
        on_delete=models.CASCADE,
        related_name="stipulation",
    )
    kind = models.CharField(_("type"), max_length=20, choices=StipulationKind.choices)
    params = models.JSONField(_("parameters"), default=dict, blank=True)

    class Meta:
        verbose_name = _("stipulation")
        verbose_name_plural = _("stipulations")

    def __str__(self) -> str:
        return str(self.get_kind_display())

    def save(self, *args, **kwargs) -> None:
        self.params = clean_stipulation_params(self.kind, self.params, self._rules())
        super().save(*args, **kwargs)

    def clean(self) -> None:
        try:
            self.params = clean_stipulation_params(self.kind, self.params, self._rules())
        except ValidationError as error:
            raise ValidationError({"params": error.messages}) from None

    def _rules(self) -> RulesData:
        return playing_rules(self.session.stage.tournament)
