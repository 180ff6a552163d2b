"""What the judge does to a game at the table, each action appending one snapshot.

Every change goes through the engine (``movement.move``, ``combat.resolve_attack``, the
Alien AI's ``resolve_alien_turn``...), is checked against the snapshot the judge was looking
at (optimistic locking: a second judge's stale click is refused, nothing is overwritten),
and is stored as a new :class:`~table.models.Snapshot`. Dice go through the dice service
and are kept as ``DiceRoll`` rows (RULES §14).
"""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass, replace
from typing import Any

from celery import shared_task
from django.conf import settings
from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from rules.engine import json_text
from rules.engine.ai.policies import POLICIES, policy_named
from rules.engine.ai.solitaire_policy import SolitairePolicy
from rules.engine.ai.solitaire_policy import reveal_after_move as solitaire_reveal_after_move
from rules.engine.ai.turn import resolve_alien_turn
from rules.engine.combat import (
    AttackOption,
    CombatError,
    attack_options,
    lascannon_options,
    resolve_attack,
)
from rules.engine.dice import Dice, DiceError, ScriptedDice, SeededDice, log_as_dicts
from rules.engine.event_cards import EventDataError
from rules.engine.flags import after_move as flags_after_move
from rules.engine.flags import drop_flags
from rules.engine.geometry import Facing, Square, format_square, parse_square
from rules.engine.kill_scores import score_kill
from rules.engine.los import Sight, SightError, figure_sight, line_of_sight
from rules.engine.movement import MoveError, move, open_door, shortest_path
from rules.engine.narration import Step
from rules.engine.play.blips import reveal_after_door, reveal_after_move
from rules.engine.play.round_end import (
    close_round,
    last_round_without_aliens,
    settle_eliminations,
)
from rules.engine.rerolls import RerollError, Used, reroll_offers
from rules.engine.session_records import TurnRecord
from rules.engine.state import (
    MARINE,
    Figure,
    GameState,
    Problem,
    StateError,
    keep_parsed,
    parsed_state,
    rules_of,
)
from rules.engine.tarantula import TARANTULA, crewed_pose, move_tarantula
from rules.engine.turns import (
    TurnError,
    attack_phase,
    check_attack,
    check_playing,
    leave_through_claw,
    movement_allowance,
    record_attack,
    record_move,
    record_volley,
    spend_card,
    volley_left,
)
from rules.engine.units import RulesData, RulesDataError, override_differences
from table.game_setup import SolitaireSetup, opening_state
from table.models import AlienTurnRequest, Game, Snapshot, SnapshotKind, TurnStatus
from table.snapshot_summaries import (
    REMOVALS,
    SummaryPart,
    alien_turn_summary,
    parts_summary,
    setup_summary,
    undo_summary,
)
from table.step_log import engine_error_text, narration_language
from tournaments.actions.dice_records import record_dice
from tournaments.actions.session_setup import start_board_game
from tournaments.actions.task_queue import queue_after_commit
from tournaments.domain.typed_dice import TypedDice, check_all_dice_used
from tournaments.models import ResultVersion, Session


class GameError(ValueError):
    """An action on a game is refused; the message says why and what to do."""


class StaleGameError(GameError):
    """The game changed since the judge's page was loaded."""


class ResultSavedError(GameError):
    """The session's result is saved: its games take no more steps (decision 56)."""


def saved_result(session_id: int) -> int | None:
    """The number of the session's latest result version; None while it has no result."""
    return (
        ResultVersion.objects.filter(result__session_id=session_id)
        .order_by("-number")
        .values_list("number", flat=True)
        .first()
    )


def refuse_after_result(session_id: int) -> None:
    """Refuse a step, a new game or an Alien turn of a session whose result is saved: the
    result records how the session went, so its games stay as they were. Nothing undoes a
    result (a correction is a new version of it), so play never reopens."""
    number = saved_result(session_id)
    if number is not None:
        raise ResultSavedError(
            _(
                "The result of this session is saved (version %(number)d), so its games take "
                "no more steps and the board stays as it is. To change the result, enter a "
                "new version of it on the session's result page."
            )
            % {"number": number}
        )


