"""The Alien turn with real dice and the real event deck (RULES §12, §14): the board names
every die to roll next, with its kind, purpose and roller, refuses too few or too many dice
at once, and takes the event card the judge drew at the table."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest

from rules.engine.dice import DieKind
from rules.engine.dice_ahead import DieAhead
from table.actions import latest_snapshot, snapshot_state
from table.alien_dice import _lines, event_card_choices
from table.models import AlienTurnRequest
from tests.i18n_support import add_translations
from tests.table.conftest import client_for, figure_name, rearrange, url
from tests.table.test_session_material import opening, set_stage
from tournaments.models import DiceRoll

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def _ork_beside_p1_m1(game):
    """p1's marine p1-m1 in a corridor with an ork on the square east of it: the Alien
    turn attacks it hand to hand (the ork's white dice, then the marine's defence)."""
    state = snapshot_state(latest_snapshot(game))
    board = state.board
    blips = {blip.square for blip in state.blips}

    def free(square):
        return (
            board.in_bounds(square)
            and not board.is_solid(square)
            and board.claw_of(square) is None
            and state.figure_at(square) is None
            and square not in blips
        )

    marine, ork = next(
        (square, (square[0] + 1, square[1]))
        for square in sorted(board.squares(), key=lambda sq: (sq[1], sq[0]))
        if free(square)
        and free((square[0] + 1, square[1]))
        and not board.has_wall(square, (square[0] + 1, square[1]))
        and board.door_at(square, (square[0] + 1, square[1])) is None
    )
    return rearrange(game, {"p1-m1": marine}, aliens=[("ork-1", "ork", ork)])


def _player_name(table, seat_order: int) -> str:
    return table.session.seats.get(seat_order=seat_order).player.display_name


def _post_turn(client, game, version, dice, **extra):
    data = {
        "turn-policy": "bob",
        "turn-mode": "physical",
        "turn-version": version,
        "turn-dice": dice,
        **extra,
    }
    return client.post(url("alien_turn", game), data)


def _real_dice_chosen(client, game, version: int, **extra) -> str:
    """The dice list the board shows once the judge chooses real dice (asked live: the
    board page does not work it out while the app is to roll)."""
    data = {"turn-policy": "bob", "turn-mode": "physical", "turn-version": version, **extra}
    return client.post(url("alien_dice", game), data, **HTMX).content.decode()


def _listed(page: str) -> list[str]:
    """The dice list's lines, tags removed."""
    block = page.split('class="dice-ahead"', 1)[1].split("</ul>", 1)[0]
    items = re.findall(r"<li[^>]*>(.*?)</li>", block, re.S)
    return [" ".join(re.sub(r"<[^>]+>", " ", item).split()) for item in items]


def test_the_board_lists_every_die_of_the_turn_with_kind_purpose_and_roller(game, table):
    _ork_beside_p1_m1(game)
    client = client_for(table.judge)
    board = client.get(url("board", game)).content.decode()
    assert 'class="dice-ahead"' not in board  # the app rolls: nothing to work out
    page = _real_dice_chosen(client, game, 2)
    assert "With physical dice, roll these together and type them in this order:" in page
    lines = _listed(page)
    # No event deck: the ork's attack and the marine's defence, all known in advance.
    # The ork by the label the board draws on it, with its id.
    # The marine by its player's name and its kind, with the id drawn on it.
    assert lines[0].startswith(
        "dice 1–2: 2 white (light) combat dice — hand-to-hand: Or1 · ork-1 attacks "
        + figure_name(game, "p1-m1").replace("'", "&#x27;")
    )
    assert "Who rolls: Aliens — Ork (ork-1)" in lines[0]
    name = _player_name(table, 1)
    assert any(
        "defends against Or1 · ork-1" in line and f"Who rolls: {name} — Marine 1 (p1-m1)" in line
        for line in lines
    )


def test_too_few_dice_are_refused_at_once_with_the_dice_still_to_roll(game, table):
    _ork_beside_p1_m1(game)
    client = client_for(table.judge)
    response = _post_turn(client, game, 2, "1")
    assert response.status_code == 400
    page = response.content.decode()
    assert re.search(r"Not enough dice for this turn: roll the \d+ dice listed below", page)
    assert "after the die typed, roll these together" in page
    # Die 1 is typed: the list goes on from die 2, the ork's second attack die.
    assert _listed(page)[0].startswith(
        "die 2: 1 white (light) combat die — hand-to-hand: Or1 · ork-1"
    )
    assert not AlienTurnRequest.objects.exists()


def test_the_dice_listed_play_the_turn_in_one_go(game, table):
    _ork_beside_p1_m1(game)
    client = client_for(table.judge)
    page = _real_dice_chosen(client, game, 2)
    count = sum(int(m) for m in re.findall(r"<strong>(\d+) white", page.split("dice-ahead")[1]))
    assert "With these, the turn should need no more dice." in page
    response = _post_turn(client, game, 2, ",".join(["0"] * count))
    assert response.status_code == 302
    assert AlienTurnRequest.objects.get().status == "done"
    assert DiceRoll.objects.filter(source="scripted", purpose_code="hand_to_hand_attack").exists()


def test_too_many_dice_are_refused_naming_how_many_are_needed(game, table):
    _ork_beside_p1_m1(game)
    response = _post_turn(client_for(table.judge), game, 2, "0,0,0,0,0,0,0,0,0,0")
    assert response.status_code == 400
    assert "dice typed are needed for this turn: remove the last" in response.content.decode()
    assert not AlienTurnRequest.objects.exists()


