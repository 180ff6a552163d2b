"""A whole tournament out, in and gone from the organiser's pages (no command line, no
admin): the document downloaded, a document brought in as a new tournament of the
importer's (every problem listed with its path when it cannot be, nothing saved then), a
tournament deleted once its short name is typed."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import timezone, translation

from tests.factories import TournamentFactory
from tests.web.test_organiser_maps import CLUB
from tournaments.actions.map_edits import save_map
from tournaments.actions.staff import allow_creating_tournaments
from tournaments.interchange.document import dumps
from tournaments.interchange.export import export_tournament
from tournaments.models import ActivityLog, Player, Registration, Tournament, TournamentMap
from tournaments.queries.activity_descriptions import entry_description

pytestmark = pytest.mark.django_db

IMPORT = reverse("tournaments:tournament_import")


def upload(document, name="coppa.json") -> SimpleUploadedFile:
    text = document if isinstance(document, str) else dumps(document)
    return SimpleUploadedFile(name, text.encode("utf-8"), content_type="application/json")


def test_the_organiser_downloads_the_whole_tournament(world, role_client):
    url = reverse("tournaments:organiser_export", args=[world.tournament.slug])
    response = role_client("organiser").get(url)
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json; charset=utf-8"
    day = timezone.localdate().strftime("%Y%m%d")
    assert response["Content-Disposition"] == f'attachment; filename="bob-coppa-{day}.json"'
    assert json.loads(response.content) == export_tournament(world.tournament)
    dashboard = role_client("organiser").get(
        reverse("tournaments:organiser_dashboard", args=[world.tournament.slug])
    )
    assert url in dashboard.content.decode()


def test_a_document_becomes_a_new_tournament_of_the_importers(world, role_client):
    document = export_tournament(world.tournament)
    allow_creating_tournaments("judge")  # as for creating a tournament (decision 60)
    client = role_client("judge")
    response = client.post(IMPORT, {"file": upload(document), "slug": "coppa-2"})
    assert response.status_code == 302
    assert response["Location"] == reverse("tournaments:organiser_dashboard", args=["coppa-2"])
    imported = Tournament.objects.get(slug="coppa-2")
    assert imported.registrations.count() == 9 and imported.stages.count() == 1
    assert set(imported.organisers.values_list("username", flat=True)) == {
        "organiser",
        "judge",
    }
    entry = ActivityLog.objects.filter(tournament=imported).latest("pk")
    assert entry.actor == world.judge
    with translation.override("it"):
        assert entry_description(entry) == "torneo importato da un documento"
    page = client.get(response["Location"], HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Tournament Coppa BoB imported: 9 players, 1 stage." in page


def test_a_refused_document_lists_every_problem_and_saves_nothing(world, role_client):
    document = export_tournament(world.tournament)  # its slug is taken here
    document["players"][0]["email"] = "not an address"
    response = role_client("organiser").post(
        IMPORT, {"file": upload(document)}, HTTP_ACCEPT_LANGUAGE="en"
    )
    assert response.status_code == 400
    html = response.content.decode()
    assert "2 problems found: nothing was imported" in html
    assert "$.tournament.slug" in html and "$.players[0].email" in html
    assert Tournament.objects.count() == 1


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"{not json", "the file is not valid JSON at line 1, column 2: a key in double quotes"),
        ("città".encode("latin-1"), "The file is not UTF-8 text"),
    ],
)
def test_a_file_that_is_no_document_says_what_it_is(world, role_client, content, message):
    file = SimpleUploadedFile("x.json", content)
    response = role_client("organiser").post(IMPORT, {"file": file}, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400
    assert message in response.content.decode()
    assert Tournament.objects.count() == 1


def test_the_import_page_is_linked_from_the_organisers_home(world, role_client):
    html = role_client("organiser").get(reverse("tournaments:organiser_home")).content.decode()
    assert f'href="{IMPORT}"' in html


def test_the_organiser_deletes_a_tournament_after_typing_its_short_name(world, role_client):
    other = TournamentFactory(name="Altro torneo", slug="altro")
    shared = world.player  # also entered the other tournament: kept
    Registration.objects.create(tournament=other, player=shared, number=1)
    alone = world.tournament.registrations.exclude(player=shared).first().player
    save_map(world.tournament, CLUB)
    url = reverse("tournaments:organiser_delete", args=[world.tournament.slug])
    client = role_client("organiser")
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "it is gone for good" in page and "Download the tournament" in page
    refused = client.post(url, {"confirmation": "Coppa BoB"}, HTTP_ACCEPT_LANGUAGE="en")
    assert refused.status_code == 400
    assert "Type the tournament&#x27;s short name, coppa, exactly to delete it." in (
        refused.content.decode()
    )
    assert Tournament.objects.filter(slug="coppa").exists()
    done = client.post(url, {"confirmation": " coppa "})
    assert done["Location"] == reverse("tournaments:organiser_home")
    assert not Tournament.objects.filter(slug="coppa").exists()
    assert not TournamentMap.objects.exists()
    assert Player.objects.filter(pk=shared.pk).exists()
    assert not Player.objects.filter(pk=alone.pk).exists()
    assert get_user_model().objects.filter(username="organiser").exists()
    public = client.get(reverse("tournaments:standings", args=["coppa"]))
    assert public.status_code == 404


def test_only_its_organisers_delete_a_tournament(world, role_client):
    url = reverse("tournaments:organiser_delete", args=[world.tournament.slug])
    assert role_client("judge").post(url, {"confirmation": "coppa"}).status_code == 403
    assert Tournament.objects.filter(slug="coppa").exists()
