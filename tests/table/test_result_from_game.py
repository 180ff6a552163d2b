"""The result a board game proposes: kills, losses and tokens along the current line of the
game's history, and notes for what the board cannot attribute."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from django.utils import translation

from rules.engine.dice import ScriptedDice, SeededDice
from rules.engine.state import ALIEN, Figure, GameState, Stipulation, Token
from rules.engine.turns import leave_through_claw
from rules.engine.units import load_rules_data
from table.actions import (
    attack_choices,
    carry_out_turn,
    create_game,
    latest_snapshot,
    marine_attack,
    remove_figure,
    remove_player_figures,
    request_alien_turn,
    snapshot_state,
    undo_to,
    upload_state,
)
from table.models import Game, Snapshot, SnapshotKind
from table.reroll_actions import reroll_die
from table.result_from_game import current_line, marine_class, propose_result
from table.snapshot_summaries import snapshot_summary
from table.step_outcome import step_outcome
from table.turn_actions import finish_turn, next_round
from tests.table.conftest import fresh_turn
from tournaments.actions.result_entry import ImplausibleResult, record_result
from tournaments.domain.scoring import (
    AlienTokens,
    LossCause,
    MarineClass,
    MarineKill,
    MarineLoss,
    SeatBreakdown,
    score_session,
)
from tournaments.queries.session_stipulation import result_limits
from tournaments.sheets.seats import session_seats

pytestmark = pytest.mark.django_db


def six() -> ScriptedDice:
    """Two red dice showing 3: six, enough to kill any marine or alien in these scenarios."""
    return ScriptedDice(values=[3, 3])


def current(game: Game) -> GameState:
    return snapshot_state(latest_snapshot(game))


def arranged(
    table,
    squares: dict[str, tuple[int, int]] | None = None,
    *,
    life_points: dict[str, int] | None = None,
    aliens=(),
    tokens=(),
) -> Game:
    """A game whose set-up has some figures moved, some aliens on the board, some tokens
    revealed and no blips (a hand-built position the history starts from)."""
    game = create_game(table.session, "hunt-derelict", "bob", actor=table.judge)
    state = current(game).replace(blips=(), tokens=tuple(tokens))
    for fid, square in (squares or {}).items():
        state = state.with_figure(state.figure(fid).moved_to((square,)))
    for fid, lp in (life_points or {}).items():
        state = state.with_figure(replace(state.figure(fid), life_points=lp))
    for fid, unit, square in aliens:
        state = state.with_figure(
            Figure(fid, ALIEN, None, unit, (square,), life_points=1, weapons=(f"{unit}_weapon",))
        )
    data = GameState.from_json(state.to_json()).to_json()
    Snapshot.objects.filter(game=game, number=1).update(state=data)
    return game


def attack(game: Game, attacker: str, dice: ScriptedDice | None = None, **match) -> Snapshot:
    """The attacker's option whose attributes equal ``match``, rolled with ``dice``."""
    options = attack_choices(current(game), attacker)
    index = next(
        i
        for i, option in enumerate(options)
        if all(getattr(option, name) == value for name, value in match.items())
    )
    return marine_attack(
        game, attacker, index, dice or six(), expected_number=latest_snapshot(game).number
    )


def by_seat(table, proposal) -> dict[int, SeatBreakdown]:
    """The proposal's breakdowns by seat order (1, 2, 3)."""
    order = {seat.player_id: seat.seat_order for seat in session_seats(table.session)}
    return {order[int(b.seat)]: b for b in proposal.breakdowns}


def player_id(table, seat_order: int) -> str:
    return str(table.session.seats.get(seat_order=seat_order).player_id)


