"""The assault cannon's split on the touch board: every figure a split covers is a square to
tap, each lit with its own odds, and the option carries each target's odds."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from table.actions import attack_choices, latest_snapshot, snapshot_state, upload_state
from tests.table.conftest import client_for, rearrange, url

pytestmark = pytest.mark.django_db


def split_gunner(game, squares: dict[str, tuple[int, int]]):
    """p1-m4 armed with an assault cannon, with ``squares`` rearranged."""
    state = rearrange(game, squares)
    gunner = replace(state.figure("p1-m4"), unit="heavy_weapon_marine", weapons=("assault_cannon",))
    upload_state(
        game,
        json.dumps(state.with_figure(gunner).to_json()),
        expected_number=latest_snapshot(game).number,
    )
    return snapshot_state(latest_snapshot(game))


def cannon_option(data):
    return next(o for o in data["options"] if "assault cannon" in o["description"])


def test_every_target_of_a_split_is_a_square_to_tap_with_its_own_odds(game, table):
    state = split_gunner(game, {"p2-m1": (4, 5), "p2-m2": (4, 6)})
    data = client_for(table.judge).get(url("targets", game), {"attacker": "p1-m4"}).json()
    cannon = cannon_option(data)
    keys = {t["key"] for t in cannon["targets"]}
    assert {"p2-m1", "p2-m2"} <= keys
    enemies = [t for t in cannon["targets"] if not t["friendly"]]
    assert sorted(cannon["squares"]) == sorted(t["squares"][0] for t in enemies)
    assert [4, 5] in cannon["squares"] and [4, 6] in cannon["squares"]
    # Each target with its own odds: the engine's for that figure, not the first one's.
    option = attack_choices(state, "p1-m4")[cannon["index"]]
    for target in enemies:
        kill = option.odds.kill_probability(target["key"])
        assert target["kill"] == f"{kill.numerator}/{kill.denominator}"
    assert len({t["kill"] for t in enemies}) > 1, "the fixture should give the targets odds apart"
