"""Migration 0025: a tournament's house least Dreadnought class value goes (decision 67),
its other point values stay."""

from __future__ import annotations

import pytest

from tests.migration_steps import migrate_to, migrate_to_latest

BEFORE = [("tournaments", "0024_player_language")]
AFTER = [("tournaments", "0025_least_class_value_not_a_house_rule")]


@pytest.mark.django_db(transaction=True)
def test_the_house_least_class_value_goes_and_the_point_values_stay():
    old = migrate_to(BEFORE)
    Tournament = old.get_model("tournaments", "Tournament")
    raised = Tournament.objects.create(
        name="raised",
        slug="raised",
        data_overrides={"scoring": {"light": 7, "dreadnought_min_class_value": 30}},
    )
    plain = Tournament.objects.create(
        name="plain", slug="plain", data_overrides={"alien_tokens": {"ork": 3}}
    )

    new = migrate_to(AFTER)
    stored = dict(
        new.get_model("tournaments", "Tournament").objects.values_list("pk", "data_overrides")
    )
    assert stored[raised.pk] == {"scoring": {"light": 7}}
    assert stored[plain.pk] == {"alien_tokens": {"ork": 3}}
    migrate_to_latest()
