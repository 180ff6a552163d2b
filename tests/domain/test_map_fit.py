"""Whether a map suits a stipulation (decision 45): a claw per squad, a flag spot per flag
Catch the Flag places, special equipment on blip markers (each refused, all named in one
message), and a warning when a stipulation with aliens has none to meet."""

from __future__ import annotations

import pytest

from rules.engine.maps import parse_map
from tournaments.domain.map_fit import blip_markers, flags_placed, map_misfit

#: Three claws, two flag spots, an ork blip marker at 2,0 and a Genestealer's at 3,1.
FLAG_HALL = """\
name: flag-hall
+--+--+--+--+
|.1 .F .o .2|
+  +  +  +  +
|.  .F .3 .g|
+--+--+--+--+

section A board 0,0 3,1 Hall
marker o ork
marker g genestealer
claw 1
claw 2
claw 3
"""

#: Two claws, nothing else.
TWO_CLAWS = """\
name: two-claws
+--+--+--+
|.1 .  .2|
+--+--+--+

section A board 0,0 2,0 Corridor
claw 1
claw 2
"""


@pytest.fixture
def hall():
    return parse_map(FLAG_HALL)


@pytest.fixture
def bare():
    return parse_map(TWO_CLAWS)


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


def test_catch_the_flag_on_a_map_without_flag_spots_is_refused(bare):
    misfit = map_misfit("catch_the_flag", {"flag_value": 30}, bare, "Bare (two-claws)", squads=2)
    assert misfit is not None and misfit.blocking
    assert misfit.message == (
        "The map “Bare (two-claws)” has no flag spot, so a Catch the Flag game on it would "
        "have no flag to catch. Choose another map, or draw flag spots (F) on this one on "
        "the Maps page."
    )


def test_catch_the_flag_with_more_flags_than_spots_is_refused_naming_maps_that_fit(hall):
    misfit = map_misfit(
        "catch_the_flag",
        {"flags": "one_per_squad"},
        hall,
        "Hall (flag-hall)",
        suited=["Relay station (flag-relay)"],
    )
    assert misfit is not None and misfit.blocking
    assert misfit.message.startswith(
        "Catch the Flag places 3 flags here, but the map “Hall (flag-hall)” has only "
        "2 flag spots, so the game would start with fewer flags than the stipulation says."
    )
    assert "Choose fewer flags, or another map, or draw more flag spots (F)" in misfit.message
    assert misfit.message.endswith("Maps with enough flag spots: Relay station (flag-relay).")


@pytest.mark.parametrize(
    ("flags", "squads"), [("one_for_all", 3), ("two_for_three", 3), ("one_per_squad", 2)]
)
def test_catch_the_flag_fits_a_map_with_a_spot_per_flag(hall, flags, squads):
    assert map_misfit("catch_the_flag", {"flags": flags}, hall, "m", squads=squads) is None


def test_a_map_with_fewer_claws_than_squads_is_refused(bare):
    misfit = map_misfit("tpk", {}, bare, "Bare (two-claws)", squads=3)
    assert misfit is not None and misfit.blocking
    assert misfit.message == (
        "The map “Bare (two-claws)” has 2 docking claws, but the session seats 3 squads and "
        "each enters by its own: choose a map with at least 3."
    )
    assert map_misfit("tpk", {}, bare, "Bare (two-claws)", squads=2) is None


def test_special_equipment_off_the_blip_markers_is_refused_naming_them(hall):
    params = {"equipment_blips": {"2,0": "melta", "99,99": "lascannon", "3,1": "melta"}}
    misfit = map_misfit("alien_hunt", params, hall, "Hall (flag-hall)")
    assert misfit is not None and misfit.blocking
    assert misfit.message == (
        "Squares 99,99; 3,1 are to hide special equipment, but they are no alien blip "
        "markers of the map “Hall (flag-hall)”. Choose among its blip markers: 2,0."
    )
    assert blip_markers(hall) == ["2,0"]  # a Genestealer has no blip
    assert map_misfit("alien_hunt", {"equipment_blips": {"2,0": "melta"}}, hall, "h") is None


def test_every_refusal_is_named_at_once(bare):
    params = {"flag_value": 30, "equipment_blips": {"1,0": "melta"}}
    misfit = map_misfit("catch_the_flag", params, bare, "Bare", squads=3)
    assert misfit is not None and misfit.blocking
    assert "2 docking claws" in misfit.message
    assert "no flag spot" in misfit.message
    assert "The map has no blip marker: leave the special equipment out." in misfit.message


@pytest.mark.parametrize(
    ("kind", "params"),
    [("alien_hunt", {}), ("catch_the_flag", {"aliens": True, "flags": "one_for_all"})],
)
def test_aliens_in_play_on_a_map_without_markers_is_a_warning(kind, params):
    one_flag = parse_map(TWO_CLAWS.replace(".  .2", ".F .2"))
    misfit = map_misfit(kind, params, one_flag, "Bare", squads=2)
    assert misfit is not None and not misfit.blocking
    assert misfit.message == (
        "The map “Bare” has no alien marker and the stipulation brings no reinforcements or "
        "alien events, so no alien will appear: choose a map with alien markers, or add "
        "reinforcements."
    )
    with_help = {**params, "reinforcements": {"ork": 2}}
    assert map_misfit(kind, with_help, one_flag, "Bare", squads=2) is None


def test_a_stipulation_without_aliens_needs_no_marker_and_flag_spots_do_not_matter(bare, hall):
    assert map_misfit("tpk", {}, bare, "Bare", squads=2) is None
    assert map_misfit("tpk", {}, hall, "Hall") is None  # the board draws no spot in a TPK


def test_no_stipulation_chosen_yet_is_no_misfit(bare):
    assert map_misfit("", {}, bare, "Bare") is None
