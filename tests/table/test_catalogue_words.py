"""The board speaks in its tournament's catalogue words chapter by chapter (RULES §5: each
chapter has its own deck): a player's card is named as their own chapter's deck names it,
and a weapon the organiser renamed as the catalogue names it, on the board page, in its
panels and in the step log, in both languages."""

from __future__ import annotations

import pytest

from rules.engine.state import GameState
from table.actions import attack_choices, create_game, latest_snapshot, snapshot_state
from tests.table.conftest import client_for, fresh_turn, rearrange, url
from tests.table.test_turn_views import first_player_holding
from tournaments.models import ChapterCard, Loadout

MARINE_WEAPONS = ["laser-rifle", "plasma-gun", "laser-rifle", "bolter"]


@pytest.fixture
def judge(table):
    return client_for(table.judge)


def name_card(table, squad: str, effect: str, english: str, italian: str) -> None:
    ChapterCard.objects.filter(
        squad__tournament=table.tournament, squad__slug=squad, effect_code=effect
    ).update(name_en=english, name_it=italian)


def play(judge, game, card: str):
    data = {"card": card, "version": latest_snapshot(game).number}
    return judge.post(url("play_card", game), data)


def test_each_players_card_is_named_as_their_own_chapters_deck_names_it(table, judge):
    first, second = table.session.seats.select_related("squad").order_by("seat_order")[:2]
    assert (first.squad.slug, second.squad.slug) == ("ultramarines", "blood-angels")
    name_card(table, "ultramarines", "blind_grenades", "Dazzle Grenades", "Granate Accecanti")
    name_card(table, "blood-angels", "blind_grenades", "Smoke Grenades", "")
    Loadout.objects.filter(seat=first).update(equipment_cards=["blind-grenades"])
    Loadout.objects.create(
        seat=second,
        commander_combo="bolter",
        marine_weapons=MARINE_WEAPONS,
        equipment_cards=["blind-grenades"],
    )
    game = create_game(table.session, "hunt-derelict", "bob", actor=table.judge)
    fresh_turn(game, "p2")
    page = judge.get(url("board", game)).content.decode()
    assert '<option value="blind_grenades">Smoke Grenades</option>' in page
    assert "Dazzle Grenades" not in page

    assert play(judge, game, "blind_grenades").status_code == 302
    log = judge.get(url("step_log", game)).content.decode()
    name = table.session.seats.get(seat_order=2).player.display_name
    assert f"{name} plays Smoke Grenades." in log  # the step's summary
    assert f"{name} uses Smoke Grenades: " in log  # the player by their name
    assert "cannot be attacked in the Alien turn (Smoke Grenades)" in log
    italian = judge.get(url("step_log", game), HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert f"{name} usa Smoke Grenades: " in italian  # no Italian name: the English one

    fresh_turn(game, "p1")
    assert play(judge, game, "blind_grenades").status_code == 302
    italian = judge.get(url("step_log", game), HTTP_ACCEPT_LANGUAGE="it").content.decode()
    first = table.session.seats.get(seat_order=1).player.display_name
    assert f"{first} usa Granate Accecanti: " in italian
    log = judge.get(url("step_log", game)).content.decode()
    assert f"{first} uses Dazzle Grenades: " in log
    # Both squads shielded, their chapters naming the card apart: named by its effect, as
    # the first squad's deck names it.
    shielded = f"The figures of {name}, {first} cannot be attacked in the Alien turn"
    assert f"{shielded} (Dazzle Grenades)" in log


def marine_beside_an_ork(game, marine: str) -> GameState:
    """Append a state with ``marine`` on a free square and an ork right of it."""
    state = snapshot_state(latest_snapshot(game))
    board = state.board

    def free(sq) -> bool:
        return (
            board.in_bounds(sq)
            and not board.is_solid(sq)
            and state.figure_at(sq) is None
            and state.blip_at(sq) is None
        )

    here, beside = next(
        (sq, (sq[0] + 1, sq[1]))
        for sq in sorted(board.squares())
        if free(sq) and free((sq[0] + 1, sq[1])) and state.edge_open(sq, (sq[0] + 1, sq[1]))
    )
    return rearrange(game, {marine: here}, aliens=[("o1", "ork", beside)])


def test_a_weapon_the_catalogue_renames_is_named_so_on_the_board(table, judge):
    table.tournament.weapons.filter(slug="plasma-gun").update(
        name_en="Plasma Incinerator", name_it="Inceneritore al plasma"
    )
    game = create_game(table.session, "hunt-derelict", "bob", actor=table.judge)
    state = marine_beside_an_ork(game, "p1-m2")  # the fixture's loadout: a plasma gun
    page = judge.get(url("board", game)).content.decode()
    assert '<td>heavy-weapon Marine</td><td class="num">2</td><td>Plasma Incinerator</td>' in (page)
    assert "plasma gun" not in page.lower()
    assert "laser rifle" in page  # a weapon named as shipped keeps the engine's words
    italian = judge.get(url("board", game), HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert "Inceneritore al plasma" in italian and "fucile al plasma" not in italian

    options = attack_choices(state, "p1-m2")
    choice = next(n for n, option in enumerate(options) if option.weapon == "plasma_gun")
    data = {
        "attack-figure": "p1-m2",
        "attack-choice": choice,
        "attack-version": latest_snapshot(game).number,
        "attack-mode": "physical",
        "attack-dice": "0,0",  # the plasma gun's 2 red dice
    }
    assert judge.post(url("attack", game), data).status_code == 302
    log = judge.get(url("step_log", game)).content.decode()
    assert "p1-m2 fires the Plasma Incinerator from " in log
    assert "Plasma Incinerator: 0 against Or1 · o1&#x27;s armour 1: no damage" in log
    italian = judge.get(url("step_log", game), HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert "Inceneritore al plasma" in italian and "fucile al plasma" not in italian


def test_the_card_panel_names_the_shipped_cards_in_the_readers_language(table, judge):
    """Fuoco! and Pronto Soccorso in Italian (the Italian edition's names), Fire! and
    Medi-Kit in English; Blind Grenades has no Italian name and keeps its English one until
    the organiser gives it one."""
    game = first_player_holding(table, ["fire"], ["medi-kit", "blind-grenades"])
    italian = judge.get(url("board", game), HTTP_ACCEPT_LANGUAGE="it").content.decode()
    for code, name in (("fire", "Fuoco!"), ("blind_grenades", "Blind Grenades")):
        assert f'<option value="{code}">{name}</option>' in italian
    # Medi-Kit waits for a wounded commander; the panel names it saying so.
    assert "Pronto Soccorso: nessun Comandante ferito da curare." in italian
    assert "Fire!" not in italian and "Medi-Kit" not in italian
    english = judge.get(url("board", game), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert '<option value="fire">Fire!</option>' in english
    assert "Medi-Kit: no wounded commander to heal." in english

    name_card(table, "ultramarines", "blind_grenades", "Blind Grenades", "Granate Accecanti")
    italian = judge.get(url("board", game), HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert '<option value="blind_grenades">Granate Accecanti</option>' in italian
    assert play(judge, game, "fire").status_code == 302
    italian = judge.get(url("board", game), HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert "Carta ordine in gioco: «Fuoco!»" in italian
