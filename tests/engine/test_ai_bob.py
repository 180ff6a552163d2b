"""BoB policy scenarios: one decision rule per test, on small boards."""

from fractions import Fraction

from rules.engine.ai.area import distinct_marines
from rules.engine.ai.bob_policy import BobPolicy
from rules.engine.ai.plans import Shot
from rules.engine.ai.turn import resolve_alien_turn
from rules.engine.board import DoorState
from rules.engine.dice import ScriptedDice, SeededDice
from rules.engine.geometry import edge
from tests.engine.ai_support import alien, make_board, make_state, marine, steps_of
from tests.engine.combat_scenes import alien as scene_alien
from tests.engine.combat_scenes import marine as scene_marine
from tests.engine.combat_scenes import scene


def run(state, seed=1, dice=None):
    return resolve_alien_turn(state, BobPolicy(), dice or SeededDice(seed=seed))


def focus_of(steps, figure):
    return next(p for p in steps_of(steps, "focus") if p["figure"] == figure)


# --- focus: each criterion in isolation (a Genestealer cannot shoot) ----------------------


def test_focus_by_path_distance_not_straight_line():
    # p1 is 3 squares away in a straight line but behind a wall; p2 is 6 squares away.
    walls = [((4, y), (5, y)) for y in range(0, 5)]
    board = make_board(12, 6, walls=walls)
    state = make_state(
        board,
        [
            alien("g1", "genestealer", (3, 0)),
            marine("a1", "p1", (6, 0)),
            marine("b1", "p2", (3, 4), life_points=2),
        ],
        players=("p1", "p2"),
    )
    _, steps = run(state)
    focus = focus_of(steps, "g1")
    assert focus["player"] == "p2"


def test_focus_more_marines_in_play_on_equal_distance():
    board = make_board(21, 1)
    figures = [
        alien("g1", "genestealer", (10, 0)),
        marine("a1", "p1", (2, 0)),
        marine("b1", "p2", (19, 0)),
        marine("b2", "p2", (18, 0)),
    ]
    state = make_state(board, figures, players=("p1", "p2"))
    _, steps = run(state)
    focus = focus_of(steps, "g1")
    assert (focus["player"], focus["criterion"]) == ("p2", "marines_in_play")


def test_focus_commander_alive_on_equal_marines():
    board = make_board(21, 1)
    state = make_state(
        board,
        [
            alien("g1", "genestealer", (10, 0)),
            marine("a1", "p1", (1, 0)),
            marine("b1", "p2", (19, 0), unit="commander", weapons=("bolter",)),
        ],
        players=("p1", "p2"),
    )
    _, steps = run(state)
    focus = focus_of(steps, "g1")
    assert (focus["player"], focus["criterion"]) == ("p2", "commander_alive")


def test_focus_initiative_on_full_tie():
    board = make_board(21, 1)
    state = make_state(
        board,
        [
            alien("g1", "genestealer", (10, 0)),
            marine("a1", "p1", (19, 0)),
            marine("b1", "p2", (1, 0)),
        ],
        players=("p2", "p1"),
    )
    _, steps = run(state)
    focus = focus_of(steps, "g1")
    assert (focus["player"], focus["criterion"]) == ("p2", "focus_initiative")


def test_focus_prefers_an_attackable_player():
    # p1 is nearer by path (12 squares, round a wall) but out of reach and out of sight;
    # p2 is 18 squares away down the corridor, where the Ork can shoot it.
    board = make_board(20, 3, walls=[((x, 0), (x, 1)) for x in range(0, 20) if x != 8])
    state = make_state(
        board,
        [alien("o1", "ork", (0, 1)), marine("a1", "p1", (4, 0)), marine("b1", "p2", (19, 1))],
        players=("p1", "p2"),
    )
    _, steps = run(state)
    assert focus_of(steps, "o1")["player"] == "p2"


# --- activation order ---------------------------------------------------------------------


