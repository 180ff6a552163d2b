"""The command line speaks one language: ``manage.py engine`` and ``manage.py alien_turn``
answer wholly in the ``--lang`` chosen (default: the project's language), their own
messages, the engine's answers and its errors alike."""

from __future__ import annotations

import json
from dataclasses import replace
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.utils import translation

from benchmarks.reference_position import reference_state
from tests.engine.test_ai_log_italian import english_in
from tests.engine.test_log_languages import italian_in


def foreign(text: str, lang: str) -> list[str]:
    """Words of the other language in ``text``."""
    return english_in(text) if lang == "it" else italian_in(text)


@pytest.fixture
def state_file(tmp_path):
    path = tmp_path / "state.json"
    path.write_text(json.dumps(reference_state().to_json()))
    return str(path)


def run(name: str, *args: str) -> str:
    out = StringIO()
    call_command(name, *args, stdout=out)
    return out.getvalue()


def refusal(name: str, *args: str) -> str:
    with pytest.raises(CommandError) as info:
        call_command(name, *args, stdout=StringIO())
    return str(info.value)


@pytest.mark.parametrize("lang", ["it", "en"])
def test_engine_sub_commands_answer_in_one_language(state_file, lang, tmp_path):
    bad_map = str(tmp_path / "bad.txt")
    (tmp_path / "bad.txt").write_text("name: x\n+--+\n|.Q|\n+--+\n")
    outputs = {
        "clear sight": run("engine", "los", state_file, "p1-0", "p2-0", "--lang", lang),
        "blocked sight": run("engine", "los", state_file, "p1-0", "p3-0", "--lang", lang),
        "path": run("engine", "path", state_file, "p1-0", "7,3", "--lang", lang),
        "no path": run("engine", "path", state_file, "p1-0", "1,1", "--lang", lang),
        "odds": run("engine", "odds", state_file, "p1-0", "p2-0", "bolter", "--lang", lang),
        "picture": run("engine", "render", state_file, "--lang", lang),
        "unknown weapon": refusal(
            "engine", "odds", state_file, "p1-0", "p2-0", "laser_rifle", "--lang", lang
        ),
        "off the board": refusal("engine", "los", state_file, "p1-0", "99,99", "--lang", lang),
        "bad map": refusal("engine", "map", bad_map, "--lang", lang),
    }
    picture = outputs["picture"].splitlines()
    outputs["picture"] = "\n".join([picture[0], *picture[-30:]])  # the title and legend
    for what, text in outputs.items():
        for line in text.splitlines():
            assert not foreign(line, lang), (what, line)
    if lang == "it":
        assert outputs["clear sight"].startswith("visibile: linea libera")
        assert outputs["path"].startswith("2 caselle: ")
        assert "punti vita persi attesi 0,6667" in outputs["odds"]
        assert "non ha l'arma fucile laser" in outputs["unknown weapon"]
        assert "riga 3, colonna 3: marcatore di casella sconosciuto 'Q'" in outputs["bad map"]
    else:
        assert outputs["clear sight"].startswith("visible: clear line")
        assert outputs["path"].startswith("2 squares: ")
        assert "expected life points lost 0.6667" in outputs["odds"]
        assert "line 3, column 3: unknown square marker 'Q'" in outputs["bad map"]


def test_the_default_language_is_the_projects(state_file):
    with translation.override("it"):
        assert run("engine", "path", state_file, "p1-0", "7,3").startswith("2 caselle")
    with translation.override("en"):
        assert run("engine", "path", state_file, "p1-0", "7,3").startswith("2 squares")


@pytest.mark.parametrize("lang", ["it", "en"])
def test_alien_turn_prints_its_steps_and_errors_in_one_language(state_file, lang):
    output = json.loads(run("alien_turn", "--input", state_file, "--seed", "3", "--lang", lang))
    assert len(output["steps"]) > 20
    for step in output["steps"]:
        assert not foreign(step["text"], lang), step
    short = refusal("alien_turn", "--input", state_file, "--dice", "1,2", "--lang", lang)
    assert not foreign(short, lang), short
    assert ("Mancano dadi" if lang == "it" else "not enough dice") in short
    bad = refusal("alien_turn", "--input", state_file, "--dice", "1,x", "--lang", lang)
    assert not foreign(bad, lang), bad


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        ("it", "Carte evento sconosciute nella stipulazione: nope"),
        ("en", "unknown event cards in the stipulation: nope"),
    ],
)
def test_an_unknown_event_card_is_refused_in_the_chosen_language(tmp_path, lang, expected):
    state = reference_state()
    switches = {"event_deck": True, "event_cards": ["nope"]}
    state = state.replace(stipulation=replace(state.stipulation, switches=switches))
    path = tmp_path / "state.json"
    path.write_text(json.dumps(state.to_json()))
    message = refusal("alien_turn", "--input", str(path), "--seed", "1", "--lang", lang)
    assert expected in message and not foreign(message, lang)
