"""The organiser edits the catalogue in the app (issue 15 item 5): chapter cards, weapons,
alien token values and the alien event cards' wording, each change logged, every bad input
refused next to its field; the units' and weapons' numbers too."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation

from rules.engine.event_cards import default_cards
from rules.engine.units import load_rules_data
from table.session_material import engine_setup
from tournaments.actions.catalogue_edits import (
    add_shipped_cards,
    save_event_card,
    save_token_values,
)
from tournaments.forms.catalogue import ChapterCardForm, TokenValuesForm, WeaponForm
from tournaments.models import ActivityLog, ChapterCard, Loadout
from tournaments.queries.activity_descriptions import entry_description
from tournaments.queries.session_stipulation import result_limits

pytestmark = pytest.mark.django_db

#: The shipped alien event deck by card id.
TOURNAMENT_DECK = {card.id: card for card in default_cards()}


def card_of(world, slug="bio-scanner", squad="ultramarines") -> ChapterCard:
    return ChapterCard.objects.get(squad__tournament=world.tournament, squad__slug=squad, slug=slug)


def card_data(card: ChapterCard, **changes) -> dict:
    data = {
        "name_en": card.name_en,
        "name_it": card.name_it,
        "kind": card.kind,
        "use": card.use,
        "effect_code": card.effect_code,
        "effect_en": card.effect_en,
        "effect_it": card.effect_it,
        "source": card.source,
        "confidence": card.confidence,
    }
    data.update(changes)
    return data


def last_entry(world) -> ActivityLog:
    return ActivityLog.objects.filter(tournament=world.tournament).latest("pk")


def test_the_catalogue_page_lists_every_card_weapon_and_token_value(world, role_client):
    url = reverse("tournaments:organiser_catalogue", args=[world.tournament.slug])
    with translation.override("en"):
        html = role_client("organiser").get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    for name in ("Bio-Scanner", "Photon Grenades!", "Suspensors", "Lascannon"):
        assert name in html
    assert 'name="tokens-ork"' in html and 'value="2"' in html


def test_the_catalogue_leads_to_each_of_its_parts_and_an_item_back_to_its_own(world, role_client):
    """The catalogue is long on a phone: its top links to each part, and an item's page
    leads back to the part listing it, not to the top."""
    client = role_client("organiser")
    catalogue = reverse("tournaments:organiser_catalogue", args=[world.tournament.slug])
    html = client.get(catalogue, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    contents = html.split('<nav class="page-contents" aria-label="On this page">', 1)[1]
    contents = contents.split("</nav>", 1)[0]
    parts = ["tokens", "rules-values", "event-cards", "weapons"]
    parts += [f"cards-{squad.slug}" for squad in world.tournament.squads.all()]
    for part in parts:
        assert f'<a href="#{part}">' in contents
        assert html.count(f'id="{part}"') == 1
    card = card_of(world)
    weapon = world.tournament.weapons.first()
    items = {
        reverse("tournaments:organiser_card", args=[world.tournament.slug, card.pk]): (
            "cards-ultramarines"
        ),
        reverse("tournaments:organiser_weapon", args=[world.tournament.slug, weapon.pk]): (
            "weapons"
        ),
        reverse(
            "tournaments:organiser_event_card", args=[world.tournament.slug, "report"]
        ): "event-cards",
        values_url(world): "rules-values",
    }
    for url, part in items.items():
        page = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
        assert f'<a href="{catalogue}#{part}">Back to the catalogue</a>' in page, url


def test_the_organiser_edits_a_card_and_the_change_is_logged(world, role_client):
    card = card_of(world)
    url = reverse("tournaments:organiser_card", args=[world.tournament.slug, card.pk])
    data = card_data(card, name_it="Bio-Scanner Italiano", confidence="confirmed")
    response = role_client("organiser").post(url, data)
    assert response.status_code == 302
    card.refresh_from_db()
    assert (card.name_it, card.confidence) == ("Bio-Scanner Italiano", "confirmed")
    entry = last_entry(world)
    assert entry.actor == world.organiser
    assert entry.details["changed"] == {
        "name_it": ["", "Bio-Scanner Italiano"],
        "confidence": ["one_source", "confirmed"],
    }
    with translation.override("en"):
        assert entry_description(entry) == (
            "chapter card Bio-Scanner of Ultramarines changed: Italian name: – → "
            "“Bio-Scanner Italiano”; Confidence: One source → Confirmed by two sources or more"
        )


def test_card_form_errors_are_clear(world):
    card = card_of(world)
    form = ChapterCardForm(card_data(card, name_en=" ", effect_code="teleport"), instance=card)
    assert not form.is_valid()
    assert form.errors["name_en"] == ["Give the card's English name."]
    assert "teleport" in form.errors["effect_code"][0]


def test_a_card_held_by_a_loadout_keeps_its_kind(world):
    seat = world.session.seats.order_by("seat_order").first()
    seat.squad = world.tournament.squads.get(slug="ultramarines")
    seat.save()
    Loadout.objects.create(seat=seat, commander_combo="bolter", equipment_cards=["bio-scanner"])
    card = card_of(world)
    form = ChapterCardForm(card_data(card, kind="order"), instance=card)
    assert not form.is_valid()
    assert form.errors["kind"] == [
        "1 loadout holds this card; changing its kind would make that loadout wrong. Leave it "
        "as it is, or ask the player to change the loadout first."
    ]
    # The same card of another chapter is in no loadout: its kind may change (with an
    # effect of its new kind, or none).
    other = card_of(world, squad="blood-angels", slug="bolt-pistols")
    assert ChapterCardForm(
        card_data(other, kind="order", effect_code=""), instance=other
    ).is_valid()


def test_the_organiser_edits_a_weapon(world, role_client):
    weapon = world.tournament.weapons.get(slug="melta")
    url = reverse("tournaments:organiser_weapon", args=[world.tournament.slug, weapon.pk])
    data = {"name_en": "Melta gun", "name_it": "Fucile a Fusione", "weapon_class": "extra_heavy"}
    assert role_client("organiser").post(url, data).status_code == 302
    weapon.refresh_from_db()
    assert weapon.name_en == "Melta gun" and weapon.colour_restricted is False
    with translation.override("en"):
        assert entry_description(last_entry(world)) == (
            "weapon Melta changed: English name: “Melta” → “Melta gun”; "
            "Italian name: “Fucile a fusione” → “Fucile a Fusione”"
        )
    refused = role_client("organiser").post(url, {**data, "name_en": ""})
    assert refused.status_code == 400
    form = WeaponForm({**data, "weapon_class": "laser"}, instance=weapon)
    assert not form.is_valid() and "weapon_class" in form.errors


def test_token_values_are_the_one_source_for_the_result_form_and_the_board(world, role_client):
    url = reverse("tournaments:organiser_catalogue", args=[world.tournament.slug])
    values = {f"tokens-{alien}": value for alien, value in load_rules_data().alien_tokens.items()}
    values.pop("tokens-genestealer")
    response = role_client("organiser").post(url, {**values, "tokens-ork": 3})
    assert response.status_code == 302
    world.tournament.refresh_from_db()
    # Only the changed value is kept as an override; the rules data gives the rest.
    assert world.tournament.data_overrides == {"alien_tokens": {"ork": 3}}
    assert load_rules_data(world.tournament.data_overrides).alien_tokens["ork"] == 3
    assert result_limits(world.session).aliens.default_value("ork") == 3
    assert last_entry(world).details["changed"] == {"ork": [2, 3]}
    # Back to the shipped value: no override left.
    save_token_values(world.tournament, {"ork": 2}, actor=world.organiser)
    world.tournament.refresh_from_db()
    assert world.tournament.data_overrides == {}


def test_token_values_form_errors(world):
    form = TokenValuesForm({"tokens-ork": "-1"}, tournament=world.tournament, prefix="tokens")
    assert not form.is_valid()
    assert form.errors["gretchin"] == ["Give the points of one token (0 when it scores nothing)."]
    assert "ork" in form.errors
    world.tournament.data_overrides = {"units": {"nobody": {"movement": 3}}}
    values = {f"tokens-{a}": 1 for a in load_rules_data().alien_tokens if a != "genestealer"}
    form = TokenValuesForm(values, tournament=world.tournament, prefix="tokens")
    assert not form.is_valid()
    assert "rules data changes are wrong" in form.non_field_errors()[0]
    assert "units.nobody: new entry is missing fields" in form.non_field_errors()[0]


def test_a_broken_rules_data_change_is_told_in_italian(world):
    world.tournament.data_overrides = {"units": {"ork": {"armour": "one"}}}
    values = {f"tokens-{a}": 1 for a in load_rules_data().alien_tokens if a != "genestealer"}
    with translation.override("it"):
        form = TokenValuesForm(values, tournament=world.tournament, prefix="tokens")
        assert not form.is_valid()
        message = str(form.non_field_errors()[0])
    assert "units.ork.armour: serve un numero intero, trovato 'one'" in message
    assert "expected" not in message


def test_missing_shipped_cards_are_added_once(world, role_client):
    ChapterCard.objects.filter(squad__tournament=world.tournament, slug="targeter-2").delete()
    url = reverse("tournaments:organiser_cards_complete", args=[world.tournament.slug])
    assert role_client("organiser").post(url).status_code == 302
    assert ChapterCard.objects.filter(squad__tournament=world.tournament).count() == 36
    assert last_entry(world).description_params == {"count": 3}
    assert add_shipped_cards(world.tournament, actor=world.organiser) == 0


def event_url(world, card="report") -> str:
    return reverse("tournaments:organiser_event_card", args=[world.tournament.slug, card])


EVENT = {
    "name_it": "A Rapporto",
    "name_en": "Report In",
    "text_it": "Il comandante scelto fa rapporto: salta il prossimo turno.",
    "text_en": "The chosen commander reports in and sits out his next turn.",
}


def test_the_organiser_words_an_event_card_and_only_the_change_is_kept(world, role_client):
    client = role_client("organiser")
    with translation.override("en"):
        page = client.get(event_url(world), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "As shipped: A Rapporto" in page
    response = client.post(event_url(world), EVENT)
    assert response.status_code == 302
    world.tournament.refresh_from_db()
    change = world.tournament.data_overrides["events"]["report"]
    assert "name" not in change  # the names equal the shipped ones
    assert change["text"] == {"it": EVENT["text_it"], "en": EVENT["text_en"]}
    assert entry_description(last_entry(world)).startswith(
        "alien event card Report In changed: Italian text: “"
    )
    listed = client.get(
        reverse("tournaments:organiser_catalogue", args=[world.tournament.slug]),
        HTTP_ACCEPT_LANGUAGE="en",
    ).content.decode()
    assert EVENT["text_en"] in listed and "edited" in listed
    shipped = {field: value for field, value in EVENT.items() if field.startswith("name")}
    shipped.update(
        text_it=TOURNAMENT_DECK["report"].text["it"], text_en=TOURNAMENT_DECK["report"].text["en"]
    )
    assert client.post(event_url(world), shipped).status_code == 302
    world.tournament.refresh_from_db()
    assert "events" not in world.tournament.data_overrides  # back as shipped: nothing kept


def test_an_event_card_needs_both_languages_and_a_known_card(world, role_client):
    client = role_client("organiser")
    response = client.post(event_url(world), {**EVENT, "name_it": " "})
    assert response.status_code == 400
    assert "Write it in both languages" in response.content.decode()
    world.tournament.refresh_from_db()
    assert "events" not in (world.tournament.data_overrides or {})
    assert client.get(event_url(world, "no-such-card")).status_code == 404


def test_the_stage_form_and_the_session_page_name_the_deck_as_the_catalogue_does(
    world, role_client
):
    save_event_card(
        world.tournament,
        "genestealer",
        name={"it": "Ibrido Genoraptor", "en": "Hybrid"},
        text=dict(TOURNAMENT_DECK["genestealer"].text),
        actor=None,
    )
    stage = world.session.stage
    stage.stipulation_kind = "alien_hunt"
    stage.stipulation_params = {"rounds": 8, "event_deck": True, "event_cards": ["genestealer"]}
    stage.save()
    client = role_client("organiser")
    form = client.get(
        reverse("tournaments:organiser_stage", args=[world.tournament.slug, stage.number]),
        HTTP_ACCEPT_LANGUAGE="en",
    ).content.decode()
    assert "Hybrid" in form
    public = role_client("anonymous").get(
        reverse("tournaments:session", args=[world.tournament.slug, world.session.pk]),
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert "Hybrid" in public.content.decode()


def values_url(world, section="units", item="ork") -> str:
    return reverse(
        "tournaments:organiser_rules_values", args=[world.tournament.slug, section, item]
    )


def shipped_ork() -> dict:
    """The ork's values as the form posts them, as shipped."""
    ork = load_rules_data().unit("ork")
    return {
        "movement": ork.movement,
        "armour": ork.armour,
        "life_points": ork.life_points,
        "hand_to_hand_white": ork.hand_to_hand.white,
        "hand_to_hand_red": ork.hand_to_hand.red,
    }


