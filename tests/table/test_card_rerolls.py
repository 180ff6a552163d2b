"""Cards at the table (RULES §5): the re-roll offered after an attack, taken by pressing
the die's button (the same form on the touch board and without JavaScript), refused with
the rule named; a Melta Bomb chosen with a fight and spent."""

from __future__ import annotations

import json
import re
from dataclasses import replace

import pytest
from django.utils import translation

from rules.engine.state import ALIEN, Figure, GameState
from table.actions import attack_choices, latest_snapshot, snapshot_state, upload_state
from table.models import SnapshotKind
from tests.table.conftest import client_for, url
from tournaments.models import DiceRoll


def current(game) -> GameState:
    return snapshot_state(latest_snapshot(game))


def ork_next_to_commander(game, cards: tuple[str, ...]) -> GameState:
    """Upload the state with an ork beside p1's commander, p1 holding ``cards`` and
    playing."""
    state = current(game)

    def free(sq) -> bool:
        board = state.board
        return (
            board.in_bounds(sq)
            and not board.is_solid(sq)
            and state.figure_at(sq) is None
            and state.blip_at(sq) is None
        )

    here, beside = next(
        (sq, (sq[0] + 1, sq[1]))
        for sq in sorted(state.board.squares())
        if free(sq) and free((sq[0] + 1, sq[1])) and state.edge_open(sq, (sq[0] + 1, sq[1]))
    )
    state = state.with_figure(state.figure("p1-cmd").moved_to((here,)))
    state = state.with_figure(
        Figure("o1", ALIEN, None, "ork", (beside,), 1, weapons=("ork_weapon",))
    )
    state = state.with_player(replace(state.player("p1"), cards=cards))
    state = state.replace(active_player="p1")
    upload_state(game, json.dumps(state.to_json()), expected_number=latest_snapshot(game).number)
    return current(game)


def fight_choice(state: GameState, card: str | None = None) -> int:
    options = attack_choices(state, "p1-cmd")
    return next(i for i, o in enumerate(options) if o.target == "o1" and o.card == card)


def attack(client, game, choice: int, dice: str):
    data = {
        "attack-figure": "p1-cmd",
        "attack-choice": choice,
        "attack-version": latest_snapshot(game).number,
        "attack-mode": "physical",
        "attack-dice": dice,
    }
    return client.post(url("attack", game), data)


def reroll(client, game, die: int | str, dice: str = "2"):
    data = {
        "reroll-number": die,
        "reroll-version": latest_snapshot(game).number,
        "reroll-mode": "physical",
        "reroll-dice": dice,
    }
    return client.post(url("reroll", game), data)


@pytest.fixture
def judge(table):
    return client_for(table.judge)


def test_bionic_arm_rerolls_one_of_the_commanders_dice_and_resolves_the_fight_again(game, judge):
    state = ork_next_to_commander(game, ("bionic_arm",))
    # The commander's white dice show 0 and 0, the ork's 2 and 0.
    assert attack(judge, game, fight_choice(state), "0,0,2,0").status_code == 302
    assert current(game).figure("p1-cmd").life_points == 4
    attacked = latest_snapshot(game)
    board = judge.get(url("board", game)).content.decode()
    # The commander as the step log names it: its player's commander, with its id.
    assert (
        "Bionic Arm: " in board
        and "&#x27;s commander · p1-cmd may roll one of its dice again" in board
    )
    assert 'name="reroll-number" value="1"' in board and 'name="reroll-number" value="2"' in board
    assert 'name="reroll-number" value="3"' not in board  # the ork's dice are not the player's
    response = reroll(judge, game, 2, "2")  # now 0 + 2 against 2 + 0: a tie
    assert response.status_code == 302
    after = latest_snapshot(game)
    assert after.kind == SnapshotKind.MARINE_ATTACK and after.number == attacked.number + 1
    assert current(game).figure("p1-cmd").life_points == 6 and current(game).has_figure("o1")
    codes = [step["code"] for step in after.steps]
    assert codes[0] == "reroll_done" and "reroll_offer" not in codes
    rolled = DiceRoll.objects.filter(batch=after.dice_batch)
    # The marine by the name the page gives it: its player's commander, with its id.
    (purpose,) = [r.purpose for r in rolled]
    assert purpose.endswith("'s commander · p1-cmd rolls die 2 again (Bionic Arm)")
    assert rolled[0].source == "scripted"
    page = judge.get(url("board", game)).content.decode()
    assert "· p1-cmd rolls die 2 again (0 → 2); the attack is resolved again" in page
    # The step says it is a re-roll, of which step's attack and by which card, before the
    # attack it resolved again.
    rerolled = f"Re-roll of step {attacked.number}&#x27;s attack with Bionic Arm: die 2 of "
    assert rerolled in page
    assert "· p1-cmd rolled again (0 → 2); the attack is resolved again: " in page
    second = reroll(judge, game, 1)
    assert second.status_code == 400 and latest_snapshot(game).number == after.number
    assert "rule: one die per card and attack" in second.content.decode()


