"""The roster upload on the organiser's Players page: its help says which headers (English
or Italian) and which squad spellings a file may use, the upload reads squads in either
language whatever the page's, and its errors name each column as the file wrote it and the
squads by their names in the reader's language, with their slugs."""

from __future__ import annotations

import html

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from tests.factories import TournamentFactory
from tournaments.models import Registration, SquadPreference

pytestmark = pytest.mark.django_db


@pytest.fixture
def organiser(world, role_client):
    return role_client("organiser")


@pytest.fixture
def open_tournament(world):
    """A tournament of the organiser's whose first stage is not seated: the upload is open."""
    tournament = TournamentFactory(slug="aperto")
    tournament.organisers.add(world.organiser)
    return tournament


def players_page(client, tournament, language: str) -> str:
    url = reverse("tournaments:organiser_players", args=[tournament.slug])
    return html.unescape(client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode())


def upload(client, tournament, text: str, language: str = "en"):
    url = reverse("tournaments:organiser_roster", args=[tournament.slug])
    file = SimpleUploadedFile("roster.csv", text.encode("utf-8"), content_type="text/csv")
    return client.post(url, {"file": file}, HTTP_ACCEPT_LANGUAGE=language)


def test_the_help_names_the_italian_headers_and_the_squads_in_the_pages_language(
    organiser, open_tournament
):
    english = players_page(organiser, open_tournament, "en")
    assert "<code>preference_1</code> … <code>preference_3</code>" in english
    assert "<code>nome</code>, <code>soprannome</code>, <code>e-mail</code>" in english
    assert "<code>preferenza_1</code> … <code>preferenza_3</code>" in english
    assert (
        "Ultramarines (ultramarines), Blood Angels (blood-angels), "
        "Imperial Fists (imperial-fists)" in english
    )
    italian = players_page(organiser, open_tournament, "it")
    assert (
        "Ultramarines (ultramarines), Angeli Sanguinari (blood-angels), "
        "Pugni d'Acciaio (imperial-fists)" in italian
    )


def test_squads_are_read_in_either_language_whatever_the_pages(organiser, open_tournament):
    """QA: the upload read only the squad names of the page's language."""
    text = (
        "nome;preferenza_1;preferenza_2\n"
        "Luca;Angeli Sanguinari;Blood Angels\n"
        "Mara;Pugni d'acciaio;ultramarines\n"
    )
    refused = upload(organiser, open_tournament, text)
    errors = [str(error) for error in refused.context["roster_errors"]]
    assert errors == [
        "row 2, column preferenza_2: squad 'Blood Angels' is already the choice in "
        "preferenza_1; list each squad once"
    ]
    text = (
        "nome;preferenza_1;preferenza_2\n"
        "Luca;Angeli Sanguinari;ultramarines\n"
        "Mara;Pugni d'acciaio;Ultramarines\n"
    )
    assert upload(organiser, open_tournament, text).status_code == 302
    chosen = dict(
        SquadPreference.objects.filter(tournament=open_tournament).values_list(
            "player__name", "choices"
        )
    )
    assert chosen == {
        "Luca": ["blood-angels", "ultramarines"],
        "Mara": ["imperial-fists", "ultramarines"],
    }


@pytest.mark.parametrize(
    ("language", "squads"),
    [
        ("en", "Ultramarines (ultramarines), Blood Angels (blood-angels)"),
        ("it", "Ultramarines (ultramarines), Angeli Sanguinari (blood-angels)"),
    ],
)
def test_an_unknown_squad_is_reported_at_the_column_as_written(
    organiser, open_tournament, language, squads
):
    text = "Nome;Preferenza_1\nLuca;ultramarines\nMara;Blu\nNino;\n"
    response = upload(organiser, open_tournament, text, language)
    assert response.status_code == 400
    [error] = response.context["roster_errors"]
    assert (error.row, error.column) == (3, "Preferenza_1")
    assert "'Blu'" in error.message and squads in error.message
    page = html.unescape(response.content.decode())
    assert "Preferenza_1" in page and squads in page
    assert not Registration.objects.filter(tournament=open_tournament).exists()
