"""A Dreadnought class the house rules add can be named for a session, on every form and
in every check that names one, and a class they take away again leaves the sessions naming
it readable, refused with the reason on their next save (decision 75)."""

from __future__ import annotations

import copy
import html

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import translation

from rules.engine.state import rules_of
from table.actions import create_game, latest_snapshot, snapshot_state
from tests.factories import confirm_session
from tests.web.page_forms import form_on
from tournaments.actions.house_rules_edits import HouseRulesError, save_house_rules
from tournaments.actions.session_settings import set_stipulation
from tournaments.forms.organiser import StageForm
from tournaments.forms.session_settings import SessionStipulationForm
from tournaments.interchange.export import export_tournament
from tournaments.interchange.importer import import_document
from tournaments.interchange.problems import InterchangeError
from tournaments.models import Session, Stipulation, clean_stipulation_params, playing_rules
from tournaments.queries.edit_versions import stage_version

pytestmark = pytest.mark.django_db

WARLORD = {
    "name": "Mark XI Warlord",
    "movement": 5,
    "heavy_weapons": 3,
    "laser_rifles": False,
    "weapon_choices": ["assault_cannon", "missile_launcher", "plasma_gun", "melta"],
    "default_weapons": ["assault_cannon", "missile_launcher", "plasma_gun"],
    "class_value": 40,
}
WARLORD_RULES = {"dreadnought_classes": {"warlord": WARLORD}}
HUNT = {"rounds": 8}


@pytest.fixture
def organiser(world, role_client):
    return role_client("organiser")


def house_rules(world, overrides: dict) -> None:
    save_house_rules(world.tournament, overrides, expected_version=None, actor=world.organiser)
    world.tournament.refresh_from_db()


def session_url(world) -> str:
    return reverse(
        "tournaments:organiser_session_settings", args=[world.tournament.slug, world.session.pk]
    )


def class_choices(form) -> dict[str, str]:
    return {key: str(label) for key, label in form.fields["dreadnought_class"].choices}


def test_the_session_and_stage_forms_offer_a_class_the_house_rules_add(world):
    house_rules(world, WARLORD_RULES)
    session_form = SessionStipulationForm(session=world.session)
    assert class_choices(session_form)["warlord"] == "Mark XI Warlord"
    stage_form = StageForm(instance=world.stage)
    assert class_choices(stage_form)["warlord"] == "Mark XI Warlord"


def test_the_organiser_names_a_house_rule_class_for_a_session(organiser, world):
    house_rules(world, WARLORD_RULES)
    response = organiser.post(
        session_url(world),
        {
            "stipulation_kind": "alien_hunt",
            "ah_rounds": "8",
            "dreadnought_class": "warlord",
            "dreadnought_weapon_1": "melta",
            "dreadnought_weapon_2": "plasma_gun",
            "dreadnought_weapon_3": "assault_cannon",
        },
        follow=True,
    )
    assert response.status_code == 200
    params = Stipulation.objects.get(session=world.session).params
    assert params["dreadnought_class"] == "warlord"
    assert params["dreadnought_weapons"] == ["melta", "plasma_gun", "assault_cannon"]
    assert "Mark XI Warlord" in response.content.decode()
    public = organiser.get(
        reverse("tournaments:session", args=[world.tournament.slug, world.session.pk])
    )
    assert "Mark XI Warlord" in public.content.decode()
    game = create_game(world.session, "hunt-derelict", "bob", actor=world.judge)
    rules = rules_of(snapshot_state(latest_snapshot(game)))
    assert rules.dreadnought_classes["warlord"].default_weapons == (
        "melta",
        "plasma_gun",
        "assault_cannon",
    )


