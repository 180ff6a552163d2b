"""The tournament's house rules as one JSON object: the rules data changes every part of
the app reads (``Tournament.data_overrides``: units, weapons, Dreadnought classes, the
Tarantula, alien token values, point values, alien event cards), replaced whole from the
organiser's advanced page. The catalogue's forms change one value at a time; this page
reaches what they do not (a unit's weapons, a Dreadnought class's weapon choices, the
Tarantula's arc, a new unit as a house rule) without the Django admin."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db import transaction

from tournaments.actions.activity_log import describe, log_activity
from tournaments.actions.optimistic_lock import check_unchanged
from tournaments.domain.house_rules import OverrideProblem, override_problems
from tournaments.models import ActivityVerb, Tournament
from tournaments.queries.change_words import house_rule_field
from tournaments.queries.class_removal import (
    removal_problems,
    removed_classes,
    sessions_naming,
)
from tournaments.queries.edit_versions import content_version
from tournaments.queries.event_deck import event_card_names
from tournaments.queries.tournament_catalogue import catalogue_weapon_classes


class HouseRulesError(ValueError):
    """The house rules cannot be read by the app; ``problems``: each with its place in them
    and what is wrong, in the active language."""

    def __init__(self, problems: list[OverrideProblem]) -> None:
        super().__init__("; ".join(message for _where, message in problems))
        self.problems = problems


def house_rules_version(tournament: Tournament) -> str:
    """What the advanced page was loaded from: the whole of the rules data changes."""
    return content_version(tournament.data_overrides or {})


def save_house_rules(
    tournament: Tournament,
    overrides: Mapping[str, Any],
    *,
    expected_version: str | None,
    actor,
) -> dict[str, tuple[object, object]]:
    """Replace the tournament's rules data changes with ``overrides``, checked as every
    part of the app reads them (:class:`HouseRulesError`), unless they changed since the
    page was loaded at ``expected_version`` (:class:`~tournaments.actions.optimistic_lock.
    StaleEditError`), and unless they remove a Dreadnought class that sessions with a
    result name (:class:`HouseRulesError`, naming them; decision 77: the page asks first
    when sessions without one do). Returns the values changed, by path, as (before,
    after); the log names an event card's as the tournament named the card before the
    change (:func:`~tournaments.queries.event_deck.event_card_names`)."""
    problems = override_problems(overrides, catalogue_weapon_classes(tournament))
    if problems:
        raise HouseRulesError(problems)
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
        stored = tournament.data_overrides or {}
        check_unchanged(expected_version, content_version(stored))
        removed = removal_problems(
            sessions_naming(tournament, removed_classes(tournament, overrides))
        )
        if removed:
            raise HouseRulesError(removed)
        changes = leaf_changes(stored, overrides)
        if not changes:
            return {}
        cards = event_card_names(tournament)
        tournament.data_overrides = dict(overrides)
        tournament.save(update_fields=["data_overrides"])
        log_activity(
            tournament,
            ActivityVerb.UPDATED,
            describe(
                "house_rules_changed",
                changes=[
                    [house_rule_field(path, cards), before, after]
                    for path, (before, after) in changes.items()
                ],
            ),
            actor=actor,
        )
    return changes


def leaf_changes(
    before: Mapping[str, Any], after: Mapping[str, Any]
) -> dict[str, tuple[object, object]]:
    """Every value that differs between two rules data changes, by its path
    (``units.ork.armour``), as (before, after); None where a side has none."""
    old, new = dict(_leaves(before)), dict(_leaves(after))
    return {
        path: (old.get(path), new.get(path))
        for path in sorted(old.keys() | new.keys())
        if old.get(path) != new.get(path)
    }


def _leaves(node: Any, path: str = ""):
    """Each value with its path; an object is a value of its own only when empty and not
    the whole rules data (the first rules saved over none replace nothing)."""
    if isinstance(node, Mapping) and (node or not path):
        for key, child in node.items():
            yield from _leaves(child, f"{path}.{key}" if path else str(key))
    else:
        yield path, node