def activations(steps):
    return [(p["figure"], p["criterion"]) for p in steps_of(steps, "activation")]


def test_activation_type_order():
    board = make_board(30, 1)
    state = make_state(
        board,
        [
            alien("o1", "ork", (0, 0)),
            alien("g1", "genestealer", (2, 0)),
            marine("a1", "p1", (29, 0)),
        ],
        players=("p1",),
    )
    _, steps = run(state, dice=ScriptedDice(values=[0, 0] * 4))
    assert [a for a, _ in activations(steps)] == ["g1", "o1"]


def test_activation_attackers_first_then_move_only():
    board = make_board(30, 1)
    state = make_state(
        board,
        [
            alien("g1", "genestealer", (0, 0)),
            alien("g2", "genestealer", (20, 0)),
            marine("a1", "p1", (25, 0)),
        ],
        players=("p1",),
    )
    _, steps = run(state)
    assert activations(steps)[0] == ("g2", "attackable_focus")


def test_activation_focus_earlier_in_initiative():
    board = make_board(30, 1)
    state = make_state(
        board,
        [
            alien("g1", "genestealer", (3, 0)),
            alien("g2", "genestealer", (24, 0)),
            marine("a1", "p1", (0, 0)),
            marine("b1", "p2", (29, 0)),
        ],
        players=("p2", "p1"),
    )
    _, steps = run(state)
    assert activations(steps)[0] == ("g2", "initiative")


def test_activation_shorter_path():
    board = make_board(30, 1)
    state = make_state(
        board,
        [
            alien("g1", "genestealer", (4, 0)),
            alien("g2", "genestealer", (27, 0)),
            marine("a1", "p1", (0, 0)),
            marine("a2", "p1", (29, 0)),
        ],
        players=("p1",),
    )
    _, steps = run(state)
    assert activations(steps)[0] == ("g2", "distance")


def test_activation_tie_lowest_id_flagged_for_the_attacked_player():
    board = make_board(30, 1)
    state = make_state(
        board,
        [
            alien("g2", "genestealer", (3, 0)),
            alien("g1", "genestealer", (26, 0)),
            marine("a1", "p1", (0, 0)),
            marine("a2", "p1", (29, 0)),
        ],
        players=("p1",),
    )
    _, steps = run(state)
    assert activations(steps)[0] == ("g1", "lowest_id")


def test_activation_move_only_nearest_first():
    board = make_board(40, 1)
    state = make_state(
        board,
        [
            alien("g1", "genestealer", (0, 0)),
            alien("g2", "genestealer", (20, 0)),
            marine("a1", "p1", (39, 0)),
        ],
        players=("p1",),
    )
    _, steps = run(state)
    assert activations(steps)[0] == ("g2", "move_only")
    assert len(steps_of(steps, "move")) == 2


# --- the attack -----------------------------------------------------------------------------


def test_best_attack_prefers_the_more_valuable_target():
    # Same armour and life points; the heavy-weapon marine is worth 10, the other 5.
    board = make_board(7, 3)
    state = make_state(
        board,
        [
            alien("c1", "chaos_marine", (0, 1)),
            marine("a1", "p1", (6, 0)),
            marine("a2", "p1", (6, 2), unit="heavy_weapon_marine", weapons=("plasma_gun",)),
        ],
        players=("p1",),
    )
    _, steps = run(state)
    chosen = steps_of(steps, "attack_chosen")[0]
    assert chosen["target"] == "a2"
    passed = steps_of(steps, "attack_alternative")
    assert any(p["target"] == "a1" and p["points"] < chosen["points"] for p in passed)


def test_alien_does_not_shoot_and_fight_in_one_turn():
    board = make_board(4, 1)
    state = make_state(
        board, [alien("o1", "ork", (0, 0)), marine("a1", "p1", (2, 0))], players=("p1",)
    )
    _, steps = run(state, seed=3)
    assert len(steps_of(steps, "attack_chosen")) == 1
    purposes = {p["purpose"] for p in steps_of(steps, "dice")}
    fired = any(p.startswith("shot") for p in purposes)
    fought = any(p.startswith("hand_to_hand") for p in purposes)
    assert fired != fought