def test_the_house_rule_class_is_checked_as_the_tournament_has_it(world):
    house_rules(world, WARLORD_RULES)
    with translation.override("en"), pytest.raises(ValidationError) as refused:
        set_stipulation(
            world.session,
            "alien_hunt",
            {**HUNT, "dreadnought_class": "warlord", "dreadnought_weapons": ["melta", "lascannon"]},
            actor=world.organiser,
        )
    assert "the Mark XI Warlord mounts 3 heavy weapons, not 2" in " ".join(refused.value.messages)
    with pytest.raises(ValidationError):
        clean_stipulation_params("alien_hunt", {**HUNT, "dreadnought_class": "warlord"})


def test_a_stage_naming_a_house_rule_class_keeps_one_version(world):
    """The stage form's version fills in the parameters' defaults with the tournament's
    classes: with the shipped ones a stage naming a house rule class was a version of its
    own, as stored."""
    house_rules(world, WARLORD_RULES)
    world.stage.stipulation_params = {"rounds": 8, "dreadnought_class": "warlord"}
    world.stage.save()
    filled = {"end_condition": "fixed_rounds", "event_deck": False, "event_cards": []}
    before = stage_version(world.stage)
    world.stage.stipulation_params = {**world.stage.stipulation_params, **filled}
    world.stage.save()
    assert stage_version(world.stage) == before


def test_the_import_takes_a_session_naming_its_own_house_rule_class(world):
    house_rules(world, WARLORD_RULES)
    set_stipulation(
        world.session,
        "alien_hunt",
        {**HUNT, "dreadnought_class": "warlord", "dreadnought_value": 45},
        actor=world.organiser,
    )
    document = export_tournament(world.tournament)
    copied = import_document(copy.deepcopy(document), slug="copied").tournament
    stipulation = Stipulation.objects.get(session__stage__tournament=copied, session__number=1)
    assert stipulation.params["dreadnought_class"] == "warlord"
    document["tournament"]["data_overrides"] = {}
    with pytest.raises(InterchangeError) as refused:
        import_document(document, slug="refused")
    messages = " ".join(problem.message for problem in refused.value.problems)
    assert "no Dreadnought class “warlord”" in messages


def other_session(world):
    return world.stage.sessions.exclude(pk=world.session.pk).first()


def remove_warlord(world) -> None:
    """The session names the house rule class, which the house rules then take away."""
    house_rules(world, WARLORD_RULES)
    set_stipulation(
        world.session, "alien_hunt", {**HUNT, "dreadnought_class": "warlord"}, actor=world.organiser
    )
    house_rules(world, {})
    world.session.refresh_from_db()


def test_a_class_taken_away_still_shows_where_a_session_names_it(organiser, world):
    remove_warlord(world)
    page = organiser.get(session_url(world))
    assert page.status_code == 200
    text = page.content.decode()
    assert "warlord (not in the tournament&#x27;s rules data)" in text
    form = page.context["stipulation_form"]
    assert form.initial["dreadnought_class"] == "warlord"
    assert "warlord" in class_choices(form)
    public = organiser.get(
        reverse("tournaments:session", args=[world.tournament.slug, world.session.pk])
    )
    assert public.status_code == 200
    assert "not in the tournament&#x27;s rules data" in public.content.decode()
    assert "warlord" not in class_choices(SessionStipulationForm(session=other_session(world)))


def test_a_class_taken_away_is_refused_with_the_reason_on_the_next_save(organiser, world):
    remove_warlord(world)
    response = organiser.post(
        session_url(world),
        {
            "stipulation_kind": "alien_hunt",
            "ah_rounds": "9",
            "dreadnought_class": "warlord",
            "dreadnought_weapon_1": "melta",
            "dreadnought_weapon_2": "plasma_gun",
            "dreadnought_weapon_3": "assault_cannon",
        },
    )
    assert response.status_code == 400
    errors = response.context["stipulation_form"].errors
    assert "dreadnought_weapon_1" not in errors  # the class says what is wrong
    [message] = errors["dreadnought_class"]
    assert "rules data have no Dreadnought class" in message
    assert "Mark VIII Predator" in message
    assert Stipulation.objects.get(session=world.session).params["rounds"] == 8
    saved = organiser.post(
        session_url(world),
        {"stipulation_kind": "alien_hunt", "ah_rounds": "9", "dreadnought_class": "predator"},
    )
    assert saved.status_code == 302
    assert Stipulation.objects.get(session=world.session).params["dreadnought_class"] == "predator"


