"""The organiser's changes to the tournament's squads (decision 59): their names in both
languages and the squad order the squad draw rolls its dice in (RULES §3, §4), saved in one
transaction under the tournament's row lock, versioned as the catalogue's other forms
(decision 46) and logged with what changed. The order is fixed once a squad draw was made
(:func:`~tournaments.queries.squad_order.squad_order_fixed`); the names never are."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from django.db import transaction
from django.utils.translation import gettext as _

from tournaments.actions.activity_log import describe, log_activity
from tournaments.actions.catalogue_edits import CatalogueEditError
from tournaments.actions.optimistic_lock import check_unchanged
from tournaments.models import ActivityVerb, Squad, Tournament
from tournaments.queries.catalogue_names import squad_field, squad_name_problems
from tournaments.queries.edit_versions import squads_version
from tournaments.queries.squad_order import squad_order_fixed


def order_fixed_message() -> str:
    return _(
        "The squad order can no longer change: the squad draw has rolled its dice in it "
        "(RULES §3), and another order would make the recorded draw impossible to replay. "
        "The names can still change."
    )


def _names(squad: Squad) -> dict[str, str]:
    return {"en": squad.name_en, "it": squad.name_it}


def save_squads(
    tournament: Tournament,
    names: Mapping[str, tuple[str, str]],
    order: Sequence[str] | None = None,
    *,
    actor,
    expected_version: str | None = None,
) -> list[list[object]]:
    """Give the squads their ``names`` (``{slug: (English, Italian)}``; a squad left out keeps
    its own) and, unless None, the squad ``order`` (every squad's slug, first to last).
    Returns the changes as the log keeps them ([field, before, after]). Raises
    StaleEditError (someone saved the squads after the form was loaded at
    ``expected_version``) or CatalogueEditError (a blank or taken name, an order not of the
    tournament's squads, or a new order after the first squad draw); nothing is saved."""
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
        stored = list(tournament.squads.order_by("order", "pk"))
        check_unchanged(expected_version, squads_version(stored))
        before = [_names(squad) for squad in stored]
        edited = {squad.slug: Squad(slug=squad.slug, order=squad.order) for squad in stored}
        for squad in stored:
            name_en, name_it = names.get(squad.slug, (squad.name_en, squad.name_it))
            edited[squad.slug].name_en = name_en.strip()
            edited[squad.slug].name_it = name_it.strip()
        problems = squad_name_problems(list(edited.values()))
        if problems:
            raise CatalogueEditError(problems)
        slugs = [squad.slug for squad in stored]
        if order is not None and list(order) != slugs:
            if sorted(order) != sorted(slugs):
                raise CatalogueEditError(
                    {None: _("Give each of the tournament's squads one place in the order.")}
                )
            if squad_order_fixed(tournament):
                raise CatalogueEditError({squad_field(order[0], "order"): order_fixed_message()})
            for position, slug in enumerate(order):
                edited[slug].order = position
        changes = _changes(stored, edited)
        after = sorted(stored, key=lambda squad: (edited[squad.slug].order, squad.pk))
        if [squad.slug for squad in after] != slugs:
            changes.append(["order", before, [_names(edited[squad.slug]) for squad in after]])
        if not changes:
            return changes
        for squad in stored:
            new = edited[squad.slug]
            squad.name_en, squad.name_it, squad.order = new.name_en, new.name_it, new.order
            squad.save(update_fields=["name_en", "name_it", "order"])
        log_activity(
            tournament,
            ActivityVerb.UPDATED,
            describe("squads_changed", changes=changes),
            actor=actor,
            changed=changes,
        )
    return changes


def _changes(stored: Sequence[Squad], edited: Mapping[str, Squad]) -> list[list[object]]:
    """Each name that changes, as [field, before, after]."""
    return [
        [field, getattr(squad, field), getattr(edited[squad.slug], field)]
        for squad in stored
        for field in ("name_en", "name_it")
        if getattr(squad, field) != getattr(edited[squad.slug], field)
    ]
