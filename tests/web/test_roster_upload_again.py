"""The organiser uploads the roster again with late sign-ups: the players already
registered are left out and counted in the success message, only the new ones saved."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from tests.factories import TournamentFactory
from tournaments.actions.registration import NewPlayer, register_player
from tournaments.models import ActivityLog, Registration

pytestmark = pytest.mark.django_db

MORNING = "Nome;Soprannome;E-mail\nNicola Bruno;Nico;nicola@example.com\n"


@pytest.fixture
def organiser(world, role_client):
    return role_client("organiser")


@pytest.fixture
def open_tournament(world):
    tournament = TournamentFactory(slug="aperto")
    tournament.organisers.add(world.organiser)
    register_player(tournament, NewPlayer("Nicola Bruno", "Nico", "nicola@example.com"))
    return tournament


def upload(client, tournament, text: str, language: str = "en"):
    url = reverse("tournaments:organiser_roster", args=[tournament.slug])
    file = SimpleUploadedFile("roster.csv", text.encode("utf-8"), content_type="text/csv")
    return client.post(url, {"file": file}, HTTP_ACCEPT_LANGUAGE=language, follow=True)


def test_the_morning_list_plus_late_sign_ups_registers_the_late_ones(organiser, open_tournament):
    response = upload(organiser, open_tournament, MORNING + "Sara Galli;;\nUgo Rizzi;Ugo;\n")
    assert [str(m) for m in response.context["messages"]] == [
        "2 players registered from the file. 1 player of the file was already registered "
        "and was left as is."
    ]
    registrations = Registration.objects.filter(tournament=open_tournament).order_by("number")
    assert [r.player.name for r in registrations] == ["Nicola Bruno", "Sara Galli", "Ugo Rizzi"]


def test_a_file_of_registered_players_only_saves_and_logs_nothing(organiser, open_tournament):
    logged = ActivityLog.objects.count()
    response = upload(organiser, open_tournament, MORNING, "it")
    assert response.redirect_chain
    assert Registration.objects.filter(tournament=open_tournament).count() == 1
    assert ActivityLog.objects.count() == logged


def test_the_same_name_with_other_details_is_refused(organiser, open_tournament):
    response = upload(
        organiser, open_tournament, "Nome;E-mail\nNicola Bruno;altro@example.com\nSara;\n"
    )
    assert response.status_code == 400
    assert [str(error) for error in response.context["roster_errors"]] == [
        "row 2, column Nome: 'Nicola Bruno' is already registered with other details "
        "(E-mail): correct the row or remove it"
    ]
    assert Registration.objects.filter(tournament=open_tournament).count() == 1
