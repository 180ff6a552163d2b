"""The organiser's changes to a tournament's catalogue (issue 15 item 5): chapter cards,
weapons, alien token values, the units' and weapons' numbers and the alien event cards'
names and texts, each saved in one transaction and logged with what it changed.

Every save takes the tournament's row lock, so two catalogue edits of one tournament never
interleave, and refuses a form loaded before someone else saved the same thing
(``expected_version``, :mod:`tournaments.queries.edit_versions`, decision 46). A card or a
weapon is refused a name another one already has (the loadout, the judge's sheet and the
board tell them apart by name), and a weapon a change that would leave some squad unable to
build a legal loadout (RULES §5; decision 47).

Token values live in the tournament's rules data overrides (``data_overrides["alien_tokens"]``),
the one place the board, the result form, the plausibility checks and the demo read them
from (decision 31): a value equal to the shipped one is not kept as an override.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from rules.engine.catalogue_classes import catalogue_rules_data
from rules.engine.event_cards import EventCard, load_cards
from rules.engine.units import DiceSpec, RulesDataError, load_rules_data
from tournaments.actions.activity_log import describe, log_activity
from tournaments.actions.optimistic_lock import check_unchanged
from tournaments.actions.tournament_setup import install_catalogue
from tournaments.domain.catalogue import DEFAULT_CATALOGUE
from tournaments.domain.engine_language import narration_language
from tournaments.domain.loadout import loadout_blockers
from tournaments.models import ActivityVerb, ChapterCard, Tournament, Weapon
from tournaments.queries.catalogue_names import card_name_problems, weapon_name_problems
from tournaments.queries.edit_versions import (
    CARD_FIELDS,
    WEAPON_FIELDS,
    card_version,
    overrides_version,
    weapon_version,
)
from tournaments.queries.event_deck import EVENTS, shipped_event_card
from tournaments.queries.rules_values import item_label, section_entries
from tournaments.queries.tournament_catalogue import (
    catalogue_weapon_classes,
    effect_names,
    tournament_catalogue,
)

TOKENS = "alien_tokens"


class CatalogueEditError(ValueError):
    """The change is refused, nothing saved; ``problems`` says what is wrong by form field
    (None: the whole change)."""

    def __init__(self, problems: Mapping[str | None, str]) -> None:
        self.problems = dict(problems)
        super().__init__(" ".join(self.problems.values()))


def _lock(tournament_id: int) -> Tournament:
    return Tournament.objects.select_for_update().get(pk=tournament_id)


def _changes(stored, edited, fields: tuple[str, ...]) -> dict[str, list[object]]:
    """The ``fields`` whose value differs between ``stored`` and ``edited``, each as
    [before, after]."""
    return {
        name: [getattr(stored, name), getattr(edited, name)]
        for name in fields
        if getattr(stored, name) != getattr(edited, name)
    }


def _names(item) -> dict[str, str]:
    return {"en": item.name_en, "it": item.name_it}


def _effect_words(code: object, names: Mapping[str, Mapping[str, str]]) -> object:
    """An effect as the log keeps it: its code with the names the tournament gives it
    (:func:`~tournaments.queries.tournament_catalogue.effect_names`); none, or a code the
    board does not know, as it is."""
    entry = names.get(code) if isinstance(code, str) else None
    return {"code": code, **entry} if entry else code


def save_card(
    card: ChapterCard, *, actor, expected_version: str | None = None
) -> dict[str, list[object]]:
    """Keep the organiser's changes to ``card`` and log what changed; returns the changes by
    field as [before, after]. Raises StaleEditError (someone saved the card after the form
    was loaded at ``expected_version``) or CatalogueEditError (a name already taken)."""
    with transaction.atomic():
        tournament = _lock(card.squad.tournament_id)
        stored = ChapterCard.objects.select_related("squad").get(pk=card.pk)
        check_unchanged(expected_version, card_version(stored))
        problems = card_name_problems(card)
        if problems:
            raise CatalogueEditError(problems)
        changes = _changes(stored, card, CARD_FIELDS)
        if not changes:
            return changes
        squad = stored.squad.slug
        effects_before = effect_names(tournament, squad) if "effect_code" in changes else {}
        card.save()
        described = dict(changes)
        if "effect_code" in changes:
            before, after = changes["effect_code"]
            described["effect_code"] = [
                _effect_words(before, effects_before),
                _effect_words(after, effect_names(tournament, squad)),
            ]
        log_activity(
            tournament,
            ActivityVerb.UPDATED,
            describe(
                "card_changed",
                card=_names(stored),
                squad=_names(stored.squad),
                changes=described,
            ),
            actor=actor,
            card=card.pk,
            changed=changes,
        )
    return changes


def save_weapon(
    weapon: Weapon, *, actor, expected_version: str | None = None
) -> dict[str, list[object]]:
    """Keep the organiser's changes to ``weapon`` and log what changed; returns the changes
    by field as [before, after]. Raises StaleEditError, or CatalogueEditError for a name
    another weapon has or a class or colour that would leave some squad without a legal
    loadout (only what the change itself would break: a catalogue already wrong elsewhere
    can still be corrected one weapon at a time)."""
    with transaction.atomic():
        tournament = _lock(weapon.tournament_id)
        stored = Weapon.objects.get(pk=weapon.pk)
        check_unchanged(expected_version, weapon_version(stored))
        problems = weapon_name_problems(weapon)
        if problems:
            raise CatalogueEditError(problems)
        changes = _changes(stored, weapon, WEAPON_FIELDS)
        if not changes:
            return changes
        before = set(loadout_blockers(tournament_catalogue(tournament)))
        weapon.save()
        broken = [
            blocker
            for blocker in loadout_blockers(tournament_catalogue(tournament))
            if blocker not in before
        ]
        if broken:
            field = "weapon_class" if "weapon_class" in changes else "colour_restricted"
            raise CatalogueEditError({field: _no_loadout(weapon, broken)})
        if "weapon_class" in changes:
            _check_board_plays(tournament, weapon, stored)
        log_activity(
            tournament,
            ActivityVerb.UPDATED,
            describe("weapon_changed", weapon=_names(stored), changes=changes),
            actor=actor,
            weapon=weapon.pk,
            changed=changes,
        )
    return changes


def _board_rules(tournament: Tournament, classes: Mapping[str, str]) -> RulesDataError | None:
    """What keeps the board from reading the tournament's rules data with the catalogue's
    weapon ``classes`` (None: it reads them)."""
    try:
        catalogue_rules_data(tournament.data_overrides, classes)
    except RulesDataError as error:
        return error
    return None


def _class_named(tournament: Tournament, error: RulesDataError, classes: Mapping[str, str]) -> str:
    """The Dreadnought class a weapon class ``error`` is about, by its name in the
    tournament's rules data before the change (its key when they do not read either)."""
    parts = str(error.params.get("path", "")).split(".")
    key = parts[1] if len(parts) > 2 and parts[0] == "dreadnought_classes" else ""
    try:
        found = catalogue_rules_data(tournament.data_overrides, classes).dreadnought_classes
    except RulesDataError:
        return key
    return found[key].name if key in found else key


