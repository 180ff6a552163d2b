"""Saving a stage: a save that changes nothing writes nothing and logs nothing; and the
Dreadnought's weapons, which RULES §10 lets the session notes name freely among its class's
choices, may name one weapon twice."""

from __future__ import annotations

import pytest

from rules.engine.dice import SeededDice
from rules.engine.units import load_rules_data
from tests.factories import TournamentFactory, confirm_stage, register_players
from tournaments.actions.stage_advance import advance, start_tournament
from tournaments.actions.tournament_setup import save_stage
from tournaments.forms.organiser import StageForm
from tournaments.models import ActivityLog, Stage, StageKind, clean_stipulation_params
from tournaments.queries.edit_versions import stage_version

pytestmark = pytest.mark.django_db


@pytest.fixture
def stage():
    tournament = TournamentFactory()
    stage = Stage.objects.create(
        tournament=tournament,
        number=1,
        kind="preliminary",
        stipulation_kind="alien_hunt",
        stipulation_params=clean_stipulation_params("alien_hunt", {"rounds": 8}),
        map_name="reference",
    )
    save_stage(stage, [30, 60], actor=None)
    return stage


def entries(stage: Stage) -> int:
    return ActivityLog.objects.filter(tournament=stage.tournament).count()


def test_a_save_without_changes_writes_and_logs_nothing(stage):
    before = entries(stage)
    again = Stage.objects.get(pk=stage.pk)
    threshold_ids = list(again.thresholds.values_list("pk", flat=True))
    assert save_stage(again, [60, 30], actor=None, expected_version=stage_version(again)) is None
    assert entries(stage) == before
    assert list(again.thresholds.values_list("pk", flat=True)) == threshold_ids  # not rewritten


def test_parameters_stored_without_their_defaults_are_no_change(stage):
    """A stage made in code may store ``{"rounds": 8}``; its form writes the defaults too."""
    Stage.objects.filter(pk=stage.pk).update(stipulation_params={"rounds": 8})
    before = entries(stage)
    again = Stage.objects.get(pk=stage.pk)
    again.stipulation_params = clean_stipulation_params("alien_hunt", {"rounds": 8})
    assert save_stage(again, [30, 60], actor=None) is None
    assert entries(stage) == before


@pytest.mark.parametrize(
    ("change", "thresholds"),
    [
        ({"map_name": "hunt-derelict"}, [30, 60]),
        ({"qualifier_count": 4}, [30, 60]),
        ({"stipulation_params_rounds": 10}, [30, 60]),
        ({}, [30]),  # the thresholds alone
    ],
)
def test_a_save_with_a_change_is_logged_once(stage, change, thresholds):
    before = entries(stage)
    edited = Stage.objects.get(pk=stage.pk)
    for name, value in change.items():
        if name == "stipulation_params_rounds":
            edited.stipulation_params = {**edited.stipulation_params, "rounds": value}
        else:
            setattr(edited, name, value)
    assert save_stage(edited, thresholds, actor=None) is not None
    assert entries(stage) == before + 1
    assert sorted(edited.thresholds.values_list("points", flat=True)) == thresholds


def test_a_new_stage_is_always_saved_and_logged():
    tournament = TournamentFactory()
    before = ActivityLog.objects.filter(tournament=tournament).count()
    stage = Stage(tournament=tournament, number=1, kind="preliminary")
    assert save_stage(stage, [], actor=None) is not None
    assert ActivityLog.objects.filter(tournament=tournament).count() == before + 1


def test_a_dreadnought_may_carry_the_same_weapon_twice(stage):
    """RULES §10 and seed 002 give a class a number of heavy or extra-heavy weapons named
    in the session notes, without asking for different ones; the engine fires, counts and
    loses each copy on its own."""
    data = {
        "stipulation_kind": "alien_hunt",
        "ah_end_condition": "fixed_rounds",
        "ah_rounds": 8,
        "seating_method": "seeded",
        "map_name": "reference",
        "dreadnought_class": "malignant",
        "dreadnought_weapon_1": "assault_cannon",
        "dreadnought_weapon_2": "assault_cannon",
    }
    form = StageForm(data, instance=stage)
    assert form.is_valid(), form.errors
    weapons = form.cleaned_data["stipulation_params"]["dreadnought_weapons"]
    assert weapons == ["assault_cannon", "assault_cannon"]
    assert load_rules_data().dreadnought_weapons("malignant", weapons) == (
        "assault_cannon",
        "assault_cannon",
        "laser_rifle",
    )


def test_a_qualifier_count_that_no_longer_fills_one_session_makes_the_stage_no_semifinal():
    """RULES §2: the semifinal is the stage whose qualifiers fill one session. 7 players
    (3, 2, 2) send 6 on to a semifinal of 2 sessions; the organiser's count of 4 for it
    makes it an intermediate stage (the next one, 4 players in 2 sessions, is the
    semifinal), and clearing the count makes it the semifinal again."""
    tournament = TournamentFactory()
    register_players(tournament, 7)
    start_tournament(tournament, SeededDice(seed=1))
    confirm_stage(tournament.stages.get(number=1), lambda seat: seat.player_id)
    advance(tournament, SeededDice(seed=2))
    second = tournament.stages.get(number=2)
    assert second.kind == StageKind.SEMIFINAL
    second.qualifier_count = 4
    save_stage(second, [], actor=None)
    assert Stage.objects.get(pk=second.pk).kind == StageKind.INTERMEDIATE
    second.qualifier_count = None
    save_stage(second, [], actor=None)
    assert Stage.objects.get(pk=second.pk).kind == StageKind.SEMIFINAL
