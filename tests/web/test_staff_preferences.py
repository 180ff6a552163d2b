"""Squad preferences entered by the organiser (the player's page) and by the judge (from
the session sheet), as RULES §3 has the player hand their list to the judge: the same form
and the one action the player's own page uses, logged with who did it, refused once a squad
is drawn for the player, and for a judge only for the players of their own session."""

from __future__ import annotations

import pytest
from django.urls import reverse

from rules.engine.dice import SeededDice
from tests.factories import UserFactory
from tests.web.conftest import login
from tournaments.actions.session_setup import draw_squads
from tournaments.models import ActivityLog, Session, SquadPreference

pytestmark = pytest.mark.django_db

UM, BA, IF = "ultramarines", "blood-angels", "imperial-fists"


@pytest.fixture
def organiser(world, role_client):
    return role_client("organiser")


@pytest.fixture
def judge(world, role_client):
    return role_client("judge")


def stored(player) -> list[str]:
    return SquadPreference.objects.get(player=player, stage__isnull=True).choices


def organiser_page(world, player=None) -> str:
    player = player or world.player
    return reverse("tournaments:organiser_player", args=[world.tournament.slug, player.pk])


def organiser_post_url(world, player=None) -> str:
    player = player or world.player
    return reverse(
        "tournaments:organiser_player_preferences", args=[world.tournament.slug, player.pk]
    )


def seat_of(session: Session, player=None):
    seats = session.seats.order_by("seat_order")
    return seats.get(player=player) if player else seats.first()


def judge_url(session: Session, seat) -> str:
    return reverse("tournaments:judge_preferences", args=[session.pk, seat.pk])


def version_of(client, url: str) -> str:
    """The version the preferences form was loaded at, as a browser would send it back."""
    return client.get(url).context["preferences"]["form"]["version"].value()


def draw(session: Session) -> None:
    draw_squads(session, SeededDice(seed=3), actor=None, expected_version=session.version)


def preference_entries():
    return ActivityLog.objects.filter(description_code="squad_preferences")


# The organiser's player page


def test_the_organisers_player_page_shows_the_form_with_the_stored_choices(organiser, world):
    page = organiser.get(organiser_page(world))
    html = page.content.decode()
    assert page.status_code == 200
    assert "<h3>Squad preferences</h3>" in html
    assert organiser_post_url(world) in html
    first, *_rest = stored(world.player)
    assert f'<option value="{first}" selected>' in html


def test_the_organiser_saves_a_players_preferences_logged_as_themselves(organiser, world):
    url = organiser_post_url(world)
    response = organiser.post(url, {"choice_1": IF, "choice_2": UM})
    assert response.status_code == 302
    assert response["Location"] == organiser_page(world)
    assert stored(world.player) == [IF, UM]
    entry = preference_entries().get()
    assert entry.actor == world.organiser
    assert entry.details == {"player": world.player.pk, "choices": [IF, UM]}
    page = organiser.get(response["Location"]).content.decode()
    assert f"The squad preferences of {world.player.display_name} are saved." in page


def test_the_organisers_form_checks_as_the_players_does(organiser, world):
    before = stored(world.player)
    response = organiser.post(organiser_post_url(world), {"choice_1": UM, "choice_2": UM})
    assert response.status_code == 400
    assert "This squad is already an earlier choice" in response.content.decode()
    gap = organiser.post(organiser_post_url(world), {"choice_1": UM, "choice_3": BA})
    assert gap.status_code == 400
    assert "choice_3" in gap.context["preferences"]["form"].errors
    assert stored(world.player) == before
    assert not preference_entries().exists()