def test_a_face_the_die_cannot_show_is_named_with_the_die(game, table):
    _ork_beside_p1_m1(game)
    response = _post_turn(client_for(table.judge), game, 2, "5")
    assert response.status_code == 400
    assert "which a white (light) combat die cannot show" in response.content.decode()


def test_the_list_follows_the_typing_live(game, table):
    _ork_beside_p1_m1(game)
    client = client_for(table.judge)
    data = {"turn-policy": "bob", "turn-mode": "physical", "turn-version": 2, "turn-dice": "0"}
    part = client.post(url("alien_dice", game), data, **HTMX).content.decode()
    assert "<html" not in part
    assert _listed(part)[0].startswith("die 2: 1 white (light) combat die")
    bad = client.post(url("alien_dice", game), {**data, "turn-dice": "0,x"}, **HTMX)
    assert "is “x”, which is not a whole number" in bad.content.decode()
    # Nothing is rolled or stored.
    assert not AlienTurnRequest.objects.exists() and latest_snapshot(game).number == 2


def test_the_list_reads_in_italian(game, table, monkeypatch):
    add_translations(
        monkeypatch,
        "it",
        {
            ("%(count)d white (light) combat die", 1): (
                "%(count)d dadi da combattimento bianchi (leggeri)"
            ),
            "Who rolls: %(roller)s": "Chi tira: %(roller)s",
            "dice %(first)s–%(last)s": "dadi %(first)s–%(last)s",
            "%(player)s — %(figure)s (%(id)s)": "%(player)s — %(figure)s (%(id)s)",
        },
    )
    _ork_beside_p1_m1(game)
    client = client_for(table.judge)
    client.cookies["django_language"] = "it"
    page = _real_dice_chosen(client, game, 2)  # in Italian: the language cookie
    line = _listed(page)[0]
    assert line.startswith("dadi 1–2: 2 dadi da combattimento bianchi (leggeri) — corpo a corpo")
    assert "Chi tira: Alieni — Orco (ork-1)" in line


def test_the_judge_names_the_event_card_drawn_at_the_table(table):
    set_stage(table, event_cards=["A Rapporto", "Ira!"])
    game, state = opening(table)
    client = client_for(table.judge)
    page = client.get(url("board", game)).content.decode()
    # Without a card named, the dice draw it: only the draw die is known in advance.
    assert _listed(_real_dice_chosen(client, game, 1))[0].startswith(
        "die 1: 1 d6 — event card draw"
    )
    select = page.split('name="turn-event_card"', 1)[1].split("</select>", 1)[0]
    assert '<option value="report"' in select and '<option value="wrath"' in select
    part = client.post(
        url("alien_dice", game),
        {"turn-policy": "bob", "turn-mode": "physical", "turn-event_card": "report"},
        **HTMX,
    ).content.decode()
    assert _listed(part)[0].startswith("die 1: 1 d6 — event card target")
    response = _post_turn(client, game, 1, "1", **{"turn-event_card": "report"})
    assert response.status_code == 302
    turn = AlienTurnRequest.objects.get()
    assert turn.status == "done" and turn.event_card == "report"
    assert {"code": "event_drawn", "params": {"card": "report"}} in latest_snapshot(game).steps
    assert not DiceRoll.objects.filter(purpose_code="event_draw").exists()
    # The card is out of the deck: the next turn offers only the other.
    page = client.get(url("board", game)).content.decode()
    select = page.split('name="turn-event_card"', 1)[1].split("</select>", 1)[0]
    assert '<option value="report"' not in select and '<option value="wrath"' in select


def test_a_card_printed_three_times_is_one_choice_until_its_last_copy_is_drawn(table):
    # RULES §12: Ladro Genetico is three of the deck's 28 cards.
    set_stage(table, event_cards=["Ladro Genetico"])
    _game, state = opening(table)
    progress = state.progress
    for drawn in ((), ("genestealer",), ("genestealer", "genestealer")):
        at = state.replace(progress=replace(progress, events_drawn=drawn))
        assert [card for card, _name in event_card_choices(at)] == ["genestealer"]
    gone = state.replace(progress=replace(progress, events_drawn=("genestealer",) * 3))
    assert event_card_choices(gone) == []


def test_a_card_not_in_the_deck_is_refused(table):
    set_stage(table, event_cards=["Ira!"])
    game, _state = opening(table)
    response = _post_turn(client_for(table.judge), game, 1, "1", **{"turn-event_card": "report"})
    assert response.status_code == 400
    assert "Select a valid choice" in response.content.decode()
    assert not AlienTurnRequest.objects.exists()


def test_consecutive_dice_of_one_roll_share_a_line_and_no_others_do():
    """One line per run of dice alike in kind, purpose (params included) and roller; the
    same roll again after another one starts a line of its own."""
    white, red = DieKind.WHITE, DieKind.RED
    fight = {"attacker": "ork-1", "target": "p1-m1"}
    dice = [
        DieAhead(1, white, "hand_to_hand", fight, "ork-1"),
        DieAhead(2, white, "hand_to_hand", dict(fight), "ork-1"),
        DieAhead(3, white, "hand_to_hand", {**fight, "target": "p1-m2"}, "ork-1"),
        DieAhead(4, red, "hand_to_hand", fight, "ork-1"),
        DieAhead(5, red, "hand_to_hand", fight, "p1-m1"),
        DieAhead(6, white, "hand_to_hand", fight, "ork-1"),
    ]
    lines = _lines(dice, {"p1": "Valchiria"})
    assert [(line.first, line.last) for line in lines] == [(1, 2), (3, 3), (4, 4), (5, 5), (6, 6)]
    assert lines[0].dice == "2 white (light) combat dice"
    assert lines[3].roller == "Valchiria — Marine 1 (p1-m1)"
    assert _lines([], {}) == ()