def test_the_catalogue_class_form_offers_a_weapon_the_house_rules_add(organiser, world):
    """A house rule weapon a class's usual weapons name is one of its choices on the
    catalogue's form (with the shipped weapons the form could not show, nor save, them)."""
    beam = {
        "name": "Graviton beam",
        "weapon_class": "heavy",
        "dice": {"white": 0, "red": 2},
        "pattern": "single",
        "shots": 1,
        "hand_to_hand": None,
    }
    house_rules(
        world,
        {
            "weapons": {"graviton_beam": beam},
            "dreadnought_classes": {
                "malignant": {
                    "weapon_choices": ["assault_cannon", "graviton_beam"],
                    "default_weapons": ["assault_cannon", "graviton_beam"],
                }
            },
        },
    )
    assert "graviton_beam" in playing_rules(world.tournament).weapons
    url = reverse(
        "tournaments:organiser_rules_values",
        args=[world.tournament.slug, "dreadnought_classes", "malignant"],
    )
    page = organiser.get(url)
    assert page.status_code == 200
    field = page.context["form"].fields["default_weapons_2"]
    assert "graviton_beam" in dict(field.choices)


def house_rules_page(world) -> str:
    return reverse("tournaments:organiser_house_rules", args=[world.tournament.slug])


def name_warlord(world) -> None:
    """The house rules add the Warlord and the session names it."""
    house_rules(world, WARLORD_RULES)
    set_stipulation(
        world.session, "alien_hunt", {**HUNT, "dreadnought_class": "warlord"}, actor=world.organiser
    )


def test_house_rules_removing_a_class_a_session_names_ask_first(organiser, world):
    """Removing a class a session without a result names is asked first, naming the
    session: saved only when the organiser confirms (decision 77)."""
    name_warlord(world)
    page = organiser.get(house_rules_page(world))
    form = form_on(page.content.decode(), "text")
    asked = organiser.post(
        house_rules_page(world), {**form, "text": ["{}"]}, HTTP_ACCEPT_LANGUAGE="en"
    )
    assert asked.status_code == 409
    text = html.unescape(asked.content.decode())
    assert "These house rules remove the Dreadnought class “warlord”" in text
    assert "Preliminary, session 1" in text
    assert "Save anyway" in text
    world.tournament.refresh_from_db()
    assert world.tournament.data_overrides == WARLORD_RULES
    confirmed = organiser.post(house_rules_page(world), {**form, "text": ["{}"], "confirm": "1"})
    assert confirmed.status_code == 302
    world.tournament.refresh_from_db()
    assert world.tournament.data_overrides == {}


def test_house_rules_removing_a_class_a_played_session_names_are_refused(organiser, world):
    """A session with a result keeps the class its result was checked against: its
    stipulation is locked, so removing the class is refused, naming the session, even
    confirmed; a change leaving the class saves."""
    name_warlord(world)
    confirm_session(Session.objects.get(pk=world.session.pk), lambda seat: 10)
    form = form_on(organiser.get(house_rules_page(world)).content.decode(), "text")
    refused = organiser.post(
        house_rules_page(world),
        {**form, "text": ["{}"], "confirm": "1"},
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert refused.status_code == 400
    [error] = refused.context["form"].errors["text"]
    assert error.startswith("dreadnought_classes.warlord: the Dreadnought class “warlord”")
    assert "Preliminary, session 1" in error
    world.tournament.refresh_from_db()
    assert world.tournament.data_overrides == WARLORD_RULES
    with pytest.raises(HouseRulesError):
        save_house_rules(world.tournament, {}, expected_version=None, actor=world.organiser)
    kept = {**WARLORD_RULES, "alien_tokens": {"ork": 3}}
    house_rules(world, kept)
    assert world.tournament.data_overrides == kept
