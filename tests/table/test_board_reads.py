"""What a board request reads once and shares: the session's seats (their chapters and
their names, :func:`table.catalogue_words.seated_words`) and the figures' board labels
(:func:`table.board_svg.short_labels`), however many attacks and targets are listed; and a
snapshot's state, checked before it was saved, is read without checking it again."""

from __future__ import annotations

from unittest import mock

import pytest
from django.http import HttpResponse
from django.test import RequestFactory

from rules.engine import state as state_module
from rules.engine.caches import clear_caches
from table import touch_data, views
from table.actions import latest_snapshot, snapshot_state
from table.board_svg import short_labels
from table.catalogue_words import in_catalogue_words, seated_words
from table.touch_data import attack_targets
from tests.table.conftest import client_for, url
from tests.table.test_card_rerolls import ork_next_to_commander

pytestmark = pytest.mark.django_db


def test_the_seats_give_the_chapters_and_the_names_in_one_query(
    game, table, django_assert_num_queries
):
    seats = list(table.session.seats.select_related("player", "squad").order_by("seat_order"))
    unseated = seats[-1]
    unseated.squad = None
    unseated.save(update_fields=["squad"])
    with django_assert_num_queries(1):
        chapters, names = seated_words(table.session.pk)
    assert names == {f"p{seat.seat_order}": seat.player.display_name for seat in seats}
    first = seats[0]
    assert chapters["p1"] == chapters["p1-cmd"] == chapters["p1-m1"] == first.squad.slug
    assert f"p{unseated.seat_order}" not in chapters  # a seat without a squad has no chapter


def test_the_catalogue_words_of_a_game_page_take_a_fixed_number_of_queries(
    game, table, django_assert_num_queries
):
    """The tournament, the seats once, its catalogue's cards and weapons, the game and its
    last two states."""
    page = in_catalogue_words(lambda request, pk, number: HttpResponse("ok"))
    request = RequestFactory().get("/")
    with django_assert_num_queries(6):
        assert page(request, pk=table.session.pk, number=game.number).status_code == 200


def _counting(monkeypatch, module) -> list[int]:
    """Count the calls of ``module``'s ``short_labels``."""
    calls: list[int] = []

    def counted(state):
        calls.append(1)
        return short_labels(state)

    monkeypatch.setattr(module, "short_labels", counted)
    return calls


def test_the_touch_board_reads_the_labels_once_for_every_attack_and_target(game, monkeypatch):
    state = ork_next_to_commander(game, ())
    calls = _counting(monkeypatch, touch_data)
    options = attack_targets(state, "p1-cmd")["options"]
    assert sum(len(option["targets"]) for option in options) > 1
    assert any(t["name"].startswith("Or1 · o1") for o in options for t in o["targets"])
    assert len(calls) == 1


@pytest.mark.parametrize("page", ["attack_panel", "board"])
def test_the_board_reads_the_labels_once_for_every_attack_and_target(
    game, table, monkeypatch, page
):
    ork_next_to_commander(game, ())
    calls = _counting(monkeypatch, views)
    body = (
        client_for(table.judge)
        .get(url(page, game), {"attacker": "p1-cmd"}, HTTP_HX_REQUEST="true")
        .content.decode()
    )
    assert "p1-cmd fights Or1 · o1" in body
    assert len(calls) == 1


def test_a_snapshot_s_state_is_not_checked_again_when_read(game, table):
    """Every state is checked (or made by the engine) before it is saved: the board page
    and the Alien turn read it back without the schema check, most of a parse."""
    clear_caches("state.parsed")
    stored = latest_snapshot(game).state
    with mock.patch.object(state_module, "_schema_check", side_effect=AssertionError("checked")):
        assert snapshot_state(latest_snapshot(game)).to_json() == stored
        clear_caches("state.parsed")
        response = client_for(table.judge).get(url("board", game))
    assert response.status_code == 200
