import json
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

STATE = {
    "map": {
        "width": 12,
        "height": 3,
        "squares": ["............"] * 3,
        "sections": [{"id": "A", "kind": "board", "rects": [[0, 0, 11, 2]]}],
    },
    "players": [{"id": "p1"}, {"id": "p2"}],
    "initiative": ["p1", "p2"],
    "stipulation": {"type": "alien_hunt", "switches": {"event_deck": True}},
    "figures": [
        {
            "id": "o1",
            "side": "alien",
            "player": None,
            "unit": "ork",
            "squares": [[0, 1]],
            "life_points": 1,
            "weapons": ["ork_weapon"],
        },
        {
            "id": "a1",
            "side": "marine",
            "player": "p1",
            "unit": "marine",
            "squares": [[9, 1]],
            "life_points": 2,
            "weapons": ["laser_rifle"],
        },
        {
            "id": "b1",
            "side": "marine",
            "player": "p2",
            "unit": "marine",
            "squares": [[11, 0]],
            "life_points": 2,
            "weapons": ["laser_rifle"],
        },
    ],
}


def run(tmp_path, *args, state=STATE):
    path = tmp_path / "state.json"
    path.write_text(json.dumps(state))
    out = StringIO()
    call_command("alien_turn", "--input", str(path), *args, stdout=out)
    return out.getvalue()


def test_same_input_and_seed_give_the_same_bytes(tmp_path):
    first = run(tmp_path, "--seed", "7")
    assert first == run(tmp_path, "--seed", "7")
    data = json.loads(first)
    assert set(data) >= {"steps", "state", "dice", "seed"}
    assert data["steps"][0]["code"] == "turn_start"
    assert data["state"]["progress"]["events_drawn"]


def test_language_switch(tmp_path):
    italian = json.loads(run(tmp_path, "--seed", "7", "--lang", "it"))
    english = json.loads(run(tmp_path, "--seed", "7", "--lang", "en"))
    assert italian["steps"][0]["text"].startswith("Turno alieno")
    assert english["steps"][0]["text"].startswith("Alien turn")
    assert [s["code"] for s in italian["steps"]] == [s["code"] for s in english["steps"]]


def test_scripted_dice(tmp_path):
    with pytest.raises(CommandError, match="not enough dice") as info:
        run(tmp_path, "--dice", "1")
    assert info.value.returncode == 2


def test_bad_state_exits_2_with_the_json_path(tmp_path):
    bad = json.loads(json.dumps(STATE))
    bad["figures"][1]["squares"] = [[0, 1]]
    with pytest.raises(CommandError) as info:
        run(tmp_path, "--seed", "1", state=bad)
    assert info.value.returncode == 2
    assert "$.figures[1].squares[0]" in str(info.value)
