"""The naming table a tournament's catalogue gives the engine's texts: each chapter's cards
as its own deck names them, by effect alone where nobody's chapter is known, and the
weapons the organiser renamed (one name each, the catalogue's)."""

from __future__ import annotations

import pytest

from rules.engine.card_names import chapter_card_name
from rules.engine.figure_names import weapon_name
from rules.engine.narration import format_param
from tests.factories import TournamentFactory
from tournaments.models import ChapterCard, Weapon
from tournaments.queries.tournament_catalogue import (
    catalogue_naming,
    catalogue_words,
    weapon_names,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def tournament():
    return TournamentFactory()


def test_a_weapon_named_as_shipped_keeps_the_engines_words(tournament):
    assert weapon_names(tournament) == {}
    # only the case changed: still the shipped name
    tournament.weapons.filter(slug="bolter").update(name_en="BOLTER")
    assert weapon_names(tournament) == {}


def test_a_renamed_weapon_is_named_as_the_catalogue_names_it_in_that_language(tournament):
    tournament.weapons.filter(slug="missile-launcher").update(name_en="Cyclone Launcher")
    tournament.weapons.filter(slug="melta").update(name_it="Fusore")
    assert weapon_names(tournament) == {
        "missile_launcher": {"en": "Cyclone Launcher", "it": "lanciarazzi"},
        "melta": {"en": "melta", "it": "Fusore"},
    }
    with catalogue_words(tournament):
        assert format_param("weapon", "missile_launcher", "en") == "Cyclone Launcher"
        assert weapon_name("melta", "it") == "Fusore"
        assert format_param("item", "melta", "it") == "Fusore"  # found under a blip too
    assert weapon_name("melta", "it") == "fucile a fusione"


def test_a_weapon_the_engine_does_not_know_is_left_out(tournament):
    Weapon.objects.create(
        tournament=tournament,
        slug="storm-bolter",
        name_en="Storm bolter",
        name_it="Requiem tempesta",
        weapon_class="light",
    )
    assert weapon_names(tournament) == {}


def test_each_chapter_names_its_own_card_and_the_first_squad_names_it_for_nobody(tournament):
    ChapterCard.objects.filter(
        squad__tournament=tournament, squad__slug="blood-angels", effect_code="melta_bomb"
    ).update(name_en="Krak Charge", name_it="")
    naming = catalogue_naming(tournament, {"p2": "blood-angels", "p1": "ultramarines"})
    assert naming.chapters["blood-angels"]["melta_bomb"] == {
        "en": "Krak Charge",
        "it": "Krak Charge",
    }
    with catalogue_words(tournament, {"p2": "blood-angels", "p1": "ultramarines"}):
        assert chapter_card_name("melta_bomb", "it", "p2") == "Krak Charge"
        assert chapter_card_name("melta_bomb", "en", "p1") == "Melta Bomb"
        assert chapter_card_name("melta_bomb", "en") == "Melta Bomb"  # the Ultramarines'
