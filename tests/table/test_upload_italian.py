"""A refused state reads in the judge's language: on the board page's upload form and in
``alien_turn --lang it``, each problem keeps its JSON path and says why in Italian."""

from __future__ import annotations

import html
import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from table.actions import latest_snapshot
from tests.engine.test_ai_command import STATE
from tests.table.test_board_italian import _italian
from tests.table.test_views import client_for, url

pytestmark = pytest.mark.django_db


def _upload(client, game, data, **headers) -> tuple[int, str]:
    response = client.post(
        url("upload", game),
        {"upload-text": json.dumps(data), "upload-version": latest_snapshot(game).number},
        **headers,
    )
    return response.status_code, html.unescape(response.content.decode())


def _schema_error(game) -> dict:
    """The game's state with a value the JSON Schema refuses (checked first, alone)."""
    data = latest_snapshot(game).state
    data["figures"][2]["life_points"] = 0
    return data


def _inconsistent(game) -> dict:
    """The game's state with two figures on one square and an unknown active player."""
    data = latest_snapshot(game).state
    data["figures"][3]["squares"] = [list(data["figures"][0]["squares"][0])]
    data["active_player"] = "p9"
    return data


def test_a_refused_upload_is_explained_in_italian(game, table):
    client = client_for(table.judge)
    first = latest_snapshot(game).state["figures"][0]
    x, y = first["squares"][0]
    status, page = _upload(client, game, _schema_error(game), **_italian(client))
    assert status == 400
    assert "$.figures[2].life_points: il valore 0 è inferiore al minimo consentito (1)" in page
    assert "less than the minimum" not in page
    status, page = _upload(client, game, _inconsistent(game), **_italian(client))
    assert status == 400
    assert (
        f"$.figures[3].squares[0]: la casella {x},{y} è già occupata dalla figura "
        f"'{first['id']}'" in page
    )
    assert "$.active_player: giocatore sconosciuto 'p9'" in page
    assert "already holds" not in page and "unknown player" not in page
    assert latest_snapshot(game).number == 1


def test_a_refused_upload_stays_english_for_an_english_judge(game, table):
    client = client_for(table.judge)
    client.cookies["django_language"] = "en"
    english = {"HTTP_ACCEPT_LANGUAGE": "en"}
    _, page = _upload(client, game, _schema_error(game), **english)
    assert "$.figures[2].life_points: 0 is less than the minimum of 1" in page
    _, page = _upload(client, game, _inconsistent(game), **english)
    assert "$.active_player: unknown player 'p9'" in page


def test_a_missing_property_and_a_bad_map_name_in_italian(game, table):
    client = client_for(table.judge)
    data = latest_snapshot(game).state
    del data["figures"][0]["unit"]
    _, page = _upload(client, game, data, **_italian(client))
    assert '$.figures[0]: manca la proprietà obbligatoria "unit"' in page
    data = latest_snapshot(game).state
    data["map"] = "atlantide"
    _, page = _upload(client, game, data, **_italian(client))
    assert "$.map: non c'è nessuna mappa inclusa di nome 'atlantide'; mappe disponibili:" in page


def _alien_turn(tmp_path, state, *args: str) -> CommandError:
    path = tmp_path / "state.json"
    path.write_text(json.dumps(state))
    with pytest.raises(CommandError) as info:
        call_command("alien_turn", "--input", str(path), "--seed", "1", *args)
    assert info.value.returncode == 2
    return info.value


def test_alien_turn_explains_a_bad_state_in_italian(tmp_path):
    bad = json.loads(json.dumps(STATE))
    bad["figures"][1]["squares"] = [[0, 1]]
    bad["figures"][2]["player"] = None
    error = str(_alien_turn(tmp_path, bad, "--lang", "it"))
    assert error == (
        f"stato non valido {tmp_path / 'state.json'}: $.figures[1].squares[0]: la casella 0,1 "
        "è già occupata dalla figura 'o1' (e un altro problema)"
    )
    english = str(_alien_turn(tmp_path, bad, "--lang", "en"))
    assert english == (
        f"bad state {tmp_path / 'state.json'}: $.figures[1].squares[0]: square 0,1 already "
        "holds figure 'o1' (and 1 more problem)"
    )


def test_alien_turn_explains_a_schema_error_and_broken_json_in_italian(tmp_path):
    bad = json.loads(json.dumps(STATE))
    bad["figures"][0]["side"] = "pirate"
    error = str(_alien_turn(tmp_path, bad, "--lang", "it"))
    assert error.endswith(
        '$.figures[0].side: il valore "pirate" non è ammesso: usa uno tra "marine", "alien"'
    )
    path = tmp_path / "state.json"
    path.write_text('{"map": ')
    with pytest.raises(CommandError) as info:
        call_command("alien_turn", "--input", str(path), "--lang", "it")
    assert info.value.returncode == 2
    assert str(info.value) == (
        f"stato non valido {path}: $: {path} non è JSON valido: manca un valore alla riga 1, "
        "colonna 9"
    )
