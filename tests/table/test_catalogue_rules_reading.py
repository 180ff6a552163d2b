"""One reading of a tournament's rules data, with its catalogue's weapon classes, for the
forms, the checks and the board; a combination that does not read is refused when it is
saved and never replaced by other rules data when read (decision 76)."""

from __future__ import annotations

import html

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import translation

from rules.engine.state import rules_of
from rules.engine.units import load_rules_data
from table.actions import create_game, latest_snapshot, snapshot_state
from tournaments.actions.catalogue_edits import (
    CatalogueEditError,
    save_rules_values,
    save_token_values,
    save_weapon,
)
from tournaments.actions.house_rules_edits import save_house_rules
from tournaments.actions.session_settings import set_stipulation
from tournaments.forms.catalogue import TokenValuesForm
from tournaments.forms.session_settings import SessionStipulationForm
from tournaments.models import Loadout, Session, Stipulation, Tournament, playing_rules
from tournaments.queries.rules_values import rules_item, rules_items

pytestmark = pytest.mark.django_db

#: The Predator's shipped weapon choices, and a bolter.
WITH_BOLTER = [*load_rules_data().dreadnought_classes["predator"].weapon_choices, "bolter"]
PREDATOR_BOLTER = {"dreadnought_classes": {"predator": {"weapon_choices": WITH_BOLTER}}}
BOLTED = {"rounds": 8, "dreadnought_class": "predator", "dreadnought_weapons": ["bolter", "melta"]}


def heavy_bolter_mounted(table) -> None:
    """The catalogue makes the bolter heavy and the house rules let the Predator mount it."""
    Loadout.objects.filter(seat__session=table.session).delete()
    bolter = table.tournament.weapons.get(slug="bolter")
    bolter.weapon_class = "heavy"
    save_weapon(bolter, actor=table.organiser)
    save_house_rules(
        table.tournament, PREDATOR_BOLTER, expected_version=None, actor=table.organiser
    )
    table.tournament.refresh_from_db()


def test_a_session_names_the_bolter_the_catalogue_made_heavy_for_its_dreadnought(table):
    """The check read the house rules alone, which did not load (a bolter is light as
    shipped), and fell back to the shipped Predator, which mounts no bolter."""
    heavy_bolter_mounted(table)
    assert (
        "bolter" in playing_rules(table.tournament).dreadnought_classes["predator"].weapon_choices
    )
    form = SessionStipulationForm(session=table.session)
    assert "bolter" in dict(form.fields["dreadnought_weapon_1"].choices)
    set_stipulation(table.session, "alien_hunt", BOLTED, actor=table.organiser)
    session = Session.objects.get(pk=table.session.pk)  # the form cached it without one
    game = create_game(session, "hunt-derelict", "bob", actor=table.judge)
    rules = rules_of(snapshot_state(latest_snapshot(game)))
    assert rules.dreadnought_classes["predator"].default_weapons == ("bolter", "melta")


def test_the_catalogue_forms_read_the_same_rules_data(table):
    """The catalogue page showed the shipped values with an error, and its token and
    Dreadnought class forms refused every save, for rules data the board plays."""
    heavy_bolter_mounted(table)
    items, error = rules_items(table.tournament)
    assert error == ""
    predator = rules_item(table.tournament, "dreadnought_classes", "predator")
    assert predator is not None and "bolter" in predator.weapon_choices
    form = TokenValuesForm(
        {
            "tokens-ork": 3,
            "tokens-gretchin": 1,
            "tokens-android": 4,
            "tokens-chaos_marine": 5,
            "tokens-genestealer": 6,
            "tokens-dreadnought": 20,
            "tokens-chaos_commander": 30,
        },
        tournament=table.tournament,
        prefix="tokens",
    )
    assert not any("other rules data" in message for message in form.non_field_errors())
    save_token_values(table.tournament, {"ork": 3}, actor=table.organiser)
    changed = save_rules_values(
        table.tournament,
        "dreadnought_classes",
        "predator",
        {"default_weapons": ["bolter", "plasma_gun"]},
        actor=table.organiser,
    )
    assert changed == {
        "default_weapons": [["plasma_gun", "missile_launcher"], ["bolter", "plasma_gun"]]
    }


def test_rules_data_that_do_not_read_are_refused_not_replaced(table):
    """House rules saved before the checks (here: written past them) that the catalogue's
    classes make unreadable refuse a session's Dreadnought, saying why and where to
    correct them, instead of checking it against the shipped classes."""
    Tournament.objects.filter(pk=table.tournament.pk).update(data_overrides=PREDATOR_BOLTER)
    table.tournament.refresh_from_db()
    with translation.override("en"), pytest.raises(ValidationError) as refused:
        set_stipulation(
            table.session,
            "alien_hunt",
            {**BOLTED, "dreadnought_weapons": ["plasma_gun", "melta"]},
            actor=table.organiser,
        )
    message = " ".join(refused.value.messages)
    assert "do not read" in message
    assert "bolter" in message
    assert "House rules" in message


def test_a_class_change_the_house_rules_forbid_names_the_dreadnought_class(table):
    """Making the bolter light again would leave the Predator mounting a light weapon: the
    refusal names both the weapon and the class whose house rule mounts it."""
    heavy_bolter_mounted(table)
    bolter = table.tournament.weapons.get(slug="bolter")
    bolter.weapon_class = "light"
    with translation.override("en"), pytest.raises(CatalogueEditError) as refused:
        save_weapon(bolter, actor=table.organiser)
    message = str(refused.value.problems["weapon_class"])
    assert "Mark VIII Predator" in message
    assert bolter.name in message
    assert table.tournament.weapons.get(slug="bolter").weapon_class == "heavy"


def test_pages_open_over_unreadable_rules_data_and_refuse_a_save(table, client):
    """The session's pages still show its stipulation while the rules data do not read;
    its form refuses a save with the reason rather than checking it with other data."""
    Tournament.objects.filter(pk=table.tournament.pk).update(data_overrides=PREDATOR_BOLTER)
    client.force_login(table.organiser)
    slug = table.tournament.slug
    settings = reverse("tournaments:organiser_session_settings", args=[slug, table.session.pk])
    assert client.get(settings).status_code == 200
    assert (
        client.get(reverse("tournaments:session", args=[slug, table.session.pk])).status_code == 200
    )
    response = client.post(
        settings,
        {"stipulation_kind": "alien_hunt", "ah_rounds": "8"},
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert "do not read" in html.unescape(response.content.decode())
    assert not Stipulation.objects.filter(session=table.session).exists()