def test_after_the_draw_the_organiser_sees_the_list_kept_and_cannot_change_it(organiser, world):
    before = stored(world.player)
    draw(world.session)
    page = organiser.get(organiser_page(world)).content.decode()
    assert 'name="choice_1"' not in page
    names = {squad.slug: squad.name for squad in world.tournament.squads.all()}
    assert "<ol>" + "".join(f"<li>{names[slug]}</li>" for slug in before) + "</ol>" in page
    squad = seat_of(world.session, world.player).squad
    assert f"The draw gave them: <strong>{squad.name}</strong>." in page
    refused = organiser.post(organiser_post_url(world), {"choice_1": BA})
    assert refused.status_code == 409
    assert f"A squad is already drawn for {world.player.display_name}" in refused.content.decode()
    assert stored(world.player) == before
    assert not preference_entries().exists()


def test_only_the_tournaments_organisers_enter_preferences_there(world, role_client):
    before = stored(world.player)
    for role in ("judge", "player", "anonymous"):
        response = role_client(role).post(organiser_post_url(world), {"choice_1": BA})
        assert response.status_code in (302, 403), role
    stranger = UserFactory(username="stranger")
    stranger.save()
    client = login(role_client("anonymous"), stranger)
    assert client.post(organiser_post_url(world), {"choice_1": BA}).status_code == 403
    assert stored(world.player) == before


def test_a_save_over_someone_elses_newer_list_is_refused_and_says_what_changed(
    organiser, world, role_client
):
    version = version_of(organiser, organiser_page(world))
    player = role_client("player")
    url = reverse("tournaments:player_preferences", args=[world.tournament.slug])
    assert player.post(url, {"choice_1": BA}).status_code == 302
    refused = organiser.post(
        organiser_post_url(world), {"choice_1": UM, "choice_2": IF, "version": version}
    )
    assert refused.status_code == 409
    assert "saved in another tab or by someone else" in refused.content.decode()
    assert stored(world.player) == [BA]
    again = refused.context["preferences"]["form"]["version"].value()
    saved = organiser.post(
        organiser_post_url(world), {"choice_1": UM, "choice_2": IF, "version": again}
    )
    assert saved.status_code == 302 and stored(world.player) == [UM, IF]


# The judge's session sheet


def test_the_sheet_links_each_seated_players_preferences_until_the_draw(judge, world):
    sheet = reverse("tournaments:judge_session", args=[world.session.pk])
    first = seat_of(world.session)
    SquadPreference.objects.filter(player=first.player).delete()
    html = judge.get(sheet).content.decode()
    for seat in world.session.seats.all():
        assert judge_url(world.session, seat) in html
    name = first.player.display_name
    assert f'Enter preferences<span class="visually-hidden"> of {name}</span>' in html
    assert "Change preferences<span" in html
    draw(world.session)
    html = judge.get(sheet).content.decode()
    assert "/preferences/" not in html
    assert "enter or correct the list of squads" not in html


def test_the_judge_enters_a_seated_players_preferences_logged_as_themselves(judge, world):
    seat = seat_of(world.session)
    url = judge_url(world.session, seat)
    page = judge.get(url)
    assert page.status_code == 200
    assert f"Squad preferences of {seat.player.display_name}" in page.content.decode()
    response = judge.post(url, {"choice_1": BA, "choice_2": IF, "choice_3": UM})
    assert response["Location"] == reverse("tournaments:judge_session", args=[world.session.pk])
    assert stored(seat.player) == [BA, IF, UM]
    assert preference_entries().get().actor == world.judge
    sheet = judge.get(response["Location"]).content.decode()
    assert f"The squad preferences of {seat.player.display_name} are saved." in sheet


def test_the_judges_form_checks_as_the_players_does(judge, world):
    seat = seat_of(world.session)
    before = stored(seat.player)
    response = judge.post(judge_url(world.session, seat), {"choice_2": BA})
    assert response.status_code == 400
    assert "choice_2" in response.context["form"].errors  # a list starts at the 1st choice
    assert stored(seat.player) == before


