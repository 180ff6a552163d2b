"""A long scripted game read in both languages: every line of its log in Italian holds no
English and every line in English holds no Italian.

The game plays what a judge's log can say: marines' attacks with every weapon kind
(single shots, hand-to-hand, an assault cannon's split, plasma and melta lines, a missile's
blast, lascannon areas, a conversion beam, a bulkhead door), the dice of each, the kills'
scores and tokens, lines of sight clear, doubtful and blocked, order and equipment cards
with their reminders, refusals naming the rule, turns passing and rounds closing, and Alien
turns of the three policies with the event deck, blips and reinforcements. A line whose
two languages read the same may hold only names and numbers.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import replace

import pytest

from rules.engine.board import Board, Door, DoorState
from rules.engine.combat import attack_options, option_for, resolve_attack
from rules.engine.dice import ScriptedDice, SeededDice
from rules.engine.geometry import edge
from rules.engine.kill_scores import score_kill
from rules.engine.los import line_of_sight
from rules.engine.maps import load_map
from rules.engine.movement import MoveError, move
from rules.engine.narration import render
from rules.engine.narration_combat import combat_text
from rules.engine.narration_dice import purpose_text
from rules.engine.narration_errors import CodedError
from rules.engine.play.round_end import close_round
from rules.engine.rerolls import RerollOffer, find_offer, replay_dice, reroll_offers, reroll_step
from rules.engine.state import Blip, Player
from rules.engine.turns import (
    TurnError,
    end_turn,
    play_order_card,
    record_attack,
    turn_reminders,
    use_equipment,
)
from tests.engine.ai_support import RULES, alien, make_board, make_state, marine
from tests.engine.test_ai_log_italian import english_in, representative_log

#: Words that betray Italian left in an English line (matched on word boundaries).
ITALIAN_MARKERS = (
    "il",
    "la",
    "di",
    "del",
    "dal",
    "della",
    "con",
    "tra",
    "casella",
    "caselle",
    "punti",
    "vita",
    "spara",
    "muove",
    "contro",
    "non",
    "giocatore",
    "bloccata",
    "visibile",
    "linea",
    "rivolto",
    "dadi",
    "tira",
    "perde",
    "eliminato",
    "turno",
    "carta",
)
_ITALIAN_RE = re.compile(r"\b(" + "|".join(ITALIAN_MARKERS) + r")\b")

#: Words both languages share: names of units, dice and the game's own terms.
SHARED_WORDS = frozenset(
    {"Dreadnought", "Gretchin", "Marine", "BoB", "bolter", "Blip", "Round", "round", "d6", "d3"}
)

#: One line of the log: where it comes from, its Italian and its English text.
Line = tuple[str, str, str]


def italian_in(text: str) -> list[str]:
    """Italian marker words in ``text``, figure ids aside."""
    words = " ".join(w for w in text.split() if not re.search(r"[a-z]-\d|_|\d", w))
    return _ITALIAN_RE.findall(words)


def only_names(text: str) -> bool:
    """Whether ``text`` holds nothing but ids, squares, numbers and shared words."""
    words = re.findall(r"[A-Za-zÀ-ÿ']+(?:-[A-Za-z0-9-]+)?", text)
    return all("-" in w or w in SHARED_WORDS for w in words)


def test_the_markers_tell_the_languages_apart():
    assert italian_in("p1-0 spara con bolter a p2-0") == ["spara", "con"]
    assert italian_in("p1-0 fires the bolter at p2-0") == []
    assert only_names("ork-1: 2, 0 = 2") and not only_names("ork-1 perde 1 punto vita")


# --- the game ------------------------------------------------------------------------------

WEAPONS = {
    "marine": ("laser_rifle", "laser_pistol", "bolter"),
    "heavy_weapon_marine": ("assault_cannon", "missile_launcher", "plasma_gun"),
    "extra_heavy_weapon_marine": ("lascannon", "melta", "conversion_beamer"),
}
ALL_CARDS = (
    "fire",
    "move_it",
    "by_section",
    "close_assault",
    "heavy_weapon",
    "photon_grenades",
    "medi_kit",
    "blind_grenades",
    "suspensors",
    "bio_scanner",
    "targeter",
    "bionic_eye",
    "digital_weapons",
    "combi_weapon",
    "bolt_pistols",
    "close_assault_blades",
    "bionic_arm",
    "melta_bomb",
    "force_field",
)


def firing_range(unit: str, weapon: str):
    """A corridor 12x5 with a bulkhead between 10,0 and 11,0: ``p1-x`` (``unit`` with
    ``weapon``) at 0,2, an ork next to it, aliens of three kinds and p2's marine down the
    line, a Gretchin in the corner behind the bulkhead."""
    plain = make_board(12, 5)
    board = Board(
        width=12,
        height=5,
        kinds=[plain.kind(sq) for sq in plain.squares()],
        doors=[Door(edge((10, 0), (11, 0)), DoorState.BULKHEAD)],
        sections=plain.sections,
        name="range",
    )
    figures = [
        marine("p1-x", "p1", (0, 2), unit=unit, weapons=(weapon,)),
        alien("ork-1", "ork", (0, 1)),
        alien("gretchin-1", "gretchin", (5, 2)),
        alien("android-1", "android", (6, 3)),
        alien("chaos-1", "chaos_marine", (8, 2)),
        marine("p2-m", "p2", (9, 2)),
    ]
    state = make_state(board, figures, players=("p1", "p2"))
    return state.replace(active_player="p1", reinforcements=("ork", "gretchin"))


def attack_lines() -> Iterator[tuple[str, str, dict]]:
    """Every attack option of every weapon kind, carried out once each with seeded dice:
    (table, code, params) of its description, its combat events, its dice and its scores."""
    seed = 0
    for unit, weapons in WEAPONS.items():
        for weapon in weapons:
            state = firing_range(unit, weapon)
            options = attack_options(state, "p1-x")
            assert any(o.weapon == weapon for o in options), weapon
            for option in options:
                seed += 1
                yield "attack", option.code, option.params
                dice = SeededDice(seed=seed)
                before = record_attack(state, "p1-x", "shot" if option.weapon else "fight")
                after, events = resolve_attack(before, option, dice)
                for event in events:
                    yield "combat", event.code, event.params
                    after, scores = score_kill(before, after, event, "p1", RULES)
                    for step in scores:
                        yield "step", step.code, dict(step.params)
                for roll in dice.log:
                    yield "purpose", roll.purpose, dict(roll.params)


def kill_lines() -> Iterator[tuple[str, str, dict]]:
    """p1's marine kills p2's: the scores of a marine's death."""
    figures = [marine("p1-x", "p1", (0, 2), weapons=("bolter",)), marine("p2-m", "p2", (4, 2))]
    state = make_state(make_board(6, 5), figures, players=("p1", "p2"))
    option = option_for(state, "p1-x", "bolter", target="p2-m")
    after, events = resolve_attack(state, option, ScriptedDice(values=[3, 3]))
    for event in events:
        after, scores = score_kill(state, after, event, "p1", RULES)
        for step in scores:
            yield "step", step.code, dict(step.params)