def test_a_kill_between_players_and_its_loss(table):
    game = arranged(table, {"p1-m4": (4, 2), "p2-m1": (4, 5), "p1-cmd": (5, 2), "p2-m4": (5, 5)})
    attack(game, "p1-m4", weapon="bolter", target="p2-m1")
    attack(game, "p1-cmd", weapon="bolter", target="p2-m4")
    proposal = propose_result(game, session_seats(table.session))
    seats = by_seat(table, proposal)
    p2 = player_id(table, 2)
    # Seats are named by their player's id, the game's players by seat order (p1, p2...).
    assert seats[1].seat == player_id(table, 1)
    assert seats[1].kills == (
        MarineKill(p2, MarineClass.LIGHT, 1),  # a laser rifle
        MarineKill(p2, MarineClass.HEAVY, 1),  # a missile launcher
    )
    assert seats[2].losses == (
        MarineLoss(MarineClass.LIGHT, LossCause.PLAYER, seats[1].seat, 1),
        MarineLoss(MarineClass.HEAVY, LossCause.PLAYER, seats[1].seat, 1),
    )
    assert not seats[3].kills and not seats[3].losses
    assert proposal.notes == ()
    assert proposal.step == 3
    cards = score_session(proposal.breakdowns)
    assert [cards[s.seat].total for s in proposal.breakdowns] == [15, -15, 0]
    assert all(not card.problems for card in cards.values())
    assert set(proposal.survivors) == {int(s.seat) for s in proposal.breakdowns}


def test_blast_kills_an_enemy_and_the_own_marine_beside_it(table):
    game = arranged(
        table, {"p2-m4": (4, 8), "p1-m1": (4, 5), "p2-m1": (5, 5)}, life_points={"p2-m1": 1}
    )
    fresh_turn(game, "p2")
    attack(game, "p2-m4", weapon="missile_launcher", aim=(4, 5))
    assert not current(game).has_figure("p1-m1") and not current(game).has_figure("p2-m1")
    seats = by_seat(table, propose_result(game, session_seats(table.session)))
    assert seats[2].kills == (MarineKill(player_id(table, 1), MarineClass.LIGHT, 1),)
    assert seats[2].losses == (MarineLoss(MarineClass.LIGHT, LossCause.OWN_FIRE, None, 1),)
    assert seats[1].losses == (
        MarineLoss(MarineClass.LIGHT, LossCause.PLAYER, player_id(table, 2), 1),
    )


def test_alien_kills_take_a_free_token_of_their_type(table):
    game = arranged(
        table,
        {"p1-m4": (4, 2), "p1-cmd": (5, 2)},
        aliens=[("ork-1", "ork", (4, 5)), ("ork-2", "ork", (5, 5))],
        tokens=[Token("blip-1-1", "blip", "ork")],
    )
    attack(game, "p1-m4", target="ork-1")
    attack(game, "p1-cmd", target="ork-2")
    proposal = propose_result(game, session_seats(table.session))
    ork = load_rules_data().alien_tokens["ork"]
    # One ork token was revealed: the first kill takes it, the second scores nothing.
    assert by_seat(table, proposal)[1].alien_tokens == (AlienTokens("ork", ork, 1),)
    assert proposal.notes == ()


def test_alien_kill_without_any_token_on_the_board_is_noted(table):
    game = arranged(table, {"p1-m4": (4, 2)}, aliens=[("ork-1", "ork", (4, 5))])
    attack(game, "p1-m4", target="ork-1")
    proposal = propose_result(game, session_seats(table.session))
    assert by_seat(table, proposal)[1].alien_tokens == ()
    [note] = proposal.notes
    assert "Step 2" in note and "ork-1" in note and "no Ork token" in note


def test_genestealers_give_nothing_and_no_note(table):
    game = arranged(table, {"p1-m4": (4, 2)}, aliens=[("gs-1", "genestealer", (4, 5))])
    attack(game, "p1-m4", target="gs-1")
    proposal = propose_result(game, session_seats(table.session))
    assert not current(game).has_figure("gs-1")
    assert by_seat(table, proposal)[1].alien_tokens == () and proposal.notes == ()


def alien_favoured_dice(game: Game, alien: str, seed: int) -> ScriptedDice:
    """The dice of an Alien turn rolled with ``seed``, with every combat die of ``alien`` at
    its highest face and every other combat die at 0 (other rolls as they came)."""
    base = latest_snapshot(game).number
    carry_out_turn(request_alien_turn(game, "bob", SeededDice(seed=seed), expected_number=base).pk)
    highest = {"red": 3, "white": 2}
    values = []
    for roll in latest_snapshot(game).dice:
        if roll["kind"] in highest:
            face = highest[roll["kind"]] if roll.get("subject") == alien else 0
            values += [face] * len(roll["values"])
        else:
            values += roll["values"]
    undo_to(game, base, expected_number=latest_snapshot(game).number)
    return ScriptedDice(values=values)


