"""Organiser players page: linking an existing user account to a player, the conflicts that
refuse it, unlinking, and the linked account reaching the player's pages after logging in."""

import pytest
from django.urls import reverse

from tests.factories import PlayerFactory, RegistrationFactory, TournamentFactory, UserFactory
from tests.web.conftest import PASSWORD
from tournaments.models import ActivityLog, Player, Session

pytestmark = pytest.mark.django_db


@pytest.fixture
def organiser(world, role_client):
    return role_client("organiser")


@pytest.fixture
def account(db):
    user = UserFactory(username="marta", email="Marta@Example.org")
    user.save()
    return user


def link_url(world, player) -> str:
    return reverse("tournaments:organiser_player_link", args=[world.tournament.slug, player.pk])


def link(client, world, player, typed: str):
    return client.post(link_url(world, player), {f"link{player.pk}-account": typed})


def other_player(world) -> Player:
    return world.tournament.players.exclude(pk=world.player.pk).order_by("pk").first()


def test_players_page_offers_link_per_player(organiser, world):
    page = organiser.get(reverse("tournaments:organiser_players", args=[world.tournament.slug]))
    assert page.status_code == 200
    assert link_url(world, world.player) in page.content.decode()


@pytest.mark.parametrize("typed", ["marta", " MARTA ", "marta@example.org"])
def test_link_by_user_name_or_email(organiser, world, account, typed):
    response = link(organiser, world, world.player, typed)
    assert response.status_code == 302
    assert response["Location"].endswith(f"#player-{world.player.pk}")
    world.player.refresh_from_db()
    assert world.player.user == account
    entry = ActivityLog.objects.get(tournament=world.tournament, details__user=account.pk)
    assert entry.actor == world.organiser and entry.details["player"] == world.player.pk
    page = organiser.get(reverse("tournaments:organiser_players", args=[world.tournament.slug]))
    assert (
        reverse(
            "tournaments:organiser_player_unlink", args=[world.tournament.slug, world.player.pk]
        )
        in page.content.decode()
    )


def refused(client, world, player, typed: str) -> str:
    response = link(client, world, player, typed)
    assert response.status_code == 400
    forms = [form for _registration, form in response.context["rows"] if form.is_bound]
    assert [form.player for form in forms] == [player]
    page = response.content.decode()
    assert f'value="{typed}"' in page  # what was typed is kept
    assert f'id="id_link{player.pk}-account_error"' in page  # next to the field
    player.refresh_from_db()
    assert player.user is None or player.user.username != typed
    return " ".join(forms[0].errors["account"])


def test_unknown_account_is_explained(organiser, world):
    assert "no account with the user name or email" in refused(
        organiser, world, world.player, "nobody"
    )
    assert Player.objects.get(pk=world.player.pk).user is None


def test_shared_email_asks_for_the_user_name(organiser, world):
    for name in ("twin-a", "twin-b"):
        UserFactory(username=name, email="twins@example.org").save()
    assert "give the user name" in refused(organiser, world, world.player, "twins@example.org")


def test_account_of_another_player_of_this_tournament_is_refused(organiser, world, account):
    neighbour = other_player(world)
    neighbour.user = account
    neighbour.save()
    message = refused(organiser, world, world.player, "marta")
    assert "another player of this tournament" in message and str(neighbour) in message


def test_account_of_a_player_of_another_tournament_is_linked_too(organiser, world, account):
    elsewhere = PlayerFactory(user=account)
    RegistrationFactory(player=elsewhere, tournament=TournamentFactory(), number=1)
    assert link(organiser, world, world.player, "marta").status_code == 302
    assert Player.objects.get(pk=world.player.pk).user == account
    assert Player.objects.get(pk=elsewhere.pk).user == account


def test_account_of_a_player_sharing_another_tournament_is_refused(organiser, world, account):
    """Both players are also in another tournament: the account would speak for two there."""
    spring = TournamentFactory(name="Spring Cup")
    twin = PlayerFactory(user=account, name="Marta Spring")
    RegistrationFactory(player=twin, tournament=spring, number=1)
    RegistrationFactory(player=world.player, tournament=spring, number=2)
    message = refused(organiser, world, world.player, "marta")
    assert "Spring Cup" in message and "Marta Spring" in message


