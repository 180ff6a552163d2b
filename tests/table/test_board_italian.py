"""The board page reads in Italian after a marine's attack (the choices, the step summary,
the events) and after an illegal move, attack or line of sight (the error)."""

from __future__ import annotations

import html
import json
import re
from dataclasses import replace

import pytest

from rules.engine.geometry import block_2x2
from rules.engine.state import ALIEN, Figure
from rules.engine.units import load_rules_data
from table.actions import latest_snapshot, snapshot_state, upload_state
from tests.engine.test_ai_log_italian import english_in
from tests.table.conftest import figure_name, rearrange
from tests.table.test_views import HTMX, client_for, url

pytestmark = pytest.mark.django_db

RULES = load_rules_data()


def _italian(client):
    client.cookies["django_language"] = "it"
    return {"HTTP_ACCEPT_LANGUAGE": "it"}


def _text(fragment: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", fragment)).strip()


def _options(panel: str) -> dict[str, str]:
    """Attack descriptions of the odds panel -> their choice value."""
    found = re.findall(r'value="(\d+)"[^>]*>\s*<strong>(.*?)</strong>', panel, re.S)
    return {_text(description): value for value, description in found}


def _upload(game, state) -> None:
    upload_state(game, json.dumps(state.to_json()), expected_number=latest_snapshot(game).number)


def _attack(client, game, attacker: str, description_part: str, dice: str, lang) -> list[str]:
    """Pick the option whose Italian description contains ``description_part``, resolve it
    with typed dice, and return the log's summary and event lines."""
    panel = client.get(url("attack_panel", game), {"attacker": attacker}, **lang, **HTMX)
    options = _options(panel.content.decode())
    for description in options:
        assert not english_in(description), description
    choice = next(v for d, v in options.items() if description_part in d)
    data = {
        "attack-figure": attacker,
        "attack-choice": choice,
        "attack-version": latest_snapshot(game).number,
        "attack-mode": "physical",
        "attack-dice": dice,
    }
    response = client.post(url("attack", game), data, **lang)
    assert response.status_code == 302, response.content.decode()[:2000]
    log = client.get(url("step_log", game), **lang, **HTMX).content.decode()
    summary = _text(log.split("—", 1)[1].split("</p>", 1)[0])
    events = [_text(item) for item in re.findall(r"<li>(.*?)</li>", log, re.S)]
    lines = [summary, *events]
    for line in lines:
        assert not english_in(line), line
    return lines


def _dice(spec, best: bool) -> list[str]:
    """Typed faces for a dice spec, red first (as combat rolls them): best or zero."""
    return ["3" if best else "0"] * spec.red + ["2" if best else "0"] * spec.white


def test_a_hand_to_hand_kill_reads_in_italian(game, table):
    state = snapshot_state(latest_snapshot(game))
    marine = state.figure("p1-m4")
    x, y = marine.square
    beside = next(
        sq
        for sq in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1))
        if state.board.in_bounds(sq)
        and not state.board.is_solid(sq)
        and state.figure_at(sq) is None
        and state.edge_open(marine.square, sq)
    )
    rearrange(game, aliens=[("ork-1", "ork", beside)])
    client = client_for(table.judge)
    lang = _italian(client)
    mine = RULES.hand_to_hand_dice(marine.unit, marine.weapons)
    theirs = RULES.hand_to_hand_dice("ork", ("ork_weapon",))
    dice = ",".join(_dice(mine, True) + _dice(theirs, False))
    lines = _attack(client, game, "p1-m4", "corpo a corpo con Or1 · ork-1", dice, lang)
    gunner = figure_name(game, "p1-m4", "it")  # "Marine con bolter di …· p1-m4"
    assert lines[0].startswith(f"{gunner} combatte in corpo a corpo con Or1 · ork-1 (")
    assert "ork-1 è eliminato e tolto dal tabellone (vale" in " ".join(lines)
    assert any(line.startswith(f"corpo a corpo: {gunner} attacca Or1 · ork-1: ") for line in lines)


def test_a_bolter_shot_reads_in_italian(game, table):
    rearrange(game, {"p2-m1": (4, 5)})
    client = client_for(table.judge)
    lang = _italian(client)
    lines = _attack(
        client, game, "p1-m4", "spara con bolter a Marine con fucile laser", "3,3", lang
    )
    gunner, target = figure_name(game, "p1-m4", "it"), figure_name(game, "p2-m1", "it")
    shot = f"{gunner} spara con bolter a {target}"
    assert lines[0].startswith(f"{shot} (2 rossi contro armatura ")
    assert any(line.startswith(f"{shot}: 3, 3 = 6") for line in lines)
    assert any("perde" in line and "punti vita rimasti" in line for line in lines), lines


