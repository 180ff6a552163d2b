"""The Alien-turn log reads entirely in Italian: every step, every dice purpose and every
line-of-sight reason is a code with both templates, and no English is left over."""

from __future__ import annotations

import random
import re
from functools import lru_cache

import pytest

from rules.engine.ai.policies import policy_named
from rules.engine.ai.solitaire_policy import survey
from rules.engine.ai.turn import resolve_alien_turn
from rules.engine.board import Section, SectionKind
from rules.engine.dice import ScriptedDice, SeededDice
from rules.engine.los import line_of_sight
from rules.engine.maps import load_map
from rules.engine.narration import LANGUAGES, MESSAGES, Step, render
from rules.engine.narration_dice import PURPOSES, purpose_text
from rules.engine.narration_sight import BLOCKERS, GRAZE, REASONS, sight_reason
from rules.engine.play.blips import reveal_after_move
from rules.engine.state import Blip, Figure, GameState, Player, Stipulation
from tests.engine.ai_support import RULES, make_board, make_state, marine

#: Words that betray English left in an Italian line (matched on word boundaries).
ENGLISH_MARKERS = (
    "the",
    "hits",
    "roll",
    "rolls",
    "rolled",
    "line of sight",
    "fires",
    "attacks",
    "moves",
    "with",
    "and",
    "is",
    "of",
    "to",
    "at",
    "from",
    "takes",
    "loses",
    "blocked",
    "square",
    "door",
    "wall",
    "shot",
    "player",
    "dice",
    "no",
)
_MARKER_RE = re.compile(r"\b(" + "|".join(re.escape(m) for m in ENGLISH_MARKERS) + r")\b")


def english_in(text: str) -> list[str]:
    """English marker words in ``text``, figure ids (``ork-reinforcement-2``) aside."""
    words = " ".join(w for w in text.split() if not re.search(r"[a-z]-\d|_", w))
    return _MARKER_RE.findall(words)


def test_english_markers_are_found():
    assert english_in("o1 fires the bolter at a1") == ["fires", "the", "at"]
    assert english_in("ork-reinforcement-2 entra in (1,2).") == []


# --- a representative set of turns ---------------------------------------------------------

UNITS = (
    "dreadnought",
    "chaos_commander",
    "chaos_marine_heavy",
    "android",
    "genestealer",
    "chaos_marine",
    "ork",
    "gretchin",
)


def reference_state(switches: dict) -> GameState:
    """The reference map with 12 marines of three players, 17 aliens of every type, hidden
    blips and reinforcement tokens."""
    rng = random.Random(8)
    board = load_map("reference")
    free = [sq for sq in board.squares() if not board.is_solid(sq) and not board.claw_of(sq)]
    rng.shuffle(free)
    taken: set = set()
    figures = []
    for i in range(12):
        sq = free.pop()
        taken.add(sq)
        weapons = ("missile_launcher",) if i % 4 == 0 else ("laser_rifle",)
        unit = "heavy_weapon_marine" if i % 4 == 0 else "marine"
        figures.append(
            Figure(f"p{i % 3}-{i}", "marine", f"p{i % 3}", unit, (sq,), 1, weapons=weapons)
        )
    for i in range(17):
        unit = UNITS[i % len(UNITS)]
        weapons = RULES.unit(unit).weapons
        sq = free.pop()
        if unit == "dreadnought":
            x, y = sq
            block = ((x, y), (x + 1, y), (x, y + 1), (x + 1, y + 1))
            if not all(s in free and board.edge_open(sq, s) for s in block[1:]):
                continue
            for s in block[1:]:
                free.remove(s)
            squares = block
        else:
            squares = (sq,)
        lp = RULES.max_life_points(unit, weapons)
        figures.append(Figure(f"{unit}-{i}", "alien", None, unit, squares, lp, weapons=weapons))
    blips = tuple(Blip(f"b{i}", free.pop(), UNITS[(i + 3) % len(UNITS)]) for i in range(6))
    players = ("p0", "p1", "p2")
    return GameState(
        board=board,
        figures=tuple(figures),
        players=tuple(Player(p) for p in players),
        initiative=players,
        stipulation=Stipulation("alien_hunt", switches),
        surveyed_sections=tuple(s.id for s in board.sections),
        blips=blips,
        reinforcements=("ork", "gretchin", "android", "chaos_marine"),
    )


SWITCHES = {"event_deck": True, "reinforcements_per_turn": 2, "reinforcements_from_round": 1}