def test_after_the_draw_the_judge_cannot_change_preferences(judge, world):
    seat = seat_of(world.session)
    before = stored(seat.player)
    draw(world.session)
    url = judge_url(world.session, seat)
    page = judge.get(url).content.decode()
    assert 'name="choice_1"' not in page and "can no longer change" in page
    refused = judge.post(url, {"choice_1": BA})
    assert refused.status_code == 409
    assert stored(seat.player) == before
    assert not preference_entries().exists()


def test_a_judge_of_another_session_cannot_enter_preferences(world, role_client):
    seat = seat_of(world.session)
    before = stored(seat.player)
    other = role_client("other_judge")
    assert other.get(judge_url(world.session, seat)).status_code == 403
    assert other.post(judge_url(world.session, seat), {"choice_1": BA}).status_code == 403
    # Nor through their own session, for a player seated elsewhere.
    theirs = Session.objects.get(judge=world.other_judge)
    response = other.post(judge_url(theirs, seat), {"choice_1": BA})
    assert response.status_code == 404
    assert stored(seat.player) == before
    assert not preference_entries().exists()


def test_an_organiser_may_enter_preferences_from_any_session_sheet(organiser, world):
    seat = seat_of(world.session)
    response = organiser.post(judge_url(world.session, seat), {"choice_1": UM})
    assert response.status_code == 302
    assert preference_entries().get().actor == world.organiser


# The player's own page, through the same action


def test_a_player_by_their_link_is_logged_without_an_account(world, role_client):
    url = reverse("tournaments:player_preferences", args=[world.tournament.slug])
    assert role_client("player").post(url, {"choice_1": IF}).status_code == 302
    assert preference_entries().get().actor is None


def test_a_player_logged_in_with_their_own_account_is_logged_as_it(world, client):
    account = UserFactory(username="marta")
    account.save()
    world.player.user = account
    world.player.save()
    login(client, account)
    url = reverse("tournaments:player_preferences", args=[world.tournament.slug])
    assert client.post(url, {"choice_1": IF}).status_code == 302
    assert preference_entries().get().actor == account


# Clearing a list entered by mistake: the same form, the same action


def cleared_entries():
    return ActivityLog.objects.filter(description_code="squad_preferences_cleared")


def has_list(player) -> bool:
    return SquadPreference.objects.filter(player=player, stage__isnull=True).exists()


def test_the_organiser_is_offered_to_clear_a_stored_list_only(organiser, world):
    assert (
        'data-testid="clear-preferences"' in organiser.get(organiser_page(world)).content.decode()
    )
    SquadPreference.objects.filter(player=world.player).delete()
    assert (
        'data-testid="clear-preferences"'
        not in organiser.get(organiser_page(world)).content.decode()
    )


def test_the_organiser_clears_a_players_preferences_logged_as_themselves(organiser, world):
    version = version_of(organiser, organiser_page(world))
    first, *_rest = stored(world.player)
    # The clear button sends the menus as they are: they are not what is kept.
    response = organiser.post(
        organiser_post_url(world), {"choice_1": first, "clear": "1", "version": version}
    )
    assert response.status_code == 302
    assert response["Location"] == organiser_page(world)
    assert not has_list(world.player)
    entry = cleared_entries().get()
    assert entry.actor == world.organiser
    assert entry.details == {"player": world.player.pk, "choices": []}
    page = organiser.get(response["Location"]).content.decode()
    assert f"The squad preferences of {world.player.display_name} are cleared." in page
    assert 'data-testid="clear-preferences"' not in page
    assert not preference_entries().exists()


def test_an_empty_save_is_refused_not_taken_for_a_clear(organiser, world):
    before = stored(world.player)
    version = version_of(organiser, organiser_page(world))
    response = organiser.post(
        organiser_post_url(world), {"choice_1": "", "choice_2": "", "version": version}
    )
    assert response.status_code == 400
    assert "Choose at least a 1st choice, or use Clear the preferences." in (
        response.content.decode()
    )
    assert stored(world.player) == before
    assert not cleared_entries().exists() and not preference_entries().exists()


