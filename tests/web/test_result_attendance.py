"""A player ranked in a saved result played the session (decision 34): saving the result
checks in every seat the judge had not checked in nor declared forfeited, logged as such,
and the judge's sheet then says why attendance can no longer change instead of dropping
its buttons silently."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tournaments.actions.result_entry import record_result
from tournaments.models import ActivityLog, ActivityVerb, Forfeit, Seat

pytestmark = pytest.mark.django_db


def blank(session) -> list[dict]:
    return [{"seat": str(player)} for player in session.seats.values_list("player_id", flat=True)]


def test_saving_a_result_checks_in_the_players_it_ranks(world):
    seats = list(world.session.seats.order_by("seat_order"))
    Seat.objects.filter(pk=seats[2].pk).update(forfeit=Forfeit.NO_SHOW)
    record_result(world.session, blank(world.session), actor=world.judge, confirmed=True)
    after = {seat.pk: seat for seat in Seat.objects.filter(session=world.session)}
    assert after[seats[0].pk].checked_in_at is not None
    assert after[seats[1].pk].checked_in_at is not None
    # A forfeited player did not play: left as the judge declared.
    assert after[seats[2].pk].checked_in_at is None
    logged = ActivityLog.objects.filter(verb=ActivityVerb.CHECKED_IN, details__by_result=True)
    assert sorted(logged.values_list("details__player", flat=True)) == sorted(
        [seats[0].player_id, seats[1].player_id]
    )
    assert "ranked in its result" in logged.first().object_description


def test_a_player_the_judge_checked_in_keeps_the_time_and_no_second_entry(world, role_client):
    judge = role_client("judge")
    url = reverse("tournaments:judge_check_in", args=[world.session.pk])
    judge.post(url, {"player": world.player.pk, "version": world.session.version})
    first = Seat.objects.get(session=world.session, player=world.player).checked_in_at
    record_result(world.session, blank(world.session), actor=world.judge, confirmed=True)
    assert Seat.objects.get(session=world.session, player=world.player).checked_in_at == first
    assert not ActivityLog.objects.filter(
        details__by_result=True, details__player=world.player.pk
    ).exists()


def test_the_sheet_says_attendance_is_closed_once_the_result_is_saved(world, role_client):
    judge = role_client("judge")
    sheet = reverse("tournaments:judge_session", args=[world.session.pk])
    before = judge.get(sheet).content.decode()
    assert before.count(">Check in</button>") == 3
    assert 'data-testid="attendance-closed"' not in before
    record_result(world.session, blank(world.session), actor=world.judge, confirmed=True)
    after = judge.get(sheet).content.decode()
    assert ">Check in</button>" not in after
    assert after.count('<span class="badge ok">checked in</span>') == 3
    assert 'data-testid="attendance-closed"' in after
    judge.cookies["django_language"] = "it"
    italian = judge.get(sheet, HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert "Le presenze sono chiuse" in italian


def test_a_result_saved_before_this_rule_shows_its_unchecked_players_as_played(world, role_client):
    record_result(world.session, blank(world.session), actor=world.judge, confirmed=True)
    Seat.objects.filter(session=world.session).update(checked_in_at=None)
    page = role_client("judge").get(reverse("tournaments:judge_session", args=[world.session.pk]))
    assert page.content.decode().count("played: ranked in the result") == 3
