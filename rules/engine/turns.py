"""A player's turn (RULES §5, §10 "Turns"): who plays, what each figure may still do, the
order card in play and the chapter cards the engine applies.

In a round every player takes a turn in initiative order, then the Aliens. In a turn the
player may first play one order card; then each figure may move once (up to its movement,
possibly in several clicks while nothing else happened in between) and attack once, in
either order. Order cards change that budget (:func:`allowance`); a crewed Tarantula moves
or shoots unless Fire!, Move It! or By Section! is in play. What a turn no longer allows is
refused with a :class:`TurnError` naming the rule.

A state whose ``active_player`` is None and whose turn record is empty (an older snapshot,
or a game set up before turns were tracked) starts tracking at the first action: the
acting figure's player becomes the active player.

Cards are effect codes (:data:`rules.engine.narration_turns.CARDS`). Applied here: the
order cards' budgets, Medi-Kit (healing), Blind Grenades (the squad cannot be attacked
in the next Alien turn), Suspensors (movement); the cards that change an attack by
:mod:`rules.engine.card_effects` (through combat) and :mod:`rules.engine.rerolls`;
Bio-Scanner is a reminder at the start of the turn while a blip lies face down on the board
(:func:`turn_reminders`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from rules.engine.card_effects import cards_in_play, cards_left
from rules.engine.flags import bring_home
from rules.engine.narration import Step
from rules.engine.narration_errors import CodedError
from rules.engine.narration_turns import CARDS
from rules.engine.session_records import (
    FIGHT,
    MOVE,
    PICKUP,
    SHOT,
    VEHICLE,
    FigureTurn,
    LeftPlay,
    TurnRecord,
)
from rules.engine.state import MARINE, VEHICLE_UNITS, Figure, GameState
from rules.engine.units import RulesData

TARANTULA = "tarantula"
#: Order cards that let a crewed Tarantula both move and fire (RULES §5).
TARANTULA_ORDERS = frozenset({"fire", "move_it", "by_section"})
#: Cards the engine plays as an action of the player (the rest work by themselves; Melta
#: Bomb is chosen with a hand-to-hand attack, Combi-Weapon with a shot).
USABLE_EQUIPMENT = frozenset({"medi_kit", "blind_grenades"})
#: Equipment that reminds the judge at the start of each of the player's turns, when
#: there is something to act on (:func:`turn_reminders`).
TURN_START_REMINDERS = ("bio_scanner",)


class TurnError(CodedError):
    """What the turn no longer allows; the message names the rule."""


@dataclass(frozen=True)
class Allowance:
    """What one figure may do in a turn: moves, attacks (of them shots and fights), and
    whether it may both move and attack (``mix``)."""

    moves: int = 1
    attacks: int = 1
    shots: int = 1
    fights: int = 1
    mix: bool = True


def _weapon_classes(figure: Figure, rules: RulesData) -> set[str]:
    classes = set()
    for key in figure.weapons:
        try:
            classes.add(rules.weapon(key).weapon_class)
        except Exception:  # noqa: BLE001 - an unknown weapon key counts as none
            continue
    return classes


def is_heavy_weapon_marine(figure: Figure, rules: RulesData) -> bool:
    """A marine (not the commander) with a heavy weapon; extra-heavy weapons do not count:
    cards written for heavy weapons never apply to them (RULES §5)."""
    classes = _weapon_classes(figure, rules)
    return (
        figure.unit not in ("commander", TARANTULA)
        and "heavy" in classes
        and ("extra_heavy" not in classes)
    )


def allowance(state: GameState, figure: Figure, rules: RulesData) -> Allowance:
    """What ``figure`` may do this turn, with the order card in play."""
    card = state.turn.order_card
    if figure.unit == TARANTULA:
        return Allowance(1, 1, 1, 0, mix=card in TARANTULA_ORDERS)
    if figure.is_dreadnought:
        guns = max(1, len(figure.weapons))
        return Allowance(1, guns, guns, 1)
    if card == "fire":
        return Allowance(1, 2, 2, 1)
    if card == "move_it":
        return Allowance(2, 1, 1, 1)
    if card == "by_section":
        return Allowance(2, 2, 2, 1, mix=False)
    if card == "close_assault" and "bolter" in figure.weapons:
        return Allowance(1, 2, 1, 1)
    if card == "heavy_weapon" and figure.id == state.turn.order_figure:
        return Allowance(2, 2, 2, 1)
    return Allowance()


def movement_allowance(state: GameState, figure: Figure, rules: RulesData) -> int:
    """Squares ``figure`` may move in one move: its unit's, or with Suspensors a
    heavy-weapon marine's as a light-weapon marine's."""
    base = rules.movement(figure.unit, figure.equipment)
    if figure.player is not None and "suspensors" in cards_in_play(state, figure.player):
        if is_heavy_weapon_marine(figure, rules):
            return max(base, rules.movement("marine"))
    return base


# --- whose turn ------------------------------------------------------------------------


def check_playing(state: GameState, player: str | None) -> None:
    """Refuse any player's action once the game is over, in the Alien phase, or when it is
    another player's turn."""
    if state.outcome is not None:
        raise TurnError("turn_game_over", ending=state.outcome.reason)
    if state.turn.aliens_phase:
        raise TurnError("turn_aliens_phase")
    active = state.active_player
    if active is not None and player is not None and player != active:
        raise TurnError("turn_not_active", active=active, player=player)


