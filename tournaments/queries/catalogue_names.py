"""Whether a chapter card's, a weapon's or a squad's names are free (decision 47): the loadout, the
judge's sheet and the board tell cards and weapons apart by name, so a name one of them
already has, in either language and whatever its case, is refused. A card shares its name
with the other copies of its printed card (Targeter) and with the same card of the other
chapters (the same effect); one game's board shows the cards of several chapters (and
names a card by its effect where no chapter is known), so a card with another effect in
any chapter may not have it. A squad's names are not blank and no other squad's
(decision 59)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from django.utils.translation import gettext as _

from tournaments.models import ChapterCard, Weapon

#: Problems by form field (``name_en``, ``name_it``).
Problems = dict[str | None, str]


def _name_key(name: str) -> str:
    """A name as two readers would confuse it: case and spacing aside."""
    return " ".join(name.split()).casefold()


def _clashes(
    edited: Any,
    others: Iterable[Any],
    message: Callable[[Any, str], str],
) -> Problems:
    """Each name of ``edited`` (English, Italian) that one of ``others`` already has, in
    either language: the refusal ``message(other, name)`` by field."""
    others = list(others)
    problems: Problems = {}
    for field in ("name_en", "name_it"):
        name = (getattr(edited, field) or "").strip()
        if not name:
            continue
        for other in others:
            if _name_key(name) in {_name_key(other.name_en), _name_key(other.name_it or "")}:
                problems[field] = message(other, name)
                break
    return problems


def _printed_card(slug: str) -> str:
    """The printed card a copy's slug stands for (``targeter-2``: ``targeter``)."""
    return re.sub(r"-\d+$", "", slug)


def card_name_problems(card: ChapterCard) -> Problems:
    """What is wrong with ``card``'s names (its fields as edited, its row not saved yet)."""
    others = list(
        ChapterCard.objects.filter(squad__tournament_id=card.squad.tournament_id)
        .exclude(pk=card.pk)
        .select_related("squad")
    )
    same_chapter = [
        other
        for other in others
        if other.squad_id == card.squad_id and _printed_card(other.slug) != _printed_card(card.slug)
    ]
    problems = _clashes(
        card,
        same_chapter,
        lambda other, name: (
            _(
                "%(other)s, another card of this chapter, is already called “%(name)s”: choose "
                "another name; the loadout, the judge's sheet and the board tell cards apart by "
                "name."
            )
            % {"other": other.name, "name": name}
        ),
    )
    other_effects = [
        other
        for other in others
        if other.squad_id != card.squad_id
        and other.effect_code
        and card.effect_code
        and other.effect_code != card.effect_code
    ]
    elsewhere = _clashes(
        card,
        other_effects,
        lambda other, name: (
            _(
                "%(other)s, a card of another chapter with another effect, is already called "
                "“%(name)s”: choose another name; one game's board shows the cards of several "
                "chapters, so two effects cannot share a name."
            )
            % {"other": other.name, "name": name}
        ),
    )
    return {**elsewhere, **problems}


def weapon_name_problems(weapon: Weapon) -> Problems:
    """What is wrong with ``weapon``'s names (its fields as edited, its row not saved yet)."""
    return _clashes(
        weapon,
        Weapon.objects.filter(tournament_id=weapon.tournament_id).exclude(pk=weapon.pk),
        lambda other, name: (
            _(
                "%(other)s is already called “%(name)s”: choose another name; a loadout lists "
                "weapons by name."
            )
            % {"other": other.name, "name": name}
        ),
    )


def squad_field(slug: str, field: str) -> str:
    """The squads' form field of squad ``slug``'s ``field`` (``name_en``, ``name_it``,
    ``order``): the key its problems are given under."""
    return f"{slug}__{field}"


def squad_name_problems(squads: Sequence[Any]) -> Problems:
    """What is wrong with the names of the tournament's ``squads`` (all of them, as edited:
    anything with ``slug``, ``name_en`` and ``name_it``), by :func:`squad_field`. A squad may
    have one name in both languages (Ultramarines), not one another squad has: both squads
    holding it are told."""
    problems: Problems = {}
    for index, squad in enumerate(squads):
        for field in ("name_en", "name_it"):
            if not (getattr(squad, field) or "").strip():
                problems[squad_field(squad.slug, field)] = _(
                    "Give the squad a name: the draw, the seats and the standings show it."
                )
        clashes = _clashes(
            squad,
            [*squads[:index], *squads[index + 1 :]],
            lambda other, name: (
                _(
                    "Another squad is already called “%(name)s”: choose another name; players "
                    "choose and are shown their squads by name."
                )
                % {"name": name}
            ),
        )
        for clashing, problem in clashes.items():
            problems.setdefault(squad_field(squad.slug, clashing or ""), problem)
    return problems