class UploadError(GameError):
    """An uploaded state is not valid; ``problems`` lists (JSON path, message)."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems
        super().__init__("; ".join(str(p) for p in problems))


# --- creating and reading ------------------------------------------------------------------


def create_game(
    session: Session,
    map_name: str,
    policy: str,
    *,
    label: str = "",
    solitaire: SolitaireSetup | None = None,
    actor=None,
) -> Game:
    """A new game of ``session`` on a map it can play, with its setup snapshot (number 1).
    ``solitaire``: the blip tokens and mission of a Solitaire game (required for one).

    The session is locked and marked in play (:func:`~tournaments.actions.session_setup.
    start_board_game`) before the opening state reads its loadouts, so a loadout saved at
    the same moment is either in the game or refused; a setup refused leaves the session
    as it was."""
    if policy not in POLICIES:
        raise GameError(
            _("Unknown Alien policy %(policy)s; choose one of: %(known)s.")
            % {"policy": policy, "known": ", ".join(sorted(POLICIES))}
        )
    status = session.status
    try:
        with transaction.atomic():
            start_board_game(session)
            refuse_after_result(session.pk)
            state, steps = opening_state(session, map_name, policy, solitaire)
            last = session.games.order_by("-number").values_list("number", flat=True).first()
            game = Game.objects.create(
                session=session,
                number=(last or 0) + 1,
                label=label,
                map_name=map_name,
                policy=policy,
                created_by=actor,
            )
            Snapshot.objects.create(
                game=game,
                number=1,
                kind=SnapshotKind.SETUP,
                summary=setup_summary(game),
                state=state.to_json(),
                steps=[step.as_dict() for step in steps],
                created_by=actor,
            )
    except Exception:
        session.status = status  # rolled back with the rest
        raise
    return game


def latest_snapshot(game: Game) -> Snapshot:
    snapshot = game.latest()
    if snapshot is None:
        raise GameError(_("This game has no state yet."))
    return snapshot


def snapshot_state(snapshot: Snapshot) -> GameState:
    """The engine state of a stored snapshot (stored states were checked when saved); its
    board is the one shared by every state on the same map (``maps.boards``), and a
    state this process parsed or stored before is the same object (``state.parsed``). Not
    checked against the schema again (``checked=False``): every snapshot's state was
    checked, or made by the engine, before it was saved."""
    return parsed_state(snapshot.state, checked=False)


def append_snapshot(
    game: Game,
    expected_number: int,
    state: GameState,
    kind: str,
    *,
    actor=None,
    summary: str = "",
    summary_parts: list[SummaryPart] | None = None,
    **fields: Any,
) -> Snapshot:
    """Store ``state`` as the next snapshot if the latest one is still ``expected_number``;
    a summary given as parts is also stored as text in the active language."""
    if summary_parts:
        summary = parts_summary(summary_parts)
        fields["summary_parts"] = [[code, params] for code, params in summary_parts]
    with transaction.atomic():
        # The session's row first, as a result's save locks it (PostgreSQL; SQLite locks
        # the whole database): a step and a result of the same session never overlap.
        Session.objects.select_for_update().filter(pk=game.session_id).values_list("pk").get()
        refuse_after_result(game.session_id)
        # Serialise writers of this game.
        Game.objects.select_for_update().filter(pk=game.pk).first()
        latest = latest_snapshot(game)
        if latest.number != expected_number:
            raise StaleGameError(
                _(
                    "The game changed since you opened the page (now at step %(now)d, you saw "
                    "step %(seen)d). Nothing was done; look at the board again and retry."
                )
                % {"now": latest.number, "seen": expected_number}
            )
        stored = state.to_json()
        snapshot = Snapshot.objects.create(
            game=game,
            number=latest.number + 1,
            kind=kind,
            summary=summary[:300],
            state=stored,
            created_by=actor,
            **fields,
        )
    keep_parsed(state, stored)
    return snapshot


def _figure_on_board(state: GameState, figure_id: str):
    if not state.has_figure(figure_id):
        raise GameError(_("There is no figure %(id)s on the board.") % {"id": figure_id})
    return state.figure(figure_id)


def _record(game: Game, dice: Dice) -> uuid.UUID:
    session = game.session
    batch = uuid.uuid4()
    record_dice(
        dice, tournament=session.stage.tournament, stage=session.stage, session=session, batch=batch
    )
    return batch


def _dice_fields(dice: Dice) -> dict[str, Any]:
    return {
        "dice_source": dice.source,
        "seed": str(dice.seed) if isinstance(dice, SeededDice) else "",
        "dice": log_as_dicts(dice.log),
    }


# --- marines -------------------------------------------------------------------------------


def _unreachable(state: GameState, figure_id: str, target: Square) -> str:
    """Why ``figure_id`` finds no path to end its move on ``target``, the first reason that
    holds: off the board, solid, taken by a figure or a blip, else cut off."""
    values = {"id": figure_id, "square": format_square(target)}
    board = state.board
    if not board.in_bounds(target):
        return _("%(id)s cannot move to %(square)s: it is off the board.") % values
    if board.is_solid(target):
        return _("%(id)s cannot move to %(square)s: the square is solid.") % values
    standing = state.figure_at(target)
    if standing is not None and standing.id != figure_id:
        return _("%(id)s cannot end a move on %(square)s: %(other)s stands there.") % {
            **values,
            "other": standing.id,
        }
    if state.blip_at(target) is not None:
        return _("%(id)s cannot end a move on %(square)s: a blip lies there.") % values
    return (
        _(
            "%(id)s cannot reach %(square)s: walls, closed bulkheads or other players' "
            "figures cut it off (tick their permission if they let it pass)."
        )
        % values
    )


def survey_needs_dice(game: Game) -> bool:
    """Whether a move of ``game`` that enters a section nobody has surveyed rolls dice: the
    Solitaire survey does (RULES §11), the BoB one places the map's markers."""
    return game.policy == SolitairePolicy.name