def sight_lines() -> Iterator[tuple[str, str, dict]]:
    """Lines of sight across the reference map: clear, doubtful and blocked ones."""
    board = load_map("reference")
    state = make_state(board, [marine("m", "p1", (7, 1))], players=("p1",))
    open_squares = [sq for sq in board.squares() if not board.is_solid(sq)][::23]
    for a in open_squares[:40]:
        for b in open_squares[:40]:
            sight = line_of_sight(state, a, b, for_firing=True)
            yield "sight", sight.reason_code, dict(sight.reason_params)


def refusal(call: Callable[[], object]) -> tuple[str, str, dict]:
    with pytest.raises(CodedError) as info:
        call()
    error = info.value
    assert error.code is not None, str(error)
    return "error", error.code, error.params


def turn_lines() -> Iterator[tuple[str, str, dict]]:
    """A round of turns with every chapter card, reminders, refusals and the round's end."""
    figures = [
        marine("p1-cmd", "p1", (1, 1), unit="commander", weapons=("bolter",)),
        marine("p1-hw", "p1", (2, 1), unit="heavy_weapon_marine", weapons=("plasma_gun",)),
        marine("p1-m", "p1", (3, 1), weapons=("bolter",)),
        marine("p2-m", "p2", (8, 3)),
        alien("ork-1", "ork", (1, 2)),
    ]
    # A blip face down on the board, for the Bio-Scanner's reminder.
    blips = (Blip("b1", (9, 0), "ork"),)
    state = make_state(make_board(10, 5), figures, players=("p1", "p2"), blips=blips)
    state = state.with_player(replace(state.player("p1"), cards=ALL_CARDS))
    state = state.replace(active_player="p1")
    for step in turn_reminders(state, "p1"):
        yield "step", step.code, dict(step.params)
    yield refusal(lambda: play_order_card(state, "p2", "fire", RULES))
    yield refusal(lambda: play_order_card(state, "p1", "heavy_weapon", RULES))
    yield refusal(lambda: use_equipment(state, "p1", "medi_kit", RULES))
    fired, steps = play_order_card(state, "p1", "fire", RULES)
    yield refusal(lambda: play_order_card(fired, "p1", "move_it", RULES))
    fired, more = use_equipment(fired, "p1", "blind_grenades", RULES)
    steps += more
    yield refusal(lambda: use_equipment(fired, "p1", "melta_bomb", RULES))
    hurt = fired.with_figure(replace(fired.figure("p1-cmd"), life_points=2))
    _, healed = use_equipment(hurt, "p1", "medi_kit", RULES)
    steps += healed
    moved = fired
    yield refusal(lambda: move(moved, "p1-m", [(3, 2), (3, 3), (4, 3), (5, 3), (6, 3)] * 2))
    yield refusal(lambda: option_for(moved, "p1-m", "lascannon", target="ork-1"))
    passed, more = end_turn(fired)
    steps += more
    passed, more = end_turn(passed)
    steps += more
    yield refusal(lambda: end_turn(passed))
    closed, more = close_round(passed, RULES)
    steps += more
    for step in steps:
        yield "step", step.code, dict(step.params)
    assert {"order_played", "card_reminder", "players_shielded", "figure_healed"} <= {
        s.code for s in steps
    }
    assert closed.round == 2