def survey_steps() -> list[Step]:
    """A Solitaire survey that re-rolls a square in a marine's sight."""
    sections = [
        Section("A", SectionKind.BOARD, "a", ((0, 0, 11, 11),)),
        Section("B", SectionKind.BOARD, "b", ((12, 0, 23, 11),)),
    ]
    board = make_board(24, 12, walls=[((11, y), (12, y)) for y in range(1, 12)], sections=sections)
    state = make_state(
        board, [marine("a1", "p1", (13, 0))], players=("p1",), switches={"blip_pile": ["ork"]}
    )
    state = state.replace(surveyed_sections=("B",))
    _, steps = survey(state, "A", ScriptedDice(values=[3, 1, 12, 12]))
    return steps


@lru_cache(maxsize=1)
def representative_log() -> tuple[tuple[Step, ...], tuple]:
    """Steps and rolls of two turns of each policy from three seeds, plus a BoB blip reveal
    and a Solitaire survey."""
    steps: list[Step] = []
    rolls: list = []
    for policy in ("bob", "solitaire", "priority"):
        for seed in range(3):
            state = reference_state(dict(SWITCHES))
            dice = SeededDice(seed=seed)
            for _ in range(2):
                state, turn = resolve_alien_turn(state, policy_named(policy), dice)
                steps.extend(turn)
            rolls.extend(dice.log)
    state = reference_state({})
    for fig in state.figures:
        if fig.side == "marine":
            state, revealed = reveal_after_move(state, fig.id)
            steps.extend(revealed)
    steps.extend(survey_steps())
    return tuple(steps), tuple(rolls)


def test_the_log_covers_combat_sight_events_and_blips():
    steps, rolls = representative_log()
    codes = {step.code for step in steps}
    expected = {
        "event_drawn",
        "event_instruction",
        "activation",
        "focus",
        "move",
        "attack_chosen",
        "attack_alternative",
        "area_choice",
        "doubtful_sight",
        "dice",
        "damage",
        "no_damage",
        "killed",
        "score_lost",
        "behaviour_roll",
        "target_choice",
        "blip_moves",
        "blip_revealed",
        "reinforcement_placed",
        "blip_placement_reroll",
    }
    assert expected <= codes, expected - codes
    purposes = {roll.purpose for roll in rolls}
    assert {"shot", "shot_square", "hand_to_hand_attack", "hand_to_hand_defence"} <= purposes
    assert "combat_event" not in codes


def test_every_step_and_dice_purpose_reads_in_italian():
    steps, rolls = representative_log()
    for step in steps:
        assert set(MESSAGES[step.code]) == set(LANGUAGES)
        text = render(step.code, step.params, "it")
        assert not english_in(text), (step.code, text)
        assert text != render(step.code, step.params, "en") or step.code in {
            "behaviour_fixed",
            "dice",
        }
    for roll in rolls:
        assert roll.purpose in PURPOSES, roll.purpose
        text = roll.purpose_in("it")
        assert not english_in(text), text


def test_the_json_log_is_the_same_for_the_same_seed():
    def once():
        dice = SeededDice(seed=4)
        _, steps = resolve_alien_turn(reference_state(dict(SWITCHES)), policy_named("bob"), dice)
        return [s.as_dict("it") for s in steps], [r.as_dict() for r in dice.log]

    assert once() == once()


# --- the templates -------------------------------------------------------------------------


@pytest.mark.parametrize("code", sorted(PURPOSES))
def test_purposes_have_both_languages_with_the_same_params(code):
    from rules.engine.narration import fields_of

    assert set(PURPOSES[code]) == set(LANGUAGES)
    assert set(fields_of(PURPOSES[code]["it"])) == set(fields_of(PURPOSES[code]["en"]))
    params = {
        "attacker": "o1",
        "defender": "a1",
        "target": "a1",
        "weapon": "bolter",
        "square": [3, 4],
        "a": [1, 1],
        "b": [1, 2],
        "direction": [1, -1],
        "shots": 2,
    }
    text = purpose_text(code, params, "it")
    assert "{" not in text and not english_in(text)