def test_a_marine_killed_in_the_alien_turn_is_a_loss_to_aliens(table):
    game = arranged(
        table, {"p2-m1": (7, 4)}, life_points={"p2-m1": 1}, aliens=[("ork-1", "ork", (7, 5))]
    )
    dice = alien_favoured_dice(game, "ork-1", seed=5)
    turn = request_alien_turn(game, "bob", dice, expected_number=latest_snapshot(game).number)
    carry_out_turn(turn.pk)
    assert latest_snapshot(game).kind == SnapshotKind.ALIEN_TURN
    assert not current(game).has_figure("p2-m1")
    proposal = propose_result(game, session_seats(table.session))
    seats = by_seat(table, proposal)
    assert seats[2].losses == (MarineLoss(MarineClass.LIGHT, LossCause.ALIEN, None, 1),)
    assert not seats[1].kills and not seats[3].kills
    assert proposal.notes == ()


def with_event_card(game: Game, card: str) -> None:
    """The game's set-up with an event deck of ``card`` alone, drawn in the Alien turn."""
    state = current(game)
    switches = {**state.stipulation.switches, "event_deck": True, "event_cards": [card]}
    state = state.replace(stipulation=replace(state.stipulation, switches=switches))
    Snapshot.objects.filter(game=game, number=1).update(state=state.to_json())


def test_an_ork_its_special_weapon_killed_is_no_kill_and_no_note(table):
    """Ork Mekaniak (game engine decision 19): the Ork fires a plasma line, then dies."""
    game = arranged(table, {"p2-m1": (7, 4)}, aliens=[("ork-1", "ork", (7, 5))])
    with_event_card(game, "ork_mek")
    turn = request_alien_turn(game, "bob", SeededDice(seed=3), expected_number=1)
    carry_out_turn(turn.pk)
    snapshot = latest_snapshot(game)
    assert [s["params"] for s in snapshot.steps if s["code"] == "special_weapon_blew_up"] == [
        {"figure": "ork-1"}
    ]
    board = current(game)
    assert not board.has_figure("ork-1")
    proposal = propose_result(game, session_seats(table.session))
    assert proposal.notes == ()
    cards = score_session(proposal.breakdowns)
    assert [cards[player_id(table, n)].total for n in (1, 2, 3)] == [
        board.player(p).score for p in ("p1", "p2", "p3")
    ]


def test_a_suicide_android_scores_nobody_and_its_blast_is_a_loss_to_aliens(table):
    """Suicide Android (game engine decision 22), played through the board: the android
    walks next to the marine and explodes; the banner tells the blast and its end."""
    game = arranged(table, {"p2-m1": (7, 4)}, aliens=[("android-1", "android", (11, 5))])
    with_event_card(game, "suicide_android")
    turn = request_alien_turn(game, "bob", six(), expected_number=1)
    carry_out_turn(turn.pk)
    snapshot = latest_snapshot(game)
    [blast] = [s["params"] for s in snapshot.steps if s["code"] == "self_destruct_blast"]
    assert blast["targets"] == ["p2-m1"] and blast["total"] == 6
    board = current(game)
    assert not board.has_figure("android-1") and not board.has_figure("p2-m1")
    with translation.override("en"):
        lines = step_outcome(snapshot)
    assert "android-1 blows itself up on (8,4): p2-m1 takes 6 against its armour." in lines
    assert "android-1 is destroyed by its own blast (no token, no points)." in lines
    proposal = propose_result(game, session_seats(table.session))
    assert proposal.notes == ()
    seats = by_seat(table, proposal)
    assert seats[2].losses == (MarineLoss(MarineClass.LIGHT, LossCause.ALIEN, None, 1),)
    assert not any(seat.alien_tokens for seat in seats.values())
    cards = score_session(proposal.breakdowns)
    assert [cards[player_id(table, n)].total for n in (1, 2, 3)] == [
        board.player(p).score for p in ("p1", "p2", "p3")
    ]


def alien_turn_snapshot(game: Game, state: GameState, steps: list[dict]) -> Snapshot:
    """An Alien turn as the task stores it (the engine's own fights are hard to script)."""
    number = latest_snapshot(game).number + 1
    return Snapshot.objects.create(
        game=game, number=number, kind=SnapshotKind.ALIEN_TURN, state=state.to_json(), steps=steps
    )