def test_area_weapon_maximises_marines_hit_ignoring_focus():
    # p1 has one marine close by; p2 has three marines bunched far away.
    board = make_board(16, 7)
    state = make_state(
        board,
        [
            alien("h1", "chaos_marine_heavy", (0, 3), weapons=("missile_launcher",)),
            marine("a1", "p1", (3, 3)),
            marine("b1", "p2", (12, 3)),
            marine("b2", "p2", (13, 3)),
            marine("b3", "p2", (12, 4)),
        ],
        players=("p1", "p2"),
    )
    _, steps = run(state)
    assert focus_of(steps, "h1")["player"] == "p1"
    area = steps_of(steps, "area_choice")[0]
    assert area["marines"] == 3


def steps_of_activation(steps, figure):
    """The steps of one alien's activation."""
    out, inside = [], False
    for step in steps:
        if step.code == "activation":
            inside = step.params["figure"] == figure
        elif inside:
            out.append(step)
    return out


def test_area_weapon_never_hits_another_alien():
    board = make_board(16, 7)
    state = make_state(
        board,
        [
            alien("h1", "chaos_marine_heavy", (0, 3), weapons=("missile_launcher",)),
            alien("o1", "ork", (13, 4)),
            marine("a1", "p1", (3, 3)),
            marine("b1", "p2", (12, 3)),
            marine("b2", "p2", (13, 3)),
            marine("b3", "p2", (12, 4)),
        ],
        players=("p1", "p2"),
    )
    for seed in range(5):
        _, steps = run(state, seed=seed)
        mine = steps_of_activation(steps, "h1")
        assert not [s for s in mine if s.code == "damage" and s.params["target"] == "o1"]
        chosen = steps_of(mine, "attack_chosen")[0]
        if chosen["weapon"] == "missile_launcher":
            aim = tuple(int(v) for v in chosen["target"].split(","))
            assert max(abs(aim[0] - 13), abs(aim[1] - 4)) > 1


def test_missile_never_aimed_next_to_its_firer():
    board = make_board(5, 1)
    state = make_state(
        board,
        [
            alien("h1", "chaos_marine_heavy", (0, 0), weapons=("missile_launcher",)),
            marine("a1", "p1", (1, 0)),
        ],
        players=("p1",),
        switches={},
    )
    _, steps = run(state)
    for chosen in steps_of(steps, "attack_chosen"):
        if chosen["weapon"] == "missile_launcher":
            aim = tuple(int(v) for v in chosen["target"].split(","))
            assert max(abs(aim[0] - chosen["square"][0]), abs(aim[1] - chosen["square"][1])) > 1


def test_doors_on_the_path_are_opened():
    # The Genestealer is in a room closed by a door; the marine waits outside.
    walls = [((3, y), (4, y)) for y in range(0, 3) if y != 1]
    board = make_board(10, 3, walls=walls, doors=[((3, 1), (4, 1))])
    state = make_state(
        board, [alien("g1", "genestealer", (0, 1)), marine("a1", "p1", (9, 1))], players=("p1",)
    )
    new_state, steps = run(state)
    opened = steps_of(steps, "door_opened")
    assert opened and opened[0]["a"] == [3, 1]
    assert new_state.doors[edge((3, 1), (4, 1))] is DoorState.OPEN


