"""The board's step summaries name the players as the rest of the board does (``Giulia
plays.``, not ``p2 plays.``): the banner, the history, the log and the spectators' view,
for the steps stored with their players' ids too. A step older than the summary parts
keeps its stored text; a player the page has no name for keeps their id."""

from __future__ import annotations

from django.utils import translation

from rules.engine.naming import Naming, named
from table.actions import latest_snapshot
from table.models import Snapshot
from table.seating import game_player_id
from table.snapshot_summaries import snapshot_summary
from table.turn_actions import finish_turn
from tests.table.conftest import client_for, url


def seat_names(game) -> dict[str, str]:
    seats = game.session.seats.select_related("player")
    return {game_player_id(seat): seat.player.display_name for seat in seats}


def test_a_turn_passed_names_the_next_player_on_every_page(game, table):
    judge = client_for(table.judge)
    version = latest_snapshot(game).number
    assert judge.post(url("end_turn", game), {"version": version}).status_code == 302
    following = latest_snapshot(game).state["active_player"]
    name = seat_names(game)[following]
    for page in ("board", "step_log", "watch_panel"):
        body = judge.get(url(page, game)).content.decode()
        assert f"{name} plays." in body, page
        assert f"{following} plays." not in body, page
    italian = judge.get(url("board", game), HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert f"Tocca a {name}." in italian


def test_a_step_stored_with_ids_reads_with_names(game, table):
    """A step made outside a page (the demo, a worker, an import) stored its text with the
    players' ids: its parts write it again with their names on the board."""
    with translation.override("en"):
        snapshot = finish_turn(game, expected_number=latest_snapshot(game).number)
    following = snapshot.state["active_player"]
    assert snapshot.summary == f"{following} plays."  # as stored
    name = seat_names(game)[following]
    history = client_for(table.judge).get(url("board", game)).content.decode()
    assert f"Turn and cards: {name} plays." in history


def test_an_old_summary_without_parts_keeps_its_text_and_an_unnamed_player_their_id(game):
    snapshot = finish_turn(game, expected_number=latest_snapshot(game).number)
    following = snapshot.state["active_player"]
    with translation.override("en"), named(Naming(players={following: "Giulia"})):
        assert snapshot_summary(snapshot) == "Giulia plays."
        Snapshot.objects.filter(pk=snapshot.pk).update(summary_parts=[])
        assert snapshot_summary(Snapshot.objects.get(pk=snapshot.pk)) == f"{following} plays."
    parts = [
        ["card_played", {"player": "p9", "card": "fire"}],
        ["forfeit", {"player": "p1", "count": 2}],
    ]
    Snapshot.objects.filter(pk=snapshot.pk).update(summary_parts=parts)
    with translation.override("en"), named(Naming(players={"p1": "Luca"})):
        assert snapshot_summary(Snapshot.objects.get(pk=snapshot.pk)) == (
            "p9 plays Fire! Luca forfeited: their 2 figures left play."
        )