def test_tokens_the_alien_turn_gives_are_checked_against_earlier_kills(table):
    game = arranged(
        table,
        {"p1-m4": (4, 2), "p2-m1": (7, 4)},
        aliens=[("ork-1", "ork", (4, 5)), ("ork-2", "ork", (7, 5)), ("gr-1", "gretchin", (8, 4))],
        tokens=[Token("blip-1-1", "blip", "ork"), Token("blip-8-1", "blip", "gretchin")],
    )
    attack(game, "p1-m4", target="ork-1")
    state = current(game)
    # In the Alien turn p2-m1 wins two fights: the engine hands out the ork token again
    # (a board from before kills marked tokens) and the gretchin token.
    tokens = tuple(replace(t, taken_by="p2") for t in state.tokens)
    after = state.without_figure("ork-2").without_figure("gr-1").replace(tokens=tokens)
    alien_turn_snapshot(
        game,
        after,
        [
            {"code": "killed", "params": {"target": "ork-2"}},
            {"code": "token_taken", "params": {"player": "p2", "unit": "ork", "points": 2}},
            {"code": "killed", "params": {"target": "gr-1"}},
            {"code": "token_taken", "params": {"player": "p2", "unit": "gretchin", "points": 1}},
        ],
    )
    proposal = propose_result(game, session_seats(table.session))
    seats = by_seat(table, proposal)
    values = load_rules_data().alien_tokens
    assert seats[1].alien_tokens == (AlienTokens("ork", values["ork"], 1),)
    assert seats[2].alien_tokens == (AlienTokens("gretchin", values["gretchin"], 1),)
    [note] = proposal.notes
    assert "Step 3" in note and "Ork" in note and "already taken" in note


def test_a_blip_revealed_and_killed_in_one_alien_turn_gives_its_token(table):
    """The blip turns out an Ork and dies fighting a marine in the same Alien turn: it is on
    the board neither before nor after the turn, yet the turn gave its token (a seeded whole
    game lost it, and the proposal's total fell 2 points short of the engine's score)."""
    game = arranged(table, {"p2-m1": (7, 4)})
    state = current(game)
    after = state.replace(tokens=(Token("blip-7-5", "blip", "ork", taken_by="p2"),))
    alien_turn_snapshot(
        game,
        after,
        [
            {"code": "blip_revealed", "params": {"blip": "blip-7-5", "unit": "ork"}},
            {"code": "killed", "params": {"target": "ork-blip-7-5"}},
            {"code": "token_taken", "params": {"player": "p2", "unit": "ork", "points": 2}},
        ],
    )
    proposal = propose_result(game, session_seats(table.session))
    ork = load_rules_data().alien_tokens["ork"]
    assert by_seat(table, proposal)[2].alien_tokens == (AlienTokens("ork", ork, 1),)
    assert proposal.notes == ()


def test_a_genestealer_token_the_alien_turn_gives_is_nothing_to_enter(table):
    """A marine wins a fight with a Genestealer in the Alien turn: the engine marks its
    token taken, worth nothing (RULES §7), and the result has nothing to enter for it."""
    game = arranged(table, {"p2-m1": (7, 4)}, aliens=[("gs-1", "genestealer", (7, 5))])
    state = current(game)
    after = state.without_figure("gs-1").replace(
        tokens=(Token("blip-7-5", "blip", "genestealer", taken_by="p2"),)
    )
    alien_turn_snapshot(
        game,
        after,
        [
            {"code": "killed", "params": {"target": "gs-1"}},
            {"code": "token_taken", "params": {"player": "p2", "unit": "genestealer", "points": 0}},
        ],
    )
    proposal = propose_result(game, session_seats(table.session))
    assert by_seat(table, proposal)[2].alien_tokens == ()
    assert proposal.notes == ()


