"""A marine entering a new section of a Solitaire game: the Solitaire survey, its dice
(app or typed) recorded with the move, and the board page's move form."""

from __future__ import annotations

import json

import pytest

from rules.engine.dice import DiceError, SeededDice
from rules.engine.geometry import Facing
from rules.engine.play.progress import with_progress
from rules.engine.state import GameState
from table.actions import (
    create_game,
    latest_snapshot,
    move_marine,
    snapshot_state,
    upload_state,
)
from table.game_setup import SolitaireSetup
from table.models import Game, SnapshotKind
from tests.table.conftest import client_for, crew_tarantula, rearrange, url
from tournaments.domain.typed_dice import TypedDice
from tournaments.models import DiceRoll

pytestmark = pytest.mark.django_db

# p1-m2 walks from 8,5 towards 12,5 and stops on 10,5, the first square of section B (the
# third section surveyed: A and D were before). Its survey, with the pile ork,
# gretchin: d3 = 1 (two blips: all that are left); d6 = 1 draws the ork; d12 5,1 is 14,1,
# which a marine sees: re-rolled; d12 1,1 is 10,1; the gretchin, the last token, needs no
# draw die; d12 2,2 is 11,2.
SURVEY_DICE = [1, 1, 5, 1, 1, 1, 2, 2]


@pytest.fixture
def solitaire(table) -> Game:
    """A Solitaire game whose hidden blip pile holds an ork and a gretchin, in this order,
    and whose sections A and D (where the squads start) were surveyed earlier."""
    tokens = SolitaireSetup({"ork": 1, "gretchin": 1})
    game = create_game(
        table.session, "hunt-derelict", "solitaire", solitaire=tokens, actor=table.judge
    )
    state = with_progress(current(game), blip_pile=("ork", "gretchin"))
    state = state.replace(surveyed_sections=("A", "D"))
    upload_state(game, json.dumps(state.to_json()), expected_number=1)
    rearrange(game, {"p1-m2": (8, 5)})
    return game


def current(game: Game) -> GameState:
    return snapshot_state(latest_snapshot(game))


def into_section_b(game: Game, dice=None):
    return move_marine(game, "p1-m2", (12, 5), expected_number=3, dice=dice)


def test_app_dice_survey_the_section_and_are_recorded_with_the_move(solitaire, table):
    snapshot = into_section_b(solitaire, SeededDice(seed=5))
    state = current(solitaire)
    assert snapshot.kind == SnapshotKind.MARINE_MOVE
    assert state.figure("p1-m2").square == (10, 5)
    assert "B" in state.surveyed_sections
    survey = next(step for step in snapshot.steps if step["code"] == "survey")
    assert survey["params"] == {"section": "B", "count": 2}
    new = [b for b in state.blips if 10 <= b.square[0] <= 18 and 1 <= b.square[1] <= 9]
    assert sorted(b.type for b in new) == ["gretchin", "ork"]
    assert state.progress.blip_pile == ()
    assert (snapshot.dice_source, snapshot.seed) == ("seeded", "5")
    assert snapshot.dice[0]["purpose"] == "survey_blip_count"
    rows = list(DiceRoll.objects.filter(batch=snapshot.dice_batch).order_by("sequence"))
    assert [row.values for row in rows] == [roll["values"] for roll in snapshot.dice]
    assert all(row.seed == "5" and row.session_id == table.session.pk for row in rows)


def test_typed_dice_place_the_blips_where_they_say(solitaire):
    snapshot = into_section_b(solitaire, TypedDice(values=list(SURVEY_DICE)))
    state = current(solitaire)
    assert {(b.square, b.type) for b in state.blips} >= {((10, 1), "ork"), ((11, 2), "gretchin")}
    codes = [step["code"] for step in snapshot.steps]
    assert codes == ["survey", "blip_placement_reroll", "blip_placed", "blip_placed"]
    assert snapshot.steps[1]["params"]["reason"] == "in_sight"
    assert snapshot.dice_source == "scripted" and snapshot.seed == ""
    rows = DiceRoll.objects.filter(batch=snapshot.dice_batch).order_by("sequence")
    assert [value for row in rows for value in row.values] == SURVEY_DICE
    assert {row.source for row in rows} == {"scripted"}


def test_too_few_typed_dice_name_the_missing_die_and_save_nothing(solitaire):
    rolls = DiceRoll.objects.count()
    with pytest.raises(DiceError, match="die 8, for blip placement, is needed but only 7"):
        into_section_b(solitaire, TypedDice(values=SURVEY_DICE[:-1]))
    assert latest_snapshot(solitaire).number == 3
    assert "B" not in current(solitaire).surveyed_sections
    assert DiceRoll.objects.count() == rolls