def test_dreadnought_never_stops_in_a_doorway():
    # A wall across x=4|5 with a two-square doorway at rows 1-2; the Dreadnought needs 3
    # squares to reach the doorway and 4 more to pass, with a movement of 4.
    walls = [((4, y), (5, y)) for y in (0, 3)]
    board = make_board(14, 4, walls=walls, doors=[((4, 1), (5, 1)), ((4, 2), (5, 2))])
    state = make_state(
        board,
        [alien("d1", "dreadnought", (0, 1)), marine("a1", "p1", (13, 1))],
        players=("p1",),
    )
    # Nothing to shoot: the closed doors hide the marine.
    new_state, steps = run(state)
    dread = new_state.figure("d1")
    under = board.dread_doors[board.index(dread.square)]
    assert not under
    assert dread.square == (3, 1)
    assert steps_of(steps, "doorway_stop")


def test_dreadnought_crouched_in_a_doorway_cannot_shoot_from_there():
    # It starts under the doors and cannot get clear of them (a wall behind, a marine in
    # front): it may not fire from the doorway.
    walls = [((4, y), (5, y)) for y in (0, 3)]
    board = make_board(8, 4, walls=walls, doors=[((4, 1), (5, 1)), ((4, 2), (5, 2))])
    state = make_state(
        board,
        [alien("d1", "dreadnought", (4, 1)), marine("a1", "p1", (7, 1))],
        players=("p1",),
    )
    state = state.with_door((4, 1), (5, 1), DoorState.OPEN).with_door(
        (4, 2), (5, 2), DoorState.OPEN
    )
    new_state, steps = run(state)
    for chosen in steps_of(steps, "attack_chosen"):
        assert chosen["square"] != [4, 1]
    dread = new_state.figure("d1")
    assert not board.dread_doors[board.index(dread.square)] or not steps_of(steps, "dice")


def test_dreadnought_fires_every_weapon():
    board = make_board(12, 6)
    state = make_state(
        board,
        [
            alien("d1", "dreadnought", (0, 0)),
            marine("a1", "p1", (9, 1)),
            marine("a2", "p1", (9, 4)),
            marine("b1", "p2", (5, 5)),
        ],
        players=("p1", "p2"),
    )
    _, steps = run(state)
    weapons = {p["purpose_params"].get("weapon") for p in steps_of(steps, "dice")}
    assert len(weapons - {None}) >= 2


def test_marine_killed_by_alien_costs_its_owner():
    board = make_board(3, 1)
    state = make_state(
        board,
        [alien("c1", "chaos_marine", (0, 0)), marine("a1", "p1", (2, 0), life_points=1)],
        players=("p1",),
    )
    # Bolter: two red dice 3 + 3 = 6 against armour 2 kills.
    new_state, steps = run(state, dice=ScriptedDice(values=[3, 3]))
    assert steps_of(steps, "killed")
    assert new_state.player("p1").score == -5
    assert steps_of(steps, "score_lost") == [{"player": "p1", "points": 5, "target": "a1"}]


def test_log_renders_in_both_languages():
    from rules.engine.narration import render

    board = make_board(8, 2)
    state = make_state(
        board, [alien("o1", "ork", (0, 0)), marine("a1", "p1", (7, 1))], players=("p1",)
    )
    _, steps = run(state)
    for step in steps:
        assert render(step.code, step.params, "it") != render(step.code, step.params, "en") or (
            step.code in ("dice", "combat_event", "stay")
        )


def test_dreadnought_with_extra_heavy_weapons_fires_them():
    board = make_board(12, 6)
    state = make_state(
        board,
        [
            alien("d1", "dreadnought", (0, 0), weapons=("melta", "lascannon", "laser_rifle")),
            marine("a1", "p1", (9, 1)),
            marine("a2", "p1", (9, 2)),
        ],
        players=("p1",),
    )
    _, steps = run(state)
    assert not steps_of(steps, "attack_unavailable")
    fired = {p["purpose_params"].get("weapon") for p in steps_of(steps, "dice")}
    assert "melta" in fired


