"""A door that opens reveals what marines now see behind it (RULES §10 "Blips (BoB)").

QA's case on the judge's board: p1-m3 on 4,7 opened the door to 3,7 and the blip on 1,8,
in its sight once the door was open, stayed hidden. Opening a door reveals as a move does
(:func:`rules.engine.play.blips.reveal_after_door`), for every marine, whoever opened it.
"""

from rules.engine.ai.bob_policy import BobPolicy
from rules.engine.ai.turn import resolve_alien_turn
from rules.engine.board import DoorState
from rules.engine.dice import SeededDice
from rules.engine.los import line_of_sight
from rules.engine.movement import move, open_door
from rules.engine.play.blips import reveal_after_door, reveal_after_move, survey_section
from rules.engine.state import Figure, GameState, build_state
from tests.engine.ai_support import alien, marine

# A room (x 0-3, y 5-8) west of a corridor, one closed door between 3,7 and 4,7. Markers:
# an ork on 1,8 and a gretchin on 3,8 (the marine on 4,7 sees the first through the open
# door, not the second), an android on 3,5 (behind the wall whoever looks through the
# door), a Genestealer on 0,6 (in sight from 4,7).
ROOM = """
+--+--+--+--+--+--+
|## ## ## ##|.  . |
+  +  +  +  +  +  +
|## ## ## ##|.  . |
+  +  +  +  +  +  +
|## ## ## ##|.  . |
+  +  +  +  +  +  +
|## ## ## ##|.  . |
+  +  +  +  +  +  +
|## ## ## ##|.  . |
+--+--+--+--+  +  +
|:  :  :  :a|.  . |
+  +  +  +  +  +  +
|:s :  :  : |.  . |
+  +  +  +  +  +  +
|:  :  :  : D.  . |
+  +  +  +  +  +  +
|:  :o :  :g|.  . |
+--+--+--+--+--+--+

marker o ork
marker g gretchin
marker a android
marker s genestealer
"""

DOOR = ((3, 7), (4, 7))


def surveyed(*figures: Figure) -> GameState:
    """The room's blips on their markers (the section surveyed), the door still closed."""
    state, _ = survey_section(build_state(ROOM, figures), "A")
    return state


def hidden(state: GameState) -> list[list[int]]:
    return sorted(list(b.square) for b in state.blips)


def revealed(steps) -> list[list[int]]:
    return sorted(s.params["square"] for s in steps if s.code == "blip_revealed")


def test_a_marine_opening_a_door_reveals_the_blips_it_now_sees():
    state = surveyed(marine("p1-m3", "p1", (4, 7)))
    assert reveal_after_move(state, "p1-m3") == (state, [])  # the closed door hides them
    opened, _ = open_door(state, "p1-m3", *DOOR)
    assert line_of_sight(opened, (4, 7), (1, 8), for_firing=False).reason == "clear line"
    assert not line_of_sight(opened, (4, 7), (3, 8), for_firing=False).visible

    after, steps = reveal_after_door(opened)

    assert revealed(steps) == [[1, 8]]
    assert after.figure("ork-blip-1-8").squares == ((1, 8),)
    assert hidden(after) == [[3, 5], [3, 8]]  # behind the door but out of sight
    appeared = [s.params for s in steps if s.code == "genestealer_appears"]
    assert [p["square"] for p in appeared] == [[0, 6]]
    assert after.surveyed_sections == state.surveyed_sections  # a door surveys nothing


def test_every_marine_looks_through_the_opened_door():
    # p2-m1 on 5,4 sees 3,8 through the doorway; p1-m3, who opens it, does not.
    state = surveyed(marine("p1-m3", "p1", (4, 7)), marine("p2-m1", "p2", (5, 4)))
    opened, _ = open_door(state, "p1-m3", *DOOR)
    after, steps = reveal_after_door(opened)
    assert revealed(steps) == [[1, 8], [3, 8]]
    assert hidden(after) == [[3, 5]]


def test_a_move_through_the_door_lets_every_marine_look():
    # p1-m3 walks to 2,7, diagonally next to 3,8 (no sight); p2-m1 sees 3,8 once it opens.
    state = surveyed(marine("p1-m3", "p1", (4, 7)), marine("p2-m1", "p2", (5, 4)))
    moved, events = move(state, "p1-m3", [(3, 7), (2, 7)])
    assert moved.door_state(*DOOR) is DoorState.OPEN
    assert not line_of_sight(moved, (2, 7), (3, 8), for_firing=False).visible
    after, steps = reveal_after_move(moved, "p1-m3")
    assert [3, 8] in revealed(steps)
    assert after.blip_at((3, 8)) is None


def test_without_the_map_markers_no_genestealer_appears():
    # Solitaire does not use the map's markers.
    opened, _ = open_door(surveyed(marine("p1-m3", "p1", (4, 7))), "p1-m3", *DOOR)
    _, steps = reveal_after_door(opened, genestealer_markers=False)
    assert revealed(steps) == [[1, 8]]
    assert not [s for s in steps if s.code == "genestealer_appears"]


def test_a_door_an_alien_opens_reveals_what_a_marine_now_sees():
    # An ork leaves the room through the door towards p2-m1 on 5,4, who then sees 3,8.
    state = surveyed(marine("p2-m1", "p2", (5, 4)), alien("o1", "ork", (0, 5)))
    after, steps = resolve_alien_turn(state, BobPolicy(), SeededDice(seed=1))
    codes = [s.code for s in steps]
    assert "door_opened" in codes
    assert codes[codes.index("door_opened") + 1] == "blip_revealed"
    assert revealed(steps) == [[3, 8]]
    assert hidden(after) == [[1, 8], [3, 5]]
