"""The demo's two board games (issue 13): preliminary session 1 played on the board to its
end, its confirmed result the one the game proposed and linked to it; semifinal 2's game
in progress. Loading twice gives the same games (seeded dice)."""

from io import StringIO

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from demo.management.commands.load_demo import DEMO_SLUG
from rules.engine.state import GameState
from table.models import Game
from table.result_from_game import propose_result
from tournaments.domain.scoring import SeatBreakdown
from tournaments.models import Session
from tournaments.sheets.seats import session_seats

pytestmark = pytest.mark.django_db


def games() -> dict[str, Game]:
    found = Game.objects.filter(session__stage__tournament__slug=DEMO_SLUG)
    return {f"{g.session.stage.number}.{g.session.number}": g for g in found}


def final_state(game: Game) -> GameState:
    return GameState.from_json(game.latest().state)


def test_the_demo_has_a_finished_game_with_its_result_and_one_in_progress():
    call_command("load_demo", stdout=StringIO())
    by_session = games()
    assert set(by_session) == {"1.1", "2.2"}
    finished, running = by_session["1.1"], by_session["2.2"]
    # The finished game: an Alien Hunt with the event deck, played to its end.
    end = final_state(finished)
    assert end.stipulation.type == "alien_hunt" and end.stipulation.switches["event_deck"]
    assert end.outcome is not None and end.progress.events_drawn
    session = Session.objects.get(pk=finished.session_id)
    version = session.result.latest_confirmed()
    assert version is not None
    assert (version.game_number, version.game_step) == (finished.number, finished.latest().number)
    proposal = propose_result(finished, session_seats(session))
    assert [SeatBreakdown.from_dict(b) for b in version.breakdown] == list(proposal.breakdowns)
    assert proposal.notes == ()
    # Its session page links the result to the game.
    page = Client().get(reverse("tournaments:session", args=[DEMO_SLUG, session.pk]))
    assert 'data-testid="result-from-board"' in page.content.decode()
    # The game in progress: set up and a few rounds played, no result yet.
    state = final_state(running)
    assert state.outcome is None and state.round > 1
    assert running.snapshots.count() > 1
    assert not hasattr(Session.objects.get(pk=running.session_id), "result")


def test_the_demos_games_are_the_same_every_time():
    call_command("load_demo", stdout=StringIO())
    first = {key: game.latest().state for key, game in games().items()}
    call_command("load_demo", "--reset", stdout=StringIO())
    again = {key: game.latest().state for key, game in games().items()}
    assert first == again
