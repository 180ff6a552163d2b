"""A judge (or an organiser) added with a new account and no password: the account is
created with none that works, and the organiser gets the one-time link for its owner to set
theirs straight away, the success message saying so. A password typed in still works."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from tests.factories import TournamentFactory, UserFactory
from tournaments.models import ActivityLog

pytestmark = pytest.mark.django_db

NEW_PASSWORD = "Nuova-Password-2026"


@pytest.fixture
def organiser(world, role_client):
    return role_client("organiser")


def judges_url(world) -> str:
    return reverse("tournaments:organiser_judges", args=[world.tournament.slug])


def shown_messages(response) -> list[str]:
    return [str(message) for message in response.context["messages"]]


def can_log_in(username: str, password: str) -> bool:
    response = Client().post(
        reverse("tournaments:login"), {"username": username, "password": password}
    )
    return response.status_code == 302


def set_password_through(path: str) -> Client:
    browser = Client()
    form_path = browser.get(path)["Location"]
    done = browser.post(form_path, {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD})
    assert done.status_code == 302
    return browser


def test_a_judge_added_without_a_password_gets_a_link_straight_away(organiser, world):
    response = organiser.post(judges_url(world), {"username": "giudice2"})
    assert response.status_code == 200
    judge = get_user_model().objects.get(username="giudice2")
    assert world.tournament.judges.filter(pk=judge.pk).exists()
    assert not judge.has_usable_password()
    assert not can_log_in("giudice2", "")
    assert shown_messages(response) == [
        "giudice2 is now a judge of this tournament. The account giudice2 has no password "
        "yet: give them this one-time link to set their own."
    ]
    link = response.context["link"]
    assert link.startswith("http://testserver/accounts/password/")
    assert link in response.content.decode()
    codes = set(ActivityLog.objects.values_list("description_code", flat=True))
    assert {"judge_added", "password_link"} <= codes

    set_password_through(link.removeprefix("http://testserver"))
    assert can_log_in("giudice2", NEW_PASSWORD)


def test_a_judge_added_with_a_password_logs_in_with_it_and_gets_no_link(organiser, world):
    response = organiser.post(
        judges_url(world), {"username": "giudice3", "password": "Zq9!long-pass"}
    )
    assert response.status_code == 302 and response["Location"] == judges_url(world) + "#judges"
    page = organiser.get(response["Location"])
    assert shown_messages(page) == ["giudice3 is now a judge of this tournament."]
    assert can_log_in("giudice3", "Zq9!long-pass")
    assert not ActivityLog.objects.filter(description_code="password_link").exists()


def test_an_existing_account_with_a_password_becomes_a_judge_without_a_link(organiser, world):
    account = UserFactory(username="veterano")
    account.save()
    response = organiser.post(judges_url(world), {"username": "veterano"})
    assert response.status_code == 302
    assert world.tournament.judges.filter(pk=account.pk).exists()
    assert not ActivityLog.objects.filter(description_code="password_link").exists()


def test_an_account_whose_other_roles_are_not_the_organisers_gets_no_link(organiser, world):
    """An account without a password that also judges another organiser's tournament: it
    becomes a judge here, but a link would give its whole account, so none is issued."""
    account = get_user_model()(username="girovago")
    account.set_unusable_password()
    account.save()
    TournamentFactory(name="Altro Torneo", slug="altro").judges.add(account)
    response = organiser.post(judges_url(world), {"username": "girovago"})
    assert response.status_code == 302
    assert world.tournament.judges.filter(pk=account.pk).exists()
    assert not ActivityLog.objects.filter(description_code="password_link").exists()


def test_an_organiser_added_without_a_password_gets_a_link_too(organiser, world):
    url = reverse("tournaments:organiser_add", args=[world.tournament.slug])
    response = organiser.post(url, {"organiser-username": "co-organiser"})
    assert response.status_code == 200
    assert world.tournament.organisers.filter(username="co-organiser").exists()
    assert "co-organiser now organises this tournament too." in shown_messages(response)[0]
    assert response.context["link"].startswith("http://testserver/accounts/password/")


def test_a_new_account_name_must_be_a_valid_user_name(organiser, world):
    response = organiser.post(judges_url(world), {"username": "giudice due"})
    assert response.status_code == 400
    assert "valid username" in " ".join(response.context["form"].errors["username"])
    assert not get_user_model().objects.filter(username="giudice due").exists()


def test_the_form_says_the_password_may_be_left_empty(organiser, world):
    page = organiser.get(judges_url(world)).content.decode()
    assert "Leave it empty and you get a one-time link to hand them" in page
