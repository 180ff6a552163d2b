"""Unarmed marines in the judge's result form.

The form enters light-weapon and unarmed marines in one count. A version entered elsewhere
(the JSON API, an import) may record unarmed marines apart; loaded into the form and saved
again, it must keep them: no kill, loss or Dreadnought pilot may move to another class,
so the points stay the same even where the tournament values unarmed marines apart.
"""

from collections import Counter

import pytest
from django.urls import reverse

from rules.engine.dice import SeededDice
from tests.web.test_result_form import as_post, bound, seats_of
from tournaments.actions.result_entry import record_result
from tournaments.domain.scoring import (
    DreadnoughtKill,
    LossCause,
    MarineClass,
    MarineKill,
    MarineLoss,
    ScoringValues,
    SeatBreakdown,
    score_session,
)
from tournaments.forms.result import ResultForm, initial_from_breakdowns
from tournaments.models import Result
from tournaments.queries.result_versions import score_version
from tournaments.queries.session_stipulation import result_limits

pytestmark = pytest.mark.django_db

UNARMED = MarineClass.UNARMED
LIGHT = MarineClass.LIGHT
ENTRIES = ("kills", "losses", "tarantulas", "alien_tokens", "objectives", "dreadnoughts")


def with_unarmed(seats) -> list[SeatBreakdown]:
    """Seat a kills two unarmed marines of b, one light of c and c's Dreadnought, whose
    pilot was unarmed; b loses an unarmed marine to aliens, c one to its own fire."""
    a, b, c = (str(seat.player_id) for seat in seats)
    return [
        SeatBreakdown(
            seat=a,
            kills=(MarineKill(b, UNARMED, 2), MarineKill(c, LIGHT, 1)),
            dreadnoughts=(DreadnoughtKill(c, 30, UNARMED),),
        ),
        SeatBreakdown(
            seat=b,
            losses=(
                MarineLoss(UNARMED, LossCause.PLAYER, a, 2),
                MarineLoss(UNARMED, LossCause.ALIEN, None, 1),
            ),
        ),
        SeatBreakdown(
            seat=c,
            losses=(
                MarineLoss(LIGHT, LossCause.PLAYER, a, 1),
                MarineLoss(UNARMED, LossCause.PLAYER, a, 1),
                MarineLoss(UNARMED, LossCause.OWN_FIRE, None, 1),
            ),
        ),
    ]


def entries(breakdowns) -> dict:
    """What each seat records, whatever the order of the entries."""
    return {
        (breakdown.seat, name): Counter(getattr(breakdown, name))
        for breakdown in breakdowns
        for name in ENTRIES
    }


def test_unarmed_marines_load_apart_and_save_back_unchanged(world):
    seats = seats_of(world)
    a, b, c = seats
    original = with_unarmed(seats)
    stored = [breakdown.to_dict() for breakdown in original]
    initial = initial_from_breakdowns(seats, stored, [])

    shown = ResultForm(initial=initial, seats=seats)
    kills_of_b = shown.seat_fields(a)["kills"][0][1]
    assert [str(field.label) for field in kills_of_b[:2]] == ["light weapon (5)", "unarmed (5)"]
    assert kills_of_b[1].value() == 2
    assert shown[ResultForm.key(b, "alien-unarmed")].value() == 1
    assert shown[ResultForm.key(c, "own-unarmed")].value() == 1
    pilot = shown[ResultForm.key(a, "dread-0-pilot")]
    assert pilot.value() == "unarmed"
    assert 'value="unarmed" selected' in str(pilot)

    again = bound(seats, as_post(initial))
    assert entries(again.breakdowns()) == entries(original)
    # Unarmed marines worth more than light ones: the points are the stored version's.
    values = ScoringValues(unarmed=7)
    totals = {seat: card.total for seat, card in score_session(original, values).items()}
    assert {
        seat: card.total for seat, card in score_session(again.breakdowns(), values).items()
    } == totals
    assert totals[str(a.player_id)] == 2 * 7 + 5 + 30 + 7


