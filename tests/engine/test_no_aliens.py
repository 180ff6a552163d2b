"""A session played without aliens (RULES §6: Catch the Flag "aliens and events optional",
TPK "no aliens recommended"; the stipulation's switch ``aliens`` false).

No blip hides an alien, no Genestealer comes out of its marker, no reinforcement enters,
no event card is drawn and no Alien turn is played; a marine entering a section stops only
where a special-equipment blip waits (it hides no alien, so it stays: game engine decision
16 in docs/decisions.md). Without the switch (Alien Hunt, older states) aliens are in play,
as the contrasting cases show.
"""

import pytest

from rules.engine.ai.policies import policy_named
from rules.engine.ai.solitaire_policy import reveal_after_move as solitaire_reveal_after_move
from rules.engine.ai.turn import resolve_alien_turn
from rules.engine.dice import ScriptedDice, SeededDice
from rules.engine.movement import move, shortest_path
from rules.engine.play.blips import place_reinforcements, reveal_after_move
from rules.engine.play.round_end import alien_turn_due, close_round
from rules.engine.state import Blip, GameState, StateError, Stipulation, build_state, rules_of
from rules.engine.turns import TurnError, end_turn
from tests.engine.ai_support import alien, marine, steps_of

# Two sections joined by the always-open door between 3,1 and 4,1. The east section B
# holds an ork marker (4,0), a Genestealer marker (6,0), an R square (7,0), a gretchin
# marker (7,1) and an android marker (4,2): all in sight of a marine on 4,1 or 5,1.
SHIP = """
+--+--+--+--+--+--+--+--+
|.  .  .  . |.o .  .s .R|
+  +  +  +  +  +  +  +  +
|.  .  .  . A.  .  .  .g|
+  +  +  +  +  +  +  +  +
|.  .  .  . |.a .  .  . |
+--+--+--+--+--+--+--+--+

section A board 0,0 3,2 West
section B board 4,0 7,2 East
marker o ork
marker g gretchin
marker a android
marker s genestealer
"""

NO_ALIENS = {"flag_value": 30, "aliens": False}


def ship(switches: dict, kind: str = "catch_the_flag", *figures) -> GameState:
    """p1-m1 on 2,1 in the west section (surveyed), with the stipulation's ``switches``."""
    return build_state(
        SHIP,
        (marine("p1-m1", "p1", (2, 1)), *figures),
        stipulation=Stipulation(kind, switches),
        surveyed_sections=("A",),
    )


def walk_east(state: GameState) -> tuple[GameState, list, list]:
    """p1-m1 walks to 5,1 as the board moves it: the move (which may stop on entering the
    east section), then the survey and reveal. Returns the state, move events and steps."""
    moved, events = move(state, "p1-m1", shortest_path(state, "p1-m1", (5, 1)))
    after, steps = reveal_after_move(moved, "p1-m1")
    return after, events, steps


def test_with_aliens_the_marine_stops_and_the_section_fills_with_aliens():
    after, events, steps = walk_east(ship({"flag_value": 30}))
    assert [e.kind for e in events][-1] == "section_entered"
    assert after.figure("p1-m1").squares == ((4, 1),)
    assert steps_of(steps, "survey") == [{"section": "B", "count": 3}]
    assert sorted(f.unit for f in after.aliens()) == ["android", "genestealer", "gretchin", "ork"]


def test_without_aliens_the_marine_walks_on_and_nothing_appears():
    after, events, steps = walk_east(ship(NO_ALIENS))
    assert "section_entered" not in [e.kind for e in events]
    assert after.figure("p1-m1").squares == ((5, 1),)
    assert after.blips == () and after.aliens() == () and after.tokens == ()
    assert steps == []  # nothing to tell the table
    assert after.progress.genestealers_appeared == ()
    assert "B" in after.surveyed_sections