def card_lines() -> Iterator[tuple[str, str, dict]]:
    """The chapter cards applied to attacks (``rules.engine.card_effects``) and a re-roll
    (``rules.engine.rerolls``): descriptions, combat lines, steps and refusals."""
    figures = [
        marine("p1-cmd", "p1", (1, 1), unit="commander", weapons=("bolter",)),
        marine("p2-m", "p2", (6, 1)),
        alien("ork-1", "ork", (1, 2)),
    ]
    state = make_state(make_board(10, 5), figures, players=("p1", "p2"))
    state = state.with_player(replace(state.player("p1"), cards=ALL_CARDS))
    state = state.replace(active_player="p1")
    options = attack_options(state, "p1-cmd")
    melta = next(o for o in options if o.card == "melta_bomb")
    combi = next(o for o in options if o.card == "combi_weapon")
    yield "attack", combi.code, combi.params
    _, events = resolve_attack(state, combi, ScriptedDice(values=[0, 0]))
    for event in events:
        yield "combat", event.code, event.params
    yield "attack", melta.code, melta.params
    rolled = ScriptedDice(values=[0, 0, 0, 0, 0, 0])
    _, events = resolve_attack(state, melta, rolled)
    for event in events:
        yield "combat", event.code, event.params
    (offer,) = reroll_offers(state, melta, options.index(melta), 1, rolled.log, RULES)
    yield "step", "reroll_offer", dict(offer.step().params)
    replay = replay_dice(offer, 1, ScriptedDice(values=[3]))
    resolve_attack(state, melta, replay)
    done = reroll_step(offer, replay)
    yield "step", done.code, dict(done.params)
    yield refusal(lambda: find_offer([done.as_dict()], "p1-cmd"))
    yield refusal(lambda: find_offer([], "p1-cmd"))
    yield refusal(lambda: find_offer([], None))
    yield refusal(lambda: replay_dice(offer, 9, ScriptedDice(values=[1])))
    values = (0, 0, 0, 0)
    defence = RerollOffer("p1-cmd", 0, 1, values, (3, 4), ("bionic_arm",), (), "p2-cmd")
    yield "step", defence.step().code, dict(defence.step().params)
    both = [replace(offer, values=values, dice=(1, 2)).step().as_dict(), defence.step().as_dict()]
    yield refusal(lambda: find_offer(both, "p1-cmd", 9))
    auto = {"chapter_card": "digital_weapons", "figure": "p1-cmd", "die": 4, "old": 0}
    yield "step", "reroll_auto", auto
    shot = next(o for o in attack_options(state, "p2-m") if o.target == "p1-cmd")
    _, events = resolve_attack(state, shot, ScriptedDice(values=[2, 2]))
    for event in events:
        yield "combat", event.code, event.params
    photon, _ = play_order_card(state, "p1", "photon_grenades", RULES)
    fight = next(o for o in attack_options(photon, "p1-cmd") if o.code == "fight")
    _, events = resolve_attack(photon, fight, ScriptedDice(values=[0, 0, 0, 0]))
    for event in events:
        yield "combat", event.code, event.params