def _look_around(
    game: Game, state: GameState, figure_id: str, dice: Dice
) -> tuple[GameState, list[Step]]:
    """Survey the section ``figure_id`` entered (as the game's policy says) and reveal
    what it sees."""
    if survey_needs_dice(game):
        return solitaire_reveal_after_move(state, figure_id, dice)
    return reveal_after_move(state, figure_id)


def move_marine(
    game: Game,
    figure_id: str,
    target: Square,
    *,
    expected_number: int,
    pass_through: bool = False,
    facing: Facing | None = None,
    dice: Dice | None = None,
    actor=None,
) -> Snapshot:
    """Move a marine-side figure to ``target`` by a shortest legal path within its movement,
    opening doors on the way; then survey and reveal what it sees (``reveal_after_move``).
    ``pass_through``: the other players allow passing through their figures (RULES §10).
    A crewed Tarantula moves with its gunner so that its front ends on ``target`` facing
    ``facing`` (:mod:`rules.engine.tarantula`).

    ``dice``: for a Solitaire game (:func:`survey_needs_dice`), the dice of the survey of a
    section nobody has surveyed yet; they are recorded with the snapshot like an attack's.
    None counts as no typed dice. A :class:`DiceError` says which die is missing or that
    typed dice were left over, and nothing is saved."""
    dice = dice if dice is not None else TypedDice(values=[])
    state = snapshot_state(latest_snapshot(game))
    figure = _figure_on_board(state, figure_id)
    if figure.side != MARINE:
        raise GameError(_("%(id)s is an alien: aliens move in the Alien turn.") % {"id": figure_id})
    rules = rules_of(state)
    allowance = movement_allowance(state, figure, rules)
    try:
        check_playing(state, figure.player)
    except TurnError as error:
        raise GameError(engine_error_text(error)) from None
    if figure.unit == TARANTULA:
        return _move_tarantula(
            game, state, figure_id, target, facing, allowance, expected_number, dice, actor
        )
    permitted = [p.id for p in state.players if p.id != figure.player] if pass_through else []
    try:
        path = shortest_path(state, figure_id, target, permitted=permitted)
        if path is None:
            raise MoveError(_unreachable(state, figure_id, target))
        if not path:
            raise MoveError(_("%(id)s already stands there.") % {"id": figure_id})
        if len(path) > allowance:
            raise MoveError(
                _(
                    "%(id)s needs %(steps)d squares to reach %(square)s but moves at most "
                    "%(allowance)d."
                )
                % {
                    "id": figure_id,
                    "steps": len(path),
                    "square": format_square(target),
                    "allowance": allowance,
                }
            )
        counted = record_move(state, figure_id, len(path), rules)
        moved, events = move(counted, figure_id, path, allowance=allowance, permitted=permitted)
    except (MoveError, TurnError) as error:
        raise GameError(engine_error_text(error)) from None
    moved, steps = _look_around(game, moved, figure_id, dice)
    moved, flag_steps = flags_after_move(moved, figure_id)
    steps.extend(flag_steps)
    end = moved.figure(figure_id).square
    summary: list[SummaryPart] = [("moved", {"id": figure_id, "square": format_square(end)})]
    if any(event.kind == "reached_claw" for event in events):
        moved, left = leave_through_claw(moved, figure_id)
        steps.extend(left)
        summary.append(("left_claw", {}))
        moved, out = settle_eliminations(moved, rules)
        steps.extend(out)
    return _moved_snapshot(game, expected_number, moved, summary, steps, events, dice, actor)


