"""What a kill is worth on the board (RULES §7): scores and tokens after real attacks."""

from __future__ import annotations

from dataclasses import replace

from rules.engine.combat import option_for, resolve_attack
from rules.engine.dice import ScriptedDice
from rules.engine.kill_scores import score_kill
from rules.engine.state import GameState, Token
from rules.engine.units import load_rules_data
from tests.engine.combat_scenes import alien, marine, piloted_dreadnought, scene

DATA = load_rules_data()

OPEN = """
+--+--+--+--+--+--+
|:D :D :  :  :M : |
+  +  +  +  +  +  +
|:D :D :  :  :  : |
+--+--+--+--+--+--+
"""

LINE = """
+--+--+--+
|:D :  :M|
+--+--+--+
"""

TARANTULA = """
+--+--+--+--+--+--+--+
|.  .  .  .  .  .  . |
+  +  +  +  +  +  +  +
|.  .G .T .T .  .M . |
+--+--+--+--+--+--+--+
"""


def scored(state: GameState, attacker: str, weapon: str, dice: list[int], **aim):
    """Resolve one attack and score its kills with the attacker's player as the killer."""
    option = option_for(state, attacker, weapon, **aim)
    after, events = resolve_attack(state, option, ScriptedDice(values=dice))
    killer = state.figure(attacker).player
    steps = []
    for event in events:
        after, more = score_kill(state, after, event, killer, DATA)
        steps.extend(more)
    return after, [(s.code, dict(s.params)) for s in steps]


def scores(state: GameState) -> dict[str, int]:
    return {p.id: p.score for p in state.players}


def test_a_marine_of_another_player_moves_its_value_to_the_killer():
    legend = {"M": marine(player="p2", weapons=["bolter"]), "D": marine(weapons=["bolter"])}
    state = scene(LINE, legend)
    after, steps = scored(state, "M", "bolter", [3, 3], target="D")
    value = DATA.marine_value("marine", ("bolter",))
    assert not after.has_figure("D")
    assert scores(after) == {"p1": -value, "p2": value}
    assert steps == [
        ("score_lost", {"player": "p1", "points": value, "target": "D"}),
        ("score_gained", {"player": "p2", "points": value, "target": "D"}),
    ]


def test_a_tarantula_is_worth_its_value_to_the_destroyer_and_costs_its_owner_nothing():
    legend = {
        "T": marine("tarantula", facing="E"),
        "G": marine(weapons=["laser_rifle"], piloting="T"),
        "M": marine(player="p2", weapons=["melta"]),
    }
    state = scene(TARANTULA, legend)
    after, steps = scored(state, "M", "melta", [3, 3, 3, 0, 0, 0], aim=(3, 1))
    assert not after.has_figure("T")
    assert scores(after) == {"p1": 0, "p2": DATA.tarantula_destroyed}
    assert steps == [
        ("score_gained", {"player": "p2", "points": DATA.tarantula_destroyed, "target": "T"})
    ]


def test_a_marine_dreadnought_costs_its_owner_only_the_pilots_value():
    legend = piloted_dreadnought(M=marine(player="p2", weapons=["bolter"]))
    state = scene(OPEN, legend)
    state = state.with_figure(replace(state.figure("D"), life_points=1))
    after, steps = scored(state, "M", "bolter", [3, 2], target="D")
    pilot = DATA.marine_value("heavy_weapon_marine", ("plasma_gun",))
    dreadnought = 30 + pilot
    assert not after.has_figure("D") and not after.has_figure("pilot")
    assert scores(after) == {"p1": -pilot, "p2": dreadnought}
    assert [code for code, _params in steps] == ["score_gained", "score_lost"]


def test_an_alien_gives_its_killer_a_free_token_only_while_one_is_left():
    legend = {"M": marine(player="p2", weapons=["bolter"]), "D": alien("ork", life_points=1)}
    drawing = LINE
    state = scene(drawing, legend)
    state = state.replace(
        tokens=(Token("b1", "blip", "ork", taken_by="p1"), Token("b2", "blip", "ork"))
    )
    after, steps = scored(state, "M", "bolter", [3, 3], target="D")
    ork = DATA.alien_tokens["ork"]
    assert [t.taken_by for t in after.tokens] == ["p1", "p2"]
    assert scores(after)["p2"] == ork
    assert steps == [("token_taken", {"player": "p2", "unit": "ork", "points": ork})]
    none_left = state.replace(tokens=(Token("b1", "blip", "ork", taken_by="p1"),))
    after, steps = scored(none_left, "M", "bolter", [3, 3], target="D")
    assert scores(after)["p2"] == 0
    assert steps == [("no_token", {"player": "p2", "unit": "ork"})]


def test_a_players_own_marine_costs_its_value_and_earns_nothing():
    """Own fire (e.g. the player's own blast): the owner is also the killer."""
    legend = {"M": marine(player="p2", weapons=["bolter"]), "D": marine(weapons=["bolter"])}
    state = scene(LINE, legend)
    option = option_for(state, "M", "bolter", target="D")
    after, events = resolve_attack(state, option, ScriptedDice(values=[3, 3]))
    steps = []
    for event in events:
        after, more = score_kill(state, after, event, "p1", DATA)
        steps.extend(more)
    value = DATA.marine_value("marine", ("bolter",))
    assert scores(after) == {"p1": -value, "p2": 0}
    assert [s.code for s in steps] == ["score_lost"]


def test_an_alien_dreadnought_of_a_named_class_scores_its_class_value():
    """Its token scores what the kill log says it is worth (RULES §7, decision 31,
    docs/unit-data.md point 12): the class value of the class in its equipment (Predator
    30), not the flat Dreadnought token value (25); without a class, the flat value."""
    for equipment, value in ((["predator"], 30), ([], DATA.alien_tokens["dreadnought"])):
        legend = {
            "M": marine(player="p2", weapons=["bolter"]),
            "D": alien("dreadnought", equipment=equipment, life_points=1),
        }
        state = scene(OPEN, legend).replace(tokens=(Token("r1", "reinforcement", "dreadnought"),))
        option = option_for(state, "M", "bolter", target="D")
        after, events = resolve_attack(state, option, ScriptedDice(values=[3, 3]))
        [killed] = [event for event in events if event.kind == "killed"]
        assert killed.points == value
        after, steps = score_kill(state, after, killed, "p2", DATA)
        assert scores(after)["p2"] == value
        assert [(s.code, dict(s.params)) for s in steps] == [
            ("token_taken", {"player": "p2", "unit": "dreadnought", "points": value})
        ]