def _started(state: GameState, player: str | None) -> GameState:
    """The state with ``player`` active if nobody was (tracking starts lazily)."""
    if state.active_player is None and player is not None:
        return state.replace(active_player=player)
    return state


def _limited(state: GameState, player: str | None, limit: str) -> bool:
    """Whether an event card imposed ``limit`` on ``player``'s turn."""
    return player is not None and (player, limit) in state.progress.limits


def _check_commander(state: GameState, figure: Figure) -> None:
    if figure.unit == "commander" and _limited(state, figure.player, "commander_idle"):
        raise TurnError("turn_event_commander", figure=figure.id)


def _check_vehicle_turn(state: GameState, figure: Figure) -> None:
    """A figure that boarded or left a vehicle this turn (or the vehicle) does nothing
    else; a gunner moves only with its Tarantula (``rules.engine.vehicles``)."""
    if VEHICLE in state.turn.of(figure.id).phases:
        raise TurnError("turn_vehicle_turn", figure=figure.id)
    if figure.piloting is not None:
        raise TurnError("turn_crew_acts_with", figure=figure.id, vehicle=figure.piloting)
    if figure.side == MARINE and figure.unit in VEHICLE_UNITS:
        if not any(f.piloting == figure.id for f in state.figures):
            raise TurnError("turn_vehicle_abandoned", vehicle=figure.id)


# --- moves and attacks -----------------------------------------------------------------


def check_move(state: GameState, figure: Figure, steps: int, rules: RulesData) -> bool:
    """Refuse a move of ``steps`` squares the turn no longer allows ``figure``; True when
    it continues the figure's current move (nothing else happened since), False when it
    is a new move."""
    check_playing(state, figure.player)
    _check_commander(state, figure)
    _check_vehicle_turn(state, figure)
    done = state.turn.of(figure.id)
    budget = allowance(state, figure, rules)
    limit = movement_allowance(state, figure, rules)
    continuing = bool(done.phases) and done.phases[-1] == MOVE
    if continuing and done.moved + steps <= limit:
        return True
    if done.count(MOVE) < budget.moves:
        _check_mix(state, figure, done, budget, MOVE)
        return False
    if continuing and figure.unit != TARANTULA:  # a Tarantula's move is one manoeuvre
        raise TurnError(
            "turn_move_too_far",
            figure=figure.id,
            moved=done.moved,
            allowance=limit,
            steps=steps,
        )
    raise TurnError("turn_second_move", figure=figure.id)


def squares_left(state: GameState, figure: Figure, rules: RulesData) -> int:
    """The most squares ``figure`` may still move in one go this turn (0 when the turn
    allows it no move)."""
    limit = movement_allowance(state, figure, rules)
    best = 0
    for steps in range(limit, 0, -1):
        try:
            check_move(state, figure, steps, rules)
        except TurnError:
            continue
        best = steps
        break
    return best


def record_move(state: GameState, figure_id: str, steps: int, rules: RulesData) -> GameState:
    """The state with ``figure_id``'s move of ``steps`` squares counted (checked with
    :func:`check_move` first)."""
    figure = state.figure(figure_id)
    continuing = check_move(state, figure, steps, rules)
    state = _started(state, figure.player)
    done = state.turn.of(figure_id)
    if continuing:
        done = replace(done, moved=done.moved + steps)
    else:
        done = FigureTurn((*done.phases, MOVE), steps)
    return state.replace(turn=state.turn.with_figure(figure_id, done))


