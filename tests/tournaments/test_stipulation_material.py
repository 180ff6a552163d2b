"""The stipulation's event deck and aliens' material (issue 13 item 4): checked parameters,
card names stored as the engine's ids, and the stage form's fields that set them."""

import pytest
from django.core.exceptions import ValidationError
from django.utils import translation

from tests.factories import TournamentFactory
from tournaments.forms.organiser import StageForm
from tournaments.forms.stipulation import describe_stipulation
from tournaments.models import Stage, clean_stipulation_params

HUNT = {"rounds": 8, "event_deck": True}


def test_event_cards_are_stored_as_the_decks_ids_whatever_the_language():
    params = clean_stipulation_params(
        "alien_hunt", {**HUNT, "event_cards": ["Ladro Genetico", "Report In", "wrath"]}
    )
    assert params["event_cards"] == ["genestealer", "report", "wrath"]
    assert clean_stipulation_params("alien_hunt", HUNT)["event_cards"] == []


def test_a_typed_name_that_is_no_card_is_refused_by_name():
    with pytest.raises(ValidationError) as error:
        clean_stipulation_params("alien_hunt", {**HUNT, "event_cards": ["Genestealers!"]})
    assert "Genestealers! is no card of the alien event deck" in error.value.messages[0]


def test_the_aliens_material_is_accepted_and_checked():
    material = {
        "reinforcements": {"ork": 3, "gretchin": 0},
        "reinforcements_per_turn": 1,
        "reinforcements_from_round": 2,
        "blip_pile": {"android": 2},
        "dreadnought_class": "predator",
        "dreadnought_value": 30,
        "equipment_blips": {"1,1": "tarantula"},
    }
    params = clean_stipulation_params("alien_hunt", {**HUNT, **material})
    assert params["reinforcements"] == {"ork": 3}
    assert params["equipment_blips"] == {"1,1": "tarantula"}
    for bad, message in (
        ({"reinforcements": {"genestealer": 2}}, "genestealer is no alien type with tokens"),
        ({"dreadnought_value": 30}, "set “dreadnought_class” too"),
        ({"dreadnought_class": "mark-xi"}, "no Dreadnought class “mark-xi”"),
        ({"equipment_blips": {"a1": "melta"}}, "'a1' is not a square"),
        ({"equipment_blips": {"1,1": "bolter"}}, "“equipment_blips.1,1” must be one of"),
        ({"reinforcements_per_turn": -1}, "at least 0"),
    ):
        with pytest.raises(ValidationError) as error:
            clean_stipulation_params("tpk", bad)
        assert message in error.value.messages[0], bad


def stage_data(**changes):
    data = {
        "kind": "preliminary",
        "stipulation_kind": "alien_hunt",
        "ah_end_condition": "fixed_rounds",
        "ah_rounds": 8,
        "ah_event_deck": "on",
        "seating_method": "seeded",
    }
    data.update(changes)
    return data


@pytest.fixture
def stage(db):
    tournament = TournamentFactory()
    return Stage.objects.create(tournament=tournament, number=1, kind="preliminary")


def stage_form(stage, data):
    form = StageForm(data, instance=stage)
    form.is_valid()
    return form


def test_the_stage_form_chooses_event_cards_from_the_deck_in_the_readers_language(stage):
    with translation.override("it"):
        form = StageForm(instance=stage)
        choices = dict(form.fields["ah_event_cards"].choices)
        assert choices["genestealer"] == "Ladro Genetico"
    form = stage_form(stage, stage_data(ah_event_cards=["genestealer", "wrath"]))
    assert form.is_valid(), form.errors
    assert form.cleaned_data["stipulation_params"]["event_cards"] == ["genestealer", "wrath"]
    # Nothing ticked: the whole deck, stored as an empty list.
    form = stage_form(stage, stage_data())
    assert form.cleaned_data["stipulation_params"]["event_cards"] == []
    refused = stage_form(stage, stage_data(ah_event_cards=["Ladro Genetico"]))
    assert "ah_event_cards" in refused.errors


