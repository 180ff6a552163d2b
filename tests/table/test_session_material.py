"""A game plays its session's stipulation as set on the stage form (issue 13 item 4): the
whole event deck when no card is ticked, the reinforcement pool, the Dreadnought's class
value, blips hiding special equipment; and a started game adopts corrected settings with a
recorded snapshot."""

import json

import pytest
from django.urls import reverse
from django.utils import translation

from rules.engine.dice import SeededDice
from rules.engine.event_cards import load_cards
from rules.engine.play.blips import spawn_alien, survey_section
from rules.engine.play.events import draw_card
from rules.engine.play.progress import with_progress
from rules.engine.state import Token
from rules.engine.units import load_rules_data
from table.actions import GameError, create_game, latest_snapshot, snapshot_state, upload_state
from table.game_setup import GameSetupError
from table.models import Game, SnapshotKind
from table.settings_adoption import adopt_session_settings
from table.snapshot_summaries import snapshot_summary
from tests.table.conftest import client_for, url
from tournaments.actions.catalogue_edits import save_event_card


def set_stage(table, **params):
    stage = table.session.stage
    stage.stipulation_params = {"rounds": 8, "event_deck": True, **params}
    stage.save()


def opening(table):
    game = create_game(table.session, "hunt-derelict", "bob", actor=table.judge)
    return game, snapshot_state(latest_snapshot(game))


def test_no_card_ticked_plays_the_whole_deck(table):
    set_stage(table, event_cards=[])
    _game, state = opening(table)
    assert "event_cards" not in state.stipulation.switches
    card = draw_card(load_cards(), [], state.stipulation.switches.get("event_cards"), SeededDice(1))
    assert card is not None


def test_chosen_cards_reach_the_engine_as_ids(table):
    set_stage(table, event_cards=["Ladro Genetico"])
    _game, state = opening(table)
    assert state.stipulation.switches["event_cards"] == ["genestealer"]
    card = draw_card(load_cards(), [], state.stipulation.switches["event_cards"], SeededDice(1))
    assert card.id == "genestealer"


def test_reinforcements_dreadnought_value_and_equipment_blips(table):
    set_stage(
        table,
        reinforcements={"ork": 2, "gretchin": 1},
        reinforcements_per_turn=1,
        dreadnought_class="predator",
        dreadnought_value=33,
        equipment_blips={"1,1": "tarantula"},
    )
    _game, state = opening(table)
    assert sorted(state.reinforcements) == ["gretchin", "ork", "ork"]
    assert state.stipulation.switches["reinforcements_per_turn"] == 1
    assert "reinforcements" not in state.stipulation.switches
    rules = load_rules_data(dict(state.data_overrides))
    assert rules.dreadnought_classes["predator"].class_value == 33
    section = next(s for s in state.board.sections if (1, 1) in s.squares())
    surveyed = survey_section(state.replace(surveyed_sections=()), section.id)[0]
    assert next(b.type for b in surveyed.blips if b.square == (1, 1)) == "tarantula"


def test_the_session_notes_arm_the_dreadnought(table):
    set_stage(
        table,
        dreadnought_class="malignant",
        dreadnought_weapons=["melta", "lascannon"],
    )
    _game, state = opening(table)
    rules = load_rules_data(dict(state.data_overrides))
    assert rules.dreadnought_weapons("malignant") == ("melta", "lascannon", "laser_rifle")
    # A Dreadnought the Alien fields (a marker, a reinforcement) mounts them too.
    _state, dreadnought = spawn_alien(state, rules, "dreadnought", (1, 1), "marker")
    assert dreadnought is not None
    assert dreadnought.weapons == ("melta", "lascannon", "laser_rifle")


def test_an_equipment_blip_off_the_maps_markers_is_refused(table):
    set_stage(table, equipment_blips={"2,2": "melta"})
    with pytest.raises(GameSetupError, match="Square 2,2 is no blip marker of map hunt-derelict"):
        opening(table)


