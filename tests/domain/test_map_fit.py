"""Whether a map suits a stipulation (decision 45): Catch the Flag needs a flag spot per
flag it places, and another stipulation on a map with flag spots is a warning."""

from __future__ import annotations

import pytest

from tournaments.domain.map_fit import flags_placed, map_misfit


@pytest.mark.parametrize(
    ("flags", "squads", "placed"),
    [
        ("one_per_squad", 3, 3),
        ("one_per_squad", 2, 2),
        ("two_for_three", 3, 2),
        ("two_for_three", 2, 1),
        ("one_for_all", 3, 1),
        (None, 3, 3),  # the parameter's default: one per squad
    ],
)
def test_flags_placed_follows_the_engine(flags, squads, placed):
    params = {} if flags is None else {"flags": flags}
    assert flags_placed(params, squads) == placed


def test_catch_the_flag_on_a_map_without_flag_spots_is_refused():
    misfit = map_misfit("catch_the_flag", {"flag_value": 30}, "Ring (tpk-ring)", 0)
    assert misfit is not None and misfit.blocking
    assert misfit.message == (
        "The map “Ring (tpk-ring)” has no flag spot, so a Catch the Flag game on it would "
        "have no flag to catch. Choose another map, or draw flag spots (F) on this one on "
        "the Maps page."
    )


def test_catch_the_flag_with_more_flags_than_spots_is_refused_naming_maps_that_fit():
    misfit = map_misfit(
        "catch_the_flag",
        {"flags": "one_per_squad"},
        "Reference hulk (reference)",
        1,
        suited=["Relay station (flag-relay)"],
    )
    assert misfit is not None and misfit.blocking
    assert misfit.message.startswith(
        "Catch the Flag places 3 flags here, but the map “Reference hulk (reference)” has only "
        "1 flag spot, so the game would start with fewer flags than the stipulation says."
    )
    assert "Choose fewer flags, or another map, or draw more flag spots (F)" in misfit.message
    assert misfit.message.endswith("Maps with enough flag spots: Relay station (flag-relay).")


@pytest.mark.parametrize(
    ("flags", "spots", "squads"),
    [("one_for_all", 1, 3), ("two_for_three", 2, 3), ("one_per_squad", 2, 2)],
)
def test_catch_the_flag_fits_a_map_with_a_spot_per_flag(flags, spots, squads):
    assert map_misfit("catch_the_flag", {"flags": flags}, "m", spots, squads=squads) is None


@pytest.mark.parametrize("kind", ["tpk", "extended_tpk", "alien_hunt"])
def test_another_stipulation_on_a_map_with_flag_spots_is_a_warning(kind):
    misfit = map_misfit(kind, {}, "Relay station (flag-relay)", 3)
    assert misfit is not None and not misfit.blocking
    assert misfit.message.startswith(
        "The map “Relay station (flag-relay)” has 3 flag spots, which only Catch the Flag "
        "uses: this stipulation places no flag there"
    )
    assert "Choose a map without flag spots, or keep this one and tell the players." in (
        misfit.message
    )
    assert map_misfit(kind, {}, "Ring (tpk-ring)", 0) is None


def test_no_stipulation_chosen_yet_is_no_misfit():
    assert map_misfit("", {}, "Relay station (flag-relay)", 3) is None