def test_a_form_without_unarmed_marines_keeps_one_light_or_unarmed_count(world):
    seats = seats_of(world)
    a, b, _c = seats
    stored = [SeatBreakdown(seat=str(a.player_id), kills=(MarineKill(str(b.player_id), LIGHT, 1),))]
    initial = initial_from_breakdowns(seats, [s.to_dict() for s in stored], [])
    for form in (ResultForm(initial=initial, seats=seats), ResultForm(seats=seats)):
        labels = [str(field.label) for field in form.seat_fields(a)["kills"][0][1]]
        assert labels[0] == "light or unarmed (5)"
        assert not any(name.endswith("-unarmed") for name in form.fields)


def test_a_judge_correcting_an_imported_version_keeps_its_unarmed_marines(world, role_client):
    world.tournament.data_overrides = {"scoring": {"unarmed": 7}}
    world.tournament.save()
    # The session's special equipment hides the Dreadnought a marine piloted, a Predator
    # (class value 30).
    world.stage.stipulation_params = {
        "rounds": 8,
        "equipment_blips": {"1,1": "abandoned_dreadnought"},
        "dreadnought_class": "predator",
    }
    world.stage.save()
    session = world.session
    seats = seats_of(world)
    first = record_result(
        session,
        [breakdown.to_dict() for breakdown in with_unarmed(seats)],
        survivors=[seat.player_id for seat in seats],
        dice=SeededDice(seed=1),
    ).version
    session.refresh_from_db()

    judge = role_client("judge")
    url = reverse("tournaments:judge_result", args=[session.pk])
    page = judge.get(url)
    a, b, _c = seats
    unarmed_kills = ResultForm.key(a, f"kill-{b.player_id}-unarmed")
    assert f'name="{unarmed_kills}" value="2"' in page.content.decode()
    form = page.context["form"]
    data = as_post({name: form[name].value() for name in form.fields})
    data.update({"tie-mode": "app", "tie-version": session.version})
    response = judge.post(url, {k: "on" if v is True else v for k, v in data.items()})
    assert response.status_code == 302, response.context["form"].errors

    second = Result.objects.get(session=session).latest_version()
    assert second.number == first.number + 1
    saved = [SeatBreakdown.from_dict(item) for item in second.breakdown]
    assert entries(saved) == entries(with_unarmed(seats))
    totals = {seat: card.total for seat, card in score_version(second).items()}
    assert totals == {seat: card.total for seat, card in score_version(first).items()}


def test_a_dreadnought_row_takes_the_sessions_class_value_when_left_empty(world, role_client):
    """Decision 66: a marine-piloted Dreadnought is worth the session's class value; the
    form says it and fills it in, as a token row takes its alien's value."""
    world.stage.stipulation_params = {
        "rounds": 8,
        "equipment_blips": {"1,1": "abandoned_dreadnought"},
        "dreadnought_class": "predator",
    }
    world.stage.save()
    seats = seats_of(world)
    a, b, _c = seats
    key = ResultForm.key
    data = {
        "version": 1,
        key(a, "dread-TOTAL"): 1,
        key(a, "dread-0-owner"): str(b.player_id),
        key(a, "dread-0-pilot"): "heavy",
    }
    form = ResultForm(data, seats=seats, limits=result_limits(world.session))
    form.is_valid()
    assert key(a, "dread-0-value") not in form.errors
    assert form.cleaned_data[key(a, "dread-0-value")] == 30
    judge = role_client("judge")
    page = judge.get(reverse("tournaments:judge_result", args=[world.session.pk]))
    assert "A Dreadnought of this session is worth its class value, 30" in page.content.decode()


def test_a_session_hiding_no_dreadnought_says_nothing_of_its_value(world, role_client):
    page = role_client("judge").get(reverse("tournaments:judge_result", args=[world.session.pk]))
    assert "A Dreadnought of this session is worth" not in page.content.decode()
