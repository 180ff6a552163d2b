"""The judge's game services: setup from the seats, moves, attacks, Alien turns, undo."""

from __future__ import annotations

import json

import pytest
from django.utils import translation

from rules.engine.dice import DiceError, ScriptedDice, SeededDice
from rules.engine.geometry import Facing
from rules.engine.state import GameState
from table.actions import (
    GameError,
    StaleGameError,
    UploadError,
    attack_choices,
    carry_out_turn,
    check_sight,
    create_game,
    latest_snapshot,
    marine_attack,
    move_marine,
    parse_state_upload,
    remove_figure,
    request_alien_turn,
    set_life_points,
    snapshot_state,
    undo_to,
)
from table.game_setup import GameSetupError
from table.models import AlienTurnRequest, Snapshot, SnapshotKind, TurnStatus
from table.tasks import run_alien_turn
from tests.table.conftest import crew_tarantula, fresh_turn, rearrange
from tournaments.models import DiceRoll

pytestmark = pytest.mark.django_db


def current(game) -> GameState:
    return snapshot_state(latest_snapshot(game))


def test_game_from_the_seats(game, table):
    snapshot = latest_snapshot(game)
    assert (snapshot.number, snapshot.kind) == (1, SnapshotKind.SETUP)
    state = GameState.from_json(snapshot.state)
    assert [p.id for p in state.players] == ["p1", "p2", "p3"]
    assert [p.claw for p in state.players] == ["1", "2", "3"]
    squads = [seat.squad.slug for seat in table.session.seats.order_by("seat_order")]
    assert [p.squad for p in state.players] == squads
    assert len(state.figures) == 15
    # Seat 1 has a loadout: bolter commander, a plasma gun; the others the default loadout.
    assert state.figure("p1-cmd").weapons == ("bolter",)
    assert state.figure("p1-cmd").life_points == 6
    assert state.figure("p1-m2").unit == "heavy_weapon_marine"
    assert state.figure("p1-m2").weapons == ("plasma_gun",)
    assert state.figure("p2-cmd").weapons == ("power_axe", "laser_pistol")
    assert state.figure("p2-m4").weapons == ("missile_launcher",)
    assert state.figure("p2-m1").life_points == 2
    # The claw's squares are used first.
    claw = state.board.claw("1")
    assert {state.figure("p1-cmd").square, state.figure("p1-m1").square} == set(claw.squares)
    # Marines standing in a section surveyed it: its blips are on the board.
    assert snapshot.steps[0]["code"] == "survey"
    assert state.blips


def test_unknown_map_is_refused(table):
    with pytest.raises(GameSetupError, match="Unknown map"):
        create_game(table.session, "atlantis", "bob")


def test_unknown_policy_is_refused(table):
    with pytest.raises(GameError, match="policy"):
        create_game(table.session, "reference", "chaos")


def test_legal_move_appends_a_snapshot(game):
    snapshot = move_marine(game, "p1-m2", (5, 4), expected_number=1)
    assert (snapshot.number, snapshot.kind) == (2, SnapshotKind.MARINE_MOVE)
    assert current(game).figure("p1-m2").square == (5, 4)
    assert snapshot.events[-1]["kind"] == "moved"
    assert Snapshot.objects.filter(game=game).count() == 2


def test_a_marine_entering_a_new_section_surveys_it(game):
    """The move stops on the section's first square and the survey places its blips (a
    move that listed the section itself used to leave it empty)."""
    state = rearrange(game, {"p1-m2": (8, 5)})
    assert "B" not in state.surveyed_sections
    snapshot = move_marine(game, "p1-m2", (12, 5), expected_number=2)
    state = current(game)
    assert state.figure("p1-m2").square == (10, 5)  # the first square of section B
    assert "B" in state.surveyed_sections
    survey = next(step for step in snapshot.steps if step["code"] == "survey")
    assert survey["params"] == {"section": "B", "count": 5}
    placed = {b.square for b in state.blips} | {
        f.square for f in state.figures if f.side == "alien"
    }
    assert {(10, 8), (11, 1), (12, 6), (17, 2), (17, 8)} <= placed


def test_a_crewed_tarantula_moves_with_its_gunner(game):
    crew_tarantula(game)
    with pytest.raises(GameError, match="choose which way it faces"):
        move_marine(game, "p1-tarantula", (9, 5), expected_number=2)
    snapshot = move_marine(game, "p1-tarantula", (9, 5), expected_number=2, facing=Facing.EAST)
    state = current(game)
    assert set(state.figure("p1-tarantula").squares) == {(9, 5), (8, 5)}
    assert state.figure("p1-m2").squares == ((7, 5),)
    assert snapshot.summary == "p1-tarantula moved its front to 9,5."
    with pytest.raises(GameError, match="has already moved this turn"):
        move_marine(game, "p1-tarantula", (9, 6), expected_number=3, facing=Facing.SOUTH)
    fresh_turn(game)
    with pytest.raises(GameError, match="cannot end with its front on 9,9"):
        move_marine(game, "p1-tarantula", (9, 9), expected_number=4, facing=Facing.SOUTH)