def test_a_started_game_adopts_the_corrected_settings_and_keeps_its_progress(table):
    set_stage(table, event_cards=["Report In"], reinforcements={"ork": 2})
    game, state = opening(table)
    played = with_progress(state, events_drawn=("report",)).replace(
        tokens=(Token("reinforcement-1", "reinforcement", "ork"),),
        reinforcements=("ork",),
    )
    upload_state(game, json.dumps(played.to_json()), expected_number=1)
    set_stage(table, reinforcements={"ork": 3, "android": 1}, dreadnought_class="predator")
    table.tournament.data_overrides = {"alien_tokens": {"ork": 4}}
    table.tournament.save()
    game = Game.objects.get(pk=game.pk)  # as a request reads it
    with translation.override("it"):
        snapshot = adopt_session_settings(game, expected_number=2, actor=table.judge)
    assert (snapshot.number, snapshot.kind) == (3, SnapshotKind.JUDGE_EDIT)
    with translation.override("en"):  # the history says it in the reader's language
        assert snapshot_summary(snapshot).startswith("The game now plays the session's current")
    adopted = snapshot_state(snapshot)
    switches = adopted.stipulation.switches
    assert "event_cards" not in switches and adopted.progress.events_drawn == ("report",)
    assert switches["dreadnought_class"] == "predator"
    # Three Ork tokens now, one already played: two left, and the Android.
    assert sorted(adopted.reinforcements) == ["android", "ork", "ork"]
    assert load_rules_data(dict(adopted.data_overrides)).alien_tokens["ork"] == 4
    with pytest.raises(GameError):
        adopt_session_settings(game, expected_number=2, actor=table.judge)


def test_the_judge_adopts_the_settings_from_the_games_page(table):
    """The page offers to adopt only settings that changed (QA: the button was always
    there, saying nothing of whether anything would change)."""
    game, _state = opening(table)
    client = client_for(table.judge)
    games_url = reverse("table:games", args=[table.session.pk])
    page = client.get(games_url).content.decode()
    assert url("adopt_settings", game) not in page
    assert "Plays the session's current settings." in page
    set_stage(table, reinforcements={"ork": 3})
    page = client.get(games_url).content.decode()
    assert "The session's settings changed since this game started." in page
    assert url("adopt_settings", game) in page
    response = client.post(url("adopt_settings", game), {"version": 1})
    assert response.status_code == 302
    assert latest_snapshot(game).number == 2
    assert url("adopt_settings", game) not in client.get(games_url).content.decode()
    stale = client.post(url("adopt_settings", game), {"version": 1}, follow=True)
    assert "The game changed since you opened the page" in stale.content.decode()
    assert latest_snapshot(game).number == 2


def test_the_new_game_form_offers_the_stipulations_blip_pile(table):
    set_stage(table, blip_pile={"gretchin": 4, "ork": 2})
    client = client_for(table.judge)
    form = client.get(reverse("table:games", args=[table.session.pk])).context["form"]
    assert form["tokens_gretchin"].value() == 4 and form["tokens_ork"].value() == 2


def test_a_stipulation_naming_an_unknown_card_is_refused_before_play(table):
    set_stage(table, event_cards=["Genestealers!"])
    with pytest.raises(GameSetupError, match="Genestealers! is no card of the alien event deck"):
        opening(table)


def test_the_catalogues_event_cards_are_the_ones_drawn_and_named_on_the_board(table):
    """An organiser's name and text for an event card (catalogue page) reach the engine
    with the game, so the card drawn is told in the tournament's words in both languages."""
    save_event_card(
        table.tournament,
        "report",
        name={"it": "Rapporto al Comando", "en": "Report to Command"},
        text={"it": "Il comandante scelto resta fermo un turno.", "en": "The commander waits."},
        actor=table.organiser,
    )
    set_stage(table, event_cards=["report"])
    game, state = opening(table)
    overrides = state.stipulation.switches["event_overrides"]
    assert overrides["report"]["name"]["it"] == "Rapporto al Comando"
    client = client_for(table.judge)
    client.post(
        url("alien_turn", game), {"turn-policy": "bob", "turn-mode": "app", "turn-version": 1}
    )
    steps = latest_snapshot(game).steps
    assert {"code": "event_drawn", "params": {"card": "report"}} in steps
    log = client.get(url("step_log", game), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Alien event card drawn: “Report to Command”." in log
    assert "Judge&#x27;s instruction: The commander waits." in log
    client.cookies["django_language"] = "it"
    log = client.get(url("step_log", game), HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert "Carta Evento Alieno pescata: “Rapporto al Comando”." in log
    assert "Il comandante scelto resta fermo un turno." in log
