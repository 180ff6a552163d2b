"""Activity entries read in the reader's language, whatever language the writer used: the
organiser's dashboard and activity page, and the judge's list of what changed meanwhile.
Rows stored before the description codes, and params that do not fit, show their text."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from tests.web.test_judge import result_data
from tournaments.models import ActivityLog, ActivityVerb

pytestmark = pytest.mark.django_db

SESSION_EN = "Coppa BoB – Preliminary (1) – session 1"
SESSION_IT = "Coppa BoB – Fase Preliminare (1) – sessione 1"


def speaking(client: Client, language: str) -> Client:
    """``client`` with ``language`` chosen (as the language switcher does)."""
    client.cookies["django_language"] = language
    return client


def activity_cells(client: Client, world) -> list[str]:
    """The "What" cells of the organiser's activity page, newest first."""
    page = client.get(reverse("tournaments:organiser_activity", args=[world.tournament.slug]))
    assert page.status_code == 200
    return re.findall(r"<td>([^<]*)</td></tr>", page.content.decode())


def dashboard(client: Client, world) -> str:
    page = client.get(reverse("tournaments:organiser_dashboard", args=[world.tournament.slug]))
    assert page.status_code == 200
    return page.content.decode()


def threshold_url(world) -> str:
    return reverse(
        "tournaments:organiser_session_threshold_add",
        args=[world.tournament.slug, world.session.pk],
    )


@pytest.fixture
def organiser(world, role_client):
    return role_client("organiser")


def test_an_entry_written_in_italian_reads_in_english(organiser, world):
    speaking(organiser, "it")
    settings = reverse(
        "tournaments:organiser_session_settings", args=[world.tournament.slug, world.session.pk]
    )
    response = organiser.post(settings, {"stipulation_kind": "tpk"})
    assert response.status_code == 302
    entry = ActivityLog.objects.get(tournament=world.tournament, details__stipulation="tpk")
    assert entry.object_description == f"stipulation of {SESSION_EN} set to TPK"
    assert entry.description_code == "stipulation_set"

    speaking(organiser, "en")
    english = f"stipulation of {SESSION_EN} set to TPK"
    assert english in activity_cells(organiser, world)
    assert f"updated: {english}</li>" in dashboard(organiser, world)

    speaking(organiser, "it")
    assert f"stipulazione di {SESSION_IT} impostata a TPK" in activity_cells(organiser, world)


def test_an_entry_written_in_english_reads_in_italian(organiser, world):
    assert organiser.post(threshold_url(world), {"points": "30"}).status_code == 302
    italian = f"soglia di punteggio 30 aggiunta a {SESSION_IT}"

    speaking(organiser, "it")
    assert italian in activity_cells(organiser, world)
    assert f"ha aggiornato: {italian}</li>" in dashboard(organiser, world)

    speaking(organiser, "en")
    assert f"score threshold 30 added to {SESSION_EN}" in activity_cells(organiser, world)


def test_old_rows_and_params_that_do_not_fit_show_their_stored_text(organiser, world):
    ActivityLog.objects.create(
        tournament=world.tournament,
        verb=ActivityVerb.UPDATED,
        object_description="soglia di punteggio 40 aggiunta (scritto prima dei codici)",
    )
    ActivityLog.objects.create(
        tournament=world.tournament,
        verb=ActivityVerb.UPDATED,
        object_description="threshold with a broken session",
        description_code="threshold_added",
        description_params={"points": 40, "session": {"stage": "one", "number": 1}},
    )
    ActivityLog.objects.create(
        tournament=world.tournament,
        verb=ActivityVerb.UPDATED,
        object_description="from a newer BoB",
        description_code="renamed_the_moon",
        description_params={"moon": "Luna"},
    )
    speaking(organiser, "it")
    cells = activity_cells(organiser, world)
    assert cells[:3] == [
        "from a newer BoB",
        "threshold with a broken session",
        "soglia di punteggio 40 aggiunta (scritto prima dei codici)",
    ]


def test_the_judges_list_of_changes_reads_in_the_judges_language(world, role_client):
    first = speaking(role_client("judge"), "it")
    second = speaking(role_client("organiser"), "en")
    url = reverse("tournaments:judge_result", args=[world.session.pk])
    loaded_version = world.session.version
    loaded_at = second.get(url).context["loaded_at"]
    saved = first.post(url, result_data(world.session, loaded_version, tokens={0: 15}))
    assert saved.status_code == 302
    late = result_data(world.session, loaded_version, tokens={1: 99})
    late["loaded_at"] = loaded_at
    refused = second.post(url, late)
    assert refused.status_code == 409
    assert f"judge recorded a result {SESSION_EN}" in refused.content.decode()