def test_typed_dice_left_over_are_refused(solitaire):
    rolls = DiceRoll.objects.count()
    with pytest.raises(DiceError, match=r"\(9 given, 8 used\)"):
        into_section_b(solitaire, TypedDice(values=[*SURVEY_DICE, 4]))
    assert latest_snapshot(solitaire).number == 3
    assert DiceRoll.objects.count() == rolls


def test_a_move_that_surveys_nothing_rolls_nothing(solitaire):
    snapshot = move_marine(solitaire, "p1-m2", (7, 5), expected_number=3, dice=SeededDice(seed=5))
    assert snapshot.dice == [] and snapshot.dice_batch is None and snapshot.dice_source == ""
    snapshot = move_marine(solitaire, "p1-m2", (8, 5), expected_number=4)
    assert snapshot.kind == SnapshotKind.MARINE_MOVE
    with pytest.raises(DiceError, match="not needed"):
        move_marine(solitaire, "p1-m2", (7, 5), expected_number=5, dice=TypedDice(values=[3]))


def test_without_dice_a_solitaire_survey_asks_for_them(solitaire):
    with pytest.raises(DiceError, match="die 1, for number of blips in the section"):
        into_section_b(solitaire)
    assert latest_snapshot(solitaire).number == 3


def test_a_tarantula_entering_a_section_surveys_with_the_dice(solitaire):
    crew_tarantula(solitaire)
    snapshot = move_marine(
        solitaire,
        "p1-tarantula",
        (10, 5),
        expected_number=4,
        facing=Facing.EAST,
        dice=SeededDice(seed=2),
    )
    assert "B" in current(solitaire).surveyed_sections
    assert snapshot.dice and snapshot.dice_source == "seeded"


def test_a_bob_game_surveys_by_the_markers_and_rolls_nothing(game):
    rearrange(game, {"p1-m2": (8, 5)})
    snapshot = move_marine(game, "p1-m2", (12, 5), expected_number=2, dice=SeededDice(seed=5))
    survey = next(step for step in snapshot.steps if step["code"] == "survey")
    assert survey["params"] == {"section": "B", "count": 5}
    assert snapshot.dice == [] and snapshot.dice_batch is None


# --- the board page -----------------------------------------------------------------------


def test_only_a_solitaire_board_asks_for_the_survey_dice(solitaire, game, table):
    client = client_for(table.judge)
    page = client.get(url("board", solitaire)).content.decode()
    assert 'name="move-mode"' in page and 'name="move-dice"' in page
    assert "nobody has surveyed in this Solitaire game" in page
    assert 'name="move-mode"' not in client.get(url("board", game)).content.decode()


def test_the_move_form_with_typed_dice_surveys_and_logs_it(solitaire, table):
    client = client_for(table.judge)
    data = {
        "move-figure": "p1-m2",
        "move-square": "12,5",
        "move-version": 3,
        "move-mode": "physical",
        "move-dice": ",".join(str(value) for value in SURVEY_DICE[:-1]),
    }
    short = client.post(url("move", solitaire), data)
    assert short.status_code == 400
    assert "die 8, for blip placement, is needed" in short.content.decode()
    assert latest_snapshot(solitaire).number == 3
    data["move-dice"] = ",".join(str(value) for value in SURVEY_DICE)
    response = client.post(url("move", solitaire), data)
    assert response.status_code == 302
    snapshot = latest_snapshot(solitaire)
    assert snapshot.kind == SnapshotKind.MARINE_MOVE and snapshot.dice_source == "scripted"
    page = client.get(url("board", solitaire)).content.decode()
    assert "Section B surveyed: 2 blips." in page
    assert "Blip placed on 10,1." in page  # the square as the rulers number it
    assert "square 14,1 is not usable (in a marine&#x27;s line of sight)" in page


def test_the_move_form_with_app_dice_shows_the_seed(solitaire, table):
    client = client_for(table.judge)
    data = {"move-figure": "p1-m2", "move-square": "12,5", "move-version": 3, "move-mode": "app"}
    response = client.post(url("move", solitaire), data, follow=True)
    assert "Rolled by the app with seed" in response.content.decode()
    assert latest_snapshot(solitaire).dice_source == "seeded"


def test_the_survey_dice_read_in_italian(solitaire, table):
    client = client_for(table.judge)
    client.cookies["django_language"] = "it"
    italian = {"HTTP_ACCEPT_LANGUAGE": "it"}
    page = client.get(url("board", solitaire), **italian).content.decode()
    assert "in questa partita Solitario" in page
    data = {
        "move-figure": "p1-m2",
        "move-square": "12,5",
        "move-version": 3,
        "move-mode": "physical",
        "move-dice": "1",
    }
    short = client.post(url("move", solitaire), data, **italian).content.decode()
    assert "Mancano dadi: serve il 2º dado (pesca del segnalino Blip)" in short
