"""What the catalogue refuses, and how it says it (the organiser's QA pass): a weapon change
that leaves a squad without a legal loadout, a name another card or weapon has, values the
rules and the engine cannot play, an effect of the other kind of card; every refusal at its
field, in words, the inputs carrying their limits; the log saying what changed."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation

from rules.engine.units import RulesDataError, load_rules_data
from tests.web.page_forms import form_on
from tournaments.actions.catalogue_edits import CatalogueEditError, save_card, save_rules_values
from tournaments.forms.rules_values import RulesValuesForm
from tournaments.models import ActivityLog, ChapterCard
from tournaments.queries.activity_descriptions import entry_description
from tournaments.queries.rules_values import rules_item

pytestmark = pytest.mark.django_db


def page_form(client, url: str, holding: str) -> dict[str, list[str]]:
    return form_on(client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode(), holding)


def post(client, url: str, holding: str, **changes: str):
    """The page's form as loaded, with ``changes``, posted in English."""
    form = page_form(client, url, holding)
    return client.post(
        url,
        {**form, **{name: [value] for name, value in changes.items()}},
        HTTP_ACCEPT_LANGUAGE="en",
    )


def weapon_url(world, slug: str) -> str:
    weapon = world.tournament.weapons.get(slug=slug)
    return reverse("tournaments:organiser_weapon", args=[world.tournament.slug, weapon.pk])


def card(world, slug: str, squad: str = "ultramarines") -> ChapterCard:
    return ChapterCard.objects.get(squad__tournament=world.tournament, squad__slug=squad, slug=slug)


def card_url(world, slug: str, squad: str = "ultramarines") -> str:
    return reverse(
        "tournaments:organiser_card", args=[world.tournament.slug, card(world, slug, squad).pk]
    )


def values_url(world, section: str, item: str) -> str:
    return reverse(
        "tournaments:organiser_rules_values", args=[world.tournament.slug, section, item]
    )


def errors_of(response) -> str:
    return response.content.decode()


# A weapon change that leaves no legal loadout


def mountable_only(world, *weapons: str) -> None:
    """House rules whose Dreadnought classes mount only ``weapons`` (four of them), so
    that the other heavy weapons may change class (a Dreadnought mounts heavy ones)."""
    classes = {"malignant": 2, "predator": 2, "dominator": 4, "abominable": 4}
    world.tournament.data_overrides = {
        "dreadnought_classes": {
            key: {"weapon_choices": list(weapons), "default_weapons": list(weapons[:mounts])}
            for key, mounts in classes.items()
        }
    }
    world.tournament.save(update_fields=["data_overrides"])


def test_the_last_heavy_weapon_keeps_its_class(world, role_client):
    client = role_client("organiser")
    mountable_only(world, "plasma_gun", "lascannon", "melta", "conversion_beamer")
    for slug in ("assault-cannon", "missile-launcher"):
        assert (
            post(client, weapon_url(world, slug), "name_en", weapon_class="light").status_code
            == 302
        )
    refused = post(client, weapon_url(world, "plasma-gun"), "name_en", weapon_class="light")
    assert refused.status_code == 400
    page = errors_of(refused)
    assert "some squads could no longer take a legal loadout (RULES §5)" in page
    assert (
        "Ultramarines, Blood Angels, Imperial Fists: no weapon the marines may take is a heavy "
        "weapon any more, and at least one marine must carry one."
    ) in page
    form = form_on(page, "name_en")
    assert form["weapon_class"] == ["light"]  # the choice typed stays in the form
    assert world.tournament.weapons.get(slug="plasma-gun").weapon_class == "heavy"


def test_a_weapon_change_that_keeps_loadouts_possible_saves(world, role_client):
    client = role_client("organiser")
    response = post(client, weapon_url(world, "bolter"), "name_en", weapon_class="heavy")
    assert response.status_code == 302
    assert world.tournament.weapons.get(slug="bolter").weapon_class == "heavy"


# Names another card or weapon has


def test_a_card_may_not_take_the_name_of_another_card_of_its_chapter(world, role_client):
    client = role_client("organiser")
    refused = post(client, card_url(world, "blind-grenades"), "name_en", name_en="Bio-Scanner")
    assert refused.status_code == 400
    assert (
        "Bio-Scanner, another card of this chapter, is already called “Bio-Scanner”"
        in errors_of(refused)
    )
    assert card(world, "blind-grenades").name_en == "Blind Grenades"
    # in either language, whatever the case
    refused = post(client, card_url(world, "blind-grenades"), "name_en", name_it="bio-scanner")
    assert refused.status_code == 400
    assert "already called “bio-scanner”" in errors_of(refused)


