"""The organiser's house rules page: every rules data change as one JSON object, checked as
the board, the catalogue and the scoring read it (decision 48), so what the catalogue's
forms do not reach (a unit's weapons, the Tarantula's arc) needs no Django admin."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse
from django.utils import translation

from rules.engine.units import load_rules_data
from tests.web.page_forms import form_on
from tournaments.models import ActivityLog
from tournaments.queries.activity_descriptions import entry_description

pytestmark = pytest.mark.django_db


@pytest.fixture
def organiser(role_client):
    return role_client("organiser")


def url(world) -> str:
    return reverse("tournaments:organiser_house_rules", args=[world.tournament.slug])


def opened(client, world, rules_before: dict | None = None) -> dict[str, list[str]]:
    """The house rules form as the organiser opens it (``rules_before``: the house rules
    the tournament has by then)."""
    if rules_before is not None:
        world.tournament.data_overrides = rules_before
        world.tournament.save()
    response = client.get(url(world))
    assert response.status_code == 200
    return form_on(response.content.decode(), "text")


def save(client, world, form, rules, **headers):
    text = rules if isinstance(rules, str) else json.dumps(rules)
    return client.post(url(world), {**form, "text": [text]}, **headers)


def test_house_rules_reach_what_the_catalogue_forms_do_not(organiser, world):
    form = opened(organiser, world, {"alien_tokens": {"ork": 3}})
    assert json.loads(form["text"][0]) == {"alien_tokens": {"ork": 3}}
    rules = {
        "alien_tokens": {"ork": 3},
        "tarantula": {"arc_half_width": 2},
        "units": {"ork": {"weapons": ["bolter"]}},
    }
    response = save(organiser, world, form, rules)
    assert response.status_code == 302
    world.tournament.refresh_from_db()
    assert world.tournament.data_overrides == rules
    data = load_rules_data(world.tournament.data_overrides)
    assert data.units["ork"].weapons == ("bolter",)
    entry = ActivityLog.objects.filter(tournament=world.tournament).latest("pk")
    assert entry.object_description == (
        "house rules changed: tarantula.arc_half_width: – → 2; units.ork.weapons: – → Bolter"
    )
    page = organiser.get(response["Location"]).content.decode()
    assert "House rules saved: 2 values changed." in page


def test_every_problem_is_named_by_its_place_and_nothing_is_saved(organiser, world):
    form = opened(organiser, world)
    bad = {"units": {"ork": {"armor": 1}}, "alien_tokens": {"ork": -5}, "scoring": {"x": 1}}
    response = save(organiser, world, form, bad)
    assert response.status_code == 400
    errors = response.context["form"].errors["text"]
    assert any(error.startswith("units.ork.armor: ") and "armour" in error for error in errors)
    assert any(error.startswith("alien_tokens.ork: ") for error in errors)
    assert any(error.startswith("scoring.x: unknown point value") for error in errors)
    assert json.dumps(bad) in response.content.decode().replace("&quot;", '"')  # kept
    world.tournament.refresh_from_db()
    assert not world.tournament.data_overrides


def test_a_number_the_catalogues_form_refuses_is_refused_here_too(organiser, world):
    """Decision 47's limits hold on this page as on the unit's form: the house rules page
    took an ork that cannot move (0), one that crosses the board (99), a bolter that never
    fires and a hand-to-hand roll of 9 white dice, and the board played them."""
    saved = {"alien_tokens": {"ork": 3}}
    form = opened(organiser, world, saved)
    bad = {
        "units": {"ork": {"movement": 0}, "gretchin": {"movement": 99}},
        "weapons": {"bolter": {"shots": 0}, "power_glove": {"hand_to_hand": {"white": 9}}},
        "alien_tokens": {"gretchin": 5000},
    }
    response = save(organiser, world, form, bad)
    assert response.status_code == 400
    errors = response.context["form"].errors["text"]
    assert (
        "units.ork.movement: 0 is outside 1–12: every figure moves at least 1 square; "
        "correct this house rule, or remove it to play with BoB's own value"
    ) in errors
    assert any(error.startswith("units.gretchin.movement: 99 is outside 1–12") for error in errors)
    assert any(error.startswith("weapons.bolter.shots: 0 is outside 1–6") for error in errors)
    assert any(
        error.startswith("weapons.power_glove.hand_to_hand.white: 9 is outside 0–6")
        for error in errors
    )
    assert any(error.startswith("alien_tokens.gretchin: 5000 is outside 0–999") for error in errors)
    assert json.dumps(bad) in response.content.decode().replace("&quot;", '"')  # kept
    world.tournament.refresh_from_db()
    assert world.tournament.data_overrides == saved


def test_text_that_is_not_json_says_where_in_the_readers_language(organiser, world):
    form = opened(organiser, world)
    response = save(
        organiser, world, form, '{"units": {"ork": {"armour": 2}}', HTTP_ACCEPT_LANGUAGE="it"
    )
    assert response.status_code == 400
    [message] = response.context["form"].errors["text"]
    assert message.startswith("Riga 1, colonna 33")
    assert "Expecting" not in message
    listed = save(organiser, world, form, "[1, 2]")
    assert listed.context["form"].errors["text"] == [
        'The house rules must be one JSON object, between {…}: {"units": {…}}.'
    ]


def test_a_change_saved_meanwhile_is_not_overwritten(organiser, world):
    first, second = opened(organiser, world), opened(organiser, world)
    assert save(organiser, world, first, {"alien_tokens": {"ork": 3}}).status_code == 302
    refused = save(organiser, world, second, {"tarantula": {"arc_half_width": 2}})
    assert refused.status_code == 409
    page = refused.content.decode()
    assert "saved in another tab or by someone else" in page
    assert "What is saved now" in page
    world.tournament.refresh_from_db()
    assert world.tournament.data_overrides == {"alien_tokens": {"ork": 3}}
    again = form_on(page, "text")
    both = {"alien_tokens": {"ork": 3}, "tarantula": {"arc_half_width": 2}}
    assert save(organiser, world, again, both).status_code == 302
    world.tournament.refresh_from_db()
    assert world.tournament.data_overrides == both


def test_saving_nothing_changed_logs_nothing(organiser, world):
    before = ActivityLog.objects.count()
    response = save(organiser, world, opened(organiser, world), {})
    assert response.status_code == 302
    assert ActivityLog.objects.count() == before


def _latest_entry_shown(world) -> tuple[ActivityLog, dict[str, str]]:
    """The tournament's latest activity-log entry and its description in English and
    Italian."""
    entry = ActivityLog.objects.filter(tournament=world.tournament).latest("pk")
    shown = {}
    for language in ("en", "it"):
        with translation.override(language):
            shown[language] = entry_description(entry)
    return entry, shown


def test_the_log_names_event_cards_as_the_tournament_names_them(organiser, world):
    """An event card's house rule is logged under the name the tournament gave the card
    (before this change: a card renamed here is named by its old name, the new one in the
    change), in the reader's language, never by its place in the JSON (``events.report``)."""
    renamed = {"name": {"en": "Check In", "it": "Fate Rapporto"}}
    form = opened(organiser, world, {"events": {"report": renamed}})
    rules = {
        "events": {
            "report": {**renamed, "target": "none"},
            "mothership_command": {"name": {"en": "Orbital Orders", "it": "Ordini Orbitali"}},
        },
        "alien_tokens": {"ork": 3},
    }
    assert save(organiser, world, form, rules).status_code == 302
    entry, shown = _latest_entry_shown(world)
    assert shown["en"] == (
        "house rules changed: alien_tokens.ork: – → 3; "
        "English name of alien event card Mothership Communication: "
        "– → “Orbital Orders”; "
        "Italian name of alien event card Mothership Communication: "
        "– → “Ordini Orbitali”; "
        "Target of alien event card Check In: – → nobody"
    )
    assert shown["it"] == (
        "regole della casa cambiate: alien_tokens.ork: – → 3; "
        "Nome inglese della carta evento alieno Comando dall'Astronave Madre: "
        "– → “Orbital Orders”; "
        "Nome italiano della carta evento alieno Comando dall'Astronave Madre: "
        "– → “Ordini Orbitali”; "
        "Bersaglio della carta evento alieno Fate Rapporto: – → nessuno"
    )
    assert entry.object_description == shown["en"]
    for text in shown.values():
        assert "events." not in text and "Report In" not in text, text


