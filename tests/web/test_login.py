"""Log-in, log-out, the rate limit on failed log-ins, and players' private links."""

import re

import pytest
from django.urls import reverse

from tests.factories import UserFactory
from tests.web.conftest import PASSWORD
from tournaments.web.permissions import PLAYER_SESSION_KEY

pytestmark = pytest.mark.django_db


@pytest.fixture
def user():
    account = UserFactory(username="giudice")
    account.save()
    return account


def attempt(client, username, password):
    return client.post(reverse("tournaments:login"), {"username": username, "password": password})


def test_good_login_redirects_and_keeps_next(client, user):
    response = client.post(
        reverse("tournaments:login"),
        {"username": "giudice", "password": PASSWORD, "next": "/judge/"},
    )
    assert response.status_code == 302
    assert response["Location"] == "/judge/"


def test_login_refuses_an_outside_next(client, user):
    response = client.post(
        reverse("tournaments:login"),
        {"username": "giudice", "password": PASSWORD, "next": "https://evil.example/"},
    )
    assert response["Location"] == reverse("tournaments:home")


def test_bad_password_keeps_the_user_name_and_explains(client, user):
    response = attempt(client, "giudice", "wrong")
    assert response.status_code == 400
    assert 'value="giudice"' in response.content.decode()


@pytest.mark.parametrize(
    ("username", "password", "said"),
    [("   ", "x", "id_username_error"), ("giudice", "", "id_password_error")],
)
def test_a_blank_user_name_or_password_is_said_at_its_field(client, user, username, password, said):
    """The page showed only the form's own errors: a blank field was refused in silence."""
    response = attempt(client, username, password)
    assert response.status_code == 400
    page = response.content.decode()
    assert f'aria-describedby="{said}"' in page
    focused = re.search(r"<input[^>]* autofocus[^>]*>", page)
    assert focused is not None and f'aria-describedby="{said}"' in focused.group()
    assert f'<ul class="errorlist" id="{said}"><li>This field is required.</li></ul>' in page


def test_rate_limit_blocks_even_the_right_password(client, user, settings):
    settings.BOB_LOGIN_ATTEMPTS = 3
    for _ in range(3):
        assert attempt(client, "giudice", "wrong").status_code == 400
    blocked = attempt(client, "giudice", PASSWORD)
    assert blocked.status_code == 429
    assert "_auth_user_id" not in client.session


def test_rate_limit_counts_per_user_name_across_addresses(client, user, settings):
    settings.BOB_LOGIN_ACCOUNT_ATTEMPTS = 2
    for address in ("10.0.0.1", "10.0.0.2"):
        client.post(
            reverse("tournaments:login"),
            {"username": "giudice", "password": "wrong"},
            REMOTE_ADDR=address,
        )
    response = client.post(
        reverse("tournaments:login"),
        {"username": "giudice", "password": PASSWORD},
        REMOTE_ADDR="10.0.0.3",
    )
    assert response.status_code == 429


def test_success_resets_the_user_name_count(client, user, settings):
    settings.BOB_LOGIN_ATTEMPTS = 3
    attempt(client, "giudice", "wrong")
    attempt(client, "giudice", "wrong")
    assert attempt(client, "giudice", PASSWORD).status_code == 302
    client.post(reverse("tournaments:logout"))
    # The address count still holds two failures; one more failure blocks, not before.
    assert attempt(client, "giudice", PASSWORD).status_code == 302


def test_logout_needs_post(client, user):
    client.force_login(user)
    assert client.get(reverse("tournaments:logout")).status_code == 405
    assert client.post(reverse("tournaments:logout")).status_code == 302
    assert "_auth_user_id" not in client.session


def test_private_link_remembers_the_player(client, world):
    response = client.get(reverse("tournaments:player_link", args=[world.player.access_token]))
    assert response.status_code == 302
    assert client.session[PLAYER_SESSION_KEY] == world.player.pk
    assert client.get(reverse("tournaments:player_home")).status_code == 200


def test_private_link_on_a_browser_logged_in_as_someone_else_asks_first(client, world):
    """A judge's phone handed to a player: the judge is logged out before the browser
    speaks for the player, never the player's pages under the judge's name."""
    client.force_login(world.judge)
    url = reverse("tournaments:player_link", args=[world.player.access_token])
    asked = client.get(url)
    assert asked.status_code == 200
    page = asked.content.decode()
    assert "This browser is logged in as judge" in page
    assert f"Log out judge and open {world.player.display_name}" in page
    assert PLAYER_SESSION_KEY not in client.session
    assert client.session["_auth_user_id"] == str(world.judge.pk)

    opened = client.post(url, follow=True)
    assert opened.context["player"] == world.player
    assert "_auth_user_id" not in client.session
    assert "judge is logged out of this browser." in opened.content.decode()
    judged = reverse("tournaments:judge_session", args=[world.session.pk])
    assert client.get(judged).status_code == 302  # to the log-in: the judge's rights went