def test_tokens_the_game_revealed_beyond_the_maps_markers_can_be_saved(table):
    """A Solitaire pile or reinforcements can bring more aliens of a type than the map has
    markers (hunt-derelict has one Chaos Marine marker): the result the game proposes is
    saved, and one more token than the game revealed is still refused."""
    game = arranged(table)
    chaos = (
        Token("blip-1", "blip", "chaos_marine"),
        Token("reinforcement-2", "reinforcement", "chaos_marine"),
    )
    alien_turn_snapshot(game, current(game).replace(tokens=chaos), [])
    assert result_limits(table.session).aliens.revealed == {"chaos_marine": 2}
    first, second, third = (str(seat.player_id) for seat in session_seats(table.session))
    value = load_rules_data().alien_tokens["chaos_marine"]

    def tokens(count: int) -> list[dict]:
        return [
            {
                "seat": first,
                "alien_tokens": [{"alien_type": "chaos_marine", "value": value, "count": count}],
            },
            {"seat": second},
            {"seat": third},
        ]

    with pytest.raises(ImplausibleResult) as refused:
        record_result(table.session, tokens(3), dice=SeededDice(seed=1))
    assert "the game on the judge's board revealed only 2 Chaos Marine tokens" in str(refused.value)
    record_result(table.session, tokens(2), dice=SeededDice(seed=1))


def test_an_alien_dying_in_the_alien_turn_without_a_killer_is_noted(table):
    game = arranged(table, aliens=[("ork-1", "ork", (7, 5))])
    alien_turn_snapshot(game, current(game).without_figure("ork-1"), [])
    [note] = propose_result(game, session_seats(table.session)).notes
    assert "Step 2" in note and "ork-1" in note


def test_undo_drops_the_kill_and_redo_brings_it_back(table):
    game = arranged(table, {"p1-m4": (4, 2), "p2-m1": (4, 5)})
    attack(game, "p1-m4", target="p2-m1")  # step 2
    undo_to(game, 1, expected_number=2)  # step 3: back to the set-up
    proposal = propose_result(game, session_seats(table.session))
    assert [s.number for s in current_line(game.snapshots.all())] == [1]
    assert all(not b.kills and not b.losses for b in proposal.breakdowns)
    assert proposal.step == 3
    undo_to(game, 2, expected_number=3)  # step 4: the kill again
    assert [s.number for s in current_line(game.snapshots.all())] == [1, 2]
    seats = by_seat(table, propose_result(game, session_seats(table.session)))
    assert seats[1].kills == (MarineKill(player_id(table, 2), MarineClass.LIGHT, 1),)


def test_undo_after_more_steps_keeps_the_earlier_kill(table):
    game = arranged(table, {"p1-m4": (4, 2), "p2-m1": (4, 5), "p1-cmd": (5, 2), "p2-m4": (5, 5)})
    attack(game, "p1-m4", target="p2-m1")  # step 2
    attack(game, "p1-cmd", target="p2-m4")  # step 3
    undo_to(game, 2, expected_number=3)  # step 4
    seats = by_seat(table, propose_result(game, session_seats(table.session)))
    assert seats[1].kills == (MarineKill(player_id(table, 2), MarineClass.LIGHT, 1),)


def reroll_cancels_a_kill(table) -> Game:
    """The QA judge's game: p3's commander (1 life point left, Digital Weapons in hand)
    fights p2's and dies (step 2); his die 1 rolled again saves him (step 3: the board's
    scores go back); p3 ends the turn (step 4) and p2's commander kills him (step 5)."""
    game = arranged(table, {"p3-cmd": (4, 5), "p2-cmd": (5, 5)}, life_points={"p3-cmd": 1})
    state = current(game)
    state = state.with_player(replace(state.player("p3"), cards=("digital_weapons",)))
    state = state.replace(initiative=("p3", "p2", "p1"), active_player="p3")
    Snapshot.objects.filter(game=game, number=1).update(state=state.to_json())
    fight = {"kind": "hand_to_hand"}
    # Both commanders fight with two white dice: 0 + 0 against 2 + 0.
    attack(game, "p3-cmd", ScriptedDice(values=[0, 0, 2, 0]), target="p2-cmd", **fight)
    assert not current(game).has_figure("p3-cmd")
    assert current(game).player("p2").score == 10
    reroll_die(game, 1, ScriptedDice(values=[2]), expected_number=2)  # 2 + 0 against 2 + 0
    assert current(game).figure("p3-cmd").life_points == 1
    assert current(game).player("p2").score == current(game).player("p3").score == 0
    finish_turn(game, expected_number=3)
    attack(game, "p2-cmd", ScriptedDice(values=[2, 2, 0, 0]), target="p3-cmd", **fight)
    assert not current(game).has_figure("p3-cmd")
    return game