def test_illegal_moves_say_why(game):
    with pytest.raises(GameError, match="cannot move to 0,0: the square is solid"):
        move_marine(game, "p1-m1", (0, 0), expected_number=1)
    with pytest.raises(GameError, match="cannot end a move on 4,2: p1-m4 stands there"):
        move_marine(game, "p1-m1", current(game).figure("p1-m4").square, expected_number=1)
    with pytest.raises(GameError, match="moves at most 4"):
        move_marine(game, "p1-m2", (5, 9), expected_number=1)
    with pytest.raises(GameError, match="no figure ghost"):
        move_marine(game, "ghost", (5, 4), expected_number=1)
    assert latest_snapshot(game).number == 1


def test_aliens_are_not_moved_by_the_judge(game):
    rearrange(game, aliens=[("ork-1", "ork", (5, 6))])
    with pytest.raises(GameError, match="alien"):
        move_marine(game, "ork-1", (6, 6), expected_number=2)


def test_a_stale_move_is_refused(game):
    move_marine(game, "p1-m2", (5, 4), expected_number=1)
    with pytest.raises(StaleGameError):
        move_marine(game, "p1-m4", (4, 4), expected_number=1)
    assert latest_snapshot(game).number == 2


def test_attack_with_typed_dice_is_recorded(game, table):
    rearrange(game, {"p2-m1": (4, 5)})
    options = attack_choices(current(game), "p1-m4")
    index = next(i for i, o in enumerate(options) if o.target == "p2-m1" and o.weapon == "bolter")
    assert options[index].odds.kill_probability("p2-m1") > 0
    snapshot = marine_attack(game, "p1-m4", index, ScriptedDice(values=[3, 3]), expected_number=2)
    assert snapshot.kind == SnapshotKind.MARINE_ATTACK
    assert not current(game).has_figure("p2-m1")
    rows = DiceRoll.objects.filter(batch=snapshot.dice_batch)
    assert [row.values for row in rows] == [[3, 3]]
    assert rows[0].source == "scripted" and rows[0].session_id == table.session.pk
    assert snapshot.dice_source == "scripted"


def test_attack_refuses_extra_typed_dice(game):
    rearrange(game, {"p2-m1": (4, 5)})
    options = attack_choices(current(game), "p1-m4")
    index = next(i for i, o in enumerate(options) if o.target == "p2-m1")
    rolls = DiceRoll.objects.count()
    with pytest.raises(DiceError, match=r"\(3 given, 2 used\)"):
        marine_attack(game, "p1-m4", index, ScriptedDice(values=[3, 3, 1]), expected_number=2)
    assert latest_snapshot(game).number == 2
    assert DiceRoll.objects.count() == rolls


def test_attack_choice_out_of_range(game):
    with pytest.raises(GameError, match="Choose one"):
        marine_attack(game, "p1-m1", 99, SeededDice(seed=1), expected_number=1)


def test_alien_turn_snapshot_and_dice(game, table):
    rearrange(game, aliens=[("ork-1", "ork", (5, 2))])
    turn = request_alien_turn(game, "bob", SeededDice(seed=11), expected_number=2)
    run_alien_turn.delay(str(turn.pk))
    turn.refresh_from_db()
    assert turn.status == TurnStatus.DONE
    snapshot = turn.snapshot
    assert (snapshot.number, snapshot.kind, snapshot.policy) == (3, SnapshotKind.ALIEN_TURN, "bob")
    assert snapshot.state["round"] == 2  # the Aliens close the round
    codes = [step["code"] for step in snapshot.steps]
    assert codes[0] == "turn_start" and codes[-2:] == ["turn_end", "round_starts"]
    assert "attack_chosen" in codes
    rows = list(DiceRoll.objects.filter(batch=snapshot.dice_batch).order_by("sequence"))
    assert len(rows) == len(snapshot.dice) > 0
    assert all(row.seed == "11" and row.source == "seeded" for row in rows)


def test_alien_turn_task_is_idempotent(game):
    rearrange(game, aliens=[("ork-1", "ork", (5, 2))])
    turn = request_alien_turn(game, "bob", SeededDice(seed=11), expected_number=2)
    assert run_alien_turn.delay(str(turn.pk)).get() == "done"
    rolls = DiceRoll.objects.count()
    assert run_alien_turn.delay(str(turn.pk)).get() == "done"
    carry_out_turn(turn.pk)
    assert latest_snapshot(game).number == 3
    assert DiceRoll.objects.count() == rolls
    assert run_alien_turn.delay("00000000-0000-0000-0000-000000000000").get() is None


