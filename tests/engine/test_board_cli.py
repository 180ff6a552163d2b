"""``manage.py engine``: los, path, render and map sub-commands, and bad input (exit 2)."""

import json
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from rules.engine.maps import MAPS_DIR

STATE = {
    "map": "reference",
    "initiative": ["p1", "p2"],
    "figures": [
        {
            "id": "p1-cmd",
            "side": "marine",
            "player": "p1",
            "unit": "commander",
            "squares": [[7, 1]],
            "life_points": 6,
            "weapons": ["bolter"],
        },
        {
            "id": "p2-m1",
            "side": "marine",
            "player": "p2",
            "unit": "marine",
            "squares": [[7, 20]],
            "life_points": 2,
        },
        {
            "id": "dread",
            "side": "alien",
            "unit": "dreadnought",
            "squares": [[15, 2], [16, 2], [15, 3], [16, 3]],
            "life_points": 3,
        },
        {"id": "ork1", "side": "alien", "unit": "ork", "squares": [[4, 4]], "life_points": 1},
    ],
    "blips": [{"id": "b1", "square": [2, 2], "type": "gretchin"}],
}


@pytest.fixture
def state_file(tmp_path):
    path = tmp_path / "state.json"
    path.write_text(json.dumps(STATE))
    return str(path)


def run(*args):
    out = StringIO()
    call_command("engine", *args, stdout=out)
    return out.getvalue()


def bad(*args):
    with pytest.raises(CommandError) as info:
        call_command("engine", *args, stdout=StringIO(), stderr=StringIO())
    assert info.value.returncode == 2
    return str(info.value)


def test_los_between_figures(state_file):
    assert run("los", state_file, "p1-cmd", "p2-m1").startswith("visible: clear line")
    blocked = run("los", state_file, "p1-cmd", "ork1")
    assert blocked.startswith("blocked: passes exactly through the corner")


def test_los_with_squares(state_file):
    assert run("los", state_file, "1,7", "26,7").startswith("visible")
    assert run("los", state_file, "1,7", "1,9").startswith("blocked: blocked by the wall")
    assert run("los", state_file, "dread", "16,7").startswith("blocked")
    assert run("los", state_file, "7,10", "p1-cmd").startswith("visible")


def test_los_for_revealing_ignores_figures(tmp_path):
    data = json.loads(json.dumps(STATE))
    data["figures"].append(
        {"id": "o2", "side": "alien", "unit": "ork", "squares": [[7, 10]], "life_points": 1}
    )
    path = tmp_path / "s.json"
    path.write_text(json.dumps(data))
    assert run("los", str(path), "p1-cmd", "p2-m1").startswith("blocked: blocked by the figure o2")
    assert run("los", str(path), "p1-cmd", "p2-m1", "--reveal").startswith("visible")


def test_path_opens_doors(state_file):
    out = run("path", state_file, "p1-cmd", "4,3")
    assert out.splitlines()[0] == "5 squares: 7,1 -> 7,2 -> 7,3 -> 6,3 -> 5,3 -> 4,3"
    assert "opens the door between 6,3 and 7,3" in out
    assert run("path", state_file, "p1-cmd", "7,1").startswith("already there")
    assert run("path", state_file, "p1-cmd", "4,4").startswith("no legal path")
    assert "no legal path" in run("path", state_file, "p1-cmd", "4,3", "--no-doors")


def test_path_of_a_dreadnought(state_file):
    out = run("path", state_file, "dread", "19,10")
    assert out.startswith("12 squares: 15,2 -> 16,2")


def test_render(state_file):
    out = run("render", state_file)
    lines = out.splitlines()
    assert lines[0].startswith("Reference hulk (28x28), round 1")
    assert "A1" in lines[4] and "?1" in lines[6] and "d1 d1" in lines[6]
    assert "A1 p1-cmd: commander (player p1) at 7,1, facing N, 6 LP, bolter" in out
    assert "?1 blip b1 at 2,2 hiding gretchin" in out
    assert "hiding" not in run("render", state_file, "--hide-blips")


def test_map_subcommand(tmp_path):
    out = run("map", str(MAPS_DIR / "tpk-ring.txt"))
    assert json.loads(out)["name"] == "tpk-ring"
    broken = tmp_path / "broken.txt"
    broken.write_text("+--+\n|? |\n+--+\n")
    message = bad("map", str(broken))
    assert message.startswith("broken.txt: line 2, column 2")


def test_a_file_far_too_large_is_refused_after_its_first_bytes(tmp_path, monkeypatch):
    """A wrong file (a video, ``/dev/zero``) was read whole into memory first."""
    monkeypatch.setattr("rules.engine.state.MAX_FILE_MEGABYTES", 1)
    video = tmp_path / "video.txt"
    video.write_bytes(b"+" * 1_000_001)
    assert bad("map", str(video)) == (
        f"cannot read {video}: it is larger than 1 MB, and a state or a map is much smaller; "
        "check that it is the right file"
    )
    assert "is larger than 1 MB" in bad("render", str(video))


def test_map_subcommand_refuses_a_file_that_is_not_text(tmp_path):
    """A binary file (or one saved in another encoding) is said to be no UTF-8 text, with
    what to do: no traceback."""
    picture = tmp_path / "picture.png"
    picture.write_bytes(b"\x89PNG\r\n\x1a\n\xff\xfe")
    assert bad("map", str(picture)) == (
        f"cannot read {picture}: it is not UTF-8 text (save it as UTF-8 and try again)"
    )


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (("los", "STATE", "p1-cmd", "nobody"), "'nobody' is neither a figure"),
        (("los", "STATE", "p1-cmd", "40,2"), "square 40,2 is outside the 28x28 board"),
        (("path", "STATE", "ghost", "1,1"), "no figure 'ghost'"),
        (("path", "STATE", "p1-cmd", "ork1"), "must be a square"),
        (("render", "/nonexistent/state.json"), "cannot read"),
    ],
)
def test_bad_input_exits_with_status_2(state_file, args, fragment):
    args = tuple(state_file if a == "STATE" else a for a in args)
    assert fragment in bad(*args)


def test_bad_state_names_the_json_path(tmp_path):
    data = json.loads(json.dumps(STATE))
    data["figures"][3]["squares"] = [[7, 1]]
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    message = bad("render", str(path))
    assert "$.figures[3].squares[0]: square 7,1 already holds figure 'p1-cmd'" in message
    assert "\n" not in message
    path.write_text("{oops")
    assert "is not JSON" in bad("render", str(path))
