"""``manage.py engine odds``: the exact distribution of one attack, and clear bad input."""

import json
from fractions import Fraction
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.utils import translation

from tests.engine.combat_scenes import alien, marine, scene

MISSILE = """
+--+--+--+--+--+
|:M :  :  :  : |
+  +  +  +  +  +
|:  :  :  :O : |
+  +  +  +  +  +
|:  :  :  :G : |
+--+--+--+--+--+
"""


@pytest.fixture
def state_file(tmp_path):
    state = scene(
        MISSILE,
        {
            "M": marine("heavy_weapon_marine", weapons=["missile_launcher"]),
            "O": alien("ork"),
            "G": alien("gretchin"),
        },
    )
    path = tmp_path / "state.json"
    path.write_text(json.dumps(state.to_json()), encoding="utf-8")
    return str(path)


def run(*args):
    out = StringIO()
    with translation.override("en"):
        call_command("engine", "odds", *args, stdout=out)
    return out.getvalue()


def test_odds_prints_the_exact_distribution(state_file):
    text = run(state_file, "M", "3,1", "missile_launcher")
    assert "M fires the missile launcher at square 3,1" in text
    assert "life points lost by (O, G):" in text
    # Both die when the total beats the Ork's armour 1 (the Gretchin then has a die >= 1):
    # every total of 2 or more, 21/36 = 7/12.
    assert "(1, 1): 7/12 " in text
    probabilities = [line for line in text.splitlines() if line.startswith("  (")]
    assert sum(Fraction(line.split(": ")[1].split(" ")[0]) for line in probabilities) == 1


def test_odds_with_a_target_figure(state_file):
    text = run(state_file, "M", "O", "missile_launcher")
    assert "at square 3,1" in text


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("M", "X", "missile_launcher"), "neither a figure"),
        (("Q", "O", "missile_launcher"), "no figure 'Q'"),
        (("M", "O", "bolter"), "does not carry a bolter"),
        (("M", "3,1", "hand-to-hand"), "needs a target figure"),
        (("M", "O", "hand-to-hand"), "cannot fight O hand-to-hand"),
    ],
)
def test_odds_bad_input_is_a_command_error_with_status_2(state_file, args, message):
    with pytest.raises(CommandError) as info:
        run(state_file, *args)
    assert message in str(info.value)
    assert info.value.returncode == 2