def test_a_missile_on_several_targets_reads_in_italian(game, table):
    state = snapshot_state(latest_snapshot(game))
    gunner = replace(
        state.figure("p1-m4"), unit="heavy_weapon_marine", weapons=("missile_launcher",)
    )
    state = state.with_figure(gunner).with_figure(state.figure("p2-m1").moved_to(((4, 5),)))
    for fid, sq in (("ork-1", (5, 5)), ("ork-2", (4, 6))):
        state = state.with_figure(
            Figure(fid, ALIEN, None, "ork", (sq,), life_points=1, weapons=("ork_weapon",))
        )
    _upload(game, state)
    client = client_for(table.judge)
    lang = _italian(client)
    spec = RULES.weapon("missile_launcher").dice
    lines = _attack(
        client, game, "p1-m4", "lanciarazzi sulla casella 4,5", ",".join(_dice(spec, True)), lang
    )
    text = " ".join(lines)
    assert lines[0] == f"{figure_name(game, 'p1-m4', 'it')} spara con lanciarazzi sulla casella 4,5"
    assert "la casella 4,5 subisce" in text and "le caselle intorno subiscono" in text
    assert "ork-1 è eliminato" in text and "ork-2 è eliminato" in text
    assert "p2-m1" in text


def test_an_illegal_move_is_explained_in_italian(game, table):
    client = client_for(table.judge)
    lang = _italian(client)
    data = {"move-figure": "p1-m4", "move-square": "25,3", "move-version": 1}
    page = client.post(url("move", game), data, **lang).content.decode()
    assert "La casella 25,3 è fuori dal tabellone" in html.unescape(page)
    assert "outside the board" not in page


def test_an_illegal_sight_check_is_explained_in_italian(game, table):
    client = client_for(table.judge)
    lang = _italian(client)
    query = {"los-a": "p1-m4", "los-b": "30,30", "los-for_firing": "on"}
    page = client.get(url("sight", game), query, **lang, **HTMX).content.decode()
    assert "La casella 30,30 è fuori dal tabellone di 20x20 caselle" in html.unescape(page)


def test_an_illegal_attack_is_explained_in_italian(game, table):
    state = snapshot_state(latest_snapshot(game))
    pilot = state.figure("p1-m4")
    dread = Figure(
        "p1-dread",
        "marine",
        "p1",
        "dreadnought",
        block_2x2((8, 8)),
        RULES.unit("dreadnought").life_points,
        weapons=RULES.unit("dreadnought").weapons,
    )
    _upload(
        game, state.with_figure(dread).with_figure(replace(pilot, squares=(), piloting=dread.id))
    )
    client = client_for(table.judge)
    lang = _italian(client)
    panel = client.get(url("attack_panel", game), {"attacker": "p1-m4"}, **lang, **HTMX)
    text = html.unescape(panel.content.decode())
    assert "p1-m4 è dentro un veicolo: attacca con il veicolo" in text
    assert "inside a vehicle" not in text


def test_the_map_is_named_in_the_pages_language(game, table):
    client = client_for(table.judge)
    english = client.get(url("board", game)).content.decode()
    assert "Derelict (Alien Hunt)" in english
    italian = client.get(url("board", game), **_italian(client)).content.decode()
    assert "Relitto (Caccia all&#x27;Alieno)" in italian or "Relitto (Caccia all'Alieno)" in italian
    assert "Derelict (Alien Hunt)" not in italian


def test_the_history_is_written_again_in_the_readers_language(game, table):
    """Steps made in English (setup, upload, undo) read in Italian on an Italian page."""
    from django.utils import translation

    from table.actions import undo_to
    from table.snapshot_summaries import snapshot_summary

    with translation.override("en"):
        upload_state(game, json.dumps(latest_snapshot(game).state), expected_number=1)
        undo_to(game, 1, expected_number=2)
    steps = list(game.snapshots.order_by("number"))
    assert steps[0].summary.startswith("Squads placed")  # stored in the maker's language
    with translation.override("it"):
        assert [snapshot_summary(step) for step in steps] == [
            "Squadre schierate ai loro artigli d'attracco sulla mappa Relitto (Caccia all'Alieno).",
            "Stato sostituito da un file caricato.",
            "Ritorno al passo 1.",
        ]
