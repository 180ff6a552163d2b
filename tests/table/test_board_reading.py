"""The board as a judge reads it: figures by names the judge knows (the player's, the
marine's kind) with the id drawn on them, every square written as the rulers number it, a
re-roll that says it is one, and the card form saying why a card is not offered."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from django.utils import translation

from rules.engine.naming import Naming, named
from rules.engine.narration import render
from table.actions import upload_state
from table.catalogue_words import marine_names
from table.models import Snapshot, SnapshotKind
from table.snapshot_summaries import snapshot_summary
from tests.table.conftest import client_for, url
from tests.table.test_turn_views import current, first_player_holding, post
from tests.table.test_turn_views import url as turn_url

A_MOVE = {"move-figure": "p1-m2", "move-square": "5,4", "move-version": 1}


def test_the_engines_own_texts_keep_ids_and_bracketed_squares():
    """The behaviour hash pins the engine's English texts: only a page's naming changes."""
    params = {"figure": "p1-m2", "square": [10, 1], "unit": "ork"}
    assert render("blip_placed", params, "en") == "Blip placed on (10,1)."
    with named(Naming(plain_squares=True)):
        assert render("blip_placed", params, "en") == "Blip placed on 10,1."
        assert render("blip_placed", params, "it") == "Segnalino Blip piazzato in 10,1."


def test_marines_are_named_by_player_and_kind(game):
    state = current(game)
    players = {"p1": "Valchiria"}
    with translation.override("en"):
        names = marine_names(state, players)
    assert names["p1-cmd"] == "Valchiria's commander"
    assert names["p1-m1"] == "Valchiria's laser rifle marine"
    assert names["p1-m2"] == "Valchiria's plasma gun marine"
    assert "p2-m1" not in names  # a player without a name keeps the ids
    with translation.override("it"):
        italian = marine_names(state, players)
    assert italian["p1-cmd"] == "Comandante di Valchiria"
    assert italian["p1-m2"] == "Marine con fucile al plasma di Valchiria"


@pytest.mark.parametrize(
    ("lang", "moved"),
    [("en", "{name} · p1-m2 moved to 5,4."), ("it", "{name} · p1-m2 si è spostato in 5,4.")],
)
def test_the_history_and_the_banner_name_the_marine_and_its_square_once(game, table, lang, moved):
    client = client_for(table.judge)
    assert client.post(url("move", game), A_MOVE).status_code == 302
    page = client.get(url("board", game), HTTP_ACCEPT_LANGUAGE=lang).content.decode()
    player = game.session.seats.get(seat_order=1).player.display_name
    name = (
        f"{player}&#x27;s plasma gun marine"
        if lang == "en"
        else f"Marine con fucile al plasma di {player}"
    )
    assert moved.format(name=name) in page
    # The path in the same notation as the summary and the rulers: no brackets anywhere.
    assert "5,2 → 5,3 → 5,4" in page and "(5,4)" not in page
    # The touch board's texts name a figure as the log does.
    assert f'data-figure="p1-m2" data-side="marine" data-name="{name} · p1-m2"' in page


def _rerolled(number: int) -> Snapshot:
    done = {
        "code": "reroll_done",
        "params": {"figure": "p1-m4", "chapter_card": "targeter", "die": 1, "old": 0, "new": 2},
    }
    return Snapshot(
        number=number,
        kind=SnapshotKind.MARINE_ATTACK,
        summary_parts=[["moved", {"id": "p1-m4", "square": "5,4"}]],
        steps=[done],
    )


def test_a_reroll_says_it_rolls_again_which_attack_and_by_which_card():
    with translation.override("en"):
        english = snapshot_summary(_rerolled(7))
    assert english.startswith(
        "Re-roll of step 6's attack with Targeter: die 1 of p1-m4 rolled again (0 → 2); the "
        "attack is resolved again: p1-m4 "
    )
    with translation.override("it"):
        italian = snapshot_summary(_rerolled(7))
    assert italian.startswith("Ritiro dell'attacco del passo 6 con ")
    # Any other attack's summary is the attack's alone.
    plain = _rerolled(7)
    plain.steps = []
    with translation.override("en"):
        assert snapshot_summary(plain) == "p1-m4 moved to 5,4."


def test_the_card_form_says_why_a_card_is_not_offered(table):
    judge = client_for(table.judge)
    game = first_player_holding(table, ["fire", "heavy-weapon"], [])
    page = judge.get(turn_url(game, "board")).content.decode()
    assert 'data-testid="card-hints"' not in page  # every card may be played
    assert post(judge, game, "play_card", card="fire").status_code == 302
    page = judge.get(turn_url(game, "board")).content.decode()
    assert 'name="card"' not in page  # the form is gone, and the page says why
    assert "No card can be played now:" in page
    assert "Fire!: already used in this game." in page
    assert "Heavy Weapon!: not now, Fire! is this turn&#x27;s order card (one a turn)." in page


def test_an_order_card_after_the_first_action_says_so_in_italian(table):
    judge = client_for(table.judge)
    game = first_player_holding(table, ["fire"], [])
    move = {"move-figure": "p1-m2", "move-square": "5,4", "move-version": 2}
    assert judge.post(turn_url(game, "move"), move).status_code == 302
    page = judge.get(turn_url(game, "board"), HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert "Nessuna carta si può giocare ora:" in page
    assert "non ora, una carta ordine si gioca prima della prima azione della squadra." in page


def test_medi_kit_is_offered_only_with_a_wounded_commander_to_heal(table):
    """Medi-Kit heals the commander: with the commander unhurt the card form leaves it out
    and says why (it was offered, then refused), and offers it once the commander is hurt."""
    judge = client_for(table.judge)
    game = first_player_holding(table, [], ["medi-kit"])
    page = judge.get(turn_url(game, "board"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'name="card"' not in page
    assert "Medi-Kit: no wounded commander to heal." in page
    state = current(game)
    commander = next(f for f in state.figures_of("p1") if f.unit == "commander")
    hurt = state.with_figure(replace(commander, life_points=commander.life_points - 1))
    upload_state(game, json.dumps(hurt.to_json()), expected_number=2)
    page = judge.get(turn_url(game, "board"), HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert 'value="medi_kit"' in page and "nessun Comandante ferito" not in page
    assert post(judge, game, "play_card", card="medi_kit").status_code == 302
    assert current(game).figure(commander.id).life_points == commander.life_points