def _check_board_plays(tournament: Tournament, weapon: Weapon, stored: Weapon) -> None:
    """Refuse a weapon class the board could not play (the catalogue's class is the rules
    data's, :func:`~rules.engine.catalogue_classes.with_catalogue_classes`): a Dreadnought
    class mounts only heavy and extra-heavy weapons (RULES §10). Only what the change
    breaks counts."""
    classes = catalogue_weapon_classes(tournament)
    error = _board_rules(tournament, classes)
    before = {**classes, weapon.slug: stored.weapon_class}
    if error is None or _board_rules(tournament, before):
        return
    if error.code in ("not_heavy", "not_a_class_choice"):
        message = _(
            "The house rules let the Dreadnought class %(dreadnought)s mount %(weapon)s, and "
            "a Dreadnought mounts only heavy and extra-heavy weapons (RULES §10), so "
            "%(weapon)s is left as it was. Keep its class, or first take it off the "
            "weapons of %(dreadnought)s on the house rules page."
        ) % {"weapon": weapon.name, "dreadnought": _class_named(tournament, error, before)}
    else:
        message = _(
            "The board could not play %(weapon)s of this class, so it is left as it was: "
            "%(problem)s"
        ) % {"weapon": weapon.name, "problem": error.text_in(narration_language())}
    raise CatalogueEditError({"weapon_class": message})