def open_door_by(
    game: Game,
    figure_id: str,
    a: Square,
    b: Square,
    *,
    expected_number: int,
    actor=None,
) -> Snapshot:
    """A marine-side figure standing on either square in front of the closed door between
    ``a`` and ``b`` opens it without moving (RULES "Doors": free, during its move). The
    turn's checks apply as for a move of no squares: it must be its player's turn and the
    figure may still move; opening counts as (part of) its move."""
    state = snapshot_state(latest_snapshot(game))
    figure = _figure_on_board(state, figure_id)
    if figure.side != MARINE:
        raise GameError(
            _("%(id)s is an alien: aliens open doors in the Alien turn.") % {"id": figure_id}
        )
    rules = rules_of(state)
    try:
        check_playing(state, figure.player)
        opened, events = open_door(state, figure_id, a, b)
        opened = record_move(opened, figure_id, 0, rules)
    except (MoveError, TurnError) as error:
        raise GameError(engine_error_text(error)) from None
    # The open door shows the marines what lies behind it (RULES "Blips (BoB)").
    opened, steps = reveal_after_door(opened, genestealer_markers=not survey_needs_dice(game))
    door = {"id": figure_id, "a": format_square(a), "b": format_square(b)}
    return append_snapshot(
        game,
        expected_number,
        opened,
        SnapshotKind.MARINE_MOVE,
        actor=actor,
        summary_parts=[("door_opened", door)],
        steps=[step.as_dict() for step in steps],
        events=[event.to_json() for event in events],
    )


def _moved_snapshot(
    game: Game,
    expected_number: int,
    moved: GameState,
    summary: list[SummaryPart],
    steps: list,
    events: list,
    dice: Dice,
    actor,
) -> Snapshot:
    """Append the state after a marine-side move, saying so if it stopped on entering a
    new section; the survey's dice, if it rolled any, are recorded with it."""
    check_all_dice_used(dice)
    if any(event.kind == "section_entered" for event in events):
        summary = [*summary, ("section_stop", {})]
    with transaction.atomic():
        rolled = {"dice_batch": _record(game, dice), **_dice_fields(dice)} if dice.log else {}
        return append_snapshot(
            game,
            expected_number,
            moved,
            SnapshotKind.MARINE_MOVE,
            actor=actor,
            summary_parts=summary,
            steps=[step.as_dict() for step in steps],
            events=[event.to_json() for event in events],
            **rolled,
        )


def _move_tarantula(
    game: Game,
    state: GameState,
    figure_id: str,
    front: Square,
    facing: Facing | None,
    allowance: int,
    expected_number: int,
    dice: Dice,
    actor,
) -> Snapshot:
    if facing is None:
        raise GameError(
            _("%(id)s is a Tarantula: choose which way it faces at the end of its move.")
            % {"id": figure_id}
        )
    try:
        # A Tarantula's move is one manoeuvre: it uses its whole allowance.
        rules = rules_of(state)
        counted = record_move(state, figure_id, allowance, rules)
        moved, events = move_tarantula(counted, figure_id, front, facing, allowance=allowance)
    except (MoveError, TurnError) as error:
        raise GameError(engine_error_text(error)) from None
    gunner, pose = crewed_pose(moved, figure_id)[1:]
    steps = []
    for fid in (figure_id, gunner.id):  # both look out: the Tarantula from its squares
        moved, more = _look_around(game, moved, fid, dice)
        steps.extend(more)
    summary: list[SummaryPart] = [
        ("moved_front", {"id": figure_id, "square": format_square(pose.front)})
    ]
    return _moved_snapshot(game, expected_number, moved, summary, steps, events, dice, actor)


def attack_choices(state: GameState, figure_id: str) -> list[AttackOption]:
    """The engine's legal attacks of a marine-side figure from where it stands, but for
    attacks on a bulkhead that cannot break it, then a lascannon's first areas fired
    alone (the others chosen after seeing the roll). While its lascannon has shots left
    this turn, the ways to fire those come first and replace the lascannon's own
    (game engine decision 31); another attack ends them, if the turn allows it."""
    figure = _figure_on_board(state, figure_id)
    if figure.side != MARINE:
        raise GameError(
            _("%(id)s is an alien: aliens attack in the Alien turn.") % {"id": figure_id}
        )
    rules = rules_of(state)
    try:
        options = attack_options(state, figure_id)
        left = volley_left(state, figure, rules)
        if left is not None:
            rest = lascannon_options(state, figure_id, *left, rules)
            options = [*rest, *(o for o in options if o.weapon != left[0])]
        for key in dict.fromkeys(figure.weapons):
            if rules.weapon(key).pattern == "lascannon":
                shots = left[1] if left and key == left[0] else rules.weapon(key).shots
                options += lascannon_options(state, figure_id, key, shots, rules, first=True)
    except (CombatError, RulesDataError) as error:
        raise GameError(engine_error_text(error)) from None
    return [option for option in options if not _hopeless_door_attack(option)]