def test_the_organiser_corrects_a_units_numbers_and_only_the_change_is_kept(world, role_client):
    client = role_client("organiser")
    listed = client.get(
        reverse("tournaments:organiser_catalogue", args=[world.tournament.slug]),
        HTTP_ACCEPT_LANGUAGE="en",
    ).content.decode()
    assert values_url(world) in listed and "To check" in listed
    page = client.get(values_url(world), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Only a weak source backs it" in page  # the ork's hand-to-hand dice
    shipped = load_rules_data().unit("ork")
    ork = shipped_ork()
    assert client.post(values_url(world), {**ork, "armour": shipped.armour + 1}).status_code == 302
    world.tournament.refresh_from_db()
    assert world.tournament.data_overrides["units"] == {"ork": {"armour": shipped.armour + 1}}
    rules = load_rules_data(world.tournament.data_overrides)
    assert rules.unit("ork").armour == shipped.armour + 1
    assert rules.source("units.ork.armour").text == "tournament override"
    assert entry_description(last_entry(world)) == "values of Ork changed: Armour: 1 → 2"
    assert engine_setup(world.session).overrides["units"]["ork"]["armour"] == shipped.armour + 1
    assert client.post(values_url(world), ork).status_code == 302
    world.tournament.refresh_from_db()
    assert "units" not in world.tournament.data_overrides  # back as shipped: nothing kept


def test_a_weapons_dice_are_corrected_and_bad_numbers_refused(world, role_client):
    client = role_client("organiser")
    url = values_url(world, "weapons", "plasma_gun")
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Dice per shot: red dice" in page and "Hand-to-hand" not in page  # it has none
    refused = client.post(url, {"dice_white": -1, "dice_red": 2, "shots": 1})
    assert refused.status_code == 400
    world.tournament.refresh_from_db()
    assert "weapons" not in (world.tournament.data_overrides or {})
    assert client.post(url, {"dice_white": 1, "dice_red": 2, "shots": 1}).status_code == 302
    world.tournament.refresh_from_db()
    assert world.tournament.data_overrides["weapons"] == {
        "plasma_gun": {"dice": {"white": 1, "red": 2}}
    }
    assert client.get(values_url(world, "units", "no-such-unit")).status_code == 404
    assert client.get(values_url(world, "maps", "ork")).status_code == 404


def test_a_dreadnought_class_value_is_corrected_and_games_play_with_it(world, role_client):
    """RULES §10b leaves the Dreadnought classes' values to the organiser: the class value
    (what destroying a piloted one scores, unless a session's stipulation sets its own) and
    its move, each saying its shipped value."""
    client = role_client("organiser")
    url = values_url(world, "dreadnought_classes", "malignant")
    listed = client.get(
        reverse("tournaments:organiser_catalogue", args=[world.tournament.slug]),
        HTTP_ACCEPT_LANGUAGE="en",
    ).content.decode()
    assert url in listed and "Dreadnought classes" in listed
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Mark VII Malignant" in page and "Class value (points for destroying it)" in page
    assert "Only a weak source backs it" in page
    shipped = load_rules_data().dreadnought_class("malignant")
    posted = {
        "movement": shipped.movement,
        "class_value": shipped.class_value + 5,
        **usual_weapons(shipped.default_weapons),
    }
    assert client.post(url, posted).status_code == 302
    world.tournament.refresh_from_db()
    assert world.tournament.data_overrides["dreadnought_classes"] == {
        "malignant": {"class_value": shipped.class_value + 5}
    }
    rules = load_rules_data(world.tournament.data_overrides)
    assert rules.dreadnought_class("malignant").class_value == shipped.class_value + 5
    assert entry_description(last_entry(world)) == (
        "values of Mark VII Malignant changed: Class value (points for destroying it): 25 → 30"
    )
    played = engine_setup(world.session).overrides["dreadnought_classes"]["malignant"]
    assert played["class_value"] == shipped.class_value + 5


def usual_weapons(weapons) -> dict[str, str]:
    return {f"default_weapons_{n}": weapon for n, weapon in enumerate(weapons, start=1)}


def test_a_dreadnought_classs_usual_weapons_are_chosen_in_the_catalogue(world, role_client):
    """The weapons a class mounts when the session's notes name none (RULES §10b: the
    class's weapon options are the organiser's to correct)."""
    client = role_client("organiser")
    url = values_url(world, "dreadnought_classes", "malignant")
    shipped = load_rules_data().dreadnought_class("malignant")
    with translation.override("it"):
        page = client.get(url, HTTP_ACCEPT_LANGUAGE="it").content.decode()
        listed = client.get(
            reverse("tournaments:organiser_catalogue", args=[world.tournament.slug]),
            HTTP_ACCEPT_LANGUAGE="it",
        ).content.decode()
    assert 'name="default_weapons_1"' in page and 'name="default_weapons_3"' not in page
    assert "Cannone d&#x27;assalto, Lanciarazzi" in listed
    posted = {"movement": shipped.movement, "class_value": shipped.class_value}
    assert client.post(url, {**posted, **usual_weapons(["melta", "lascannon"])}).status_code == 302
    world.tournament.refresh_from_db()
    assert world.tournament.data_overrides["dreadnought_classes"] == {
        "malignant": {"default_weapons": ["melta", "lascannon"]}
    }
    rules = load_rules_data(world.tournament.data_overrides)
    assert rules.dreadnought_weapons("malignant") == ("melta", "lascannon", "laser_rifle")
    assert last_entry(world).details["changed"] == {
        "default_weapons": [list(shipped.default_weapons), ["melta", "lascannon"]]
    }
    # back to the shipped weapons: nothing of the class differs any more
    back = {**posted, **usual_weapons(shipped.default_weapons)}
    assert client.post(url, back).status_code == 302
    world.tournament.refresh_from_db()
    assert "dreadnought_classes" not in (world.tournament.data_overrides or {})
    refused = client.post(url, {**posted, **usual_weapons(["melta", "bolter"])})
    assert refused.status_code == 400
