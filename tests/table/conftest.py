"""A seated session with squads drawn, for the judge's board page tests."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from django.test import Client
from django.urls import reverse

from rules.engine.geometry import Facing
from rules.engine.session_records import TurnRecord
from rules.engine.state import ALIEN, MARINE, Figure, GameState
from table.actions import create_game, latest_snapshot, snapshot_state, upload_state
from table.models import Game
from tests.web.conftest import World, build_world
from tournaments.models import Loadout


def client_for(user) -> Client:
    """A test client logged in as ``user``."""
    client = Client()
    client.force_login(user)
    return client


def url(name: str, game: Game) -> str:
    """The address of one of a game's pages (``board``, ``move``...)."""
    return reverse(f"table:{name}", args=[game.session_id, game.number])


def figure_name(game: Game, figure_id: str, lang: str = "en") -> str:
    """``figure_id`` as the board's pages name it (:mod:`table.catalogue_words`): a marine
    led by its player's name and its kind (``p2's bolter marine · p1-m4``), in ``lang``."""
    from django.utils import translation

    from table.catalogue_words import marine_names, seated_words

    _, players = seated_words(game.session_id)
    first = game.snapshots.order_by("number").first()
    labels: dict[str, str] = {}
    with translation.override(lang):
        for snapshot in (first, latest_snapshot(game)):  # the latest names a marine killed
            labels.update(marine_names(snapshot_state(snapshot), players))
    label = labels.get(figure_id)
    return f"{label} · {figure_id}" if label else figure_id


def seat_squads(world: World) -> None:
    """Give the session's seats the tournament's squads in squad order (as a draw would)."""
    squads = list(world.tournament.squads.order_by("order", "pk"))
    for seat, squad in zip(world.session.seats.order_by("seat_order"), squads, strict=False):
        seat.squad = squad
        seat.save(update_fields=["squad"])


@pytest.fixture(autouse=True)
def _tasks_after_commit_at_once(commits_at_once):
    """The board's Alien turn is queued after commit: run it at once in these tests."""


@pytest.fixture
def table(db) -> World:
    world = build_world()
    seat_squads(world)
    first = world.session.seats.order_by("seat_order").first()
    Loadout.objects.create(
        seat=first,
        commander_combo="bolter",
        marine_weapons=["laser-rifle", "plasma-gun", "laser-rifle", "bolter"],
    )
    return world


@pytest.fixture
def game(table):
    return create_game(table.session, "hunt-derelict", "bob", label="Table 1", actor=table.judge)


def rearrange(game, squares: dict[str, tuple[int, int]] | None = None, aliens=()) -> GameState:
    """Append a state with some figures moved and some aliens added (as an upload would)."""
    state = snapshot_state(latest_snapshot(game))
    for fid, sq in (squares or {}).items():
        state = state.with_figure(state.figure(fid).moved_to((sq,)))
    for fid, unit, sq in aliens:
        state = state.with_figure(
            Figure(fid, ALIEN, None, unit, (sq,), life_points=1, weapons=(f"{unit}_weapon",))
        )
    upload_state(
        game,
        json.dumps(state.to_json()),
        expected_number=latest_snapshot(game).number,
    )
    return snapshot_state(latest_snapshot(game))


def fresh_turn(game, player: str = "p1") -> GameState:
    """Append a state where ``player`` starts a fresh turn (as an upload would): a scenario
    that has one figure act twice plays it over two turns."""
    state = snapshot_state(latest_snapshot(game))
    state = state.replace(active_player=player, turn=TurnRecord())
    upload_state(game, json.dumps(state.to_json()), expected_number=latest_snapshot(game).number)
    return snapshot_state(latest_snapshot(game))


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def crew_tarantula(game) -> GameState:
    """Append a state where p1's marine p1-m2 crews a Tarantula facing east on 6,5-7,5."""
    state = snapshot_state(latest_snapshot(game))
    gunner = replace(state.figure("p1-m2"), squares=((5, 5),), piloting="p1-tarantula")
    tarantula = Figure(
        "p1-tarantula",
        MARINE,
        "p1",
        "tarantula",
        ((6, 5), (7, 5)),
        1,
        Facing.EAST,
        weapons=("twin_lascannon",),
    )
    state = state.with_figure(gunner).with_figure(tarantula)
    upload_state(game, json.dumps(state.to_json()), expected_number=latest_snapshot(game).number)
    return snapshot_state(latest_snapshot(game))


def abandoned_tarantula(game, *, surveyed: bool = False) -> GameState:
    """Append a state with an abandoned Tarantula ``tarantula-1`` facing east on 7,5-8,5
    (its gunner's square 6,5) and p1-m1 above its centre, at the start of p1's turn;
    ``surveyed``: every section surveyed already (its moves never stop to place blips)."""
    state = snapshot_state(latest_snapshot(game))
    tarantula = Figure(
        "tarantula-1",
        MARINE,
        None,
        "tarantula",
        ((7, 5), (8, 5)),
        1,
        Facing.EAST,
        weapons=("twin_lascannon",),
    )
    state = state.with_figure(tarantula).with_figure(state.figure("p1-m1").moved_to(((7, 4),)))
    if surveyed:
        state = state.replace(surveyed_sections=tuple(s.id for s in state.board.sections))
    upload_state(game, json.dumps(state.to_json()), expected_number=latest_snapshot(game).number)
    return fresh_turn(game, "p1")
