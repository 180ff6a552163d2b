"""Organiser, judge and public pages of issue 15: editing and withdrawing players, check-in
and no-shows, the stage checklist beside the close button, undoing an advance, the
qualifier override's limits and the public player page."""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from rules.engine.dice import SeededDice
from tests.factories import confirm_stage
from tournaments.actions.session_setup import draw_squads
from tournaments.actions.stage_advance import advance
from tournaments.models import Forfeit, Registration, Seat, Session, StageStatus

pytestmark = pytest.mark.django_db


@pytest.fixture
def organiser(world, role_client):
    return role_client("organiser")


def player_url(world, name: str, player=None) -> str:
    return reverse(name, args=[world.tournament.slug, (player or world.player).pk])


def test_edit_refuses_a_display_name_already_shown(organiser, world):
    other = Registration.objects.filter(tournament=world.tournament).exclude(player=world.player)
    taken = other.first().player.display_name
    url = player_url(world, "tournaments:organiser_player")
    response = organiser.post(url, {"name": "Nuovo Nome", "nickname": taken.lower()})
    assert response.status_code == 400
    assert "already shown as" in str(response.context["form"].errors["nickname"])
    response = organiser.post(url, {"name": "Nuovo Nome", "nickname": "Nuovo"})
    assert response.status_code == 302
    world.player.refresh_from_db()
    assert world.player.display_name == "Nuovo"


def test_withdraw_needs_a_reason_then_forfeits_or_seats_a_reserve(organiser, world):
    url = player_url(world, "tournaments:organiser_player_withdraw")
    response = organiser.post(url, {"withdraw-reason": ""})
    assert response.status_code == 400
    assert "Say why" in str(response.context["withdraw_form"].errors["reason"])
    response = organiser.post(url, {"withdraw-reason": "ill"})
    assert response.status_code == 302
    seat = Seat.objects.get(session=world.session, player=world.player)
    assert seat.forfeit == Forfeit.WITHDRAWN_UNPLAYED, "the session had not started"
    page = organiser.get(player_url(world, "tournaments:organiser_player")).content.decode()
    assert "Withdrew on" in page and "ill" in page
    players_page = organiser.get(
        reverse("tournaments:organiser_players", args=[world.tournament.slug])
    ).content.decode()
    assert "Withdrawn" in players_page


def test_judge_checks_in_and_declares_a_no_show_after_the_delay(world, role_client):
    judge = role_client("judge")
    sheet = reverse("tournaments:judge_session", args=[world.session.pk])
    assert "Check in" in judge.get(sheet).content.decode()
    no_show = reverse("tournaments:judge_no_show", args=[world.session.pk])
    data = {"player": world.player.pk, "version": world.session.version}
    judge.post(no_show, data)
    assert not Seat.objects.get(session=world.session, player=world.player).forfeit
    Session.objects.filter(pk=world.session.pk).update(
        scheduled_at=timezone.now() - timedelta(minutes=20)
    )
    world.session.refresh_from_db()
    page = judge.get(sheet).content.decode()
    assert "No-show" in page
    response = judge.post(no_show, {"player": world.player.pk, "version": world.session.version})
    assert response.status_code == 302
    assert Seat.objects.get(session=world.session, player=world.player).forfeit == "no_show"
    check_in = reverse("tournaments:judge_check_in", args=[world.session.pk])
    other = world.session.seats.exclude(player=world.player).first()
    world.session.refresh_from_db()
    judge.post(check_in, {"player": other.player_id, "version": world.session.version})
    other.refresh_from_db()
    assert other.checked_in_at is not None


def test_stage_page_shows_the_checklist_and_the_close_button_only_when_it_can_close(
    organiser, world
):
    url = reverse("tournaments:organiser_stage", args=[world.tournament.slug, 1])
    page = organiser.get(url).content.decode()
    assert 'data-check="results"' in page and 'data-check="draws"' in page
    assert 'id="advance-form"' not in page
    dashboard = reverse("tournaments:organiser_dashboard", args=[world.tournament.slug])
    assert 'id="advance-form"' not in organiser.get(dashboard).content.decode()
    for session in world.stage.sessions.all():
        draw_squads(session, SeededDice(seed=session.pk))
    confirm_stage(world.stage, lambda seat: seat.player_id)
    page = organiser.get(url).content.decode()
    assert 'data-check="results"' not in page and 'id="advance-form"' in page
    assert 'id="advance-form"' in organiser.get(dashboard).content.decode()


def test_qualifier_override_out_of_range_is_a_form_error(organiser, world):
    url = reverse("tournaments:organiser_stage", args=[world.tournament.slug, 1])
    data = {"stipulation_kind": "alien_hunt", "stip-rounds": "8", "seating_method": "random"}
    for count, expected in (("0", "from 3 to 8, not 0"), ("99", "from 3 to 8, not 99")):
        response = organiser.post(url, {**data, "qualifier_count": count})
        assert response.status_code == 400
        assert expected in str(response.context["form"].errors["qualifier_count"])


def test_undo_advance_from_the_page_needs_a_reason(organiser, world):
    for session in world.stage.sessions.all():
        draw_squads(session, SeededDice(seed=session.pk))
    confirm_stage(world.stage, lambda seat: seat.player_id)
    advance(world.tournament, SeededDice(seed=3))
    url = reverse("tournaments:organiser_undo_advance", args=[world.tournament.slug])
    response = organiser.post(url, {"undo-reason": ""})
    assert response.status_code == 400
    assert "Say why" in str(response.context["undo_form"].errors["reason"])
    response = organiser.post(url, {"undo-reason": "wrong points in session 1"})
    assert response.status_code == 302
    world.stage.refresh_from_db()
    assert world.stage.status == StageStatus.OPEN


def test_public_player_page_and_links(client, world):
    url = reverse("tournaments:player", args=[world.tournament.slug, world.player.pk])
    page = client.get(url).content.decode()
    assert world.player.display_name in page
    assert "shown after the session" in page
    session_page = client.get(
        reverse("tournaments:session", args=[world.tournament.slug, world.session.pk])
    ).content.decode()
    assert f'href="{url}"' in session_page
    missing = client.get(reverse("tournaments:player", args=[world.tournament.slug, 999999]))
    assert missing.status_code == 404