def test_the_log_names_an_event_cards_effect_in_words(organiser, world):
    """A change to an alien event card's effect reads as the target does: each field by its
    label and each coded value in words (a code, a turn limit, the units, the weapon), in
    the reader's language; a field the log does not know reads as its place in the JSON and
    the value as written."""
    report = {"effect": {"code": "player_turn_limit", "limit": "commander_idle"}}
    form = opened(organiser, world, {"events": {"report": report}})
    rules = {
        "events": {
            "report": {"effect": {"code": "cannot_move", "units": ["ork"], "note": "house"}},
            "ork_mek": {"effect": {"code": "special_weapon", "units": ["ork"], "weapon": "melta"}},
        }
    }
    assert save(organiser, world, form, rules).status_code == 302
    entry, shown = _latest_entry_shown(world)
    assert shown["en"] == (
        "house rules changed: "
        "Effect of alien event card Ork Mekaniak: – → an alien fires a special weapon; "
        "Aliens affected of alien event card Ork Mekaniak: – → Ork; "
        "Special weapon of alien event card Ork Mekaniak: – → Melta; "
        "Effect of alien event card Report In: a limit on the chosen player's next turn "
        "→ the aliens named do not move; "
        "Limit on the chosen player's next turn of alien event card Report In: "
        "the commander neither moves nor attacks → –; "
        "effect.note of alien event card Report In: – → “house”; "
        "Aliens affected of alien event card Report In: – → Ork"
    )
    assert shown["it"] == (
        "regole della casa cambiate: "
        "Effetto della carta evento alieno Orco Mekkaniko: – → un Alieno spara con un'arma "
        "speciale; "
        "Alieni interessati della carta evento alieno Orco Mekkaniko: – → Orco; "
        "Arma speciale della carta evento alieno Orco Mekkaniko: – → Fucile a fusione; "
        "Effetto della carta evento alieno A Rapporto: un limite al prossimo turno del "
        "giocatore scelto → gli Alieni indicati non muovono; "
        "Limite al prossimo turno del giocatore scelto della carta evento alieno A Rapporto: "
        "il Comandante non muove né attacca → –; "
        "effect.note della carta evento alieno A Rapporto: – → “house”; "
        "Alieni interessati della carta evento alieno A Rapporto: – → Orco"
    )
    for text in shown.values():
        assert "cannot_move" not in text and "commander_idle" not in text, text


