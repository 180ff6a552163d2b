"""``manage.py squad_draw``: output, reproducibility and every bad-input exit (status 2)."""

import json
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from rules.engine.dice import seed_commitment

ROOT = Path(__file__).resolve().parents[2]
UM, BA, IF = "ultramarines", "blood-angels", "imperial-fists"


def write(tmp_path, data, name="draw.json"):
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return str(path)


def example_a():
    prefs = [BA, UM, IF]
    return {"squads": [UM, BA, IF], "players": [{"id": n, "preferences": prefs} for n in "123"]}


def run(capsys, *args):
    call_command("squad_draw", *args)
    return json.loads(capsys.readouterr().out)


def test_scripted_dice_reproduce_seed_example_a(tmp_path, capsys):
    out = run(capsys, "--input", write(tmp_path, example_a()), "--dice", "3,6,5,4,2")
    assert out["assignments"] == {"1": UM, "2": BA, "3": IF}
    assert [(r["player"], r["value"]) for r in out["rolls"]] == [
        ("1", 3),
        ("2", 6),
        ("3", 5),
        ("1", 4),
        ("3", 2),
    ]
    assert out["seed"] is None and out["seed_sha256"] is None


def test_seeded_draw_prints_seed_and_commitment_and_replays(tmp_path, capsys):
    path = write(tmp_path, example_a())
    first = run(capsys, "--input", path, "--seed", "42")
    assert first["seed"] == 42 and first["seed_sha256"] == seed_commitment(42)
    assert run(capsys, "--input", path, "--seed", "42") == first
    dice = ",".join(str(r["value"]) for r in first["rolls"])
    scripted = run(capsys, "--input", path, "--dice", dice)
    assert scripted["assignments"] == first["assignments"]


def test_fresh_seed_when_none_given(tmp_path, capsys):
    out = run(capsys, "--input", write(tmp_path, example_a()))
    assert isinstance(out["seed"], int)
    assert out["seed_sha256"] == seed_commitment(out["seed"])


def test_retention_input_with_previous(tmp_path, capsys):
    data = {
        "squads": [UM, BA, IF],
        "players": [
            {
                "id": "a",
                "preferences": [UM, BA, IF],
                "previous": {"squad": UM, "won": False, "points": 50, "rank": 1},
            },
            {
                "id": "b",
                "preferences": [UM, IF, BA],
                "previous": {"squad": UM, "won": True, "points": 10},
            },
        ],
    }
    out = run(capsys, "--input", write(tmp_path, data), "--dice", "")
    assert out["assignments"] == {"a": BA, "b": UM}
    assert out["rank_transfers"] == [{"player": "a", "from_squad": UM, "to_squad": BA, "rank": 1}]


def bad(tmp_path, data, *extra):
    args = ["--input", data if data.startswith("/") else write(tmp_path, data), *extra]
    with pytest.raises(CommandError) as caught:
        call_command("squad_draw", *args)
    assert caught.value.returncode == 2
    assert "\n" not in str(caught.value)
    return str(caught.value)


@pytest.mark.parametrize(
    ("dice", "message"),
    [
        ("3,6", "not enough dice"),
        ("3,7,5,4,2", "die 2 is 7"),
        ("3,0,5", "die 2 is 0"),
        ("3,x,5", "not a whole number"),
        ("3,7,x", "die 2 is 7, which a d6 cannot show (allowed: 1, 2, 3, 4, 5, 6); die 3 is"),
    ],
)
def test_bad_dice(tmp_path, dice, message):
    assert message in bad(tmp_path, json.dumps(example_a()), "--dice", dice)


def test_dice_and_seed_together(tmp_path):
    assert "not both" in bad(tmp_path, json.dumps(example_a()), "--dice", "1", "--seed", "3")


@pytest.mark.parametrize("seed", ["-1", "abc"])
def test_bad_seed(tmp_path, seed):
    assert "--seed" in bad(tmp_path, json.dumps(example_a()), "--seed", seed)


def test_unknown_squad(tmp_path):
    data = example_a()
    data["players"][0]["preferences"] = ["space-wolves"]
    assert "unknown squad 'space-wolves'" in bad(tmp_path, json.dumps(data), "--seed", "1")


def test_duplicate_preferences(tmp_path):
    data = example_a()
    data["players"][1]["preferences"] = [UM, UM]
    assert "twice" in bad(tmp_path, json.dumps(data), "--seed", "1")


def test_more_players_than_squads(tmp_path):
    data = example_a()
    data["squads"] = [UM, BA]
    data["players"][0]["preferences"] = [BA, UM]
    data["players"][1]["preferences"] = [BA, UM]
    data["players"][2]["preferences"] = [BA, UM]
    assert "only 2 squads" in bad(tmp_path, json.dumps(data), "--seed", "1")


def test_unreadable_file(tmp_path):
    assert "cannot read" in bad(tmp_path, str(tmp_path / "missing.json"))


