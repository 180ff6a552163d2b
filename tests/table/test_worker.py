"""A real Celery worker (through Redis) plays a requested Alien turn exactly once."""

from __future__ import annotations

import pytest

from rules.engine.dice import SeededDice
from table.actions import create_game, request_alien_turn
from table.tasks import run_alien_turn
from tests.table.conftest import rearrange, seat_squads
from tests.web.conftest import build_world
from tests.worker.test_celery_worker import redis_worker  # noqa: F401 - the worker fixture


@pytest.mark.services
@pytest.mark.celery_worker
@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("redis_worker")
def test_worker_plays_the_alien_turn_once():
    world = build_world()
    seat_squads(world)
    game = create_game(world.session, "hunt-derelict", "bob")
    rearrange(game, aliens=[("ork-1", "ork", (5, 2))])
    turn = request_alien_turn(game, "bob", SeededDice(seed=11), expected_number=2)

    assert run_alien_turn.delay(str(turn.pk)).get(timeout=60) == "done"
    # A retry or duplicate delivery of the same request changes nothing.
    assert run_alien_turn.delay(str(turn.pk)).get(timeout=60) == "done"
    assert list(game.snapshots.values_list("number", "kind")) == [
        (1, "setup"),
        (2, "upload"),
        (3, "alien_turn"),
    ]
