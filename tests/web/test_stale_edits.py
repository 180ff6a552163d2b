"""Two tabs, or two organisers, editing the same thing (decision 46): the later save of a
form loaded before the other one's is refused, nothing of it saved; the page shows the form
again with the other person's values where this one changed nothing, this one's where it
did, says what the other person changed, and a second save keeps both changes.

Each test plays two tabs: it reads the form from the page as a browser would (hidden
fields included), changes what a person would change, and posts it."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils.formats import date_format
from django.utils.timezone import localtime

from demo.management.commands.load_demo import CLUB_MAP
from rules.engine.units import load_rules_data
from tests.web.page_forms import form_on
from tournaments.actions.map_edits import save_map
from tournaments.models import ActivityLog, ChapterCard, Stipulation

pytestmark = pytest.mark.django_db


def opened(client, url: str, holding: str) -> dict[str, list[str]]:
    """The form holding the field ``holding`` as a tab that opened ``url`` now shows it."""
    response = client.get(url, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200
    return form_on(response.content.decode(), holding)


def post(client, url: str, form: dict[str, list[str]], **changes: str):
    return client.post(url, {**form, **{name: [value] for name, value in changes.items()}})


def catalogue_url(world) -> str:
    return reverse("tournaments:organiser_catalogue", args=[world.tournament.slug])


def test_the_refusal_names_who_saved_meanwhile_and_when(world, role_client, client):
    """Two organisers: the one refused is told who saved since the form was opened, and
    at what time, not only "in another tab or by someone else"."""
    url = catalogue_url(world)
    olga = role_client("organiser")
    tab_a = opened(olga, url, "tokens-ork")
    world.tournament.organisers.add(world.superuser)
    client.force_login(world.superuser)
    assert (
        post(client, url, opened(client, url, "tokens-ork"), **{"tokens-ork": "4"}).status_code
        == 302
    )
    saved = ActivityLog.objects.filter(tournament=world.tournament).latest("id")

    refused = post(olga, url, tab_a, **{"tokens-ork": "8"})
    assert refused.status_code == 409
    when = date_format(localtime(saved.created_at), "TIME_FORMAT")
    assert (
        f"Saved in this tournament since you opened the form: by {world.superuser} at "
        f"{when} (your own name: another tab of yours)." in refused.content.decode()
    )
    # Saved again: the refusal now remembers that save as seen, and the form saves.
    assert post(olga, url, form_on(refused.content.decode(), "tokens-ork")).status_code == 302


def test_token_values_saved_in_another_tab_are_not_lost(world, role_client):
    client = role_client("organiser")
    url = catalogue_url(world)
    tab_a = opened(client, url, "tokens-ork")
    tab_b = opened(client, url, "tokens-ork")
    assert tab_a["tokens-version"][0] and tab_a["tokens-loaded"][0]
    assert post(client, url, tab_b, **{"tokens-gretchin": "3"}).status_code == 302

    refused = post(client, url, tab_a, **{"tokens-ork": "8"})
    assert refused.status_code == 409
    world.tournament.refresh_from_db()
    assert world.tournament.data_overrides["alien_tokens"] == {"gretchin": 3}  # nothing of A's
    page = refused.content.decode()
    assert (
        "This was saved in another tab or by someone else while you were editing it: "
        "Gretchin: 1 → 3." in page
    )
    shown = form_on(page, "tokens-ork")
    assert (shown["tokens-gretchin"], shown["tokens-ork"]) == (["3"], ["8"])  # both kept

    assert client.post(url, shown).status_code == 302
    world.tournament.refresh_from_db()
    assert world.tournament.data_overrides["alien_tokens"] == {"gretchin": 3, "ork": 8}


def test_both_tabs_changing_the_same_value_keep_the_later_ones_and_say_so(world, role_client):
    client = role_client("organiser")
    url = catalogue_url(world)
    tab_a = opened(client, url, "tokens-ork")
    tab_b = opened(client, url, "tokens-ork")
    post(client, url, tab_b, **{"tokens-ork": "5"})
    refused = post(client, url, tab_a, **{"tokens-ork": "8"})
    assert refused.status_code == 409
    page = refused.content.decode()
    assert "Ork: 2 → 5; you changed it too: yours, 8, is kept" in page
    assert form_on(page, "tokens-ork")["tokens-ork"] == ["8"]


def values_url(world, section: str, item: str) -> str:
    return reverse(
        "tournaments:organiser_rules_values", args=[world.tournament.slug, section, item]
    )


def test_a_units_values_saved_in_another_tab_are_not_lost(world, role_client):
    client = role_client("organiser")
    url = values_url(world, "units", "ork")
    tab_a = opened(client, url, "armour")
    tab_b = opened(client, url, "armour")
    assert post(client, url, tab_b, armour="3").status_code == 302
    refused = post(client, url, tab_a, movement="7")
    assert refused.status_code == 409
    page = refused.content.decode()
    assert "Armour: 1 → 3" in page
    world.tournament.refresh_from_db()
    assert world.tournament.data_overrides["units"] == {"ork": {"armour": 3}}
    assert client.post(url, form_on(page, "armour")).status_code == 302
    world.tournament.refresh_from_db()
    assert world.tournament.data_overrides["units"] == {"ork": {"armour": 3, "movement": 7}}


def test_two_units_edited_in_two_tabs_never_refuse_each_other(world, role_client):
    client = role_client("organiser")
    ork, gretchin = values_url(world, "units", "ork"), values_url(world, "units", "gretchin")
    tab_a = opened(client, ork, "armour")
    tab_b = opened(client, gretchin, "armour")
    assert post(client, gretchin, tab_b, armour="1").status_code == 302
    assert post(client, ork, tab_a, armour="3").status_code == 302
    world.tournament.refresh_from_db()
    assert world.tournament.data_overrides["units"] == {
        "gretchin": {"armour": 1},
        "ork": {"armour": 3},
    }


def test_a_cards_italian_name_saved_in_another_tab_is_not_erased(world, role_client):
    card = ChapterCard.objects.get(
        squad__tournament=world.tournament, squad__slug="ultramarines", slug="bio-scanner"
    )
    client = role_client("organiser")
    url = reverse("tournaments:organiser_card", args=[world.tournament.slug, card.pk])
    tab_a = opened(client, url, "name_en")
    tab_b = opened(client, url, "name_en")
    assert post(client, url, tab_b, name_it="Bioscanner").status_code == 302
    refused = post(client, url, tab_a, confidence="confirmed")
    assert refused.status_code == 409
    page = refused.content.decode()
    assert "Italian name: – → “Bioscanner”" in page
    card.refresh_from_db()
    assert (card.name_it, card.confidence) == ("Bioscanner", "one_source")
    assert client.post(url, form_on(page, "name_en")).status_code == 302
    card.refresh_from_db()
    assert (card.name_it, card.confidence) == ("Bioscanner", "confirmed")


def test_a_weapon_saved_in_another_tab_is_not_lost(world, role_client):
    weapon = world.tournament.weapons.get(slug="melta")
    client = role_client("organiser")
    url = reverse("tournaments:organiser_weapon", args=[world.tournament.slug, weapon.pk])
    tab_a = opened(client, url, "name_en")
    tab_b = opened(client, url, "name_en")
    assert post(client, url, tab_b, name_it="Fusore").status_code == 302
    refused = post(client, url, tab_a, name_en="Melta gun")
    assert refused.status_code == 409
    assert "Italian name: “Fucile a fusione” → “Fusore”" in refused.content.decode()
    weapon.refresh_from_db()
    assert (weapon.name_en, weapon.name_it) == ("Melta", "Fusore")


def test_an_event_card_saved_in_another_tab_is_not_lost(world, role_client):
    client = role_client("organiser")
    url = reverse("tournaments:organiser_event_card", args=[world.tournament.slug, "report"])
    tab_a = opened(client, url, "name_en")
    tab_b = opened(client, url, "name_en")
    assert post(client, url, tab_b, name_en="Report!").status_code == 302
    refused = post(client, url, tab_a, name_it="Rapporto!")
    assert refused.status_code == 409
    assert "English name: “Report In” → “Report!”" in refused.content.decode()
    world.tournament.refresh_from_db()
    assert world.tournament.data_overrides["events"]["report"]["name"]["en"] == "Report!"


def stage_url(world) -> str:
    return reverse("tournaments:organiser_stage", args=[world.tournament.slug, 1])


def test_a_stages_thresholds_are_not_erased_by_a_later_save_of_its_rounds(world, role_client):
    client = role_client("organiser")
    url = stage_url(world)
    tab_a = opened(client, url, "thresholds")
    tab_b = opened(client, url, "thresholds")
    assert post(client, url, tab_b, thresholds="30, 60").status_code == 302
    refused = post(client, url, tab_a, ah_rounds="10")
    assert refused.status_code == 409
    page = refused.content.decode()
    assert "Score thresholds: – → “30, 60”" in page
    world.stage.refresh_from_db()
    assert world.stage.stipulation_params["rounds"] == 8
    assert list(world.stage.thresholds.values_list("points", flat=True)) == [30, 60]
    again = form_on(page, "thresholds")
    assert again["thresholds"] == ["30, 60"] and again["ah_rounds"] == ["10"]
    assert client.post(url, again).status_code == 302
    world.stage.refresh_from_db()
    assert world.stage.stipulation_params["rounds"] == 10
    assert sorted(world.stage.thresholds.values_list("points", flat=True)) == [30, 60]


def settings_url(world) -> str:
    return reverse(
        "tournaments:organiser_session_settings", args=[world.tournament.slug, world.session.pk]
    )


def test_a_sessions_stipulation_saved_in_another_tab_is_not_lost(world, role_client):
    client = role_client("organiser")
    url = settings_url(world)
    tab_a = opened(client, url, "stipulation_kind")
    tab_b = opened(client, url, "stipulation_kind")
    assert post(client, url, tab_b, ah_rounds="12").status_code == 302
    refused = post(client, url, tab_a, ah_event_deck="on")
    assert refused.status_code == 409
    page = refused.content.decode()
    assert "Rounds: 8 → 12" in page
    assert Stipulation.objects.get(session=world.session).params["rounds"] == 12
    again = form_on(page, "stipulation_kind")
    assert again["ah_rounds"] == ["12"] and again["ah_event_deck"] == ["on"]
    assert client.post(url, again).status_code == 302
    params = Stipulation.objects.get(session=world.session).params
    assert (params["rounds"], params["event_deck"]) == (12, True)


def test_clearing_a_stipulation_changed_meanwhile_is_refused(world, role_client):
    client = role_client("organiser")
    url = settings_url(world)
    post(client, url, opened(client, url, "stipulation_kind"), ah_rounds="9")
    clear = opened(client, url, "version")  # the clear button's form, as the page shows it
    post(client, url, opened(client, url, "stipulation_kind"), ah_rounds="12")
    clear_url = reverse(
        "tournaments:organiser_session_stipulation_clear",
        args=[world.tournament.slug, world.session.pk],
    )
    response = client.post(clear_url, clear, follow=True)
    assert "nothing was cleared" in response.content.decode()
    assert Stipulation.objects.get(session=world.session).params["rounds"] == 12


CLUB = CLUB_MAP.read_text(encoding="utf-8")


def test_a_map_saved_in_another_tab_is_not_overwritten(world, role_client):
    save_map(world.tournament, CLUB)
    client = role_client("organiser")
    url = reverse("tournaments:organiser_map", args=[world.tournament.slug, "circolo-arena"])
    tab_a = opened(client, url, "drawing")
    tab_b = opened(client, url, "drawing")
    assert "loaded" not in tab_a  # the drawing is not carried twice
    theirs = CLUB.replace("title: Club arena (demo)", "title: Theirs", 1)
    assert post(client, url, tab_b, drawing=theirs).status_code == 302
    mine = CLUB.replace("title: Club arena (demo)", "title: Mine", 1)
    refused = post(client, url, tab_a, drawing=mine)
    assert refused.status_code == 409
    page = refused.content.decode()
    assert "the form keeps what you typed" in page and "title: Mine" in page
    assert world.tournament.maps.get().drawing.count("title: Theirs") == 1
    assert client.post(url, form_on(page, "drawing")).status_code == 302
    assert "title: Mine" in world.tournament.maps.get().drawing


def test_a_map_renamed_meanwhile_keeps_the_drawing_typed(world, role_client):
    save_map(world.tournament, CLUB)
    client = role_client("organiser")
    url = reverse("tournaments:organiser_map", args=[world.tournament.slug, "circolo-arena"])
    tab_a = opened(client, url, "drawing")
    post(client, url, opened(client, url, "drawing"), drawing=CLUB.replace("circolo-arena", "x"))
    refused = post(client, url, tab_a, drawing=CLUB + "\n")
    assert refused.status_code == 409
    page = refused.content.decode()
    assert "The map circolo-arena was renamed or removed" in page
    assert "name: circolo-arena" in form_on(page, "drawing")["drawing"][0]
    assert list(world.tournament.maps.values_list("name", flat=True)) == ["x"]


def test_a_form_posted_without_its_version_still_saves(world, role_client):
    """A command, the demo or an old tab posts no version: nothing to compare."""
    values = {f"tokens-{alien}": value for alien, value in load_rules_data().alien_tokens.items()}
    response = role_client("organiser").post(catalogue_url(world), {**values, "tokens-ork": 4})
    assert response.status_code == 302
    assert ActivityLog.objects.filter(description_code="token_values_changed").exists()


def test_the_tournaments_details_saved_in_another_tab_are_not_lost(world, role_client):
    """Only the details' own fields are written: the catalogue's values saved meanwhile
    stay too."""
    client = role_client("organiser")
    url = reverse("tournaments:organiser_dashboard", args=[world.tournament.slug])
    tab_a = opened(client, url, "venue")
    tab_b = opened(client, url, "venue")
    assert post(client, url, tab_b, name="Coppa di primavera").status_code == 302
    world.tournament.refresh_from_db()
    world.tournament.data_overrides = {"alien_tokens": {"ork": 4}}
    world.tournament.save(update_fields=["data_overrides"])

    refused = post(client, url, tab_a, venue="Sala B")
    assert refused.status_code == 409
    world.tournament.refresh_from_db()
    assert (world.tournament.name, world.tournament.venue) == (
        "Coppa di primavera",
        "Circolo Ludico",
    )
    page = refused.content.decode()
    assert "editing it: Name: “Coppa BoB” → “Coppa di primavera”. Nothing of yours" in page
    shown = form_on(page, "venue")
    assert (shown["name"], shown["venue"]) == (["Coppa di primavera"], ["Sala B"])

    assert client.post(url, shown).status_code == 302
    world.tournament.refresh_from_db()
    assert (world.tournament.name, world.tournament.venue) == ("Coppa di primavera", "Sala B")
    assert world.tournament.data_overrides == {"alien_tokens": {"ork": 4}}


def test_a_players_details_saved_in_another_tab_are_not_lost(world, role_client):
    client = role_client("organiser")
    url = reverse("tournaments:organiser_player", args=[world.tournament.slug, world.player.pk])
    tab_a = opened(client, url, "nickname")
    tab_b = opened(client, url, "nickname")
    assert post(client, url, tab_b, name="Giulia Neri").status_code == 302

    refused = post(client, url, tab_a, nickname="Vipera")
    assert refused.status_code == 409
    world.player.refresh_from_db()
    assert (world.player.name, world.player.nickname) != ("Giulia Neri", "Vipera")
    assert world.player.name == "Giulia Neri"
    shown = form_on(refused.content.decode(), "nickname")
    assert (shown["name"], shown["nickname"]) == (["Giulia Neri"], ["Vipera"])

    assert client.post(url, shown).status_code == 302
    world.player.refresh_from_db()
    assert (world.player.name, world.player.nickname) == ("Giulia Neri", "Vipera")