def attack_phase(kind: str) -> str:
    """The phase of an attack option's ``kind`` (``hand_to_hand``, ``shoot``, ``door``)."""
    return FIGHT if kind == "hand_to_hand" else SHOT


def check_attack(
    state: GameState, figure: Figure, phase: str, rules: RulesData, weapon: str | None = None
) -> None:
    """Refuse an attack (``phase`` shot or fight, with ``weapon`` if it shoots) the turn no
    longer allows ``figure``."""
    check_playing(state, figure.player)
    _check_commander(state, figure)
    if VEHICLE in state.turn.of(figure.id).phases:
        raise TurnError("turn_vehicle_turn", figure=figure.id)
    if PICKUP in state.turn.of(figure.id).phases:
        raise TurnError("turn_picked_up", figure=figure.id)
    if phase == SHOT and weapon is not None and _limited(state, figure.player, "heavy_jammed"):
        if rules.weapon(weapon).weapon_class == "heavy":
            raise TurnError("turn_event_jammed", figure=figure.id, weapon=weapon)
    done = state.turn.of(figure.id)
    budget = allowance(state, figure, rules)
    _check_mix(state, figure, done, budget, phase)
    if done.attacks >= budget.attacks:
        raise TurnError("turn_second_attack", figure=figure.id)
    if phase == FIGHT and done.count(FIGHT) >= budget.fights:
        raise TurnError("turn_second_fight", figure=figure.id)
    if phase == SHOT and done.count(SHOT) >= budget.shots:
        raise TurnError(
            "turn_second_shot", figure=figure.id, chapter_card=state.turn.order_card or ""
        )


def _check_mix(
    state: GameState, figure: Figure, done: FigureTurn, budget: Allowance, phase: str
) -> None:
    if budget.mix:
        return
    other = [p for p in done.phases if (p == MOVE) != (phase == MOVE)]
    if not other:
        return
    if figure.unit == TARANTULA:
        raise TurnError("turn_tarantula_one_action", figure=figure.id, done=other[0])
    raise TurnError(
        "turn_no_mix", figure=figure.id, done=other[0], chapter_card=state.turn.order_card
    )


def volley_left(state: GameState, figure: Figure, rules: RulesData) -> tuple[str, int] | None:
    """The lascannon ``figure`` is firing this turn and the shots it has left, while it
    fired some of them and has still to choose where the others go (seed 002, "Il Cannone
    Laser": the next area is chosen after the roll; game engine decision 31); else None."""
    fired = state.turn.of(figure.id).volley
    if not fired:
        return None
    for key in figure.weapons:
        shots = rules.weapon(key).shots
        if rules.weapon(key).pattern == "lascannon" and shots > fired:
            return key, shots - fired
    return None


def record_volley(
    state: GameState, figure_id: str, weapon: str, shots: int, rules: RulesData
) -> GameState:
    """The state with ``shots`` of ``figure_id``'s lascannon ``weapon`` fired: the first
    areas of its attack (checked and counted as one attack) or, while it has shots left
    (:func:`volley_left`), the next ones, which are the same attack. Shots left are kept
    until the figure does anything else (a move ends them: all shots are fired before or
    all after moving, RULES §10)."""
    figure = state.figure(figure_id)
    total = rules.weapon(weapon).shots
    left = check_volley(state, figure, weapon, shots, rules)
    if left is None:
        state = record_attack(state, figure_id, SHOT)
        fired = shots
    else:
        fired = total - left + shots
    done = replace(state.turn.of(figure_id), volley=fired if fired < total else 0)
    return state.replace(turn=state.turn.with_figure(figure_id, done))


def check_volley(
    state: GameState, figure: Figure, weapon: str, shots: int, rules: RulesData
) -> int | None:
    """Refuse ``shots`` of ``figure``'s lascannon ``weapon`` the turn does not allow: a new
    attack as :func:`check_attack` says, or more shots than its attack has left. Returns
    the shots left before these (None: they start a new attack)."""
    left = volley_left(state, figure, rules)
    if left is None:
        check_attack(state, figure, SHOT, rules, weapon)
        return None
    check_playing(state, figure.player)
    if left[0] != weapon or shots > left[1]:
        raise TurnError("turn_volley_left", figure=figure.id, weapon=left[0], shots=left[1])
    return left[1]


