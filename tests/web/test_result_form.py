"""The judge's result form turns counts into the scoring service's breakdowns, and a stored
version loaded back into the form scores the same (corrections start from what is stored)."""

import pytest

from tournaments.forms.result import ResultForm, initial_from_breakdowns
from tournaments.scoring import score_session

pytestmark = pytest.mark.django_db


def bound(seats, data):
    form = ResultForm({"version": 1, **data}, seats=seats)
    assert form.is_valid(), form.errors
    return form


def test_kills_make_the_victims_losses_and_everything_round_trips(world):
    seats = list(world.session.seats.select_related("player").order_by("seat_order"))
    a, b, c = seats
    key = ResultForm.key
    data = {
        key(a, f"kill-{b.player_id}-heavy"): 2,
        key(a, f"kill-{c.player_id}-commander"): 1,
        key(a, f"tarantula-{b.player_id}"): 1,
        key(b, "alien-light"): 1,
        key(c, "own-extra_heavy"): 1,
        key(b, "dread-owner"): str(c.player_id),
        key(b, "dread-value"): 25,
        key(b, "dread-pilot"): "heavy",
        key(c, "token1-type"): "ork",
        key(c, "token1-count"): 3,
        key(c, "token1-value"): 5,
        key(a, "objective-label"): "flag",
        key(a, "objective-points"): 30,
        key(b, "stall-round"): 7,
        key(b, "stall-points"): -5,
        key(a, "survived"): "on",
    }
    form = bound(seats, data)
    cards = score_session(form.breakdowns())
    totals = {int(seat): card.total for seat, card in cards.items()}
    assert totals[a.player_id] == 20 + 10 + 10 + 30
    assert totals[b.player_id] == -20 - 5 + 25 + 10 - 5
    assert totals[c.player_id] == -10 - 15 - 10 + 15
    assert all(not card.problems for card in cards.values())
    assert form.survivors() == [a.player_id]

    stored = [breakdown.to_dict() for breakdown in form.breakdowns()]
    again = bound(
        seats,
        {
            k: v
            for k, v in initial_from_breakdowns(seats, stored, [a.player_id]).items()
            if v not in (None, False)
        },
    )
    assert {s: c.total for s, c in score_session(again.breakdowns()).items()} == {
        str(k): v for k, v in totals.items()
    }


def test_half_filled_dreadnought_and_tokens_are_refused(world):
    seats = list(world.session.seats.select_related("player").order_by("seat_order"))
    key = ResultForm.key
    form = ResultForm(
        {"version": 1, key(seats[0], "dread-value"): 30, key(seats[1], "token1-count"): 2},
        seats=seats,
    )
    assert not form.is_valid()
    assert key(seats[0], "dread-owner") in form.errors
    assert key(seats[1], "token1-type") in form.errors
