"""Starting a Solitaire game: the Alien's blip tokens make the hidden pile, the mission's
adjustments are chosen, and the opening state surveys nothing (the first move does, with
the survey's dice)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from rules.engine.dice import SeededDice
from table.actions import create_game, latest_snapshot, move_marine, snapshot_state
from table.game_setup import GameSetupError, SolitaireSetup
from table.models import Game
from tests.table.conftest import client_for

pytestmark = pytest.mark.django_db

TOKENS = {"ork": 3, "gretchin": 2, "android": 1}


def games_url(table) -> str:
    return reverse("table:games", args=[table.session.pk])


def solitaire_post(**tokens: int) -> dict[str, object]:
    data: dict[str, object] = {"map_name": "hunt-derelict", "policy": "solitaire"}
    data.update({f"tokens_{kind}": count for kind, count in tokens.items()})
    return data


def test_the_tokens_make_the_pile_and_nothing_is_surveyed_yet(table):
    game = create_game(
        table.session,
        "hunt-derelict",
        "solitaire",
        solitaire=SolitaireSetup(TOKENS, mission="2"),
        actor=table.judge,
    )
    state = snapshot_state(latest_snapshot(game))
    switches = state.stipulation.switches
    # In the rules data's order of alien types: Gretchin, Orks, Androids.
    assert state.progress.blip_pile == ("gretchin",) * 2 + ("ork",) * 3 + ("android",)
    assert "blip_pile" not in switches
    assert switches["solitaire_mission"] == "2"
    assert state.surveyed_sections == () and state.blips == ()
    assert not [f for f in state.figures if f.side == "alien"]
    assert latest_snapshot(game).steps == []


def test_a_bob_game_surveys_the_sections_the_squads_start_in(table):
    game = create_game(table.session, "hunt-derelict", "bob", actor=table.judge)
    state = snapshot_state(latest_snapshot(game))
    assert state.surveyed_sections and state.blips
    assert "blip_pile" not in state.stipulation.switches and state.progress.blip_pile is None


def test_a_figure_starting_outside_its_claw_surveys_on_its_first_move(table):
    """Claw 1 holds two figures: p1-m2 starts outside it, in section A, which nobody has
    surveyed; its first move, even one inside A, surveys A with the move's dice."""
    game = create_game(
        table.session, "hunt-derelict", "solitaire", solitaire=SolitaireSetup(TOKENS)
    )
    start = snapshot_state(latest_snapshot(game))
    assert start.board.claw_of(start.figure("p1-m2").square) is None
    assert start.board.section_of(start.figure("p1-m2").square) == "A"
    snapshot = move_marine(game, "p1-m2", (5, 4), expected_number=1, dice=SeededDice(seed=3))
    after = snapshot_state(snapshot)
    assert after.surveyed_sections == ("A",)
    survey = next(step for step in snapshot.steps if step["code"] == "survey")
    assert survey["params"]["section"] == "A" and survey["params"]["count"] >= 6
    assert snapshot.dice[0]["purpose"] == "survey_blip_count"
    placed = len(after.blips) + sum(1 for f in after.figures if f.side == "alien")
    assert placed == survey["params"]["count"]
    assert len(after.progress.blip_pile) == sum(TOKENS.values()) - placed


def test_a_solitaire_game_without_tokens_is_refused(table):
    with pytest.raises(GameSetupError, match="at least one blip token"):
        create_game(table.session, "hunt-derelict", "solitaire", solitaire=SolitaireSetup({}))
    with pytest.raises(GameSetupError, match="at least one blip token"):
        create_game(table.session, "hunt-derelict", "solitaire")
    assert not Game.objects.filter(session=table.session).exists()


def test_an_unknown_mission_or_token_is_refused(table):
    with pytest.raises(GameSetupError, match="no Solitaire adjustments for mission 99"):
        create_game(
            table.session,
            "hunt-derelict",
            "solitaire",
            solitaire=SolitaireSetup(TOKENS, mission="99"),
        )
    with pytest.raises(GameSetupError, match="does not know: grot"):
        create_game(
            table.session, "hunt-derelict", "solitaire", solitaire=SolitaireSetup({"grot": 2})
        )
    assert not Game.objects.filter(session=table.session).exists()


# --- the new-game form --------------------------------------------------------------------


def test_the_form_creates_a_solitaire_game_with_its_tokens(table):
    client = client_for(table.judge)
    data = solitaire_post(**TOKENS)
    data["solitaire_mission"] = "1"
    response = client.post(games_url(table), data)
    game = Game.objects.get(session=table.session)
    assert response.status_code == 302 and game.policy == "solitaire"
    state = snapshot_state(latest_snapshot(game))
    switches = state.stipulation.switches
    assert sorted(state.progress.blip_pile) == sorted(
        kind for kind, count in TOKENS.items() for _ in range(count)
    )
    assert switches["solitaire_mission"] == "1"


def test_the_form_asks_for_tokens_and_keeps_what_was_typed(table):
    client = client_for(table.judge)
    data = solitaire_post(ork=0)
    data["label"] = "Table 2"
    response = client.post(games_url(table), data)
    page = response.content.decode()
    assert response.status_code == 400
    assert "give how many blip tokens of each type" in page
    assert 'value="Table 2"' in page
    negative = client.post(games_url(table), solitaire_post(ork=-1))
    assert negative.status_code == 400
    assert "greater than or equal to 0" in negative.content.decode()
    assert not Game.objects.filter(session=table.session).exists()


def test_other_policies_ignore_the_token_fields(table):
    client = client_for(table.judge)
    data = solitaire_post(ork=4)
    data["policy"] = "bob"
    assert client.post(games_url(table), data).status_code == 302
    state = snapshot_state(latest_snapshot(Game.objects.get(session=table.session)))
    assert "blip_pile" not in state.stipulation.switches and state.progress.blip_pile is None


def test_the_solitaire_fields_read_in_italian(table):
    client = client_for(table.judge)
    client.cookies["django_language"] = "it"
    page = client.get(games_url(table), HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert "Segnalini Blip: Orco" in page
    assert "Partita Solitario" in page
    response = client.post(games_url(table), solitaire_post(), HTTP_ACCEPT_LANGUAGE="it")
    assert "almeno uno" in response.content.decode()