def test_player_already_linked_must_be_unlinked_first(organiser, world, account):
    world.player.user = UserFactory(username="first")
    world.player.save()
    response = link(organiser, world, world.player, "marta")
    assert response.status_code == 400
    world.player.refresh_from_db()
    assert world.player.user.username == "first"


def test_organiser_and_superuser_cannot_play(organiser, world):
    assert "organises this tournament" in refused(organiser, world, world.player, "organiser")
    assert "site administrator" in refused(organiser, world, world.player, "root")


def test_judge_of_the_players_session_is_refused_other_judges_are_not(organiser, world):
    # world.judge judges world.session, where world.player is seated.
    assert "is the judge of" in refused(organiser, world, world.player, "judge")
    # other-judge judges another session, not world.player's: no conflict.
    assert link(organiser, world, world.player, "other-judge").status_code == 302
    assert Player.objects.get(pk=world.player.pk).user == world.other_judge


def test_schedule_refuses_a_judge_who_plays_in_the_session(organiser, world):
    world.player.user = world.other_judge
    world.player.save()
    prefix = f"s{world.session.pk}"
    url = reverse(
        "tournaments:organiser_session_schedule", args=[world.tournament.slug, world.session.pk]
    )
    response = organiser.post(
        url,
        {
            f"{prefix}-scheduled_at": "2026-06-01T15:30",
            f"{prefix}-table": "1",
            f"{prefix}-judge": world.other_judge.pk,
            f"{prefix}-version": world.session.version,
        },
    )
    assert response.status_code == 400
    assert "plays in this session" in str(response.context["form"].errors["judge"])
    assert Session.objects.get(pk=world.session.pk).judge == world.judge


def test_unlink(organiser, world, account):
    world.player.user = account
    world.player.save()
    url = reverse(
        "tournaments:organiser_player_unlink", args=[world.tournament.slug, world.player.pk]
    )
    assert organiser.post(url).status_code == 302
    assert Player.objects.get(pk=world.player.pk).user is None
    assert ActivityLog.objects.filter(
        tournament=world.tournament, details__user=account.pk, details__player=world.player.pk
    ).exists()
    again = organiser.post(url, follow=True)
    assert "had no linked account" in again.content.decode()


def test_player_of_another_tournament_is_not_found(organiser, world, account):
    stranger = PlayerFactory()
    assert link(organiser, world, stranger, "marta").status_code == 404
    assert Player.objects.get(pk=stranger.pk).user is None


def test_linked_account_logs_in_and_reaches_player_home(organiser, world, account, client):
    assert link(organiser, world, world.player, "marta").status_code == 302
    response = client.post(
        reverse("tournaments:login"), {"username": "marta", "password": PASSWORD}
    )
    assert response.status_code == 302
    assert response["Location"] == reverse("tournaments:player_home")
    home = client.get(response["Location"])
    assert home.status_code == 200
    assert home.context["player"] == world.player
    assert [seat.session_id for seat in home.context["upcoming"]] == [world.session.pk]


def test_unlinking_reaches_a_browser_already_logged_in(organiser, world, account, client):
    assert link(organiser, world, world.player, "marta").status_code == 302
    client.post(reverse("tournaments:login"), {"username": "marta", "password": PASSWORD})
    assert client.get(reverse("tournaments:player_home")).status_code == 200
    url = reverse(
        "tournaments:organiser_player_unlink", args=[world.tournament.slug, world.player.pk]
    )
    organiser.post(url)
    response = client.get(reverse("tournaments:player_home"))
    assert response.status_code != 200  # the account no longer speaks for the player


def test_private_link_keeps_working_after_an_unrelated_log_in(world, account, client):
    client.get(reverse("tournaments:player_link", args=[world.player.access_token]))
    client.post(reverse("tournaments:login"), {"username": "marta", "password": PASSWORD})
    home = client.get(reverse("tournaments:player_home"))
    assert home.status_code == 200
    assert home.context["player"] == world.player