def _no_loadout(weapon: Weapon, blockers: list[str]) -> str:
    return _(
        "With this change some squads could no longer take a legal loadout (RULES §5), so "
        "%(weapon)s is left as it was. %(blockers)s Keep the class, or first give another "
        "weapon the class the squads need."
    ) % {"weapon": weapon.name, "blockers": " ".join(blockers)}


def add_shipped_cards(tournament: Tournament, *, actor) -> int:
    """Add the shipped chapter cards the tournament lacks (a tournament created before the
    complete decks); cards it has, edited or not, stay as they are. Returns how many."""
    with transaction.atomic():
        _lock(tournament.pk)
        before = ChapterCard.objects.filter(squad__tournament=tournament).count()
        install_catalogue(tournament, DEFAULT_CATALOGUE)
        added = ChapterCard.objects.filter(squad__tournament=tournament).count() - before
        if added:
            log_activity(
                tournament,
                ActivityVerb.UPDATED,
                describe("cards_added", count=added),
                actor=actor,
            )
    return added


def save_token_values(
    tournament: Tournament,
    values: Mapping[str, int],
    *,
    actor,
    expected_version: str | None = None,
) -> dict[str, list[object]]:
    """Set the points of each alien type's tokens (``values``, checked by the form against
    the rules data); values equal to the shipped ones are dropped from the overrides.
    Returns the changes by alien type as [before, after]; raises StaleEditError."""
    shipped = load_rules_data().alien_tokens
    with transaction.atomic():
        tournament = _lock(tournament.pk)
        check_unchanged(expected_version, overrides_version(tournament, TOKENS))
        overrides = dict(tournament.data_overrides or {})
        classes = catalogue_weapon_classes(tournament)
        before = dict(catalogue_rules_data(overrides, classes).alien_tokens)
        tokens = {
            alien: value
            for alien, value in {**overrides.get(TOKENS, {}), **values}.items()
            if _value(value) != shipped.get(alien)
        }
        after = catalogue_rules_data({**overrides, TOKENS: tokens}, classes).alien_tokens
        changes: dict[str, list[object]] = {
            alien: [before.get(alien), value]
            for alien, value in after.items()
            if before.get(alien) != value
        }
        if not changes:
            return changes
        _save_section(tournament, overrides, TOKENS, tokens)
        log_activity(
            tournament,
            ActivityVerb.UPDATED,
            describe("token_values_changed", changes=changes),
            actor=actor,
            changed=changes,
        )
    return changes


def save_event_card(
    tournament: Tournament,
    card_id: str,
    *,
    name: Mapping[str, str],
    text: Mapping[str, str],
    actor,
    expected_version: str | None = None,
) -> EventCard:
    """Keep the organiser's ``name`` and ``text`` (``{"it": ..., "en": ...}``) of the alien
    event card ``card_id``. What equals the shipped card is not kept, so a later correction
    of a shipped text reaches the tournament; the deck is checked whole before it is
    saved (:class:`~rules.engine.event_cards.EventDataError`); raises StaleEditError."""
    shipped = shipped_event_card(card_id)
    if shipped is None:
        raise KeyError(card_id)
    with transaction.atomic():
        tournament = _lock(tournament.pk)
        check_unchanged(expected_version, overrides_version(tournament, EVENTS, card_id))
        overrides = dict(tournament.data_overrides or {})
        events = dict(overrides.get(EVENTS) or {})
        before = next(c for c in load_cards(events or None) if c.id == card_id)
        change = dict(events.get(card_id) or {})
        for field, value, default in (
            ("name", name, shipped.name),
            ("text", text, shipped.text),
        ):
            if dict(value) == dict(default):
                change.pop(field, None)
            else:
                change[field] = dict(value)
        if change:
            events[card_id] = change
        else:
            events.pop(card_id, None)
        card = next(card for card in load_cards(events or None) if card.id == card_id)
        changes = {
            f"{field}_{lang}": [getattr(before, field)[lang], getattr(card, field)[lang]]
            for field in ("name", "text")
            for lang in ("it", "en")
            if getattr(before, field)[lang] != getattr(card, field)[lang]
        }
        if not changes:
            return card
        _save_section(tournament, overrides, EVENTS, events)
        log_activity(
            tournament,
            ActivityVerb.UPDATED,
            describe("event_card_changed", card=dict(before.name), changes=changes),
            actor=actor,
            changed=change,
        )
    return card


