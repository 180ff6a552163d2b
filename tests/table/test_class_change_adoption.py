"""A weapon's class corrected in the catalogue, adopted by a started game (stored tournament
decision 35): a marine carrying it becomes the marine the class makes it, with that unit's
move and life points as well as its worth (RULES §7, §10b), keeping the life points it
lost; a game set up now would arm it the same way."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from rules.engine.state import rules_of
from rules.engine.turns import squares_left
from table.actions import create_game, latest_snapshot, snapshot_state, upload_state
from table.models import Game
from table.session_material import engine_setup
from table.settings_adoption import adopt_session_settings, settings_changed
from tournaments.actions.catalogue_edits import save_weapon
from tournaments.actions.house_rules_edits import save_house_rules

pytestmark = pytest.mark.django_db

#: p1's fourth marine carries the bolter (the ``table`` fixture's loadout).
BOLTER_MARINE = "p1-m4"


def make_bolter(table, weapon_class: str) -> None:
    bolter = table.tournament.weapons.get(slug="bolter")
    bolter.weapon_class = weapon_class
    save_weapon(bolter, actor=table.organiser)


def with_state(game: Game, **changes) -> None:
    """Append a state of ``game`` with its figures changed (``figure id``: fields)."""
    state = snapshot_state(latest_snapshot(game))
    for fid, fields in changes.items():
        state = state.with_figure(replace(state.figure(fid), **fields))
    upload_state(game, json.dumps(state.to_json()), expected_number=latest_snapshot(game).number)


def adopt(table, game: Game):
    game = Game.objects.get(pk=game.pk)
    snapshot = adopt_session_settings(
        game, expected_number=latest_snapshot(game).number, actor=table.judge
    )
    return snapshot_state(snapshot)


def test_a_bolter_made_heavy_makes_its_marine_a_heavy_weapon_marine_on_the_board(table, game):
    state = snapshot_state(latest_snapshot(game))
    assert state.figure(BOLTER_MARINE).unit == "marine"
    assert squares_left(state, state.figure(BOLTER_MARINE), rules_of(state)) == 6
    make_bolter(table, "heavy")
    game = Game.objects.get(pk=game.pk)
    assert settings_changed(game, engine_setup(table.session))
    adopted = adopt(table, game)
    marine, rules = adopted.figure(BOLTER_MARINE), rules_of(adopted)
    assert marine.unit == "heavy_weapon_marine"
    assert rules.marine_value(marine.unit, marine.weapons) == 10
    assert squares_left(adopted, marine, rules) == 4
    assert adopted.figure("p1-m1").unit == "marine"  # its laser rifle stays light
    assert adopted.figure("p1-m2").unit == "heavy_weapon_marine"
    assert adopted.figure("p1-cmd").unit == "commander"  # the commander is not rearmed
    assert not settings_changed(Game.objects.get(pk=game.pk), engine_setup(table.session))


def test_the_marine_keeps_the_life_points_it_lost_and_is_never_killed_by_it(table):
    save_house_rules(
        table.tournament,
        {"units": {"heavy_weapon_marine": {"life_points": 3}}},
        expected_version=None,
        actor=table.organiser,
    )
    game = create_game(table.session, "hunt-derelict", "bob", actor=table.judge)
    with_state(game, **{BOLTER_MARINE: {"life_points": 1}})
    make_bolter(table, "heavy")
    heavy = adopt(table, game).figure(BOLTER_MARINE)
    assert (heavy.unit, heavy.life_points) == ("heavy_weapon_marine", 2)  # 3, one lost
    with_state(game, **{BOLTER_MARINE: {"life_points": 1}})  # two of three lost
    make_bolter(table, "light")
    light = adopt(table, game).figure(BOLTER_MARINE)
    assert (light.unit, light.life_points) == ("marine", 1)  # 2 - 2, but a correction kills nobody


def test_a_game_that_adopted_the_class_without_its_marines_offers_to_adopt_again(table, game):
    """Before, adopting took the class into the rules data and left the marine as it was:
    the games page then saw nothing to adopt though the marine moved as a light one."""
    make_bolter(table, "heavy")
    setup = engine_setup(table.session)
    state = snapshot_state(latest_snapshot(game)).replace(data_overrides=setup.overrides)
    upload_state(game, json.dumps(state.to_json()), expected_number=latest_snapshot(game).number)
    game = Game.objects.get(pk=game.pk)
    assert snapshot_state(latest_snapshot(game)).figure(BOLTER_MARINE).unit == "marine"
    assert settings_changed(game, setup)
    assert adopt(table, game).figure(BOLTER_MARINE).unit == "heavy_weapon_marine"