def test_the_stage_form_sets_the_aliens_material_without_json(stage):
    data = stage_data(
        reinforcements_ork=3,
        reinforcements_android=1,
        reinforcements_per_turn=1,
        blip_pile_gretchin=4,
        dreadnought_class="dominator",
        dreadnought_value=40,
        equipment_tarantula="1,1 1,8",
        equipment_abandoned_dreadnought="4,4",
        equipment_melta="7,11",
    )
    form = stage_form(stage, data)
    assert form.is_valid(), form.errors
    params = form.cleaned_data["stipulation_params"]
    assert params["reinforcements"] == {"ork": 3, "android": 1}
    assert params["blip_pile"] == {"gretchin": 4}
    assert (params["dreadnought_class"], params["dreadnought_value"]) == ("dominator", 40)
    assert params["equipment_blips"] == {
        "1,1": "tarantula",
        "1,8": "tarantula",
        "4,4": "abandoned_dreadnought",
        "7,11": "melta",
    }
    # Saved and opened again, the form shows what was set.
    stage.stipulation_kind, stage.stipulation_params = "alien_hunt", params
    again = StageForm(instance=stage)
    assert again.initial["reinforcements_ork"] == 3
    assert again.initial["equipment_tarantula"] == "1,1 1,8"
    with translation.override("en"):
        lines = dict(describe_stipulation("alien_hunt", params).lines)
    assert lines["Reinforcement tokens"] == "Ork 3, Android 1"
    assert lines["Blips hiding: Tarantula"] == "1,1 1,8"


def test_stage_form_errors_sit_next_to_their_field(stage):
    form = stage_form(stage, stage_data(equipment_melta="7;11", dreadnought_value=30))
    assert form.errors["equipment_melta"] == [
        "7 is not a square; write squares as x,y separated by spaces, e.g. 4,7 10,2."
    ]
    assert "dreadnought_class" in str(form.errors)
    twice = stage_form(stage, stage_data(equipment_melta="1,1", equipment_lascannon="1,1"))
    assert "already hides" in str(twice.errors)
    low = stage_form(stage, stage_data(dreadnought_class="dominator", dreadnought_value=10))
    assert "dreadnought_value" in low.errors


def test_the_dreadnought_weapons_are_as_many_as_its_class_mounts_and_its_own():
    """RULES §10: the session notes name the Dreadnought's heavy weapons."""
    named = {"dreadnought_class": "malignant", "dreadnought_weapons": ["melta", "lascannon"]}
    assert clean_stipulation_params("tpk", named)["dreadnought_weapons"] == ["melta", "lascannon"]
    for bad, message in (
        ({"dreadnought_weapons": ["melta", "lascannon"]}, "set “dreadnought_class” too"),
        (
            {**named, "dreadnought_weapons": ["melta"]},
            "the Mark VII Malignant mounts 2 heavy weapons, not 1",
        ),
        ({**named, "dreadnought_weapons": ["melta", "bolter"]}, "cannot mount bolter"),
        ({**named, "dreadnought_weapons": ["melta", "ray-gun"]}, "cannot mount ray-gun"),
        ({**named, "dreadnought_weapons": "melta"}, "must be a list of weapons"),
    ):
        with translation.override("en"), pytest.raises(ValidationError) as error:
            clean_stipulation_params("tpk", bad)
        assert message in error.value.messages[0], bad


def test_the_stage_form_names_the_dreadnoughts_weapons_in_the_organisers_words(stage):
    data = stage_data(
        dreadnought_class="dominator",
        dreadnought_weapon_1="assault_cannon",
        dreadnought_weapon_2="assault_cannon",
        dreadnought_weapon_3="melta",
        dreadnought_weapon_4="conversion_beamer",
    )
    form = stage_form(stage, data)
    assert form.is_valid(), form.errors
    params = form.cleaned_data["stipulation_params"]
    weapons = ["assault_cannon", "assault_cannon", "melta", "conversion_beamer"]
    assert params["dreadnought_weapons"] == weapons
    stage.stipulation_kind, stage.stipulation_params = "alien_hunt", params
    again = StageForm(instance=stage)
    assert [again.initial[f"dreadnought_weapon_{n}"] for n in range(1, 5)] == weapons
    with translation.override("it"):
        lines = dict(describe_stipulation("alien_hunt", params).lines)
    assert lines["Armi del Dreadnought"] == (
        "Cannone d'assalto, Cannone d'assalto, Fucile a fusione, Raggio a conversione"
    )
    with translation.override("en"):
        short = stage_form(
            stage, stage_data(dreadnought_class="dominator", dreadnought_weapon_1="melta")
        )
        unnamed = stage_form(stage, stage_data(dreadnought_weapon_1="melta"))
    assert short.errors["dreadnought_weapon_1"] == [
        "The Mark IX Dominator mounts 4 heavy weapons: choose 4 (you chose 1)."
    ]
    assert "Choose the Dreadnought class too" in unnamed.errors["dreadnought_weapon_1"][0]
