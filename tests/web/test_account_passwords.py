"""A person's own password, without the site's administrator: changed on their account page,
or set from a one-time link an organiser issues (an imported account has none; a judge
forgets theirs), and the limits on whose link an organiser may issue."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from tests.factories import TournamentFactory, UserFactory
from tests.web.conftest import PASSWORD, login
from tournaments.models import ActivityLog

pytestmark = pytest.mark.django_db

NEW_PASSWORD = "Nuova-Password-2026"


def link_url(world, user) -> str:
    return reverse("tournaments:organiser_password_link", args=[world.tournament.slug, user.pk])


def issue(client: Client, world, user, origin: str = "judges"):
    return client.post(link_url(world, user), {"from": origin})


def issued_path(response) -> str:
    """The link's path, from the page that shows it."""
    assert response.status_code == 200, response.content.decode()[:500]
    link = response.context["link"]
    assert link.startswith("http://testserver/accounts/password/")
    return link.removeprefix("http://testserver")


def set_password(client: Client, path: str, password: str = NEW_PASSWORD):
    opened = client.get(path)
    assert opened.status_code == 302  # the token moves out of the address bar
    form_path = opened["Location"]
    assert "set-password" in form_path
    page = client.get(form_path)
    assert page.status_code == 200 and page.context["validlink"]
    return client.post(form_path, {"new_password1": password, "new_password2": password})


def can_log_in(username: str, password: str) -> bool:
    response = Client().post(
        reverse("tournaments:login"), {"username": username, "password": password}
    )
    return response.status_code == 302


def imported_judge(world):
    """A judge as an import creates them: an account without a password."""
    user = get_user_model()(username="giudice-importato")
    user.set_unusable_password()
    user.save()
    world.tournament.judges.add(user)
    return user


def test_an_imported_judge_logs_in_with_the_password_a_link_lets_them_set(world, role_client):
    judge = imported_judge(world)
    organiser = role_client("organiser")
    page = organiser.get(reverse("tournaments:organiser_judges", args=[world.tournament.slug]))
    assert link_url(world, judge) in page.content.decode()
    response = issue(organiser, world, judge)
    path = issued_path(response)
    assert response.context["expires_at"] is not None
    entry = ActivityLog.objects.get(tournament=world.tournament, details__user=judge.pk)
    assert entry.actor == world.organiser
    assert path.split("/")[-2] not in str(entry.details)  # the token is not logged

    browser = Client()
    done = set_password(browser, path)
    assert done.status_code == 302 and done["Location"] == reverse("tournaments:judge_home")
    assert browser.get(reverse("tournaments:judge_home")).context["user"] == judge
    assert can_log_in("giudice-importato", NEW_PASSWORD)


def test_a_link_ends_when_the_account_logs_in_with_its_old_password(world, role_client):
    path = issued_path(issue(role_client("organiser"), world, world.judge))
    assert can_log_in("judge", PASSWORD)
    assert not Client().get(path).context["validlink"]


def test_a_link_works_once(world, role_client):
    judge = imported_judge(world)
    path = issued_path(issue(role_client("organiser"), world, judge))
    set_password(Client(), path)
    again = Client().get(path)
    assert again.status_code == 200 and not again.context["validlink"]
    assert "does not work any more" in again.content.decode()
    assert can_log_in("giudice-importato", NEW_PASSWORD)


def test_a_link_of_an_account_deactivated_since_does_not_work(world, role_client):
    path = issued_path(issue(role_client("organiser"), world, world.judge))
    world.judge.is_active = False
    world.judge.save()
    assert not Client().get(path).context["validlink"]


def test_a_mistyped_link_is_explained_and_changes_nothing(world):
    response = Client().get(reverse("tournaments:password_set", args=["MQ", "abc-123"]))
    assert response.status_code == 200 and not response.context["validlink"]
    assert "Ask the organiser of your tournament for a new one" in response.content.decode()