def test_bad_json(tmp_path):
    assert "not valid JSON" in bad(tmp_path, '{"squads": [')
    deep = bad(tmp_path, "[" * 2000 + "]" * 2000)
    assert "line 1, column 500: lists or objects are nested too deeply here to read" in deep


def test_a_file_far_too_large_is_refused_after_its_first_bytes(tmp_path):
    path = write(tmp_path, " " * 1_000_001, name="video.json")
    assert bad(tmp_path, path) == (
        f"{path} is larger than 1 MB, and a draw's squads and players are much smaller; "
        "check that it is the draw's JSON file"
    )


def test_bad_json_is_said_in_words_with_its_place_and_an_empty_file_as_empty(tmp_path):
    """The JSON reader's English reason is not shown as it is: the reason is said with
    what to look for; an empty file is said to be empty."""
    path = write(tmp_path, '{"squads": ["a",]}')
    assert bad(tmp_path, path) == (
        f"{path} is not valid JSON at line 1, column 17: a value is expected: text in double "
        "quotes, a number, true, false, null, {…} or […]; look for a comma after the last "
        "entry of a list"
    )
    empty = write(tmp_path, "  \n", name="empty.json")
    assert bad(tmp_path, empty) == f"{empty} is empty; write the squads and players in it as JSON"


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([], "JSON object"),
        ({"players": []}, "missing the key 'squads'"),
        ({"squads": [UM]}, "missing the key 'players'"),
        ({"squads": UM, "players": []}, "'squads' must be a list"),
        ({"squads": [UM], "players": {}}, "'players' must be a list"),
        ({"squads": [UM], "players": [{"preferences": []}]}, "missing the key 'id'"),
        ({"squads": [UM], "players": [{"id": "a"}]}, "missing the key 'preferences'"),
        ({"squads": [UM], "players": [{"id": "a", "preferences": UM}]}, "list of squad slugs"),
        (
            {
                "squads": [UM],
                "players": [{"id": "a", "preferences": [], "previous": {"squad": UM}}],
            },
            "missing the key 'won'",
        ),
        (
            {
                "squads": [UM],
                "players": [
                    {"id": "a", "preferences": [], "previous": {"squad": UM, "won": 1, "points": 3}}
                ],
            },
            "true or false",
        ),
    ],
)
def test_missing_or_malformed_keys(tmp_path, data, message):
    assert message in bad(tmp_path, json.dumps(data), "--seed", "1")


def test_real_subprocess_run(tmp_path):
    path = write(tmp_path, example_a())
    ok = subprocess.run(
        [sys.executable, "manage.py", "squad_draw", "--input", path, "--dice", "3,6,5,4,2"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert ok.returncode == 0, ok.stderr
    assert json.loads(ok.stdout)["assignments"] == {"1": UM, "2": BA, "3": IF}
    failed = subprocess.run(
        [sys.executable, "manage.py", "squad_draw", "--input", path, "--dice", "3,6"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert failed.returncode == 2
    assert failed.stdout == ""
    assert len(failed.stderr.strip().splitlines()) == 1
    assert "not enough dice" in failed.stderr


def test_messages_follow_the_projects_language(tmp_path, monkeypatch):
    """Commands speak the active language (``BOB_LANGUAGE`` when run from manage.py)."""
    from django.utils import translation

    from tests.i18n_support import add_translations

    add_translations(
        monkeypatch,
        "it",
        {
            "give either --dice (physical dice) or --seed (app-rolled), not both": (
                "indica --dice (dadi fisici) oppure --seed (dadi dell'app), non entrambi"
            ),
            "%(where)s is missing the key '%(key)s'": "a %(where)s manca la chiave '%(key)s'",
            "player %(number)d": "giocatore %(number)d",
        },
    )
    data = json.dumps({"squads": [UM], "players": [{"preferences": []}]})
    with translation.override("it"):
        assert "non entrambi" in bad(tmp_path, data, "--dice", "1", "--seed", "3")
        assert "a giocatore 1 manca la chiave 'id'" in bad(tmp_path, data, "--seed", "1")


def test_unneeded_dice_warning(tmp_path, capsys):
    call_command("squad_draw", "--input", write(tmp_path, example_a()), "--dice", "3,6,5,4,2,1,1")
    captured = capsys.readouterr()
    assert json.loads(captured.out)["assignments"] == {"1": UM, "2": BA, "3": IF}
    assert "warning: 2 of the given dice were not needed" in captured.err


def test_a_missing_die_names_the_player_who_rolls_it(tmp_path):
    data = {
        "squads": [UM, BA, IF],
        "players": [
            {"id": name, "preferences": [BA, UM, IF]} for name in ("Anna", "Bruno", "Carla")
        ],
    }
    message = bad(tmp_path, json.dumps(data), "--dice", "3,6")
    assert "not enough dice: die 3" in message
    assert "Carla’s die" in message