def counted_attack(
    state: GameState, figure: Figure, option: AttackOption, rules: RulesData
) -> GameState:
    """``state`` with ``figure``'s attack ``option`` counted in the turn, refused as the
    turn rules say (:class:`TurnError`): a lascannon's areas as its shots, the first ones
    an attack and the next ones, chosen after the roll, the same attack (decision 31)."""
    if option.areas and option.weapon is not None:
        shots = sum(n for _, n in option.areas)
        return record_volley(state, figure.id, option.weapon, shots, rules)
    phase = attack_phase(option.kind)
    check_attack(state, figure, phase, rules, option.weapon)
    return record_attack(state, figure.id, phase)


def _hopeless_door_attack(option: AttackOption) -> bool:
    """Whether ``option`` is an attack on a reinforced bulkhead its dice can never break
    (no roll beats the door's armour): the board does not offer it (game engine decision 30)."""
    return option.door is not None and all(
        option.odds.kill_probability(key) == 0 for key in option.target_keys
    )


@dataclass(frozen=True)
class AttackOutcome:
    """A marine-side attack resolved: the state after it, its combat events and its steps
    (kills scored, flags dropped, a re-roll offered)."""

    option: AttackOption
    state: GameState
    events: list
    steps: list[Step]


def chosen_option(state: GameState, figure_id: str, choice: int) -> AttackOption:
    """The ``choice``-th option of :func:`attack_choices`."""
    options = attack_choices(state, figure_id)
    if not 0 <= choice < len(options):
        raise GameError(_("Choose one of the attacks listed."))
    return options[choice]


def resolve_marine_attack(
    state: GameState,
    figure_id: str,
    choice: int,
    dice: Dice,
    base: int,
    used: Used = (),
    *,
    genestealer_markers: bool = True,
) -> AttackOutcome:
    """The ``choice``-th option of ``figure_id`` on ``state`` (the step ``base``) resolved
    with ``dice``: the turn's checks, a card chosen with it spent, kills scored, flags
    dropped, what a destroyed door lets the marines see revealed (``genestealer_markers``:
    the map's Genestealer markers too, as in every game but Solitaire), and the re-rolls
    cards still allow the attacker and, in a fight between marines, the defending
    commander (``used``: the (figure, card) re-rolls taken)."""
    option = chosen_option(state, figure_id, choice)
    rules = rules_of(state)
    attacker = state.figure(figure_id)
    try:
        counted = counted_attack(state, attacker, option, rules)
        if option.card == "melta_bomb" and attacker.player is not None:
            counted = spend_card(counted, attacker.player, option.card)
        new_state, events = resolve_attack(counted, option, dice)
        check_all_dice_used(dice)
    except (CombatError, RulesDataError, TurnError, RerollError) as error:
        raise GameError(engine_error_text(error)) from None
    steps: list[Step] = []
    for event in events:
        new_state, more = score_kill(
            state, new_state, event, _killer(state, option, event.figure_id), rules
        )
        steps.extend(more)
    new_state, dropped = drop_flags(state, new_state)
    steps.extend(dropped)
    new_state, out = settle_eliminations(new_state, rules)
    steps.extend(out)
    if new_state.doors != state.doors:
        new_state, seen = reveal_after_door(new_state, genestealer_markers=genestealer_markers)
        steps.extend(seen)
    steps.extend(
        offer.step() for offer in reroll_offers(state, option, choice, base, dice.log, rules, used)
    )
    return AttackOutcome(option, new_state, events, steps)


def store_attack(
    game: Game,
    expected_number: int,
    outcome: AttackOutcome,
    dice: Dice,
    actor=None,
    steps: list[Step] = (),  # type: ignore[assignment]
) -> Snapshot:
    """Append the snapshot of an attack (``steps`` go before the outcome's) with its dice
    recorded."""
    option = outcome.option
    with transaction.atomic():
        return append_snapshot(
            game,
            expected_number,
            outcome.state,
            SnapshotKind.MARINE_ATTACK,
            actor=actor,
            summary_parts=[("attack", {"code": option.code, "params": option.params})],
            events=[event.as_dict() for event in outcome.events],
            steps=[step.as_dict() for step in [*steps, *outcome.steps]],
            dice_batch=_record(game, dice),
            **_dice_fields(dice),
        )


def marine_attack(
    game: Game,
    figure_id: str,
    choice: int,
    dice: Dice,
    *,
    expected_number: int,
    actor=None,
) -> Snapshot:
    """Resolve the ``choice``-th option of :func:`attack_choices` with ``dice``."""
    state = snapshot_state(latest_snapshot(game))
    outcome = resolve_marine_attack(
        state,
        figure_id,
        choice,
        dice,
        expected_number,
        genestealer_markers=not survey_needs_dice(game),
    )
    return store_attack(game, expected_number, outcome, dice, actor)


