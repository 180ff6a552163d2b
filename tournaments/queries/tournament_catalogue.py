"""Between a tournament's squads, weapons and cards in the database and the pure
:class:`~tournaments.domain.catalogue.Catalogue` the loadout rules read.

A weapon marked *colour-restricted* exists in every squad colour of the tournament (each
chapter box has its own) and a squad may only take its own colour; an unrestricted weapon
(the extra-heavy special equipment) belongs to no colour.
"""

from __future__ import annotations

from tournaments.caching import generations
from tournaments.domain.catalogue import (
    DEFAULT_CATALOGUE,
    CardSpec,
    Catalogue,
    SquadSpec,
    WeaponSpec,
)
from tournaments.domain.catalogue import CardKind as SpecCardKind
from tournaments.domain.catalogue import WeaponClass as SpecWeaponClass
from tournaments.models import ChapterCard, Squad, Tournament, Weapon


def install_catalogue(tournament: Tournament, catalogue: Catalogue = DEFAULT_CATALOGUE) -> None:
    """Create the catalogue's squads, weapons and chapter cards the tournament lacks.

    Existing rows (possibly edited by the organiser) are left as they are.
    """
    have = set(tournament.squads.values_list("slug", flat=True))
    Squad.objects.bulk_create(
        Squad(
            tournament=tournament,
            slug=spec.slug,
            name_en=spec.name_en,
            name_it=spec.name_it,
            colour=spec.colour,
            order=order,
        )
        for order, spec in enumerate(catalogue.squads)
        if spec.slug not in have
    )
    have = set(tournament.weapons.values_list("slug", flat=True))
    Weapon.objects.bulk_create(
        Weapon(
            tournament=tournament,
            slug=spec.slug,
            name_en=spec.name_en,
            name_it=spec.name_it,
            weapon_class=spec.weapon_class.value,
            colour_restricted=bool(spec.colours),
        )
        for spec in catalogue.weapons
        if spec.slug not in have
    )
    squads = {squad.slug: squad for squad in tournament.squads.all()}
    have_cards = set(
        ChapterCard.objects.filter(squad__tournament=tournament).values_list("squad__slug", "slug")
    )
    ChapterCard.objects.bulk_create(
        ChapterCard(
            squad=squads[spec.squad],
            slug=spec.slug,
            name_en=spec.name_en,
            name_it=spec.name_it,
            kind=spec.kind.value,
            text=spec.source,
            order=order,
        )
        for order, spec in enumerate(catalogue.cards)
        if spec.squad in squads and (spec.squad, spec.slug) not in have_cards
    )
    # bulk_create sends no save signals.
    generations.mark_changed(value=tournament.pk)


def tournament_catalogue(tournament: Tournament) -> Catalogue:
    """The tournament's material as the pure catalogue (default commander combos)."""
    squads = list(tournament.squads.order_by("order", "pk"))
    colours = frozenset(squad.colour for squad in squads)
    return Catalogue(
        squads=tuple(
            SquadSpec(squad.slug, squad.name_en, squad.name_it, colour=squad.colour)
            for squad in squads
        ),
        weapons=tuple(
            WeaponSpec(
                weapon.slug,
                weapon.name_en,
                weapon.name_it,
                weapon_class=SpecWeaponClass(weapon.weapon_class),
                colours=colours if weapon.colour_restricted else frozenset(),
            )
            for weapon in tournament.weapons.all()
        ),
        cards=tuple(
            CardSpec(
                card.slug,
                card.name_en,
                card.name_it,
                squad=card.squad.slug,
                kind=SpecCardKind(card.kind),
            )
            for card in ChapterCard.objects.filter(squad__tournament=tournament).select_related(
                "squad"
            )
        ),
    )