def test_a_kill_a_reroll_cancelled_is_left_out(table):
    game = reroll_cancels_a_kill(table)
    assert [s.number for s in current_line(game.snapshots.all())] == [1, 3, 4, 5]
    proposal = propose_result(game, session_seats(table.session))
    seats = by_seat(table, proposal)
    assert seats[2].kills == (MarineKill(player_id(table, 3), MarineClass.COMMANDER, 1),)
    assert not seats[3].kills
    assert proposal.notes == ()
    # The proposal adds up to what the board scored.
    board = current(game)
    cards = score_session(proposal.breakdowns)
    assert [cards[player_id(table, n)].total for n in (1, 2, 3)] == [
        board.player(p).score for p in ("p1", "p2", "p3")
    ]
    assert [cards[player_id(table, n)].total for n in (1, 2, 3)] == [0, 10, -10]
    assert all(not card.problems for card in cards.values())


def test_a_second_reroll_of_the_same_attack_goes_back_to_its_step_too(table):
    game = arranged(table)
    for number in (2, 3, 4):
        Snapshot.objects.create(
            game=game,
            number=number,
            kind=SnapshotKind.MARINE_ATTACK,
            state=latest_snapshot(game).state,
            steps=[
                *([{"code": "reroll_done", "params": {}}] if number > 2 else []),
                {"code": "reroll_offer", "params": {"base": 1}},
            ],
        )
    assert [s.number for s in current_line(game.snapshots.all())] == [1, 4]


def test_a_judges_removal_is_a_note_not_a_kill(table):
    game = arranged(table, {"p3-m2": (7, 4)})
    remove_figure(game, "p3-m2", "dead", "fell down the lift shaft", expected_number=1)
    # A figure standing in its docking claw that the judge takes off left play: no note.
    remove_figure(game, "p2-cmd", "left", "back to the claw", expected_number=2)
    proposal = propose_result(game, session_seats(table.session))
    assert all(not b.kills and not b.losses for b in proposal.breakdowns)
    [note] = proposal.notes
    assert "Step 2" in note and "p3-m2" in note and "fell down the lift shaft" in note


def test_a_forfeits_figures_left_play_and_need_no_note(table):
    """A forfeit takes the player's figures out of play (decision 32): nothing for the judge
    to attribute, where each of them was noted as a removal that might be a death."""
    game = arranged(table)
    remove_player_figures(game, "p3", "Forfeit.", expected_number=1)
    proposal = propose_result(game, session_seats(table.session))
    assert not proposal.notes
    assert all(not b.kills and not b.losses for b in proposal.breakdowns)


def test_a_removal_without_reason_is_named_in_the_readers_language(table):
    """An older game's removal kept no reason: the note names the step by its summary in
    the language of the page reading it, not the language it was saved in."""
    game = arranged(table, {"p3-m2": (7, 4)})
    with translation.override("en"):
        step = remove_figure(game, "p3-m2", "dead", "overrun", expected_number=1)
    Snapshot.objects.filter(pk=step.pk).update(reason="")
    with translation.override("it"):
        italian = snapshot_summary(Snapshot.objects.get(pk=step.pk))
        [note] = propose_result(game, session_seats(table.session)).notes
    assert italian != step.summary
    assert f"({italian})" in note


def remove(game: Game, figure_id: str, why: str, reason: str) -> Snapshot:
    """The judge's edit taking ``figure_id`` off the board, as the latest step."""
    number = latest_snapshot(game).number
    return remove_figure(game, figure_id, why, reason, expected_number=number)


def test_a_judges_removal_on_a_claw_square_follows_the_reason(table):
    game = arranged(table)
    state = current(game)
    for fid in ("p2-cmd", "p3-cmd"):
        [square] = state.figure(fid).squares
        assert state.board.claw_of(square) is not None
    remove(game, "p2-cmd", "dead", "shot in the claw")  # step 2: dead, though on a claw
    remove(game, "p3-cmd", "left", "went back aboard")  # step 3: a safe exit
    proposal = propose_result(game, session_seats(table.session))
    [note] = proposal.notes
    assert "Step 2" in note and "p2-cmd" in note and "shot in the claw" in note
    assert all(not b.kills and not b.losses for b in proposal.breakdowns)


