"""The organiser names the squads and sets the squad order on the catalogue page (decision
59): the order until the first squad draw, the names any time, each name one squad's, a
form loaded before another save refused (409), and the draw rolling in the new order."""

from __future__ import annotations

import pytest
from django.urls import reverse

from rules.engine.dice import SeededDice
from tests.web.page_forms import form_on
from tests.web.test_stale_edits import opened, post
from tournaments.actions.catalogue_edits import CatalogueEditError
from tournaments.actions.optimistic_lock import StaleEditError
from tournaments.actions.session_setup import draw_squads
from tournaments.actions.squad_edits import save_squads
from tournaments.domain.draw import squad_draw
from tournaments.models import ActivityLog, SquadPreference
from tournaments.queries.activity_descriptions import entry_description
from tournaments.queries.draw_inputs import draw_players
from tournaments.queries.edit_versions import squads_version
from tournaments.queries.squad_order import squad_order_fixed

pytestmark = pytest.mark.django_db

NEW_ORDER = ["imperial-fists", "ultramarines", "blood-angels"]


def catalogue_url(world) -> str:
    return reverse("tournaments:organiser_catalogue", args=[world.tournament.slug])


def squads_url(world) -> str:
    return reverse("tournaments:organiser_squads", args=[world.tournament.slug])


def places(order: list[str]) -> dict[str, str]:
    return {f"squads-{slug}__order": str(place) for place, slug in enumerate(order, start=1)}


def drawn(world) -> None:
    draw_squads(world.session, SeededDice(seed=3), expected_version=world.session.version)


def test_the_action_saves_names_and_order_and_logs_them(world):
    version = squads_version(world.tournament.squads.order_by("order"))
    names = {"ultramarines": ("Ultramarines", "Ultramarini")}
    changes = save_squads(
        world.tournament, names, NEW_ORDER, actor=world.organiser, expected_version=version
    )
    assert world.tournament.squad_order == NEW_ORDER
    assert world.tournament.squads.get(slug="ultramarines").name_it == "Ultramarini"
    assert [change[0] for change in changes] == ["name_it", "order"]
    entry = ActivityLog.objects.filter(tournament=world.tournament).latest("pk")
    assert entry.description_code == "squads_changed"
    text = entry_description(entry)
    assert "Ultramarini" in text and "Squad order" in text
    assert "Imperial Fists, Ultramarines, Blood Angels" in text


def test_the_action_refuses_a_new_order_after_the_first_draw_but_not_new_names(world):
    drawn(world)
    assert squad_order_fixed(world.tournament)
    before = world.tournament.squad_order
    with pytest.raises(CatalogueEditError, match="can no longer change"):
        save_squads(world.tournament, {}, NEW_ORDER, actor=world.organiser)
    assert world.tournament.squad_order == before
    save_squads(
        world.tournament,
        {"blood-angels": ("Blood Angels", "Angeli Sanguinari")},
        before,
        actor=world.organiser,
    )
    assert world.tournament.squads.get(slug="blood-angels").name_it == "Angeli Sanguinari"


def test_the_action_refuses_blank_and_taken_names_and_a_stale_version(world):
    with pytest.raises(CatalogueEditError) as refused:
        save_squads(
            world.tournament, {"ultramarines": ("Blood Angels", " ")}, actor=world.organiser
        )
    assert set(refused.value.problems) == {
        "ultramarines__name_en",
        "ultramarines__name_it",
        "blood-angels__name_en",
    }
    with pytest.raises(StaleEditError):
        save_squads(
            world.tournament, {}, NEW_ORDER, actor=world.organiser, expected_version="stale"
        )
    assert world.tournament.squad_order != NEW_ORDER


def test_the_form_saves_the_order_and_the_draw_rolls_in_it(world, role_client):
    client = role_client("organiser")
    form = opened(client, catalogue_url(world), "squads-ultramarines__order")
    response = post(client, squads_url(world), form, **places(NEW_ORDER))
    assert response.status_code == 302
    assert world.tournament.squad_order == NEW_ORDER
    SquadPreference.objects.filter(tournament=world.tournament).update(choices=[])
    expected = squad_draw(
        NEW_ORDER, draw_players([world.session])[world.session.pk], SeededDice(seed=3)
    )
    result = draw_squads(world.session, SeededDice(seed=3), expected_version=world.session.version)
    assert result.assignments == expected.assignments


def test_the_form_refuses_two_squads_in_one_place_and_a_taken_name(world, role_client):
    client = role_client("organiser")
    form = opened(client, catalogue_url(world), "squads-ultramarines__order")
    response = post(
        client,
        squads_url(world),
        form,
        **{
            "squads-ultramarines__order": "2",
            "squads-blood-angels__order": "2",
            "squads-imperial-fists__name_it": "ultramarines",
        },
    )
    assert response.status_code == 400
    html = response.content.decode()
    assert "its own place in the order" in html
    assert "Another squad is already called “ultramarines”" in html


def test_after_the_draw_the_form_shows_the_order_read_only_and_refuses_a_posted_one(
    world, role_client
):
    client = role_client("organiser")
    loaded = opened(client, catalogue_url(world), "squads-ultramarines__order")
    drawn(world)
    html = client.get(catalogue_url(world), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "The squad order is fixed: a squad draw was made" in html
    assert 'name="squads-ultramarines__order"' in html.split('id="squads"')[1].split("</form>")[0]
    assert "disabled" in html.split('name="squads-ultramarines__order"')[1].split(">")[0]
    response = post(client, squads_url(world), loaded, **places(NEW_ORDER))
    assert response.status_code == 400
    assert "can no longer change" in response.content.decode()
    assert world.tournament.squad_order != NEW_ORDER
    renamed = form_on(html, "squads-ultramarines__name_it")
    response = post(
        client, squads_url(world), renamed, **{"squads-ultramarines__name_it": "Ultramarini"}
    )
    assert response.status_code == 302
    assert world.tournament.squads.get(slug="ultramarines").name_it == "Ultramarini"


def test_a_form_loaded_before_another_save_is_refused_with_409(world, role_client):
    client = role_client("organiser")
    tab_a = opened(client, catalogue_url(world), "squads-ultramarines__order")
    tab_b = opened(client, catalogue_url(world), "squads-ultramarines__order")
    assert (
        post(
            client, squads_url(world), tab_b, **{"squads-ultramarines__name_it": "Ultramarini"}
        ).status_code
        == 302
    )
    refused = post(client, squads_url(world), tab_a, **places(NEW_ORDER))
    assert refused.status_code == 409
    assert world.tournament.squad_order != NEW_ORDER
    again = form_on(refused.content.decode(), "squads-ultramarines__order")
    assert again["squads-ultramarines__name_it"] == ["Ultramarini"]
    assert post(client, squads_url(world), again).status_code == 302
    assert world.tournament.squad_order == NEW_ORDER


def test_a_blank_name_and_a_taken_one_are_said_together(world, role_client):
    client = role_client("organiser")
    form = opened(client, catalogue_url(world), "squads-ultramarines__order")
    changes = {"squads-ultramarines__name_it": "", "squads-imperial-fists__name_en": "BLOOD ANGELS"}
    response = post(client, squads_url(world), form, **changes)
    assert response.status_code == 400
    html = response.content.decode()
    assert "Give the squad a name." in html
    assert "Another squad is already called “BLOOD ANGELS”" in html