def _killer(before: GameState, option: AttackOption, victim: str | None) -> str | None:
    """The player who killed ``victim`` in ``option``: the attacker's, or in a fight the
    attacker lost, the defender's (``None`` when that is an alien)."""
    attacker = before.figure(option.attacker_id)
    if victim == option.attacker_id and option.target and before.has_figure(option.target):
        attacker = before.figure(option.target)
    return attacker.player if attacker.side == MARINE else None


# --- judge's edits -------------------------------------------------------------------------


def remove_figure(
    game: Game, figure_id: str, why: str, reason: str, *, expected_number: int, actor=None
) -> Snapshot:
    """The judge takes a figure off the board (dead, or left play through a claw). A
    marine-side figure standing in a docking claw that left play leaves as a move into the
    claw makes it leave (RULES §10: safe, never to return, a flag it carries home scored);
    any other removal drops the flag it carries where it stood."""
    if why not in REMOVALS:
        raise GameError(_("Say whether the figure is dead or left play."))
    if not reason.strip():
        raise GameError(_("Give a reason for the edit."))
    state = snapshot_state(latest_snapshot(game))
    figure = _figure_on_board(state, figure_id)
    in_claw = any(state.board.claw_of(sq) is not None for sq in figure.squares)
    if why == "left" and figure.side == MARINE and in_claw:
        new_state, steps = leave_through_claw(state, figure_id)
    else:
        new_state, steps = drop_flags(state, state.without_figure(figure_id))
    rules = rules_of(state)
    new_state, out = settle_eliminations(new_state, rules)
    steps.extend(out)
    try:
        GameState.from_json(new_state.to_json())
    except StateError as error:
        raise GameError(
            _("%(id)s cannot be removed: %(error)s")
            % {"id": figure_id, "error": engine_error_text(error)}
        ) from None
    return append_snapshot(
        game,
        expected_number,
        new_state,
        SnapshotKind.JUDGE_EDIT,
        actor=actor,
        summary_parts=[("removed", {"id": figure_id, "why": why})],
        reason=reason.strip()[:300],
        steps=[step.as_dict() for step in steps],
    )


def remove_player_figures(
    game: Game, player_id: str, reason: str, *, expected_number: int, actor=None
) -> Snapshot | None:
    """Every figure of ``player_id`` leaves play (the player forfeited the session); None
    when they have none on the board, or the game is over."""
    state = snapshot_state(latest_snapshot(game))
    figures = state.figures_of(player_id)
    if not figures or state.outcome is not None:
        return None
    for figure in figures:
        state, _dropped = drop_flags(state, state.without_figure(figure.id))
    state, out = settle_eliminations(state, rules_of(state))
    return append_snapshot(
        game,
        expected_number,
        state,
        SnapshotKind.JUDGE_EDIT,
        actor=actor,
        summary_parts=[("forfeit", {"player": player_id, "count": len(figures)})],
        reason=reason.strip()[:300],
        steps=[step.as_dict() for step in out],
    )


def set_life_points(
    game: Game,
    figure_id: str,
    life_points: int,
    reason: str,
    *,
    expected_number: int,
    actor=None,
) -> Snapshot:
    """The judge corrects a figure's life points (e.g. after overruling a doubtful sight)."""
    if not reason.strip():
        raise GameError(_("Give a reason for the edit."))
    if life_points < 1:
        raise GameError(
            _("A figure on the board has at least 1 life point; take it off the board instead.")
        )
    state = snapshot_state(latest_snapshot(game))
    figure = _figure_on_board(state, figure_id)
    new_state = state.with_figure(replace(figure, life_points=life_points))
    return append_snapshot(
        game,
        expected_number,
        new_state,
        SnapshotKind.JUDGE_EDIT,
        actor=actor,
        summary_parts=[
            ("life_points", {"id": figure_id, "lp": life_points, "old": figure.life_points})
        ],
        reason=reason.strip()[:300],
    )


def undo_to(game: Game, number: int, *, expected_number: int, actor=None) -> Snapshot:
    """Go back to snapshot ``number`` by appending a copy of it (history is never lost)."""
    earlier = game.snapshots.filter(number=number).first()
    if earlier is None:
        raise GameError(_("There is no step %(number)d in this game.") % {"number": number})
    if number == expected_number:
        raise GameError(_("That is already the current step."))
    return append_snapshot(
        game,
        expected_number,
        snapshot_state(earlier),
        SnapshotKind.UNDO,
        actor=actor,
        summary=undo_summary(number),
        restored_from=number,
    )


def _upload_json(text: str) -> Any:
    try:
        return json_text.loads(text)
    except json.JSONDecodeError as error:
        raise UploadError(
            [
                Problem(
                    "$",
                    _("not JSON: %(msg)s at line %(line)d, column %(column)d")
                    % {"msg": error.msg, "line": error.lineno, "column": error.colno},
                )
            ]
        ) from None