def test_an_empty_save_without_a_list_says_what_to_choose(world, role_client):
    SquadPreference.objects.filter(player=world.player).delete()
    client = role_client("player")
    url = reverse("tournaments:player_preferences", args=[world.tournament.slug])
    response = client.post(url, {"choice_1": ""})
    html = response.content.decode()
    assert response.status_code == 400
    assert "Choose at least a 1st choice." in html and "use Clear the preferences" not in html
    assert "are cleared" not in html
    assert not has_list(world.player)
    assert not ActivityLog.objects.filter(description_code__startswith="squad_preferences").exists()


def test_saving_the_list_already_stored_says_nothing_changed(organiser, world, role_client):
    choices = stored(world.player)
    sent = {f"choice_{index}": slug for index, slug in enumerate(choices, start=1)}
    response = organiser.post(organiser_post_url(world), sent, follow=True)
    name = world.player.display_name
    assert f"The squad preferences of {name} are unchanged." in response.content.decode()
    client = role_client("player")
    url = reverse("tournaments:player_preferences", args=[world.tournament.slug])
    mine = client.post(url, sent, follow=True).content.decode()
    assert "Your squad preferences are unchanged." in mine
    assert stored(world.player) == choices
    assert not preference_entries().exists()


def test_the_judge_clears_a_seated_players_preferences_from_the_sheet(judge, world):
    seat = seat_of(world.session)
    url = judge_url(world.session, seat)
    assert 'data-testid="clear-preferences"' in judge.get(url).content.decode()
    response = judge.post(url, {"clear": "1"})
    assert response["Location"] == reverse("tournaments:judge_session", args=[world.session.pk])
    assert not has_list(seat.player)
    assert cleared_entries().get().actor == world.judge
    sheet = judge.get(response["Location"]).content.decode()
    name = seat.player.display_name
    assert f"The squad preferences of {name} are cleared." in sheet
    assert f'Enter preferences<span class="visually-hidden"> of {name}</span>' in sheet


def test_after_the_draw_a_list_cannot_be_cleared(organiser, judge, world):
    seat = seat_of(world.session)
    before = stored(seat.player)
    draw(world.session)
    assert (
        'data-testid="clear-preferences"'
        not in judge.get(judge_url(world.session, seat)).content.decode()
    )
    assert judge.post(judge_url(world.session, seat), {"clear": "1"}).status_code == 409
    refused = organiser.post(organiser_post_url(world, seat.player), {"clear": "1"})
    assert refused.status_code == 409
    assert f"A squad is already drawn for {seat.player.display_name}" in refused.content.decode()
    assert stored(seat.player) == before
    assert not cleared_entries().exists()


def test_a_clear_over_someone_elses_newer_list_is_refused(organiser, world, role_client):
    version = version_of(organiser, organiser_page(world))
    player = role_client("player")
    url = reverse("tournaments:player_preferences", args=[world.tournament.slug])
    assert player.post(url, {"choice_1": BA}).status_code == 302
    refused = organiser.post(organiser_post_url(world), {"clear": "1", "version": version})
    assert refused.status_code == 409
    assert stored(world.player) == [BA]
    assert not cleared_entries().exists()


def test_a_player_clears_their_own_list_by_their_link(world, role_client):
    client = role_client("player")
    url = reverse("tournaments:player_preferences", args=[world.tournament.slug])
    assert 'data-testid="clear-preferences"' in client.get(url).content.decode()
    response = client.post(url, {"clear": "1"}, follow=True)
    assert "Your squad preferences are cleared." in response.content.decode()
    assert not has_list(world.player)
    entry = cleared_entries().get()
    assert entry.actor is None and entry.details["player"] == world.player.pk
    log = reverse("tournaments:organiser_activity", args=[world.tournament.slug])
    page = role_client("organiser").get(log).content.decode()
    assert f"{world.player.display_name} (player)" in page