def record_attack(state: GameState, figure_id: str, phase: str) -> GameState:
    """The state with ``figure_id``'s attack counted (the attacker may have died: its
    record stays, nothing reads it)."""
    return record_phase(state, figure_id, phase)


def record_phase(state: GameState, figure_id: str, phase: str) -> GameState:
    """The state with ``phase`` added to what ``figure_id`` did this turn (its move, if
    any, is over)."""
    player = None
    if state.has_figure(figure_id):
        player = state.figure(figure_id).player
    state = _started(state, player)
    done = state.turn.of(figure_id)
    done = FigureTurn((*done.phases, phase), 0)
    return state.replace(turn=state.turn.with_figure(figure_id, done))


# --- cards -----------------------------------------------------------------------------


def _card(code: str, kind: str, player_id: str) -> None:
    """Refuse ``player_id``'s playing ``code`` as a card of ``kind`` when it is not one."""
    card = CARDS.get(code)
    if card is None:
        raise TurnError("turn_card_unknown", card_code=code)
    if card["kind"] != kind:
        raise TurnError("turn_card_wrong_kind", chapter_card=code, kind_name=kind, player=player_id)


def spend_card(state: GameState, player_id: str, code: str) -> GameState:
    """The state with one copy of ``player_id``'s card ``code`` spent (refused when no
    copy is left)."""
    player = state.player(player_id)
    if code not in cards_left(player):
        raise TurnError("turn_card_not_held", player=player_id, chapter_card=code)
    return state.with_player(replace(player, cards_spent=(*player.cards_spent, code)))


def _acted(state: GameState, player_id: str) -> bool:
    """Whether a figure of ``player_id`` acted this turn, on the board or not any more. The
    turn record starts empty at every turn and holds only the playing player's figures, so
    a figure gone from the board (dead in its own fight) was theirs; one that left through a
    docking claw is also found with its player among those that left play."""
    left = {f.id: f.player for f in state.progress.left_play}
    for fid in state.turn.figures:
        owner = state.figure(fid).player if state.has_figure(fid) else left.get(fid, player_id)
        if owner == player_id:
            return True
    return False


def play_order_card(
    state: GameState, player_id: str, code: str, rules: RulesData, figure_id: str | None = None
) -> tuple[GameState, list[Step]]:
    """``player_id`` plays the order card ``code`` at the start of their turn (one a turn,
    before any figure acts); Heavy Weapon! names its heavy-weapon marine ``figure_id``."""
    check_playing(state, player_id)
    _card(code, "order", player_id)
    if state.turn.order_card is not None:
        raise TurnError("turn_order_played", chapter_card=state.turn.order_card, player=player_id)
    if _limited(state, player_id, "no_orders"):
        raise TurnError("turn_event_no_orders", player=player_id)
    if _acted(state, player_id):
        raise TurnError("turn_order_late")
    named = None
    if code == "heavy_weapon":
        named = figure_id
        if (
            named is None
            or not state.has_figure(named)
            or state.figure(named).player != player_id
            or not is_heavy_weapon_marine(state.figure(named), rules)
        ):
            raise TurnError("turn_card_needs_figure", chapter_card=code, player=player_id)
    state = spend_card(state, player_id, code)
    state = _started(state, player_id)
    state = state.replace(turn=replace(state.turn, order_card=code, order_figure=named))
    steps = [Step("order_played", {"player": player_id, "chapter_card": code, "effect": code})]
    if named is not None:
        steps.append(Step("order_names_figure", {"chapter_card": code, "figure": named}))
    return state, steps


def wounded_commander(state: GameState, player_id: str, rules: RulesData) -> Figure | None:
    """``player_id``'s commander when it is in play and wounded: what Medi-Kit heals."""
    commander = next((f for f in state.figures_of(player_id) if f.unit == "commander"), None)
    if commander is None or commander.life_points >= rules.unit("commander").life_points:
        return None
    return commander