def test_the_panel_alone_follows_the_game_for_every_open_view(game, judge):
    """Another device's attack offers a re-roll, and a re-roll taken there takes it away: every
    open view fetches the panel again when the game changes (its ``data-live-url``)."""
    panel = url("reroll_panel", game)
    assert (
        f'<div id="reroll-panel" data-live-url="{panel}">'
        in judge.get(url("board", game)).content.decode()
    )
    state = ork_next_to_commander(game, ("bionic_arm",))
    assert "Roll a die again" not in judge.get(panel).content.decode()
    attack(judge, game, fight_choice(state), "0,0,2,0")
    offered = judge.get(panel).content.decode()
    assert offered.startswith(f'<div id="reroll-panel" data-live-url="{panel}">')
    assert "Bionic Arm: " in offered and "· p1-cmd may roll one of its dice again" in offered
    assert 'name="reroll-number" value="2"' in offered
    assert reroll(judge, game, 2, "2").status_code == 302
    assert "Roll a die again" not in judge.get(panel).content.decode()


def test_the_board_names_the_cards_as_the_tournaments_catalogue_does(game, judge, table):
    """An organiser's names for a card (RULES §5 leaves the Italian ones to them) reach the
    step log, the re-roll panel and the board, in both languages."""
    from tournaments.models import ChapterCard

    ChapterCard.objects.filter(squad__tournament=table.tournament, effect_code="bionic_arm").update(
        name_en="Augmetic Arm", name_it="Braccio Augmetico"
    )
    state = ork_next_to_commander(game, ("bionic_arm",))
    attack(judge, game, fight_choice(state), "0,0,2,0")
    offer = re.compile(r"Augmetic Arm: [^<]*· p1-cmd may roll one of its dice again")
    assert offer.search(judge.get(url("board", game)).content.decode())
    assert offer.search(judge.get(url("reroll_panel", game)).content.decode())
    italian = judge.get(url("board", game), HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert re.search(r"Braccio Augmetico: Comandante di [^<]*· p1-cmd può ritirare", italian)
    assert "Bionic Arm" not in italian
    reroll(judge, game, 2, "2")
    log = judge.get(url("step_log", game)).content.decode()
    assert "Augmetic Arm: " in log and "· p1-cmd rolls die 2 again" in log


def test_a_reroll_without_a_card_or_after_another_step_is_refused(game, judge):
    state = ork_next_to_commander(game, ())
    attack(judge, game, fight_choice(state), "0,0,2,0")
    refused = reroll(judge, game, 1)
    assert refused.status_code == 400
    assert "· p1-cmd roll a die again" in refused.content.decode()
    assert "no card lets " in refused.content.decode()
    game.refresh_from_db()
    undo = {"version": latest_snapshot(game).number, "number": latest_snapshot(game).number - 1}
    judge.post(url("undo", game), undo)
    late = reroll(judge, game, 1)
    assert late.status_code == 400 and "before anything else happens" in late.content.decode()


def test_a_die_not_the_attackers_is_refused(game, judge):
    state = ork_next_to_commander(game, ("digital_weapons",))
    attack(judge, game, fight_choice(state), "0,0,2,0")
    refused = reroll(judge, game, 3)
    assert refused.status_code == 400
    assert "die 3 is not one of " in refused.content.decode()
    assert "· p1-cmd&#x27;s dice in this attack" in refused.content.decode()


def test_melta_bomb_is_chosen_with_the_fight_and_spent(game, judge):
    state = ork_next_to_commander(game, ("melta_bomb",))
    targets = judge.get(url("targets", game), {"attacker": "p1-cmd"}).json()
    described = [o["description"] for o in targets["options"]]
    assert any(
        line.endswith(
            "· p1-cmd fights Or1 · o1 hand-to-hand with the Melta Bomb "
            "(2 red + 2 white against 2 white)"
        )
        for line in described
    )
    # Red 3, 3 and white 0, 0 against the ork's 0, 0: it is destroyed.
    assert attack(judge, game, fight_choice(state, "melta_bomb"), "3,3,0,0,0,0").status_code == 302
    after = current(game)
    assert not after.has_figure("o1") and after.player("p1").cards_spent == ("melta_bomb",)
    assert not [o for o in attack_choices(after, "p1-cmd") if o.card]


def test_the_loadouts_targeter_marks_reach_the_game(table):
    from table.actions import create_game
    from tournaments.models import Loadout

    seat = table.session.seats.order_by("seat_order").first()
    Loadout.objects.filter(seat=seat).update(
        equipment_cards=["targeter", "targeter-2"], targeter_marks=["plasma-gun", "laser-rifle"]
    )
    game = create_game(table.session, "hunt-derelict", "bob", actor=table.judge)
    player = current(game).players[0]
    assert player.cards == ("targeter", "targeter") and player.targeter_marks == (
        "plasma_gun",
        "laser_rifle",
    )


MARINE_WEAPONS = ("laser-rifle", "plasma-gun", "laser-rifle", "missile-launcher")


def test_the_loadout_form_asks_what_each_targeter_marks(table):
    from tournaments.forms.loadout import LoadoutForm
    from tournaments.queries.tournament_catalogue import tournament_catalogue

    seat = table.session.seats.order_by("seat_order").first()
    catalogue = tournament_catalogue(table.tournament)
    data = {
        "equipment_cards": ["targeter-2"],
        "targeter_1": "laser-rifle",  # the copy not taken: its mark is ignored
        "targeter_2": "plasma-gun",
    }
    form = LoadoutForm(data, seat=seat, catalogue=catalogue)
    assert {"targeter_1", "targeter_2"} <= set(form.fields)
    assert "lascannon" not in dict(form.fields["targeter_1"].choices)
    form.full_clean()
    assert form.loadout().targeter_marks == ("plasma-gun",)
    weapons = {f"marine_{n}": w for n, w in enumerate(MARINE_WEAPONS, start=1)}
    chosen = {"commander_combo": "bolter", "equipment_cards": ["targeter"], **weapons}
    missing = LoadoutForm(chosen, seat=seat, catalogue=catalogue)
    missing.full_clean()
    assert "Choose the weapon type Targeter marks" in str(missing.errors.get("targeter_1"))
    # only the second copy taken, unmarked: its own field says so, naming that copy
    second = LoadoutForm(
        {**chosen, "equipment_cards": ["targeter-2"]}, seat=seat, catalogue=catalogue
    )
    second.full_clean()
    assert "targeter_1" not in second.errors
    assert "Choose the weapon type Targeter (copy 2) marks" in str(second.errors["targeter_2"])


def test_the_loadout_form_names_the_targeter_as_the_catalogue_does(table):
    from tournaments.forms.loadout import LoadoutForm
    from tournaments.queries.tournament_catalogue import tournament_catalogue

    seat = table.session.seats.select_related("squad").order_by("seat_order").first()
    seat.squad.cards.filter(slug__startswith="targeter").update(name_it="Mirino")
    with translation.override("it"):
        form = LoadoutForm(seat=seat, catalogue=tournament_catalogue(table.tournament))
        assert form.fields["targeter_1"].label == "Tipo di arma segnato da Mirino"
        assert form.fields["targeter_2"].label == "Tipo di arma segnato da Mirino (copia 2)"


def commanders_side_by_side(game, p1_cards=(), p2_cards=()) -> GameState:
    """Upload the state with p2's commander beside p1's (a fight between marines), the
    players holding the cards given and p1 playing."""
    state = ork_next_to_commander(game, tuple(p1_cards))
    ork = state.figure("o1")
    state = state.without_figure("o1").with_figure(state.figure("p2-cmd").moved_to(ork.squares))
    state = state.with_player(replace(state.player("p2"), cards=tuple(p2_cards)))
    upload_state(game, json.dumps(state.to_json()), expected_number=latest_snapshot(game).number)
    return current(game)


def test_the_defending_commander_takes_his_reroll_through_the_form(game, judge):
    state = commanders_side_by_side(game, p2_cards=("bionic_arm",))
    options = attack_choices(state, "p1-cmd")
    choice = next(i for i, o in enumerate(options) if o.target == "p2-cmd")
    # p1-cmd rolls 2 + 1, p2-cmd 0 + 0: p2-cmd loses 3.
    assert attack(judge, game, choice, "2,1,0,0").status_code == 302
    assert current(game).figure("p2-cmd").life_points == 3
    attacked = latest_snapshot(game)
    board = judge.get(url("board", game)).content.decode()
    assert re.search(r"Bionic Arm: [^<]*· p2-cmd, who defends, may roll one of his own dice", board)
    assert "Roll p2-cmd's die 1 (0) again" in board  # his own dice, numbered from 1
    assert 'name="reroll-number" value="3"' in board
    assert 'name="reroll-number" value="1"' not in board  # p1-cmd holds no card
    response = reroll(judge, game, 4, "2")  # now 3 against 2: p2-cmd loses 1 only
    assert response.status_code == 302
    after = latest_snapshot(game)
    assert after.number == attacked.number + 1 and after.kind == SnapshotKind.MARINE_ATTACK
    assert current(game).figure("p2-cmd").life_points == 5
    assert [step["code"] for step in after.steps][0] == "reroll_done"
    rolled = DiceRoll.objects.filter(batch=after.dice_batch)
    (purpose,) = [r.purpose for r in rolled]
    assert purpose.endswith("'s commander · p2-cmd rolls die 2 again (Bionic Arm)")
    second = reroll(judge, game, 3)
    assert second.status_code == 400 and latest_snapshot(game).number == after.number
    assert "p2-cmd has already rolled a die again in this attack with Bionic Arm" in (
        second.content.decode()
    )