def alien_turn_lines() -> Iterator[tuple[str, str, dict]]:
    steps, rolls = representative_log()
    for step in steps:
        yield "step", step.code, dict(step.params)
    for roll in rolls:
        yield "purpose", roll.purpose, dict(roll.params)


RENDER: dict[str, Callable[[str, dict, str], str]] = {
    "attack": combat_text,
    "combat": combat_text,
    "step": render,
    "purpose": purpose_text,
    "sight": lambda code, params, lang: _sight(code, params, lang),
    "error": lambda code, params, lang: _error(code, params, lang),
}


def _sight(code: str, params: dict, lang: str) -> str:
    from rules.engine.narration_sight import sight_reason

    return sight_reason(code, params, lang)


def _error(code: str, params: dict, lang: str) -> str:
    from rules.engine.narration_errors import error_text

    return error_text(code, params, lang)


def game_log() -> list[Line]:
    lines: list[Line] = []
    seen: set[str] = set()
    sources = (attack_lines, kill_lines, sight_lines, turn_lines, card_lines, alien_turn_lines)
    for source in sources:
        for table, code, params in source():
            seen.add(f"{table}:{code}")
            it = RENDER[table](code, params, "it")
            en = RENDER[table](code, params, "en")
            lines.append((f"{table}:{code}", it, en))
    return lines


def test_the_game_covers_every_kind_of_line():
    codes = {where for where, _it, _en in game_log()}
    expected = {
        "attack:shot",
        "attack:fight",
        "attack:split_shot",
        "attack:line_shot",
        "attack:blast_shot",
        "attack:area_shot",
        "attack:beam_shot",
        "attack:door_shot",
        "combat:roll",
        "combat:hit",
        "combat:miss",
        "combat:damage_by",
        "combat:killed",
        "combat:blast",
        "combat:beam",
        "step:score_gained",
        "step:score_lost",
        "step:token_taken",
        "step:event_drawn",
        "step:event_instruction",
        "step:doubtful_sight",
        "step:order_played",
        "step:card_reminder",
        "attack:fight_card",
        "attack:line_shot_card",
        "combat:card_bolt_pistols",
        "combat:card_melta_bomb",
        "combat:card_close_assault_blades",
        "combat:card_photon_grenades",
        "combat:card_force_field",
        "combat:card_combi_weapon",
        "step:reroll_offer",
        "step:reroll_done",
        "error:reroll_used",
        "error:reroll_no_card",
        "error:reroll_no_attack",
        "error:reroll_bad_die",
        "step:reroll_offer_defence",
        "step:reroll_auto",
        "error:reroll_bad_die_any",
        "step:turn_passes",
        "step:turn_aliens_next",
        "step:round_starts",
        "sight:clear",
        "sight:blocked",
        "sight:doubtful",
        "sight:corner_blocked",
        "purpose:shot",
        "purpose:hand_to_hand_attack",
        "error:turn_order_played",
    }
    assert expected <= codes, sorted(expected - codes)


def test_the_italian_log_holds_no_english_and_the_english_log_no_italian():
    wrong = []
    for where, it, en in game_log():
        if english_in(it):
            wrong.append(("english in the Italian", where, it))
        if italian_in(en):
            wrong.append(("italian in the English", where, en))
        if it == en and not only_names(it):
            wrong.append(("untranslated", where, it))
    assert not wrong, "\n".join(map(str, dict.fromkeys(wrong)))


def test_moves_and_players_are_rendered_as_expected():
    """A guard on the helpers above: a refusal is a coded error, in both languages."""
    state = make_state(make_board(4, 1), [marine("m", "p1", (0, 0))], players=("p1",))
    with pytest.raises(MoveError) as info:
        move(state, "m", [(1, 0), (2, 0), (3, 0)], allowance=1)
    assert info.value.text_in("it") != str(info.value)
    assert isinstance(Player("p1"), Player)
    with pytest.raises(TurnError):
        play_order_card(state.replace(active_player="p1"), "p1", "fire", RULES)