def use_equipment(
    state: GameState, player_id: str, code: str, rules: RulesData
) -> tuple[GameState, list[Step]]:
    """``player_id`` uses the one-use equipment card ``code`` in their turn: Medi-Kit heals
    the commander, Blind Grenades shield the squad in the next Alien turn."""
    check_playing(state, player_id)
    _card(code, "equipment", player_id)
    if code not in USABLE_EQUIPMENT:
        raise TurnError("turn_card_not_playable", chapter_card=code, player=player_id)
    steps = [Step("equipment_used", {"player": player_id, "chapter_card": code, "effect": code})]
    if code == "medi_kit":
        commander = wounded_commander(state, player_id, rules)
        if commander is None:
            raise TurnError("turn_medi_kit", player=player_id)
        full = rules.unit("commander").life_points
        state = spend_card(state, player_id, code)
        state = state.with_figure(replace(commander, life_points=full))
        steps.append(Step("figure_healed", {"figure": commander.id, "life_points": full}))
    elif code == "blind_grenades":
        state = spend_card(state, player_id, code)
        shielded = tuple(dict.fromkeys((*state.progress.shielded, player_id)))
        state = state.replace(progress=replace(state.progress, shielded=shielded))
        steps.append(Step("players_shielded", {"players": list(shielded)}))
    return _started(state, player_id), steps


def turn_reminders(state: GameState, player_id: str) -> list[Step]:
    """Reminders for the start of ``player_id``'s turn (cards that work by themselves),
    each only when the judge can act on it (:func:`_can_act_on`)."""
    held = cards_in_play(state, player_id)
    return [
        Step("card_reminder", {"player": player_id, "chapter_card": code, "effect": code})
        for code in TURN_START_REMINDERS
        if code in held and _can_act_on(state, code)
    ]


def _can_act_on(state: GameState, code: str) -> bool:
    """Whether the turn-start card ``code`` can be acted on in ``state``. Bio-Scanner
    looks at blips on the board: it needs a face-down one (none before a section with
    markers is surveyed, once every blip is revealed, or in a session without aliens
    where no special-equipment blip waits)."""
    if code == "bio_scanner":
        return bool(state.blips)
    return True


# --- passing the turn ------------------------------------------------------------------


def players_in_game(state: GameState) -> list[str]:
    """Players with a marine-side figure still on the board, in initiative order."""
    order = list(state.initiative) or [p.id for p in state.players]
    return [p for p in order if any(f.side == MARINE and f.on_board for f in state.figures_of(p))]


def end_turn(state: GameState) -> tuple[GameState, list[Step]]:
    """The active player ends their turn: the next player in initiative order with figures
    on the board plays, or, after the last one, the Aliens (the Alien turn, or
    :func:`rules.engine.play.round_end.close_round` when there are none or the session is
    played without aliens, ends the round)."""
    check_playing(state, None)
    playing = players_in_game(state)
    current = state.active_player or (playing[0] if playing else None)
    order = list(state.initiative) or [p.id for p in state.players]
    later = order[order.index(current) + 1 :] if current in order else []
    following = next((p for p in later if p in playing), None)
    # An event card's limit lasts the limited player's one turn.
    limits = tuple(x for x in state.progress.limits if x[0] != current)
    state = state.replace(progress=replace(state.progress, limits=limits))
    if following is None:
        state = state.replace(active_player=None, turn=TurnRecord(aliens_phase=True))
        last = "turn_aliens_next" if state.stipulation.with_aliens else "turn_round_ends"
        return state, [Step(last, {"player": current})]
    state = state.replace(active_player=following, turn=TurnRecord())
    steps = [Step("turn_passes", {"player": current, "next": following})]
    return state, steps + turn_reminders(state, following)


def leave_through_claw(state: GameState, figure_id: str) -> tuple[GameState, list[Step]]:
    """A marine-side figure that ended a move on a docking claw leaves play (RULES §10):
    it is taken off the board, safe, and recorded so that it never returns."""
    figure = state.figure(figure_id)
    claw = next((state.board.claw_of(sq) for sq in figure.squares if state.board.claw_of(sq)), None)
    state, flag_steps = bring_home(state, figure_id, claw)
    left = LeftPlay(figure.id, figure.player, figure.unit, state.round)
    state = state.without_figure(figure_id)
    progress = replace(state.progress, left_play=(*state.progress.left_play, left))
    state = state.replace(progress=progress)
    return state, [*flag_steps, Step("left_play", {"figure": figure_id, "claw": claw})]