def test_private_link_on_the_players_own_account_opens_at_once(client, world):
    world.player.user = world.other_judge
    world.player.save()
    client.force_login(world.other_judge)
    response = client.get(reverse("tournaments:player_link", args=[world.player.access_token]))
    assert response.status_code == 302
    assert client.session[PLAYER_SESSION_KEY] == world.player.pk
    assert client.session["_auth_user_id"] == str(world.other_judge.pk)


def test_player_pages_tell_an_unknown_browser_how_to_open_them(client, world):
    page = client.get(reverse("tournaments:player_home"))
    assert page.status_code == 403
    assert "Open the private link your organiser gave you" in page.content.decode()
    client.force_login(world.judge)
    page = client.get(reverse("tournaments:player_home"))
    assert page.status_code == 403
    assert "You are logged in as judge, an account linked to no player" in page.content.decode()


def test_unknown_private_link_is_not_found(client, db):
    response = client.get(reverse("tournaments:player_link", args=["nope"]))
    assert response.status_code == 404
    # A link cut short in a message, or replaced: the player learns what to do.
    assert "Ask the organiser for your link." in response.content.decode()
    assert PLAYER_SESSION_KEY not in client.session


def test_player_can_make_the_browser_forget_them(client, world):
    client.get(reverse("tournaments:player_link", args=[world.player.access_token]))
    response = client.post(reverse("tournaments:player_forget"))
    assert response.status_code == 302
    assert PLAYER_SESSION_KEY not in client.session
    assert client.get(reverse("tournaments:player_home")).status_code == 403


def test_failures_from_one_address_leave_the_owner_elsewhere_alone(client, user, settings):
    settings.BOB_LOGIN_ATTEMPTS = 2
    for _ in range(2):
        attempt_from(client, "10.0.0.1", "giudice", "wrong")
    assert attempt_from(client, "10.0.0.1", "giudice", PASSWORD).status_code == 429
    assert attempt_from(client, "10.0.0.2", "giudice", PASSWORD).status_code == 302


def test_one_address_trying_many_accounts_is_stopped(client, user, settings):
    settings.BOB_LOGIN_ADDRESS_ATTEMPTS = 3
    for name in ("anna", "bruno", "carla"):
        assert attempt_from(client, "10.0.0.9", name, "wrong").status_code == 400
    assert attempt_from(client, "10.0.0.9", "giudice", PASSWORD).status_code == 429
    assert attempt_from(client, "10.0.0.8", "giudice", PASSWORD).status_code == 302


def test_behind_a_proxy_each_client_counts_for_itself(client, user, settings):
    """With one trusted proxy the client is the last X-Forwarded-For entry: a header the
    client wrote itself (the entries before) changes nothing."""
    settings.BOB_TRUSTED_PROXIES = 1
    settings.BOB_LOGIN_ATTEMPTS = 2
    for spoofed in ("1.1.1.1", "2.2.2.2"):
        attempt_via_proxy(client, f"{spoofed}, 203.0.113.7", "wrong")
    assert attempt_via_proxy(client, "203.0.113.7", PASSWORD).status_code == 429
    other = attempt_via_proxy(client, "198.51.100.4", PASSWORD)
    assert other.status_code == 302


def test_the_refusal_says_the_configured_wait_and_checks_no_password(
    client, user, settings, monkeypatch
):
    settings.BOB_LOGIN_ATTEMPTS = 1
    settings.BOB_LOGIN_WINDOW_SECONDS = 120
    attempt(client, "giudice", "wrong")
    checked = []
    monkeypatch.setattr(
        "django.contrib.auth.forms.authenticate", lambda *a, **k: checked.append(k) or None
    )
    response = attempt(client, "giudice", PASSWORD)
    assert response.status_code == 429
    assert "Wait 2 minutes" in response.content.decode()
    assert checked == []


def attempt_from(client, address, username, password):
    return client.post(
        reverse("tournaments:login"),
        {"username": username, "password": password},
        REMOTE_ADDR=address,
    )


def attempt_via_proxy(client, forwarded_for, password):
    return client.post(
        reverse("tournaments:login"),
        {"username": "giudice", "password": password},
        REMOTE_ADDR="192.168.0.1",
        HTTP_X_FORWARDED_FOR=forwarded_for,
    )


def test_the_login_page_offers_players_accounts_and_focuses_the_password_after_a_refusal(
    client, user
):
    """QA as a player: the page said only judges and organisers log in there, and after a
    wrong password the focus went back to the user name."""
    page = client.get(reverse("tournaments:login")).content.decode()
    assert "players with an account log in here" in page
    assert "Players without an account open the private link" in page
    assert 'id="id_username" autocomplete="username" required value="" autofocus>' in page
    refused = attempt(client, "giudice", "wrong").content.decode()
    password = refused.split('id="id_password"', 1)[1].split(">", 1)[0]
    username = refused.split('id="id_username"', 1)[1].split(">", 1)[0]
    assert "autofocus" in password and "autofocus" not in username
    # Without a user name, the user name is what to type first.
    empty = attempt(client, "", "wrong").content.decode()
    assert "autofocus" in empty.split('id="id_username"', 1)[1].split(">", 1)[0]
