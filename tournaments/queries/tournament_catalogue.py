"""Between a tournament's squads, weapons and cards in the database and the pure
:class:`~tournaments.domain.catalogue.Catalogue` the loadout rules read.

A weapon marked *colour-restricted* exists in every squad colour of the tournament (each
chapter box has its own) and a squad may only take its own colour; an unrestricted weapon
(the extra-heavy special equipment) belongs to no colour.
"""

from __future__ import annotations

from contextlib import AbstractContextManager

from rules.engine.card_names import CardNames, named_cards
from tournaments.domain.catalogue import (
    DEFAULT_CARDS,
    DEFAULT_WEAPONS,
    CardSpec,
    CardUse,
    Catalogue,
    Confidence,
    SquadSpec,
    WeaponSpec,
)
from tournaments.domain.catalogue import CardKind as SpecCardKind
from tournaments.domain.catalogue import WeaponClass as SpecWeaponClass
from tournaments.models import ChapterCard, Tournament
from tournaments.queries.event_deck import event_card_names


def tournament_catalogue(tournament: Tournament) -> Catalogue:
    """The tournament's material as the pure catalogue (default commander combos). A
    tournament without weapons or chapter cards of its own uses the default catalogue's,
    as its imported documents do."""
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
        )
        or DEFAULT_WEAPONS,
        cards=tuple(
            CardSpec(
                card.slug,
                card.name_en,
                card.name_it,
                squad=card.squad.slug,
                kind=SpecCardKind(card.kind),
                use=CardUse(card.use),
                effect_code=card.effect_code,
                effect_en=card.effect_en,
                effect_it=card.effect_it,
                source=card.source,
                confidence=Confidence(card.confidence),
            )
            for card in ChapterCard.objects.filter(squad__tournament=tournament).select_related(
                "squad"
            )
        )
        or DEFAULT_CARDS,
    )


def squad_names(tournament: Tournament) -> dict[str, str]:
    """The tournament's squad names (in the active language) by slug."""
    return {squad.slug: squad.name for squad in tournament.squads.all()}


def chapter_card_names(tournament: Tournament) -> CardNames:
    """The tournament's names of its chapter cards by effect code, each as its first squad's
    deck names it (an Italian name left empty reads as the English one). Empty for a
    tournament without cards of its own: the shipped names stand, as its catalogue's."""
    names: dict[str, dict[str, str]] = {}
    for code, english, italian in (
        ChapterCard.objects.filter(squad__tournament=tournament)
        .exclude(effect_code="")
        .order_by("squad__order", "squad_id", "order", "pk")
        .values_list("effect_code", "name_en", "name_it")
    ):
        names.setdefault(code, {"en": english, "it": italian or english})
    return names


def chapters_naming_otherwise(card: ChapterCard) -> list[str]:
    """The other chapters (names, in the active language) whose card of ``card``'s effect
    the catalogue names otherwise, in either language. The board names a card by its
    effect, one way for every chapter (:func:`chapter_card_names`), so those chapters' games
    show it under a name their own deck does not give it."""
    if not card.effect_code:
        return []
    others = (
        ChapterCard.objects.filter(
            squad__tournament_id=card.squad.tournament_id, effect_code=card.effect_code
        )
        .exclude(squad_id=card.squad_id)
        .select_related("squad")
        .order_by("squad__order", "squad_id")
    )
    return list(
        dict.fromkeys(
            other.squad.name
            for other in others
            if (other.name_en, other.name_it or other.name_en)
            != (card.name_en, card.name_it or card.name_en)
        )
    )


def catalogue_words(tournament: Tournament) -> AbstractContextManager[None]:
    """A block whose engine texts (step log, panels, stipulation summaries, deck choices)
    name the chapter and event cards as the tournament's catalogue names them."""
    return named_cards(chapter_card_names(tournament), event_card_names(tournament))