def test_a_conversion_beam_that_cannot_hurt_its_firer_is_fired():
    # RULES §10: the beam's squares back along the line take one less each, down to the
    # firer's own; RULES §11 refuses a template that would hit *another* alien. Here the
    # beam from 1,0 runs 6 squares to the wall: the firer's square takes the total - 6, at
    # most 3, never above the Dreadnought's armour 4. It used to count as an alien touched,
    # so the Dreadnought only moved.
    board = make_board(8, 2)
    state = make_state(
        board,
        [
            alien("d1", "dreadnought", (0, 0), weapons=("conversion_beamer",)),
            marine("a1", "p1", (7, 0)),
            marine("a2", "p1", (7, 1)),
        ],
        players=("p1",),
    )
    _, steps = run(state)
    chosen = steps_of(steps, "attack_chosen")
    assert [c["weapon"] for c in chosen] == ["conversion_beamer"]
    assert not steps_of(steps, "cannot_attack") and not steps_of(steps, "attack_unavailable")
    fired = [p["purpose_params"].get("weapon") for p in steps_of(steps, "dice")]
    assert fired == ["conversion_beamer"]


def test_a_dreadnought_counts_each_marine_its_weapons_can_hit_once():
    """RULES §11: the area choice counts distinct figures, not hits per weapon."""
    zero = Fraction(0)
    both = ("a1", "a2")
    blast = Shot("missile_launcher", "blast", None, (3, 3), zero, zero, None, both, both)
    at_a1 = Shot("laser_rifle", "single", "a1", None, zero, zero, hurts=("a1",))
    split = Shot("assault_cannon", "split", "a1", None, zero, zero, hurts=("a1", "b1"))
    assert distinct_marines([blast, at_a1]) == 2
    assert distinct_marines([blast, at_a1, split]) == 3
    assert distinct_marines([at_a1, at_a1]) == 1


#: The heavy Chaos Marine H (4, 3) stands among three marines: the aims catching all
#: three, (4, 2) and (4, 3), both cover H's own square.
SURROUNDED = """
+--+--+--+--+--+--+--+--+--+
|.  .  .  .  .  .  .  .  . |
+  +  +  +  +  +  +  +  +  +
|.  .  .  .  .  .  .  .  . |
+  +  +  +  +  +  +  +  +  +
|.  .  .  .  .B .  .  .  . |
+  +  +  +  +  +  +  +  +  +
|.  .  .  .A .H .C .  .  . |
+  +  +  +  +  +  +  +  +  +
|.  .  .  .  .  .  .  .  . |
+  +  +  +  +  +  +  +  +  +
|.  .  .  .  .  .  .  .  . |
+  +  +  +  +  +  +  +  +  +
|.  .  .  .  .  .  .  .  . |
+--+--+--+--+--+--+--+--+--+
"""


def test_a_missile_may_be_aimed_over_the_square_its_firer_leaves():
    """The firer moves before it fires, and never fires at a square next to where it
    stands then, so a blast over the square it starts from does not touch it: the best
    aim, (4, 2) on B, catches all three marines and covers H's starting square. The AI
    used to skip every aim covering its starting square and hit fewer marines."""
    legend = {
        "A": scene_marine(),
        "B": scene_marine(),
        "C": scene_marine(),
        "H": scene_alien("chaos_marine_heavy", weapons=["missile_launcher"], id="h1"),
    }
    state = scene(SURROUNDED, legend)
    assert state.figure("h1").squares == ((4, 3),)
    _, steps = run(state)
    assert steps_of(steps, "area_choice")[0]["marines"] == 3
    [chosen] = steps_of(steps, "attack_chosen")
    assert chosen["target"] == "4,2"
    assert chosen["points"] == 0.833  # B in the centre: killed on a total of 4 or more
    stop = tuple(chosen["square"])
    assert max(abs(stop[0] - 4), abs(stop[1] - 2)) > 1  # it moved away first
    hurt = {s.params["target"] for s in steps if s.code in ("damage", "no_damage")}
    assert hurt == {"A", "B", "C"}