def test_purpose_texts():
    shot = {"attacker": "o1", "weapon": "missile_launcher", "square": [3, 4]}
    assert purpose_text("shot_square", shot, "it") == "o1 spara con lanciarazzi sulla casella (3,4)"
    assert (
        purpose_text("shot_square", shot, "en") == "o1 fires the missile launcher at square (3,4)"
    )
    line = {"attacker": "d1", "weapon": "conversion_beamer", "direction": [0, 1]}
    assert (
        purpose_text("shot_line", line, "it") == "d1 spara con raggio a conversione verso il basso"
    )
    fight = {"attacker": "g1", "defender": "a1"}
    assert purpose_text("hand_to_hand_defence", fight, "it") == (
        "corpo a corpo: a1 si difende da g1"
    )
    # Free text (a tournament draw, a log stored before the codes) is shown as it is.
    assert purpose_text("squad draw, choice 1", None, "it") == "squad draw, choice 1"
    with pytest.raises(ValueError, match="language"):
        purpose_text("shot", {}, "fr")


def test_roll_keeps_the_purpose_code_and_params():
    dice = SeededDice(seed=1)
    dice.roll("red", 2, "shot", "o1", {"attacker": "o1", "weapon": "bolter", "target": "a1"})
    roll = dice.log[0]
    assert roll.as_dict()["purpose"] == "shot"
    assert roll.as_dict()["params"] == {"attacker": "o1", "weapon": "bolter", "target": "a1"}
    assert roll.purpose_in("it") == "o1 spara con bolter a a1"


def test_scripted_dice_name_the_missing_roll_in_english():
    from rules.engine.dice import DiceError

    with pytest.raises(DiceError, match="for hand-to-hand: o1 attacks a1"):
        ScriptedDice(values=[]).roll(
            "white", 1, "hand_to_hand_attack", "o1", {"attacker": "o1", "defender": "a1"}
        )


def test_new_step_templates():
    assert render("gunner_freed", {"target": "a2"}, "it") == (
        "a2 non è più il Cannoniere: torna un Marine normale."
    )
    reroll = {"x": 3, "y": 1, "square": [2, 0], "reason": "in_sight"}
    assert render("blip_placement_reroll", reroll, "it") == (
        "d12 = 3,1: casella (2,0) non valida (in linea di vista di un Marine), si ritira."
    )
    assert "in a marine's line of sight" in render("blip_placement_reroll", reroll, "en")


@pytest.mark.parametrize("code", sorted(REASONS))
def test_sight_reasons_have_both_languages(code):
    assert set(REASONS[code]) == set(LANGUAGES)


@pytest.mark.parametrize("kind", sorted(BLOCKERS))
def test_every_blocker_reads_in_italian(kind):
    blocker = {"kind": kind, "a": [1, 0], "b": [2, 0], "square": [3, 3], "figure": "o1"}
    text = sight_reason("blocked", {"blocker": blocker}, "it")
    assert text.startswith(("bloccata dal ", "bloccata dalla ")) and not english_in(text)
    assert set(GRAZE) == set(LANGUAGES)
    assert sight_reason("blocked", {"blocker": blocker}, "en").startswith("blocked by the ")


def sight_board():
    # A wall between (1,0) and (2,0), a closed door between (1,1) and (2,1), (3,2) solid.
    return make_board(6, 4, solid=[(3, 2)], walls=[((1, 0), (2, 0))], doors=[((1, 1), (2, 1))])


@pytest.mark.parametrize(
    "a, b, figures, english",
    [
        ((0, 3), (5, 3), (), "clear line"),
        ((0, 0), (4, 0), (), "blocked by the wall between 1,0 and 2,0"),
        ((0, 1), (4, 1), (), "blocked by the closed door between 1,1 and 2,1"),
        ((0, 2), (3, 2), (), "square 3,2 is solid"),
        ((0, 0), (1, 1), (), "diagonally adjacent squares have no line of sight (RULES §10)"),
        ((0, 2), (4, 2), (), "blocked by the solid square 3,2"),
        ((0, 3), (4, 3), ((2, 3),), "blocked by the figure x on 2,3"),
        ((1, 2), (4, 3), (), "doubtful: grazes the solid square 3,2 at the corner of 2,2 and 3,3"),
        ((1, 2), (4, 3), ((2, 3),), "passes exactly through the corner of 2,2 and 3,3"),
    ],
)
def test_line_of_sight_reasons_in_both_languages(a, b, figures, english):
    figures = [marine("m", "p1", (5, 0))] + [marine("x", "p1", sq) for sq in figures]
    state = make_state(sight_board(), figures, players=("p1",))
    sight = line_of_sight(state, a, b, for_firing=True)
    assert english in sight.reason
    assert sight.reason == sight.reason_in("en")
    italian = sight.reason_in("it")
    assert italian != sight.reason and not english_in(italian), italian