def test_alien_turn_with_too_few_typed_dice_fails_cleanly(game):
    rearrange(game, aliens=[("ork-1", "ork", (5, 2))])
    turn = request_alien_turn(game, "bob", ScriptedDice(values=[1]), expected_number=2)
    rolls = DiceRoll.objects.count()
    carry_out_turn(turn.pk)
    turn.refresh_from_db()
    assert turn.status == TurnStatus.FAILED
    assert "not enough dice" in turn.error
    assert latest_snapshot(game).number == 2
    assert DiceRoll.objects.count() == rolls


def test_the_worker_writes_in_the_requesting_judges_language(game):
    rearrange(game, aliens=[("ork-1", "ork", (5, 2))])
    with translation.override("it"):
        turn = request_alien_turn(game, "bob", ScriptedDice(values=[1]), expected_number=2)
    assert turn.language == "it"
    with translation.override("en"):  # a worker's own language does not matter
        carry_out_turn(turn.pk)
    turn.refresh_from_db()
    assert turn.status == TurnStatus.FAILED
    assert turn.error.startswith("Mancano dadi"), turn.error
    with translation.override("it"):
        done = request_alien_turn(game, "bob", SeededDice(seed=3), expected_number=2)
    with translation.override("en"):
        carry_out_turn(done.pk)
    assert latest_snapshot(game).summary.startswith("Turno degli Alieni")


def test_stale_alien_turn_request_is_refused(game):
    with pytest.raises(StaleGameError):
        request_alien_turn(game, "bob", SeededDice(seed=1), expected_number=7)
    assert not AlienTurnRequest.objects.exists()


def test_undo_appends_a_copy(game):
    move_marine(game, "p1-m2", (5, 4), expected_number=1)
    snapshot = undo_to(game, 1, expected_number=2)
    assert (snapshot.number, snapshot.kind, snapshot.restored_from) == (3, SnapshotKind.UNDO, 1)
    assert snapshot.state == game.snapshots.get(number=1).state
    assert game.snapshots.count() == 3
    with pytest.raises(GameError, match="no step 9"):
        undo_to(game, 9, expected_number=3)


def test_judge_removes_a_figure_with_a_reason(game):
    with pytest.raises(GameError, match="reason"):
        remove_figure(game, "p2-m3", "dead", " ", expected_number=1)
    snapshot = remove_figure(game, "p2-m3", "left", "reached claw 2", expected_number=1)
    assert snapshot.kind == SnapshotKind.JUDGE_EDIT and snapshot.reason == "reached claw 2"
    assert not current(game).has_figure("p2-m3")


def test_upload_errors_name_the_json_path(game):
    data = latest_snapshot(game).state
    data["figures"][0]["squares"] = [[0, 0]]
    with pytest.raises(UploadError) as caught:
        parse_state_upload(json.dumps(data))
    assert caught.value.problems[0].path == "$.figures[0].squares[0]"
    with pytest.raises(UploadError, match="line 1"):
        parse_state_upload("{nope")


def test_line_of_sight_between_figures_and_squares(game):
    state = current(game)
    seen = check_sight(state, "p1-m4", "4,9", for_firing=True)
    assert seen.sight.visible
    blocked = check_sight(state, "1,1", "p1-m4", for_firing=False)
    assert not blocked.sight.visible and blocked.sight.reason
    with pytest.raises(GameError, match="neither a figure id nor a square"):
        check_sight(state, "nobody", "1,1", for_firing=True)


def test_passing_through_another_players_figures_needs_their_permission(game):
    rearrange(game, {"p2-m1": (4, 3), "p2-m2": (5, 3)})
    with pytest.raises(GameError, match="cannot reach 5,4: walls, closed bulkheads or other"):
        move_marine(game, "p1-m1", (5, 4), expected_number=2)
    move_marine(game, "p1-m1", (5, 4), expected_number=2, pass_through=True)
    assert current(game).figure("p1-m1").square == (5, 4)


def test_judge_corrects_life_points(game):
    with pytest.raises(GameError, match="at least 1 life point"):
        set_life_points(game, "p1-cmd", 0, "overruled", expected_number=1)
    snapshot = set_life_points(game, "p1-cmd", 4, "doubtful sight overruled", expected_number=1)
    assert snapshot.kind == SnapshotKind.JUDGE_EDIT
    assert "now has 4 life points (was 6)" in snapshot.summary
    assert current(game).figure("p1-cmd").life_points == 4


def test_extended_tpk_loadout_brings_its_extra_marines(table):
    seat = table.session.seats.order_by("seat_order").first()
    seat.loadout.extra_marine_weapons = ["lascannon", "conversion-beamer"]
    seat.loadout.save()
    game = create_game(table.session, "tpk-ring", "bob")
    state = current(game)
    assert len(state.figures_of("p1")) == 7
    extra = state.figure("p1-m6")
    assert (extra.unit, extra.weapons) == ("extra_heavy_weapon_marine", ("conversion_beamer",))