def test_a_refused_new_password_is_explained_and_the_link_still_works(world, role_client):
    judge = world.judge
    path = issued_path(issue(role_client("organiser"), world, judge))
    browser = Client()
    refused = set_password(browser, path, password="1234")
    assert refused.status_code == 400
    errors = refused.context["form"].errors["new_password2"]
    assert any("too short" in error for error in errors)
    judge.refresh_from_db()
    assert judge.check_password(PASSWORD)  # nothing changed (logging in would end the link)
    form_path = path.rsplit("/", 2)[0] + "/set-password/"
    done = browser.post(form_path, {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD})
    assert done.status_code == 302
    assert can_log_in("judge", NEW_PASSWORD) and not can_log_in("judge", PASSWORD)


def test_a_players_account_gets_a_link_from_the_players_page(world, role_client):
    account = UserFactory(username="marta")
    account.save()
    world.player.user = account
    world.player.save()
    organiser = role_client("organiser")
    page = organiser.get(reverse("tournaments:organiser_players", args=[world.tournament.slug]))
    assert link_url(world, account) in page.content.decode()
    response = issue(organiser, world, account, origin="players")
    back = reverse("tournaments:organiser_players", args=[world.tournament.slug])
    assert f'href="{back}"' in response.content.decode()
    done = set_password(Client(), issued_path(response))
    assert done["Location"] == reverse("tournaments:player_home")


@pytest.mark.parametrize(
    ("who", "why"),
    [
        ("self", "your own account"),
        ("superuser", "site administrator"),
        ("elsewhere", "also has a role in the tournament Altro Torneo"),
        ("inactive", "deactivated"),
    ],
)
def test_refused_accounts_say_why(world, role_client, who, why):
    if who == "self":
        user = world.organiser
    elif who == "superuser":
        user = world.superuser
        world.tournament.judges.add(user)
    elif who == "elsewhere":
        user = world.judge
        TournamentFactory(name="Altro Torneo", slug="altro").judges.add(user)
    else:
        user = world.judge
        user.is_active = False
        user.save()
    response = issue(role_client("organiser"), world, user)
    assert response.status_code == 403
    assert why in str(response.context["refusal"])
    assert "link" not in response.context
    assert not ActivityLog.objects.filter(details__user=user.pk).exists()


def test_an_organiser_of_every_tournament_of_the_account_may_issue_it(world, role_client):
    other = TournamentFactory(name="Altro Torneo", slug="altro")
    other.judges.add(world.judge)
    other.organisers.add(world.organiser)
    issued_path(issue(role_client("organiser"), world, world.judge))


def test_an_account_without_a_role_here_is_not_found(world, role_client):
    stranger = UserFactory(username="stranger")
    stranger.save()
    assert issue(role_client("organiser"), world, stranger).status_code == 404


def test_only_organisers_issue_links(world, role_client):
    for role in ("judge", "anonymous"):
        response = issue(role_client(role), world, world.other_judge)
        assert response.status_code in (302, 403)
    assert not ActivityLog.objects.filter(details__user=world.other_judge.pk).exists()


def test_everyone_changes_their_own_password_on_their_account_page(world, client):
    login(client, world.judge)
    url = reverse("tournaments:account")
    # The header's link is hidden on a phone, whose header keeps two rows: the judge's and
    # the organiser's home pages link it too.
    assert f'href="{url}"' in client.get(reverse("tournaments:judge_home")).content.decode()
    assert f'href="{url}"' in client.get(reverse("tournaments:organiser_home")).content.decode()
    assert client.get(url).status_code == 200
    wrong = client.post(
        url,
        {"old_password": "nope", "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )
    assert wrong.status_code == 400 and wrong.context["form"].errors["old_password"]
    assert 'aria-invalid="true"' in wrong.content.decode()
    done = client.post(
        url,
        {"old_password": PASSWORD, "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )
    assert done.status_code == 302
    assert client.get(reverse("tournaments:judge_home")).status_code == 200  # still logged in
    assert can_log_in("judge", NEW_PASSWORD) and not can_log_in("judge", PASSWORD)


def test_an_account_without_a_password_is_told_how_to_get_one(world, client):
    judge = imported_judge(world)
    login(client, judge)
    page = client.get(reverse("tournaments:account")).content.decode()
    assert "ask an organiser of your tournament for a link" in page
    assert 'name="old_password"' not in page
