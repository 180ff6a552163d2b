"""Who may create a tournament (decision 60): before, any logged-in account (a player's
too) could create one and become its organiser. Now: an account that organises one
already, a superuser, or one the site's administrator allowed (``manage.py
allow_organising``); anyone else is told why not and whom to ask, and nothing is made."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse

from tests.factories import UserFactory
from tests.web.conftest import login
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

CREATE = "tournaments:tournament_create"
NEW = {"name": "Torneo Abusivo", "slug": "", "seating_method": "random"}


def account(username: str):
    user = UserFactory(username=username)
    user.save()  # the factory sets the password without saving it
    return user


def test_a_players_account_or_a_judge_cannot_create_a_tournament(client, world):
    world.player.user = account("marta")
    world.player.save()
    for user in (world.player.user, world.judge):
        login(client, user)
        page = client.get(reverse(CREATE))
        assert page.status_code == 403
        html = page.content.decode()
        assert "may not create or import tournaments" in html
        assert "allow_organising" in html
        assert client.post(reverse(CREATE), NEW).status_code == 403
        imported = client.get(reverse("tournaments:tournament_import"))
        assert imported.status_code == 403
    assert not Tournament.objects.filter(name="Torneo Abusivo").exists()


def test_an_organiser_and_a_superuser_may_create_one(client, world):
    login(client, world.organiser)
    assert client.post(reverse(CREATE), NEW).status_code == 302
    admin = UserFactory(username="admin", is_superuser=True, is_staff=True)
    admin.save()
    login(client, admin)
    assert client.get(reverse(CREATE)).status_code == 200


def test_the_command_allows_an_account_and_takes_it_back(client, world):
    newcomer = account("nuovo")
    login(client, newcomer)
    assert client.get(reverse(CREATE)).status_code == 403
    out = StringIO()
    call_command("allow_organising", "nuovo", stdout=out)
    assert "nuovo may now create tournaments." in out.getvalue()
    assert client.get(reverse(CREATE)).status_code == 200
    call_command("allow_organising", "nuovo", "--revoke", stdout=out)
    assert "nuovo may no longer create tournaments." in out.getvalue()
    assert client.get(reverse(CREATE)).status_code == 403


def test_the_command_names_an_account_that_does_not_exist(db):
    with pytest.raises(CommandError, match="There is no account named “nobody”") as caught:
        call_command("allow_organising", "nobody")
    assert caught.value.returncode == 2  # bad input, as every command of the project says it


def test_revoking_an_organiser_says_they_still_may(world):
    out = StringIO()
    call_command("allow_organising", world.organiser.username, "--revoke", stdout=out)
    assert "still may create tournaments" in out.getvalue()


def test_the_demos_organiser_is_allowed_even_without_a_tournament(client):
    call_command("load_demo", stdout=StringIO())
    Tournament.objects.filter(slug="bob-demo").delete()
    organiser = type(UserFactory.build()).objects.get(username="organiser")
    client.force_login(organiser)
    assert client.get(reverse(CREATE)).status_code == 200
