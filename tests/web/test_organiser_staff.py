"""The tournament's organisers from its own pages: another one added (an existing account
or a new one), removed or leaving, never the last; an account that plays in the tournament
refused, with what to do."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from tests.factories import UserFactory
from tests.web.conftest import login
from tournaments.models import ActivityLog

pytestmark = pytest.mark.django_db


@pytest.fixture
def organiser(world, role_client):
    return role_client("organiser")


def add(client, world, **fields):
    url = reverse("tournaments:organiser_add", args=[world.tournament.slug])
    return client.post(url, {f"organiser-{name}": value for name, value in fields.items()})


def remove(client, world, user):
    url = reverse("tournaments:organiser_remove", args=[world.tournament.slug, user.pk])
    return client.post(url)


def test_an_existing_account_becomes_an_organiser_and_runs_the_tournament(organiser, world, client):
    response = add(organiser, world, username="judge")
    assert response.status_code == 302
    assert world.tournament.organisers.filter(pk=world.judge.pk).exists()
    entry = ActivityLog.objects.get(description_code="organiser_added")
    assert entry.actor == world.organiser and entry.description_params == {"name": "judge"}
    login(client, world.judge)
    dashboard = reverse("tournaments:organiser_dashboard", args=[world.tournament.slug])
    assert client.get(dashboard).status_code == 200


def test_a_new_accounts_password_must_be_one_the_site_accepts(organiser, world):
    weak = add(organiser, world, username="co-organiser", password="123")
    assert 'id="id_organiser-password_error"' in weak.content.decode()
    assert weak.status_code == 400
    assert not get_user_model().objects.filter(username="co-organiser").exists()
    done = add(organiser, world, username="co-organiser", password="Zq9!long-pass")
    assert done.status_code == 302
    assert world.tournament.organisers.filter(username="co-organiser").exists()


def test_a_players_account_cannot_organise(organiser, world):
    account = UserFactory(username="marta")
    account.save()
    world.player.user = account
    world.player.save()
    refused = add(organiser, world, username="marta")
    assert refused.status_code == 400
    problem = " ".join(refused.context["organiser_form"].errors["username"])
    assert world.player.display_name in problem and "Unlink the account" in problem
    assert 'value="marta"' in refused.content.decode()  # what was typed stays
    assert not world.tournament.organisers.filter(pk=account.pk).exists()


def test_adding_an_organiser_twice_says_so(organiser, world):
    refused = add(organiser, world, username="organiser")
    assert refused.status_code == 400
    assert "already organises" in " ".join(refused.context["organiser_form"].errors["username"])


def test_the_last_organiser_stays(organiser, world):
    response = remove(organiser, world, world.organiser)
    assert response.status_code == 302
    assert world.tournament.organisers.filter(pk=world.organiser.pk).exists()
    page = organiser.get(response["Location"])
    assert "only organiser" in page.content.decode()
    assert not ActivityLog.objects.filter(description_code="organiser_removed").exists()


def test_another_organiser_is_removed_and_one_may_leave(organiser, world, client):
    world.tournament.organisers.add(world.judge)
    page = organiser.get(reverse("tournaments:organiser_judges", args=[world.tournament.slug]))
    removal = reverse("tournaments:organiser_remove", args=[world.tournament.slug, world.judge.pk])
    assert removal in page.content.decode()
    assert remove(organiser, world, world.judge).status_code == 302
    assert not world.tournament.organisers.filter(pk=world.judge.pk).exists()
    assert world.tournament.judges.filter(pk=world.judge.pk).exists()  # still a judge

    world.tournament.organisers.add(world.judge)
    left = remove(organiser, world, world.organiser)
    assert left["Location"] == reverse("tournaments:organiser_home")
    assert list(world.tournament.organisers.all()) == [world.judge]
    dashboard = reverse("tournaments:organiser_dashboard", args=[world.tournament.slug])
    assert organiser.get(dashboard).status_code == 403
    assert ActivityLog.objects.filter(description_code="organiser_removed").count() == 2


def test_a_judge_cannot_add_organisers(world, role_client):
    response = add(role_client("judge"), world, username="judge")
    assert response.status_code == 403
    assert not world.tournament.organisers.filter(pk=world.judge.pk).exists()


def test_adding_a_judge_twice_says_so_and_logs_nothing(organiser, world):
    url = reverse("tournaments:organiser_judges", args=[world.tournament.slug])
    before = ActivityLog.objects.filter(description_code="judge_added").count()
    refused = organiser.post(url, {"username": "judge"})
    assert refused.status_code == 400
    assert "already judges" in " ".join(refused.context["form"].errors["username"])
    assert ActivityLog.objects.filter(description_code="judge_added").count() == before
