"""The organiser sees where they choose a map (the stage page) or a stipulation (a session's
page) whether the two fit (decision 45): Catch the Flag on a map without enough flag spots
is refused with the maps that would do, special equipment off the map's blip markers too;
a stipulation with aliens on a map without any is saved with a warning, which the page and
the stage's checklist keep showing."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tournaments.models import Stipulation, StipulationKind

pytestmark = pytest.mark.django_db


@pytest.fixture
def organiser(world, role_client):
    return role_client("organiser")


def stage_url(world) -> str:
    return reverse("tournaments:organiser_stage", args=[world.tournament.slug, 1])


def session_url(world) -> str:
    return reverse(
        "tournaments:organiser_session_settings", args=[world.tournament.slug, world.session.pk]
    )


def stage_data(kind: str, map_name: str, **params: str) -> dict[str, str]:
    return {"stipulation_kind": kind, "map_name": map_name, **params}


def test_catch_the_flag_on_a_map_without_flag_spots_is_refused_at_the_map(organiser, world):
    response = organiser.post(
        stage_url(world), stage_data("catch_the_flag", "tpk-ring", ctf_flag_value="30")
    )
    assert response.status_code == 400
    [message] = response.context["form"].errors["map_name"]
    assert message.startswith("The map “Ring (TPK) (tpk-ring)” has no flag spot")
    assert "Maps with enough flag spots: Relay station (Catch the Flag) (flag-relay)." in message
    assert 'id="id_map_name_error"' in response.content.decode()
    world.stage.refresh_from_db()
    assert world.stage.stipulation_kind == StipulationKind.ALIEN_HUNT  # nothing saved


def test_more_flags_than_the_maps_spots_are_refused_and_fewer_flags_fit(organiser, world):
    one_per_squad = organiser.post(
        stage_url(world), stage_data("catch_the_flag", "reference", ctf_flag_value="30")
    )
    assert one_per_squad.status_code == 400
    [message] = one_per_squad.context["form"].errors["map_name"]
    assert "places 3 flags here, but the map “Reference hulk (reference)” has only 1" in message
    one_for_all = organiser.post(
        stage_url(world),
        stage_data("catch_the_flag", "reference", ctf_flag_value="30", ctf_flags="one_for_all"),
    )
    assert one_for_all.status_code == 302
    world.stage.refresh_from_db()
    assert (world.stage.map_name, world.stage.stipulation_params["flags"]) == (
        "reference",
        "one_for_all",
    )


def test_alien_hunt_on_a_map_without_aliens_is_saved_with_a_warning_in_view(organiser, world):
    response = organiser.post(
        stage_url(world), stage_data("alien_hunt", "tpk-ring", ah_rounds="8"), follow=True
    )
    assert response.status_code == 200
    world.stage.refresh_from_db()
    assert (world.stage.stipulation_kind, world.stage.map_name) == ("alien_hunt", "tpk-ring")
    shown = [(m.level_tag, str(m)) for m in response.context["messages"]]
    assert ("success", "Stage saved.") in shown
    warning = next(text for level, text in shown if level == "warning")
    assert warning.startswith("The map “Ring (TPK) (tpk-ring)” has no alien marker")
    # The dashboard's checklist names the sessions; the stage page shows it by the map.
    checks = {item.code: item for item in response.context["checklist"].items}
    assert checks["map"].message == f"Sessions 1, 2, 3: {warning}"
    assert not checks["map"].blocking
    page = organiser.get(stage_url(world)).content.decode()
    assert 'id="map-problem"' in page and "so no alien will appear" in page
    organiser.post(stage_url(world), stage_data("alien_hunt", "hunt-derelict", ah_rounds="8"))
    assert 'id="map-problem"' not in organiser.get(stage_url(world)).content.decode()


def test_special_equipment_off_the_maps_blip_markers_is_refused_at_the_map(organiser, world):
    """QA: blips hiding special equipment at 99,99 saved, and the judge learnt it only when
    starting the game at the table."""
    response = organiser.post(
        stage_url(world),
        stage_data("alien_hunt", "hunt-derelict", ah_rounds="8", equipment_melta="99,99"),
    )
    assert response.status_code == 400
    [message] = response.context["form"].errors["map_name"]
    assert message.startswith("Square 99,99 is to hide special equipment, but it is no alien")
    assert "Choose among its blip markers:" in message
    world.stage.refresh_from_db()
    assert not world.stage.stipulation_params.get("equipment_blips")


def test_a_sessions_own_catch_the_flag_is_refused_on_its_stages_map(organiser, world):
    world.stage.map_name = "tpk-ring"
    world.stage.save()
    response = organiser.post(
        session_url(world), {"stipulation_kind": "catch_the_flag", "ctf_flag_value": "30"}
    )
    assert response.status_code == 400
    [message] = response.context["stipulation_form"].errors["stipulation_kind"]
    assert message.startswith("The map “Ring (TPK) (tpk-ring)” has no flag spot")
    assert message.endswith("This session's own map is chosen under “Map”.")
    assert not Stipulation.objects.filter(session=world.session).exists()


def test_a_sessions_own_alien_hunt_on_a_map_without_aliens_is_saved_and_warned(organiser, world):
    world.stage.map_name = "tpk-ring"
    world.stage.stipulation_kind = StipulationKind.TPK
    world.stage.stipulation_params = {}
    world.stage.save()
    assert 'id="map-problem"' not in organiser.get(session_url(world)).content.decode()
    response = organiser.post(
        session_url(world), {"stipulation_kind": "alien_hunt", "ah_rounds": "8"}, follow=True
    )
    assert Stipulation.objects.get(session=world.session).kind == StipulationKind.ALIEN_HUNT
    page = response.content.decode()
    assert 'id="map-problem"' in page and "has no alien marker" in page
