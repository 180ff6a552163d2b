"""A session played without aliens on the judge's board (RULES §6: Catch the Flag "aliens
and events optional", TPK "no aliens recommended"; the stipulation's "Aliens in play" off).

The game gets the switch ``aliens`` false: a marine entering a new section finds no blip,
the round closes without an Alien turn, nothing alien is drawn on the board, and the result
the game proposes carries no alien token, so the result form takes it (game engine decision
16 in docs/decisions.md). The demo's semifinal, Catch the Flag without aliens, is such a
game.
"""

from __future__ import annotations

import re
from io import StringIO

import pytest
from django.core.management import call_command
from django.urls import reverse

from demo.board_play import BoardPlayer
from demo.management.commands.load_demo import DEMO_SLUG
from rules.engine.dice import SeededDice
from rules.engine.state import ALIEN, GameState
from table.actions import (
    GameError,
    create_game,
    latest_snapshot,
    move_marine,
    request_alien_turn,
    snapshot_state,
)
from table.board_svg import board_svg
from table.models import Game, SnapshotKind
from table.result_from_game import propose_result
from table.turn_actions import finish_turn, next_round
from table.turn_panel import turn_context
from tests.table.conftest import client_for, rearrange, url
from tests.web.test_result_form import page_data
from tournaments.actions.map_edits import save_map
from tournaments.models import Result, StipulationKind
from tournaments.sheets.seats import session_seats

pytestmark = pytest.mark.django_db

# Three docking claws on the west side of section A; section B, east of the two
# always-open doors between 6,2-7,2 and 6,3-7,3, holds an ork marker (8,1), a gretchin
# marker (10,4), a Genestealer marker (11,0), an R square (11,5) and the one flag spot
# (9,2), so that the squads go through it.
DECK = """name: test-deck
title: Test deck

+--+--+--+--+--+--+--+--+--+--+--+--+
|.1 .  .  .  .  .  . |.  .  .  .  .s|
+  +  +  +  +  +  +  +  +  +  +  +  +
|.1 .  .  .  .  .  . |.  .o .  .  . |
+  +  +  +  +  +  +  +  +  +  +  +  +
|.2 .  .  .  .  .  . A.  .  .F .  . |
+  +  +  +  +  +  +  +  +  +  +  +  +
|.2 .  .  .  .  .  . A.  .  .  .  . |
+  +  +  +  +  +  +  +  +  +  +  +  +
|.3 .  .  .  .  .  . |.  .  .  .g . |
+  +  +  +  +  +  +  +  +  +  +  +  +
|.3 .  .  .  .  .  . |.  .  .  .  .R|
+--+--+--+--+--+--+--+--+--+--+--+--+

section A board 1,0 6,5 West
section B board 7,0 11,5 East
marker o ork
marker g gretchin
marker s genestealer
"""
#: The aliens' material, all set: without aliens none of it is used. (The event deck with
#: aliens off is refused by the stipulation's check; the engine's tests play it.)
MATERIAL = {"reinforcements": {"ork": 2}, "reinforcements_per_turn": 1}


def deck_stage(table, kind: str, params: dict) -> None:
    """The session's stage set to ``kind`` and ``params`` on the test deck."""
    save_map(table.tournament, DECK)
    stage = table.stage
    stage.stipulation_kind = kind
    stage.stipulation_params = params
    stage.map_name = "test-deck"
    stage.save()


def deck_game(table, kind: str, params: dict) -> Game:
    """A game of the session on the test deck, its stage set to ``kind`` and ``params``."""
    deck_stage(table, kind, params)
    return create_game(table.session, "test-deck", "bob", actor=table.judge)


def flag_game(table, aliens: bool) -> Game:
    params = {"flag_value": 30, "rounds": 3, "aliens": aliens, **MATERIAL}
    return deck_game(table, StipulationKind.CATCH_THE_FLAG, params)


def current(game: Game) -> GameState:
    return snapshot_state(latest_snapshot(game))


@pytest.mark.parametrize("aliens", [False, True])
def test_a_marine_entering_a_new_section_finds_a_blip_only_with_aliens(table, aliens):
    game = flag_game(table, aliens)
    opening = current(game)
    assert opening.stipulation.switches["aliens"] is aliens
    assert opening.reinforcements == (("ork", "ork") if aliens else ())
    mover = next(f.id for f in opening.figures_of(opening.active_player) if f.unit == "marine")
    rearrange(game, {mover: (6, 2)})

    snapshot = move_marine(game, mover, (8, 2), expected_number=latest_snapshot(game).number)

    state = snapshot_state(snapshot)
    assert "B" in state.surveyed_sections
    if aliens:  # it stops on the first square of the section, and the blips go down
        assert state.figure(mover).squares == ((7, 2),)
        assert ["section_stop"] == [code for code, _ in snapshot.summary_parts][1:]
        assert {b.square for b in state.blips} | {f.squares[0] for f in state.aliens()}
    else:  # nothing to place: it walks on, and nothing appears
        assert state.figure(mover).squares == ((8, 2),)
        assert [code for code, _ in snapshot.summary_parts] == ["moved"]
        assert state.blips == () and state.aliens() == () and state.tokens == ()


def players_end_their_turns(game: Game) -> GameState:
    while not current(game).turn.aliens_phase:
        finish_turn(game, expected_number=latest_snapshot(game).number)
    return current(game)


