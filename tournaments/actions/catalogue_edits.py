"""The organiser's changes to a tournament's catalogue (issue 15 item 5): chapter cards,
weapons, alien token values, the units' and weapons' numbers and the alien event cards'
names and texts, each saved in one transaction and logged.

Token values live in the tournament's rules data overrides (``data_overrides["alien_tokens"]``),
the one place the board, the result form, the plausibility checks and the demo read them
from (decision 31): a value equal to the shipped one is not kept as an override.
"""

from __future__ import annotations

from collections.abc import Mapping

from django.db import transaction

from rules.engine.event_cards import EventCard, load_cards
from rules.engine.units import DiceSpec, load_rules_data
from tournaments.actions.activity_log import describe, log_activity
from tournaments.actions.tournament_setup import install_catalogue
from tournaments.domain.catalogue import DEFAULT_CATALOGUE
from tournaments.models import ActivityVerb, ChapterCard, Tournament, Weapon
from tournaments.queries.event_deck import EVENTS, shipped_event_card
from tournaments.queries.rules_values import item_label, section_entries

TOKENS = "alien_tokens"


def _changed_fields(instance, fields: tuple[str, ...]) -> dict[str, object]:
    """The ``fields`` of ``instance`` whose stored value differs from the instance's (new
    values by field name; every field for a row not stored yet)."""
    stored = type(instance).objects.filter(pk=instance.pk).values(*fields).first() or {}
    return {
        name: getattr(instance, name)
        for name in fields
        if stored.get(name, object()) != getattr(instance, name)
    }


CARD_FIELDS = (
    "name_en",
    "name_it",
    "kind",
    "use",
    "effect_code",
    "effect_en",
    "effect_it",
    "source",
    "confidence",
)
WEAPON_FIELDS = ("name_en", "name_it", "weapon_class", "colour_restricted")


def save_card(card: ChapterCard, *, actor) -> ChapterCard:
    """Keep the organiser's changes to ``card`` and log which fields changed."""
    with transaction.atomic():
        changed = _changed_fields(card, CARD_FIELDS)
        card.save()
        log_activity(
            card.squad.tournament,
            ActivityVerb.UPDATED,
            describe("card_edited", card=card.name_en, squad=card.squad.name_en),
            actor=actor,
            card=card.pk,
            changed=changed,
        )
    return card


def save_weapon(weapon: Weapon, *, actor) -> Weapon:
    """Keep the organiser's changes to ``weapon`` and log which fields changed."""
    with transaction.atomic():
        changed = _changed_fields(weapon, WEAPON_FIELDS)
        weapon.save()
        log_activity(
            weapon.tournament,
            ActivityVerb.UPDATED,
            describe("weapon_edited", weapon=weapon.name_en),
            actor=actor,
            weapon=weapon.pk,
            changed=changed,
        )
    return weapon


def add_shipped_cards(tournament: Tournament, *, actor) -> int:
    """Add the shipped chapter cards the tournament lacks (a tournament created before the
    complete decks); cards it has, edited or not, stay as they are. Returns how many."""
    with transaction.atomic():
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


def save_token_values(tournament: Tournament, values: Mapping[str, int], *, actor) -> None:
    """Set the points of each alien type's tokens (``values``, checked by the form against
    the rules data); values equal to the shipped ones are dropped from the overrides."""
    shipped = load_rules_data().alien_tokens
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
        overrides = dict(tournament.data_overrides or {})
        before = dict(load_rules_data(overrides or None).alien_tokens)
        tokens = {
            alien: value
            for alien, value in {**overrides.get(TOKENS, {}), **values}.items()
            if _value(value) != shipped.get(alien)
        }
        _save_section(tournament, overrides, TOKENS, tokens)
        after = load_rules_data(overrides or None).alien_tokens
        log_activity(
            tournament,
            ActivityVerb.UPDATED,
            describe("token_values"),
            actor=actor,
            changed={
                alien: [before.get(alien), value]
                for alien, value in after.items()
                if before.get(alien) != value
            },
        )


def save_event_card(
    tournament: Tournament,
    card_id: str,
    *,
    name: Mapping[str, str],
    text: Mapping[str, str],
    actor,
) -> EventCard:
    """Keep the organiser's ``name`` and ``text`` (``{"it": ..., "en": ...}``) of the alien
    event card ``card_id``. What equals the shipped card is not kept, so a later correction
    of a shipped text reaches the tournament; the deck is checked whole before it is
    saved (:class:`~rules.engine.event_cards.EventDataError`)."""
    shipped = shipped_event_card(card_id)
    if shipped is None:
        raise KeyError(card_id)
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
        overrides = dict(tournament.data_overrides or {})
        events = dict(overrides.get(EVENTS) or {})
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
        _save_section(tournament, overrides, EVENTS, events)
        log_activity(
            tournament,
            ActivityVerb.UPDATED,
            describe("event_card_edited", card=card.name["en"]),
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
) -> dict[str, list[object]]:
    """Keep the organiser's values of the unit, weapon or Dreadnought class ``key``
    (``section``: a key of :data:`~tournaments.queries.rules_values.VALUES`; dice as
    ``{"white": ..., "red": ...}``, weapons as a list). A value equal to the shipped one
    is dropped from the overrides (its shipped source stands again); the whole rules data
    is checked before anything is saved (:class:`~rules.engine.units.RulesDataError`).
    Returns the values changed, each as [before, after]."""
    shipped = load_rules_data()
    defaults = section_entries(shipped, section).get(key)
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
        overrides = dict(tournament.data_overrides or {})
        table = section_entries(load_rules_data(overrides or None), section)[key]
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
        if entry:
            part[key] = entry
        else:
            part.pop(key, None)
        load_rules_data({**overrides, section: part})
        _save_section(tournament, overrides, section, part)
        log_activity(
            tournament,
            ActivityVerb.UPDATED,
            describe(
                "rules_values_edited",
                item=item_label(shipped, section, key, "en"),
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
    tournament: Tournament, overrides: dict, section: str, value: Mapping[str, object]
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
