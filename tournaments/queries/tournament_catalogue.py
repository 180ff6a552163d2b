"""Between a tournament's squads, weapons and cards in the database and the pure
:class:`~tournaments.domain.catalogue.Catalogue` the loadout rules read.

A weapon marked *colour-restricted* exists in every squad colour of the tournament (each
chapter box has its own) and a squad may only take its own colour; an unrestricted weapon
(the extra-heavy special equipment) belongs to no colour.
"""

from __future__ import annotations

from collections.abc import Mapping
from contextlib import AbstractContextManager

from rules.engine.card_names import SHIPPED_NAMES
from rules.engine.catalogue_classes import weapon_key
from rules.engine.figure_names import WEAPON_NAMES
from rules.engine.naming import Names, Naming, named
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


def catalogue_weapon_classes(tournament: Tournament) -> dict[str, str]:
    """The class the tournament's catalogue gives each of its weapons, by slug (none when
    it has no weapons of its own: the default catalogue's are the rules data's). One
    query."""
    return dict(tournament.weapons.values_list("slug", "weapon_class"))


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


def chapters_card_names(tournament: Tournament) -> dict[str, dict[str, dict[str, str]]]:
    """Each squad's names of its chapter cards (by squad slug, squads in their order) by
    effect code, as its own deck names them (a card printed twice: as its first copy; an
    Italian name left empty reads as the English one). Empty for a tournament without cards
    of its own: the shipped names stand, as its catalogue's."""
    chapters: dict[str, dict[str, dict[str, str]]] = {}
    for squad, code, english, italian in (
        ChapterCard.objects.filter(squad__tournament=tournament)
        .exclude(effect_code="")
        .order_by("squad__order", "squad_id", "order", "pk")
        .values_list("squad__slug", "effect_code", "name_en", "name_it")
    ):
        chapters.setdefault(squad, {}).setdefault(code, {"en": english, "it": italian or english})
    return chapters


def effect_names(tournament: Tournament, squad: str | None) -> dict[str, dict[str, str]]:
    """Each chapter card effect the board knows (by effect code) named by the card it was
    written for (``medi_kit``: Medi-Kit's) as the tournament names that card: as
    ``squad``'s deck does, else as the first chapter having the card does, else by its
    shipped name; in both languages (``{"en": ..., "it": ...}``, an Italian name left empty
    reading as the English one). The organiser's card form offers the effects by these
    names and the activity log writes an effect change with them."""
    written_for: dict[str, str] = {}
    for card in DEFAULT_CARDS:
        written_for.setdefault(card.effect_code, card.slug)
    found: dict[str, dict[str, str]] = {}
    for owner, slug, english, italian in (
        ChapterCard.objects.filter(squad__tournament=tournament, slug__in=set(written_for.values()))
        .order_by("squad__order", "squad_id")
        .values_list("squad__slug", "slug", "name_en", "name_it")
    ):
        if owner == squad or slug not in found:
            found[slug] = {"en": english, "it": italian or english}
    return {
        code: found.get(slug) or dict(SHIPPED_NAMES.get(code) or {"en": code, "it": code})
        for code, slug in written_for.items()
    }


def _by_effect(chapters: Mapping[str, Names]) -> dict[str, Mapping[str, str]]:
    """Each effect's names as the first chapter having it names it: for a text that names a
    card with nobody's chapter to read it in."""
    names: dict[str, Mapping[str, str]] = {}
    for cards in chapters.values():
        for code, entry in cards.items():
            names.setdefault(code, entry)
    return names


def weapon_names(tournament: Tournament) -> dict[str, dict[str, str]]:
    """The names the tournament's catalogue gives the engine's weapons (by engine key) where
    it renamed them, in either language (an Italian name left empty reads as the English
    one). A weapon named as shipped keeps the engine's words, lower case inside a sentence
    ("fires the laser rifle"); a weapon the engine does not know is left out."""
    shipped = {weapon.slug: weapon for weapon in DEFAULT_WEAPONS}
    names: dict[str, dict[str, str]] = {}
    for slug, english, italian in tournament.weapons.values_list("slug", "name_en", "name_it"):
        key = weapon_key(slug)
        if key is None:
            continue
        default = shipped[slug]
        given = {"en": english, "it": italian or english}
        renamed = {
            "en": english.casefold() != default.name_en.casefold(),
            "it": given["it"].casefold() != default.name_it.casefold(),
        }
        if any(renamed.values()):
            names[key] = {
                lang: given[lang] if renamed[lang] else WEAPON_NAMES[key][lang] for lang in given
            }
    return names


def catalogue_naming(tournament: Tournament, owners: Mapping[str, str] | None = None) -> Naming:
    """The tournament's names for the engine's texts: its chapter cards, each chapter's as
    its own deck names them, its event cards and its weapons. ``owners``: the chapter (squad
    slug) of each player's and figure's id in the games rendered, so that a text names a
    player's card as their chapter does; without them every card is named by its effect
    alone, as its first squad's deck names it."""
    chapters = chapters_card_names(tournament)
    return Naming(
        chapter_cards=_by_effect(chapters),
        chapters=chapters,
        owners=owners or {},
        event_cards=event_card_names(tournament),
        weapons=weapon_names(tournament),
    )


def catalogue_words(
    tournament: Tournament, owners: Mapping[str, str] | None = None
) -> AbstractContextManager[None]:
    """A block whose engine texts (step log, panels, stipulation summaries, deck choices)
    name the chapter and event cards and the weapons as the tournament's catalogue names
    them (:func:`catalogue_naming`)."""
    return named(catalogue_naming(tournament, owners))