def _checked_state(data: Any) -> GameState:
    try:
        return GameState.from_json(data)
    except StateError as error:
        raise UploadError(error.problems) from None


def parse_state_upload(text: str) -> GameState:
    """A state from uploaded JSON text; :class:`UploadError` lists every problem by path."""
    return _checked_state(_upload_json(text))


def upload_state(game: Game, text: str, *, expected_number: int, actor=None) -> Snapshot:
    """Replace the game's position by an uploaded state (:class:`UploadError` lists every
    problem by path).

    The upload restores a position; the rules data belong to the organiser. So the state
    keeps the game's rules data (``data_overrides``, the tournament's values as the game
    took them) whatever the file says, is checked with them, and the step's summary names
    every value of the file's that was not used (game engine decision 17 in
    ``docs/decisions.md``)."""
    data = _upload_json(text)
    current = snapshot_state(latest_snapshot(game))
    summary: list[SummaryPart] = [("uploaded", {})]
    if isinstance(data, dict):
        ignored = override_differences(current.data_overrides, data.get("data_overrides"))
        if ignored:
            values = [[d.path, d.theirs, d.ours] for d in ignored]
            summary.append(("rules_data_kept", {"values": values}))
        data = {**data, "data_overrides": dict(current.data_overrides)}
    return append_snapshot(
        game,
        expected_number,
        _checked_state(data),
        SnapshotKind.UPLOAD,
        actor=actor,
        summary_parts=summary,
    )


# --- line of sight -------------------------------------------------------------------------


@dataclass(frozen=True)
class SightCheck:
    a: str
    b: str
    sight: Sight

    @property
    def reason(self) -> str:
        """Why the line is clear, doubtful or blocked, in the page's language."""
        return self.sight.reason_in(narration_language())


def _point(state: GameState, text: str) -> str | Square:
    text = text.strip()
    if state.has_figure(text):
        return text
    try:
        return parse_square(text)
    except ValueError:
        raise GameError(
            _("%(text)s is neither a figure id nor a square like 4,7.") % {"text": text}
        ) from None


def check_sight(state: GameState, a_text: str, b_text: str, *, for_firing: bool) -> SightCheck:
    """Can A see B? A and B are figure ids or squares ``x,y``."""
    a, b = _point(state, a_text), _point(state, b_text)
    try:
        if isinstance(a, str):
            sight = figure_sight(state, a, b, for_firing=for_firing)
        elif isinstance(b, str):
            sight = figure_sight(state, b, a, for_firing=for_firing)
        else:
            sight = line_of_sight(state, a, b, for_firing=for_firing)
    except SightError as error:
        raise GameError(engine_error_text(error)) from None
    return SightCheck(a_text.strip(), b_text.strip(), sight)


# --- the Alien turn ------------------------------------------------------------------------


def request_alien_turn(
    game: Game,
    policy: str,
    dice: Dice,
    *,
    expected_number: int,
    actor=None,
    event_card: str = "",
) -> AlienTurnRequest:
    """Record the judge's request and queue it once committed (:func:`run_alien_turn`
    carries it out). With the broker unreachable the turn is played in-process instead. A
    session played without aliens has no Alien turn: the request is refused.
    ``event_card``: the card the judge drew from the real deck (its id), if any."""
    if policy not in POLICIES:
        raise GameError(
            _("Unknown Alien policy %(policy)s; choose one of: %(known)s.")
            % {"policy": policy, "known": ", ".join(sorted(POLICIES))}
        )
    refuse_after_result(game.session_id)
    latest = latest_snapshot(game)
    if latest.number != expected_number:
        raise StaleGameError(
            _("The game changed since you opened the page. Nothing was done; look again.")
        )
    if not snapshot_state(latest).stipulation.with_aliens:
        raise GameError(engine_error_text(TurnError("turn_no_aliens")))
    if game.turn_requests.filter(status=TurnStatus.PENDING, base_number=expected_number).exists():
        raise GameError(
            _(
                "An Alien turn from this position is already being resolved; its steps show "
                "on the board when it is done (if it takes too long, the board offers to play "
                "it here)."
            )
        )
    request = AlienTurnRequest.objects.create(
        game=game,
        base_number=expected_number,
        policy=policy,
        seed=str(dice.seed) if isinstance(dice, SeededDice) else "",
        typed_dice=list(dice.values) if isinstance(dice, ScriptedDice) else None,
        event_card=event_card,
        language=translation.get_language() or "",
        requested_by=actor,
        queued_at=timezone.now(),
    )
    _queue_turn(request)
    return request