def test_the_round_closes_without_an_alien_turn(table):
    game = flag_game(table, aliens=False)
    state = players_end_their_turns(game)
    assert latest_snapshot(game).summary_parts[0][0] == "round_over"
    assert turn_context(state, latest_snapshot(game).number, {})["next_round_offered"]
    with pytest.raises(GameError, match="played without aliens"):
        request_alien_turn(
            game, "bob", SeededDice(seed=1), expected_number=latest_snapshot(game).number
        )
    page = client_for(table.judge).get(url("board", game)).content.decode()
    assert 'data-testid="no-aliens"' in page and "Next round (no Alien turn)" in page
    assert url("alien_turn", game) not in page and 'data-play="alien-turn"' not in page

    next_round(game, expected_number=latest_snapshot(game).number)

    after = current(game)
    assert (after.round, after.progress.events_drawn, after.aliens()) == (2, (), ())


def test_a_whole_game_without_aliens_proposes_a_result_the_form_takes(table):
    game = flag_game(table, aliens=False)
    end = BoardPlayer(game, seed=1, actor=table.judge).play(10)
    assert end.outcome is not None and end.outcome.reason == "rounds_played"
    # No Alien turn, so no event card either, though the stage ticked the deck.
    assert not game.snapshots.filter(kind=SnapshotKind.ALIEN_TURN).exists()
    assert end.progress.events_drawn == () and end.reinforcements == ()
    for snapshot in game.snapshots.all():
        assert not snapshot.state.get("blips"), snapshot.number
        assert all(f["side"] != ALIEN for f in snapshot.state["figures"]), snapshot.number
    proposal = propose_result(game, session_seats(table.session))
    assert all(not breakdown.alien_tokens for breakdown in proposal.breakdowns)
    judge = client_for(table.judge)
    page = judge.get(reverse("table:result_from_game", args=[table.session.pk, game.number]))
    saved = judge.post(
        reverse("tournaments:judge_result", args=[table.session.pk]),
        page_data(page.context["form"]),
    )
    assert saved.status_code == 302, saved.content.decode()[:3000]
    assert Result.objects.get(session=table.session).latest_version() is not None


@pytest.mark.parametrize(("aliens", "status"), [(False, 302), (True, 400)])
def test_a_solitaire_game_needs_blip_tokens_only_with_aliens(table, aliens, status):
    deck_stage(table, StipulationKind.CATCH_THE_FLAG, {"flag_value": 30, "aliens": aliens})
    page = client_for(table.judge).get(reverse("table:games", args=[table.session.pk]))
    assert ('name="tokens_ork"' in page.content.decode()) is aliens  # asked only with aliens
    response = client_for(table.judge).post(
        reverse("table:games", args=[table.session.pk]),
        {"map_name": "test-deck", "policy": "solitaire", "label": ""},
    )
    assert response.status_code == status
    assert table.session.games.count() == (0 if aliens else 1)


def drawn(svg: str) -> dict[str, int]:
    """What the picture marks on the map's squares: R squares, alien marker letters and
    flags or flag spots (a figure's or a blip's text is not counted)."""
    letters = re.findall(r'fill="#(?:9a3412|4b5563)"[^>]*>([^<]+)</text>', svg)
    return {
        "R": letters.count("R"),
        "markers": sum(1 for letter in letters if letter in "ogs"),
        "flags": svg.count("⚑"),
    }


@pytest.mark.parametrize(
    ("kind", "params", "expected"),
    [
        (StipulationKind.TPK, {"aliens": False}, {"R": 0, "markers": 0, "flags": 0}),
        (StipulationKind.TPK, {"aliens": True}, {"R": 1, "markers": 3, "flags": 0}),
        (
            StipulationKind.CATCH_THE_FLAG,
            {"flag_value": 30, "aliens": False},
            {"R": 0, "markers": 0, "flags": 1},  # the flag itself, not its spot as well
        ),
    ],
)
def test_the_board_draws_only_what_the_stipulation_uses(table, kind, params, expected):
    state = current(deck_game(table, kind, params))
    assert drawn(board_svg(state)) == expected


def test_the_organisers_map_picture_shows_everything_the_map_marks(table):
    save_map(table.tournament, DECK)
    picture = client_for(table.organiser).get(
        reverse("table:map_picture", args=[table.tournament.slug, "test-deck"])
    )
    assert drawn(picture.content.decode()) == {"R": 1, "markers": 3, "flags": 1}


def test_the_demos_semifinal_game_has_no_aliens():
    call_command("load_demo", stdout=StringIO())
    game = Game.objects.get(
        session__stage__tournament__slug=DEMO_SLUG, session__stage__number=2, session__number=2
    )
    assert game.session.stage.stipulation_kind == StipulationKind.CATCH_THE_FLAG
    state = current(game)
    assert not state.stipulation.with_aliens and state.round > 1
    for snapshot in game.snapshots.all():
        assert not snapshot.state.get("blips"), snapshot.number
        assert all(f["side"] != ALIEN for f in snapshot.state["figures"]), snapshot.number
    proposal = propose_result(game, session_seats(game.session))
    assert all(not breakdown.alien_tokens for breakdown in proposal.breakdowns)