def test_without_aliens_an_equipment_blip_is_still_placed_and_found():
    after, events, steps = walk_east(ship({**NO_ALIENS, "equipment_blips": {"4,2": "melta"}}))
    # B holds special equipment: the marine stops to place it, as in any game.
    assert [e.kind for e in events][-1] == "section_entered"
    assert steps_of(steps, "survey") == [{"section": "B", "count": 1}]
    assert [(i.square, i.weapon) for i in after.items] == [((4, 2), "melta")]
    assert after.aliens() == () and after.tokens == ()


def test_a_blip_an_older_state_left_hides_no_alien_any_more():
    state = ship(NO_ALIENS).replace(
        blips=(Blip("blip-7-2", (7, 2), "ork"),), surveyed_sections=("A", "B")
    )
    after, _events, steps = walk_east(state)
    assert steps_of(steps, "blip_without_aliens") == [{"square": [7, 2]}]
    assert after.blips == () and after.aliens() == () and after.tokens == ()


def test_the_solitaire_survey_draws_and_rolls_nothing_without_aliens():
    state = ship({**NO_ALIENS, "blip_pile": ["ork", "gretchin"]})
    moved, _ = move(state, "p1-m1", shortest_path(state, "p1-m1", (5, 1)))
    dice = ScriptedDice(values=[])
    after, steps = solitaire_reveal_after_move(moved, "p1-m1", dice)
    assert dice.log == [] and steps == []
    assert after.blips == () and after.aliens() == ()


def test_no_reinforcement_enters_without_aliens():
    def hidden_marine(switches: dict) -> GameState:  # on 1,0 it does not see the R square
        state = ship(switches).replace(reinforcements=("ork", "ork"))
        return state.with_figure(state.figure("p1-m1").moved_to(((1, 0),)))

    state = hidden_marine(NO_ALIENS)
    after, steps = place_reinforcements(state, 1, SeededDice(seed=1))
    assert (after, steps) == (state, [])
    with_aliens, _steps = place_reinforcements(hidden_marine({}), 1, SeededDice(seed=1))
    assert [(f.unit, f.squares) for f in with_aliens.aliens()] == [("ork", ((7, 0),))]


@pytest.mark.parametrize("policy", ["bob", "solitaire", "priority"])
def test_there_is_no_alien_turn_without_aliens(policy):
    state = ship({**NO_ALIENS, "event_deck": True}, "catch_the_flag", alien("o1", "ork", (6, 2)))
    with pytest.raises(TurnError) as refused:
        resolve_alien_turn(state, policy_named(policy), SeededDice(seed=1))
    assert refused.value.code == "turn_no_aliens"
    assert "without aliens" in refused.value.text_in("en")


def test_the_round_closes_without_an_alien_turn():
    # An alien an older state left, and the event deck ticked: still no Alien turn.
    state = ship({**NO_ALIENS, "event_deck": True}, "catch_the_flag", alien("o1", "ork", (6, 2)))
    assert not state.stipulation.uses_event_deck
    ended, steps = end_turn(state)
    assert ended.turn.aliens_phase and [s.code for s in steps] == ["turn_round_ends"]
    assert not alien_turn_due(ended)
    following, _steps = close_round(ended, rules_of(ended))
    assert (following.round, following.active_player) == (2, "p1")
    assert following.progress.events_drawn == ()


@pytest.mark.parametrize(
    ("kind", "switches"),
    [
        ("alien_hunt", {"rounds": 8}),  # no switch: aliens in play
        ("tpk", {"aliens": True}),
    ],
)
def test_with_aliens_the_aliens_close_the_round(kind, switches):
    state = ship(switches, kind, alien("o1", "ork", (6, 2)))
    ended, steps = end_turn(state)
    assert [s.code for s in steps] == ["turn_aliens_next"]
    assert alien_turn_due(ended)
    assert state.stipulation.with_aliens


def test_the_switch_is_true_or_false():
    data = ship(NO_ALIENS).to_json()
    data["stipulation"]["switches"]["aliens"] = "no"
    with pytest.raises(StateError) as refused:
        GameState.from_json(data)
    assert [p.path for p in refused.value.problems] == ["$.stipulation.switches.aliens"]