def test_a_squad_the_judge_took_off_as_gone_home_is_no_survivor(table):
    game = arranged(table)
    for fid in [f.id for f in current(game).figures_of("p2")]:
        remove(game, fid, "left", "back to the claw")
    for fid in [f.id for f in current(game).figures_of("p3")]:
        remove(game, fid, "dead", "overrun")
    proposal = propose_result(game, session_seats(table.session))
    assert set(proposal.survivors) == {int(player_id(table, 1))}
    noted = " ".join(proposal.notes)
    assert all(f"p3-{fig}" in noted for fig in ("cmd", "m1", "m2", "m3", "m4"))
    assert "p2-" not in noted


def leave_through_the_claws(game: Game, players: tuple[str, ...]) -> None:
    """Append a move step after which every figure of ``players`` left through a claw."""
    state = current(game)
    for player in players:
        for figure in state.figures_of(player):
            state, _ = leave_through_claw(state, figure.id)
    Snapshot.objects.create(
        game=game,
        number=latest_snapshot(game).number + 1,
        kind=SnapshotKind.MARINE_MOVE,
        state=state.to_json(),
    )


def test_marines_out_through_a_claw_are_safe_but_no_survivors(table):
    """RULES §10: a figure that returns to a docking claw leaves play; the result form's
    box is "a marine was still in play at the end" (game engine decision 18)."""
    game = arranged(table)
    leave_through_the_claws(game, ("p2",))
    proposal = propose_result(game, session_seats(table.session))
    assert set(proposal.survivors) == {int(player_id(table, 1)), int(player_id(table, 3))}
    assert proposal.notes == () and all(not b.losses for b in proposal.breakdowns)
    leave_through_the_claws(game, ("p1", "p3"))
    assert propose_result(game, session_seats(table.session)).survivors == ()


def test_an_upload_that_takes_figures_off_is_noted(table):
    game = arranged(table)
    state = current(game).without_figure("p1-m3")
    upload_state(game, json.dumps(state.to_json()), expected_number=1)
    [note] = propose_result(game, session_seats(table.session)).notes
    assert "Step 2" in note and "p1-m3" in note and "uploaded" in note


def test_marine_classes_follow_the_rules(table):
    state = current(arranged(table))
    rules = load_rules_data()
    assert marine_class(state, state.figure("p1-cmd"), rules) is MarineClass.COMMANDER
    assert marine_class(state, state.figure("p1-m2"), rules) is MarineClass.HEAVY
    assert marine_class(state, state.figure("p1-m4"), rules) is MarineClass.LIGHT
    unarmed = replace(state.figure("p1-m1"), weapons=())
    assert marine_class(state, unarmed, rules) is MarineClass.UNARMED
    lascannon = replace(state.figure("p1-m1"), weapons=("lascannon",))
    assert marine_class(state, lascannon, rules) is MarineClass.EXTRA_HEAVY


def test_a_game_with_only_its_set_up_proposes_nothing(table):
    game = arranged(table)
    proposal = propose_result(game, session_seats(table.session))
    assert proposal.step == 1 and proposal.notes == ()
    assert all(b == SeatBreakdown(b.seat) for b in proposal.breakdowns)


def predator_in_sight(table) -> Game:
    """A game whose marine p1-m4 sees an alien Predator Dreadnought (dr-1, one life point
    left) that came in as a reinforcement token."""
    game = arranged(table, {"p1-m4": (4, 2)}, tokens=[Token("r-1", "reinforcement", "dreadnought")])
    dreadnought = Figure(
        "dr-1",
        ALIEN,
        None,
        "dreadnought",
        ((4, 5), (5, 5), (4, 6), (5, 6)),
        life_points=1,
        weapons=("assault_cannon",),
        equipment=("predator",),
    )
    Snapshot.objects.filter(game=game, number=1).update(
        state=current(game).with_figure(dreadnought).to_json()
    )
    return game


def test_an_alien_dreadnought_of_a_named_class_is_a_token_of_its_class_value(table):
    """RULES §7, decision 31: an alien Dreadnought whose class is named in its equipment
    (Predator, 30) scores that value, as the board's kill log and score give it, whether a
    marine shoots it or the Alien turn gives its token (the step's points)."""
    game = predator_in_sight(table)
    attack(game, "p1-m4", target="dr-1")
    assert not current(game).has_figure("dr-1")
    assert current(game).player("p1").score == 30
    proposal = propose_result(game, session_seats(table.session))
    assert by_seat(table, proposal)[1].alien_tokens == (AlienTokens("dreadnought", 30, 1),)
    assert proposal.notes == ()