def test_a_name_taken_meanwhile_is_refused_by_the_saving_action_too(world):
    """The form asks first; the action asks again under the tournament's lock, so two tabs
    giving two cards one name at once cannot both save it."""
    blind = card(world, "blind-grenades")
    blind.name_en = "Bio-Scanner"
    with pytest.raises(CatalogueEditError) as refused:
        save_card(blind, actor=world.organiser)
    assert set(refused.value.problems) == {"name_en"}
    assert card(world, "blind-grenades").name_en == "Blind Grenades"


def test_a_copy_of_a_card_keeps_the_name_of_its_other_copy(world, role_client):
    client = role_client("organiser")
    response = post(client, card_url(world, "targeter-2"), "name_en", name_it="Puntatore")
    assert response.status_code == 302


def test_two_effects_of_two_chapters_may_not_share_a_name(world, role_client):
    client = role_client("organiser")
    url = card_url(world, "bionic-arm", "blood-angels")
    refused = post(client, url, "name_en", name_en="Bio-Scanner")
    assert refused.status_code == 400
    assert "a card of another chapter with another effect" in errors_of(refused)


def test_a_weapon_may_not_take_another_weapons_name(world, role_client):
    client = role_client("organiser")
    url = weapon_url(world, "missile-launcher")
    refused = post(client, url, "name_en", name_en="laser RIFLE")
    assert refused.status_code == 400
    assert "Laser rifle is already called “laser RIFLE”" in errors_of(refused)
    refused = post(client, url, "name_en", name_it="Fucile laser")
    assert refused.status_code == 400
    assert world.tournament.weapons.get(slug="missile-launcher").name_en == "Missile launcher"


# Values the rules and the engine need


@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [
        (
            {"dice_white": "0", "dice_red": "0"},
            "dice_white",
            "A weapon rolls at least one die per shot: give it white or red dice.",
        ),
        ({"shots": "0"}, "shots", "Give a whole number from 1 to 6: a weapon fires at least once."),
        ({"dice_red": "40"}, "dice_red", "Give a whole number from 0 to 6."),
    ],
)
def test_a_bolter_rolls_dice_and_fires(world, role_client, changes, field, message):
    client = role_client("organiser")
    refused = post(client, values_url(world, "weapons", "bolter"), "shots", **changes)
    assert refused.status_code == 400
    assert f'id="id_{field}_error"><li>{message}</li>' in errors_of(refused).replace("&#x27;", "'")
    world.tournament.refresh_from_db()
    assert "weapons" not in (world.tournament.data_overrides or {})


def test_a_close_combat_weapon_has_no_shots_but_its_hand_to_hand_dice(world, role_client):
    client = role_client("organiser")
    url = values_url(world, "weapons", "power_axe")
    form = page_form(client, url, "hand_to_hand_red")
    assert "shots" not in form and "dice_red" not in form
    refused = post(client, url, "hand_to_hand_red", hand_to_hand_red="0", hand_to_hand_white="0")
    assert refused.status_code == 400
    assert "A close-combat weapon gives at least one die in hand-to-hand combat" in errors_of(
        refused
    )


@pytest.mark.parametrize(
    ("item", "changes", "message"),
    [
        (
            "malignant",
            {"class_value": "5"},
            "Give a whole number from 25 to 999: RULES §7 gives a Dreadnought a class value "
            "of 25 or more.",
        ),
        (
            "predator",
            {"movement": "0"},
            "Give a whole number from 1 to 12: a Dreadnought moves at least 1 square.",
        ),
        (
            "predator",
            {"default_weapons_1": "melta", "default_weapons_2": "melta"},
            "Melta is already one of its usual weapons: a Dreadnought mounts each weapon once; "
            "choose another.",
        ),
    ],
)
def test_a_dreadnought_class_is_worth_25_moves_and_mounts_each_weapon_once(
    world, role_client, item, changes, message
):
    client = role_client("organiser")
    refused = post(client, values_url(world, "dreadnought_classes", item), "movement", **changes)
    assert refused.status_code == 400
    assert message in errors_of(refused)


