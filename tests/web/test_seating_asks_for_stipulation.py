"""The steps that seat a stage ask for its stipulation (QA: nothing asked for it before
seating, and the judges then could not enter a result). A warning, not a refusal: the
first stage's page exists only once it is seated (unless prepared, e.g. by an import), and
a stage seated without a stipulation takes its stage's as soon as the organiser sets it."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import TournamentFactory, UserFactory, register_players
from tournaments.models import Stage, StipulationKind
from tournaments.queries.stage_checklist import stage_checklist

pytestmark = pytest.mark.django_db


def dashboard(client, tournament, language: str = "en") -> str:
    url = reverse("tournaments:organiser_dashboard", args=[tournament.slug])
    return client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()


@pytest.fixture
def organiser_client(client):
    def make(tournament):
        organiser = UserFactory(username="org")
        organiser.save()
        tournament.organisers.add(organiser)
        client.force_login(organiser)
        return client

    return make


def test_the_first_seat_step_warns_without_a_stage(organiser_client):
    tournament = TournamentFactory(slug="coppa")
    register_players(tournament, 9)
    page = dashboard(organiser_client(tournament), tournament)
    assert 'data-check="next_stipulation"' in page
    assert "Stage 1 has no stipulation yet: its page appears in the stages table" in page


def test_a_prepared_first_stage_without_a_stipulation_links_its_page(organiser_client):
    tournament = TournamentFactory(slug="coppa")
    register_players(tournament, 9)
    Stage.objects.create(tournament=tournament, number=1, kind="preliminary")
    client = organiser_client(tournament)
    page = dashboard(client, tournament)
    assert "Stage 1 has no stipulation yet: choose it on its page before seating it" in page
    stage_url = reverse("tournaments:organiser_stage", args=["coppa", 1])
    assert f'<a href="{stage_url}">Stage 1\'s page</a>' in page
    italian = dashboard(client, tournament, "it")
    assert "La fase 1 non ha ancora una stipulazione" in italian


def test_a_prepared_first_stage_with_a_stipulation_needs_no_warning(organiser_client):
    tournament = TournamentFactory(slug="coppa")
    register_players(tournament, 9)
    Stage.objects.create(
        tournament=tournament, number=1, kind="preliminary", stipulation_kind="alien_hunt"
    )
    page = dashboard(organiser_client(tournament), tournament)
    assert 'data-check="next_stipulation"' not in page


def test_the_close_warns_of_the_next_stage_without_a_stipulation(world, role_client):
    """Only a next stage that exists (prepared) can get its stipulation before the close;
    once the close seats one, its own checklist asks (the "stipulation" warning)."""
    codes = {item.code for item in stage_checklist(world.stage).items}
    assert "next_stipulation" not in codes
    Stage.objects.create(tournament=world.tournament, number=2, kind="final")
    warning = next(i for i in stage_checklist(world.stage).items if i.code == "next_stipulation")
    assert warning.message.startswith("Stage 2 has no stipulation yet: choose it on its page")
    assert not warning.blocking and warning.stage_page == 2
    page = role_client("organiser").get(
        reverse("tournaments:organiser_stage", args=[world.tournament.slug, 1]),
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert "Stage 2's page" in page.content.decode()
    Stage.objects.filter(number=2, tournament=world.tournament).update(
        stipulation_kind=StipulationKind.TPK
    )
    codes = {item.code for item in stage_checklist(world.stage).items}
    assert "next_stipulation" not in codes


def test_the_final_has_no_next_stage_to_warn_of(world):
    Stage.objects.filter(pk=world.stage.pk).update(kind="final")
    codes = {item.code for item in stage_checklist(Stage.objects.get(pk=world.stage.pk)).items}
    assert "next_stipulation" not in codes
