"""A stage's own squad preferences (only an imported document brings them; the stage's squad
draw reads them instead of the players' tournament-wide lists) are shown on the organiser's
stage page, read-only, with the players by name."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tests.factories import StageFactory
from tournaments.interchange.export import export_tournament
from tournaments.interchange.importer import import_document
from tournaments.models import SquadPreference, StageKind
from tournaments.queries.draw_inputs import StageList, stage_own_preferences

pytestmark = pytest.mark.django_db

UM, BA, IF = "ultramarines", "blood-angels", "imperial-fists"


@pytest.fixture
def organiser(world, role_client):
    return role_client("organiser")


def stage_url(tournament, number: int = 1) -> str:
    return reverse("tournaments:organiser_stage", args=[tournament.slug, number])


def section(page: str) -> str:
    match = re.search(r'<section class="card" id="stage-preferences".*?</section>', page, re.S)
    assert match, "no stage preferences on the page"
    return match.group(0)


def squad_names(tournament) -> dict[str, str]:
    return {squad.slug: squad.name for squad in tournament.squads.all()}


def test_an_imported_stage_list_shows_on_the_copys_stage_page(organiser, world):
    document = export_tournament(world.tournament)
    data = next(p for p in document["players"] if p["name"] == world.player.name)
    data["preferences"].append({"stage": 1, "choices": [BA, UM]})
    copy = import_document(document, slug="coppa-copia", organiser=world.organiser).tournament
    page = organiser.get(stage_url(copy)).content.decode()
    names = squad_names(copy)
    shown = section(page)
    assert "Squad preferences for this stage" in shown
    assert f"<strong>{world.player.display_name}</strong>" in shown
    assert f"1. {names[BA]}</span> · <span" in shown and f"2. {names[UM]}" in shown
    assert "<form" not in shown and "<select" not in shown  # read-only


def test_each_player_by_name_in_order_their_squads_by_name(organiser, world):
    stage = world.stage
    players = [seat.player for seat in world.session.seats.order_by("seat_order")]
    SquadPreference.objects.create(
        player=players[0], tournament=world.tournament, stage=stage, choices=[IF, "no-such"]
    )
    SquadPreference.objects.create(
        player=players[1], tournament=world.tournament, stage=stage, choices=[]
    )
    names = squad_names(world.tournament)
    expected = sorted(
        [
            StageList(players[0].display_name, [names[IF], "no-such"]),
            StageList(players[1].display_name, []),
        ],
        key=lambda entry: entry.player.casefold(),
    )
    assert stage_own_preferences(stage) == expected
    shown = section(organiser.get(stage_url(world.tournament)).content.decode())
    order = [shown.index(f"<strong>{entry.player}</strong>") for entry in expected]
    assert order == sorted(order)
    assert "no preferences given" in shown
    assert "2. no-such" in shown


def test_no_section_without_a_stage_list_nor_for_another_stages_list(organiser, world):
    # The tournament-wide lists (every player has one) are not the stage's.
    assert SquadPreference.objects.filter(stage__isnull=True).exists()
    page = organiser.get(stage_url(world.tournament)).content.decode()
    assert 'id="stage-preferences"' not in page
    later = StageFactory(tournament=world.tournament, number=2, kind=StageKind.SEMIFINAL)
    SquadPreference.objects.create(
        player=world.player, tournament=world.tournament, stage=later, choices=[UM]
    )
    page = organiser.get(stage_url(world.tournament)).content.decode()
    assert 'id="stage-preferences"' not in page
    assert world.player.display_name in section(
        organiser.get(stage_url(world.tournament, 2)).content.decode()
    )