def test_a_dreadnought_token_the_alien_turn_gives_keeps_the_steps_points(table):
    game = arranged(table, {"p2-m1": (7, 4)})
    state = current(game)
    after = state.replace(tokens=(Token("r-1", "reinforcement", "dreadnought", taken_by="p2"),))
    alien_turn_snapshot(
        game,
        after,
        [
            {"code": "killed", "params": {"target": "dr-1"}},
            {
                "code": "token_taken",
                "params": {"player": "p2", "unit": "dreadnought", "points": 30},
            },
        ],
    )
    proposal = propose_result(game, session_seats(table.session))
    assert by_seat(table, proposal)[2].alien_tokens == (AlienTokens("dreadnought", 30, 1),)


def at_the_end(game: Game, **progress) -> Game:
    """``game`` with the set-up's state in its last round: every alien dead one round ago in
    an Alien Hunt that leaves one round to escape, or the last event card drawn last round
    (``progress``)."""
    state = current(game)
    stipulation = Stipulation("alien_hunt", {"end_condition": "aliens_dead", "escape_rounds": 1})
    state = state.replace(stipulation=stipulation, progress=replace(state.progress, **progress))
    Snapshot.objects.filter(game=game, number=1).update(state=state.to_json())
    return game


def end_the_round_without_aliens(game: Game) -> None:
    while current(game).active_player is not None:
        finish_turn(game, expected_number=latest_snapshot(game).number)
    next_round(game, expected_number=latest_snapshot(game).number)


def test_marines_left_on_the_board_at_the_end_are_no_loss_to_aliens(table):
    """Game engine decision 33: the last event card's last turns are over, and the squads'
    marines still on the board are lost; nobody killed them, the log and the result say
    so."""
    game = at_the_end(arranged(table), aliens_cleared_round=0, last_event_round=0)
    before = current(game)
    end_the_round_without_aliens(game)
    board = current(game)
    assert board.outcome is not None and board.outcome.reason == "last_event_card"
    snapshot = latest_snapshot(game)
    left = [s["params"] for s in snapshot.steps if s["code"] == "score_left_behind"]
    assert left and not [s for s in snapshot.steps if s["code"] == "score_lost"]
    with translation.override("en"):
        lines = step_outcome(snapshot)
    assert "Player p1 loses 5 points (p1-m1 left on the board)." in lines
    proposal = propose_result(game, session_seats(table.session))
    assert proposal.notes == ()
    for n, seat in by_seat(table, proposal).items():
        assert {loss.cause for loss in seat.losses} == {LossCause.LEFT_ON_BOARD}
        marines = [f for f in before.figures if f.player == f"p{n}" and f.side == "marine"]
        assert sum(loss.count for loss in seat.losses) == len(marines)
    cards = score_session(proposal.breakdowns)
    assert [cards[player_id(table, n)].total for n in (1, 2, 3)] == [
        board.player(p).score for p in ("p1", "p2", "p3")
    ]
    with translation.override("en"):
        labels = [line.label for line in cards[player_id(table, 1)].lines]
    assert any("left on the board at the game's end" in label for label in labels)


def test_an_alien_turn_that_ends_the_escape_rounds_leaves_its_survivors_behind(table):
    """The Alien turn closes the last escape round: the marine the ork killed in it is a
    loss to the aliens, those left on the board are not."""
    game = at_the_end(
        arranged(table, {"p2-m1": (7, 4)}, aliens=[("ork-1", "ork", (8, 4))]),
        aliens_cleared_round=0,
    )
    turn = request_alien_turn(game, "bob", ScriptedDice(values=[2, 2, 0, 0]), expected_number=1)
    carry_out_turn(turn.pk)
    assert current(game).outcome is not None
    snapshot = latest_snapshot(game)
    killed = [s["params"]["target"] for s in snapshot.steps if s["code"] == "killed"]
    assert killed == ["p2-m1"]
    proposal = propose_result(game, session_seats(table.session))
    seats = by_seat(table, proposal)
    assert MarineLoss(MarineClass.LIGHT, LossCause.ALIEN, None, 1) in seats[2].losses
    assert {loss.cause for loss in seats[1].losses} == {LossCause.LEFT_ON_BOARD}
    assert {loss.cause for loss in seats[2].losses} == {
        LossCause.ALIEN,
        LossCause.LEFT_ON_BOARD,
    }
