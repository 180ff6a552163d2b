"""The chapter cards are named in the reader's language on every page that lists a loadout:
the player's loadout form, the judge's session sheet and its printed loadout sheet. A card
with an Italian edition's name (Fuoco!, Muoversi!, Pronto Soccorso) is named so in Italian
and by its English name in English; a card with none (Melta Bomb, Targeter) keeps its
English name in Italian too (RULES §5), until the organiser gives it one on the catalogue
page, and then that name wins on every page. The public session page names the alien
event cards of its stipulation's deck in the reader's language as well."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from rules.engine.dice import SeededDice
from tests.factories import confirm_session
from tests.web.test_organiser_catalogue import card_data
from tournaments.actions.session_setup import draw_squads
from tournaments.models import ChapterCard, Loadout, Seat

pytestmark = pytest.mark.django_db


@pytest.fixture
def seat(world) -> Seat:
    """The world's player, seated in an Ultramarines squad with a loadout holding Fire!,
    Pronto Soccorso (Medi-Kit), Melta Bomb and both Targeters."""
    draw_squads(  # seed 1 gives the world's player the Ultramarines
        world.session, SeededDice(seed=1), actor=None, expected_version=world.session.version
    )
    seat = world.session.seats.select_related("squad").get(player=world.player)
    assert seat.squad.slug == "ultramarines"
    Loadout.objects.create(
        seat=seat,
        commander_combo="bolter",
        marine_weapons=["laser-rifle", "missile-launcher", "laser-rifle", "plasma-gun"],
        order_cards=["fire"],
        equipment_cards=["medi-kit", "melta-bomb", "targeter", "targeter-2"],
        targeter_marks=["missile-launcher", "plasma-gun"],
    )
    return seat


def pages(world, seat: Seat, role_client, language: str) -> dict[str, str]:
    """The pages naming the seat's cards, in ``language``."""
    player = role_client("player")
    judge: Client = role_client("judge")
    return {
        "loadout form": player.get(
            reverse("tournaments:player_loadout", args=[seat.pk]), HTTP_ACCEPT_LANGUAGE=language
        ).content.decode(),
        "judge's sheet": judge.get(
            reverse("tournaments:judge_session", args=[world.session.pk]),
            HTTP_ACCEPT_LANGUAGE=language,
        ).content.decode(),
        "printed loadouts": judge.get(
            reverse("tournaments:judge_print_loadouts", args=[world.session.pk]),
            HTTP_ACCEPT_LANGUAGE=language,
        ).content.decode(),
    }


@pytest.mark.parametrize(
    ("language", "named", "not_named", "in_the_form"),
    [
        # Melta Bomb and Targeter have no Italian edition's name: English in Italian too.
        (
            "it",
            ("Fuoco!", "Pronto Soccorso", "Melta Bomb", "Targeter"),
            ("Fire!", "Medi-Kit"),
            ("Muoversi!", "Targeter (copia 2)"),
        ),
        (
            "en",
            ("Fire!", "Medi-Kit", "Melta Bomb", "Targeter"),
            ("Fuoco!", "Pronto Soccorso"),
            ("Move It!", "Targeter (copy 2)"),
        ),
    ],
)
def test_the_cards_are_named_in_the_readers_language_where_an_edition_name_is_known(
    world, seat, role_client, language, named, not_named, in_the_form
):
    shown = pages(world, seat, role_client, language)
    for page, html in shown.items():
        for name in named:
            assert name in html, (page, name)
        for name in not_named:
            assert name not in html, (page, name)
    for name in in_the_form:  # a card not chosen, and the second copy named apart
        assert name in shown["loadout form"], name


def test_a_name_the_organiser_gives_a_card_wins_on_every_page(world, seat, role_client):
    organiser = role_client("organiser")
    for slug, changes in (
        ("melta-bomb", {"name_it": "Bomba Melta"}),
        ("medi-kit", {"name_it": "Kit Medico", "name_en": "Field Kit"}),
    ):
        card = ChapterCard.objects.get(squad=seat.squad, slug=slug)
        url = reverse("tournaments:organiser_card", args=[world.tournament.slug, card.pk])
        assert organiser.post(url, card_data(card, **changes)).status_code == 302

    for page, html in pages(world, seat, role_client, "it").items():
        assert "Bomba Melta" in html and "Kit Medico" in html, page
        assert "Melta Bomb" not in html and "Pronto Soccorso" not in html, page
    for page, html in pages(world, seat, role_client, "en").items():
        assert "Melta Bomb" in html and "Field Kit" in html, page
        assert "Bomba Melta" not in html and "Medi-Kit" not in html, page


def test_the_public_session_page_names_the_decks_event_cards_in_the_readers_language(
    world, role_client
):
    stage = world.session.stage
    stage.stipulation_kind = "alien_hunt"
    stage.stipulation_params = {"rounds": 8, "event_deck": True, "event_cards": ["report"]}
    stage.save()
    url = reverse("tournaments:session", args=[world.tournament.slug, world.session.pk])
    visitor = role_client("anonymous")
    italian = visitor.get(url, HTTP_ACCEPT_LANGUAGE="it").content.decode()
    english = visitor.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "A Rapporto" in italian and "Report In" not in italian
    assert "Report In" in english and "A Rapporto" not in english


@pytest.mark.parametrize(
    ("language", "listed"),
    [("it", "Targeter, Targeter (copia 2)"), ("en", "Targeter, Targeter (copy 2)")],
)
def test_every_page_listing_a_loadout_names_a_second_copy_as_the_loadout_form_does(
    world, seat, role_client, language, listed
):
    """Both Targeters are named apart wherever the loadout is listed, as the player's form
    names them (:func:`tournaments.domain.catalogue.copy_names`), not "Targeter, Targeter";
    the player's public page too, once the session's result is confirmed."""
    confirm_session(world.session, lambda seat: 1)
    shown = pages(world, seat, role_client, language)
    shown["public player page"] = (
        role_client("anonymous")
        .get(
            reverse("tournaments:player", args=[world.tournament.slug, seat.player_id]),
            HTTP_ACCEPT_LANGUAGE=language,
        )
        .content.decode()
    )
    for page, html in shown.items():
        assert listed in html, page
        assert "Targeter, Targeter," not in html and "Targeter, Targeter<" not in html, page