def test_a_dreadnought_class_offers_only_the_weapons_it_may_mount(world):
    data = load_rules_data(
        {
            "dreadnought_classes": {
                "predator": {
                    "weapon_choices": ["melta", "lascannon"],
                    "default_weapons": ["melta", "lascannon"],
                }
            }
        }
    )
    assert data.dreadnought_class("predator").weapon_choices == ("melta", "lascannon")
    world.tournament.data_overrides = {
        "dreadnought_classes": {
            "predator": {
                "weapon_choices": ["melta", "lascannon"],
                "default_weapons": ["melta", "lascannon"],
            }
        }
    }
    item = rules_item(world.tournament, "dreadnought_classes", "predator")
    form = RulesValuesForm(item=item, tournament=world.tournament)
    assert [key for key, _name in form.fields["default_weapons_1"].choices] == [
        "lascannon",
        "melta",
    ]


def test_an_equipment_card_takes_no_orders_effect(world, role_client):
    client = role_client("organiser")
    refused = post(
        client, card_url(world, "blind-grenades"), "name_en", effect_code="fire", name_en="Fire!"
    )
    assert refused.status_code == 400
    text = errors_of(refused)
    assert (
        "“Fire!” is an order&#x27;s effect; an equipment card takes an equipment card&#x27;s "
        "effect, or none (the judge reads the card)."
    ) in text
    assert "Fire!, another card of this chapter, is already called “Fire!”" in text  # at once
    page = client.get(card_url(world, "bio-scanner"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert '<optgroup label="Order cards">' in page and "Effect on the board" in page


# Refusals at their field, in words; inputs with their limits


def test_a_marines_life_points_are_refused_at_the_field_in_words(world, role_client):
    client = role_client("organiser")
    url = values_url(world, "units", "marine")
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'name="life_points" value="2" inputmode="numeric" min="1" max="12"' in page
    refused = post(client, url, "life_points", life_points="0")
    text = errors_of(refused)
    assert refused.status_code == 400
    assert "units.marine.life_points" not in text
    assert (
        'id="id_life_points_error"><li>Give a whole number from 1 to 12: a figure without life '
        "points would be dead before it plays.</li>"
    ) in text


def test_a_whole_data_problem_goes_to_the_field_it_names(world):
    item = rules_item(world.tournament, "units", "marine")
    form = RulesValuesForm({}, item=item, tournament=world.tournament)
    form.is_valid()
    form.add_data_error(
        RulesDataError("at_least", path="units.marine.hand_to_hand.red", minimum=1, value=0)
    )
    form.add_data_error(RulesDataError("unknown_unit", key="x", known="y"))
    assert form.errors["hand_to_hand_red"][-1] == "Must be at least 1, got 0"
    assert "unknown" in form.non_field_errors()[0]


# Italian wording and the log


def test_the_saved_messages_name_what_was_saved(world, role_client):
    client = role_client("organiser")
    saved = client.post(
        weapon_url(world, "missile-launcher"),
        {
            **page_form(client, weapon_url(world, "missile-launcher"), "name_en"),
            "name_en": ["Rocket launcher"],
        },
        HTTP_ACCEPT_LANGUAGE="en",
        follow=True,
    )
    assert "Weapon Rocket launcher saved." in saved.content.decode()
    saved = client.post(
        values_url(world, "weapons", "bolter"),
        {**page_form(client, values_url(world, "weapons", "bolter"), "shots"), "shots": ["2"]},
        HTTP_ACCEPT_LANGUAGE="en",
        follow=True,
    )
    assert "Values of Bolter saved." in saved.content.decode()


def test_the_log_says_what_changed_under_the_old_name(world, role_client):
    client = role_client("organiser")
    post(client, weapon_url(world, "missile-launcher"), "name_en", name_en="Rocket launcher")
    for changes in ({"shots": "2"}, {"dice_red": "3"}, {"dice_white": "1"}):
        post(client, values_url(world, "weapons", "bolter"), "shots", **changes)
    entries = list(ActivityLog.objects.filter(tournament=world.tournament).order_by("pk"))[-4:]
    with translation.override("en"):
        described = [entry_description(entry) for entry in entries]
    assert described == [
        "weapon Missile launcher changed: English name: “Missile launcher” → “Rocket launcher”",
        "values of Bolter changed: Shots: 1 → 2",
        "values of Bolter changed: Dice per shot: 0 white + 2 red → 0 white + 3 red",
        "values of Bolter changed: Dice per shot: 0 white + 3 red → 1 white + 3 red",
    ]
    with translation.override("it"):
        italian = entry_description(entries[0])
    assert "Missile launcher" not in italian.split(":")[0]  # the weapon's Italian name


def test_saving_nothing_changed_logs_nothing(world):
    before = ActivityLog.objects.count()
    ork = load_rules_data().unit("ork")
    changed = save_rules_values(
        world.tournament, "units", "ork", {"armour": ork.armour}, actor=world.organiser
    )
    assert changed == {} and ActivityLog.objects.count() == before