def save_rules_values(
    tournament: Tournament,
    section: str,
    key: str,
    values: Mapping[str, int | Mapping[str, int] | list[str]],
    *,
    actor,
    expected_version: str | None = None,
) -> dict[str, list[object]]:
    """Keep the organiser's values of the unit, weapon or Dreadnought class ``key``
    (``section``: a key of :data:`~tournaments.queries.rules_values.VALUES`; dice as
    ``{"white": ..., "red": ...}``, weapons as a list). A value equal to the shipped one
    is dropped from the overrides (its shipped source stands again); the whole rules data
    is checked before anything is saved (:class:`~rules.engine.units.RulesDataError`);
    raises StaleEditError. Returns the values changed, each as [before, after]."""
    shipped = load_rules_data()
    defaults = section_entries(shipped, section).get(key)
    with transaction.atomic():
        tournament = _lock(tournament.pk)
        check_unchanged(expected_version, overrides_version(tournament, section, key))
        overrides = dict(tournament.data_overrides or {})
        classes = catalogue_weapon_classes(tournament)
        current = catalogue_rules_data(overrides, classes)
        table = section_entries(current, section)[key]
        part = {item: dict(entry) for item, entry in (overrides.get(section) or {}).items()}
        entry = part.get(key, {})
        changed: dict[str, list[object]] = {}
        for name, value in values.items():
            if _plain(getattr(table, name)) != value:
                changed[name] = [_plain(getattr(table, name)), value]
            if defaults is not None and _plain(getattr(defaults, name)) == value:
                entry.pop(name, None)
            else:
                entry[name] = dict(value) if isinstance(value, Mapping) else value
        if not changed:
            return changed
        if entry:
            part[key] = entry
        else:
            part.pop(key, None)
        catalogue_rules_data({**overrides, section: part}, classes)
        _save_section(tournament, overrides, section, part)
        log_activity(
            tournament,
            ActivityVerb.UPDATED,
            describe(
                "rules_values_changed",
                item={lang: item_label(current, section, key, lang) for lang in ("en", "it")},
                changes=changed,
            ),
            actor=actor,
            changed=changed,
        )
    return changed


def _plain(value: object) -> object:
    """A rules data value as an override writes it (dice as ``{"white": ..., "red": ...}``,
    weapons as a list)."""
    if isinstance(value, DiceSpec):
        return {"white": value.white, "red": value.red}
    if isinstance(value, tuple):
        return list(value)
    return value


def _save_section(
    tournament: Tournament, overrides: dict, section: str, value: Mapping[str, Any]
) -> None:
    """Save the tournament's rules data ``overrides`` with ``value`` as their ``section``
    (left out when empty: nothing differs from the shipped data)."""
    if value:
        overrides[section] = value
    else:
        overrides.pop(section, None)
    tournament.data_overrides = overrides
    tournament.save(update_fields=["data_overrides"])


def _value(value: object) -> object:
    """An override's value, given as a number or as a ``{"value": ...}`` record."""
    return value.get("value") if isinstance(value, dict) else value