def run_turn_again(game: Game, request_id: uuid.UUID | str) -> AlienTurnRequest:
    """Play here, in the judge's own request, an Alien turn still pending past its deadline:
    its task was lost or no worker is running, and queueing it again would leave the judge
    waiting once more for a worker that may not be there. Harmless if the first task still
    runs: a request is carried out once (:func:`carry_out_turn`)."""
    with transaction.atomic():
        request = (
            AlienTurnRequest.objects.select_for_update().filter(pk=request_id, game=game).first()
        )
        if request is None:
            raise GameError(_("There is no such Alien turn request for this game."))
        if request.status != TurnStatus.PENDING:
            raise GameError(
                _("This Alien turn was already resolved (%(status)s); look at the board.")
                % {"status": request.get_status_display()}
            )
        request.queued_at = timezone.now()
        request.save(update_fields=["queued_at"])
    return carry_out_turn(request.pk) or request


def _queue_turn(request: AlienTurnRequest) -> None:
    """Hand the request to a worker once the caller's transaction (if any) commits; with
    the broker unreachable, play it in-process rather than leave it waiting."""
    request_id = str(request.pk)
    queue_after_commit(
        run_alien_turn, request_id, on_unreachable=lambda error: carry_out_turn(request_id)
    )


def alien_turn_start(state: GameState) -> GameState:
    """The state the Alien turn starts from: it may be run before every player ended
    their turn, and it ends them (their turns' limits are over)."""
    return state.replace(
        active_player=None,
        turn=TurnRecord(aliens_phase=True),
        progress=replace(state.progress, limits=()),
    )


def _turn_dice(request: AlienTurnRequest) -> Dice:
    if request.typed_dice is not None:
        return TypedDice(values=list(request.typed_dice))
    return SeededDice(seed=int(request.seed))


def carry_out_turn(request_id: uuid.UUID | str) -> AlienTurnRequest | None:
    """Resolve a pending Alien turn request once: a request already done or failed is left
    as it is, so running this again for the same id does nothing (idempotent). The summary
    and any error are written in the requesting judge's language (a worker has none)."""
    language = (
        AlienTurnRequest.objects.filter(pk=request_id).values_list("language", flat=True).first()
    )
    with translation.override(language or settings.LANGUAGE_CODE):
        return _carry_out_turn(request_id)


def _carry_out_turn(request_id: uuid.UUID | str) -> AlienTurnRequest | None:
    with transaction.atomic():
        request = (
            AlienTurnRequest.objects.select_for_update(of=("self",))
            .select_related("game__session__stage__tournament")
            .filter(pk=request_id)
            .first()
        )
        if request is None or request.status != TurnStatus.PENDING:
            return request
        game = request.game
        dice = _turn_dice(request)
        try:
            state = snapshot_state(latest_snapshot(game))
            if state.outcome is not None:
                raise TurnError("turn_game_over", ending=state.outcome.reason)
            if last_round_without_aliens(state):
                raise TurnError("turn_last_round")
            state = alien_turn_start(state)
            new_state, steps = resolve_alien_turn(
                state, policy_named(request.policy), dice, event_card=request.event_card or None
            )
            check_all_dice_used(dice)
            new_state, dropped = drop_flags(state, new_state)
            # The Aliens act last in a round (RULES §5): their turn closes it.
            rules = rules_of(state)
            new_state, closing = close_round(new_state, rules)
            steps = [*steps, *dropped, *closing]
            with transaction.atomic():
                snapshot = append_snapshot(
                    game,
                    request.base_number,
                    new_state,
                    SnapshotKind.ALIEN_TURN,
                    actor=request.requested_by,
                    summary=alien_turn_summary(request.policy),
                    steps=[step.as_dict() for step in steps],
                    policy=request.policy,
                    dice_batch=_record(game, dice),
                    **_dice_fields(dice),
                )
        except (
            GameError,
            DiceError,
            EventDataError,
            RulesDataError,
            StateError,
            TurnError,
        ) as error:
            request.status = TurnStatus.FAILED
            request.error = engine_error_text(error)
            request.save(update_fields=["status", "error"])
            return request
        request.status = TurnStatus.DONE
        request.snapshot = snapshot
        request.save(update_fields=["status", "snapshot"])
    return request


@shared_task(
    name="table.tasks.run_alien_turn",
    autoretry_for=(ConnectionError, TimeoutError),
    retry_backoff=True,
    retry_backoff_max=60,
    max_retries=5,
)
def run_alien_turn(request_id: str) -> str | None:
    """The task: carry out the request; returns its status ("done" or "failed"), None if
    unknown. Idempotent: the request id is the key (see :func:`carry_out_turn`)."""
    request = carry_out_turn(request_id)
    return None if request is None else request.status