def test_the_first_house_rules_log_only_the_values_written(organiser, world):
    """Saved over no house rules at all, the log and the message count the values written,
    not the empty rules they replace; an object written empty reads as what it is."""
    assert not world.tournament.data_overrides
    form = opened(organiser, world)
    response = save(organiser, world, form, {"alien_tokens": {"ork": 3}, "tarantula": {}})
    assert response.status_code == 302
    entry = ActivityLog.objects.filter(tournament=world.tournament).latest("pk")
    assert entry.object_description == (
        "house rules changed: alien_tokens.ork: – → 3; tarantula: – → “{}”"
    )
    page = organiser.get(response["Location"]).content.decode()
    assert "House rules saved: 2 values changed." in page


def test_an_event_cards_effect_under_one_policy_is_saved_logged_and_checked(organiser, world):
    """``policy_effects`` (an event card's effect under one Alien policy, e.g. Mechanical
    Assault under Solitaire) is changed as ``effect`` is: checked by the deck, logged in
    words."""
    form = opened(organiser, world)
    solitaire = {"code": "cannot_act", "units": ["android"]}
    rules = {"events": {"mechanised_assault": {"policy_effects": {"solitaire": solitaire}}}}
    assert save(organiser, world, form, rules).status_code == 302
    world.tournament.refresh_from_db()
    assert world.tournament.data_overrides == rules
    _entry, shown = _latest_entry_shown(world)
    assert (
        "Effect of alien event card Mechanical Assault: – → the aliens named do nothing"
        in (shown["en"])
    )
    bad = {"events": {"mechanised_assault": {"policy_effects": {"chess": None}}}}
    response = save(organiser, world, opened(organiser, world), bad)
    assert response.status_code == 400
    [error] = response.context["form"].errors["text"]
    assert error.startswith("events.mechanised_assault.policy_effects: "), error
