"""What the touch board lights up, as plain JSON-ready data from an engine state: where a
marine may end its move and what each of its attacks may hit, with the exact odds.

Both come from the engine (the distance field of :mod:`rules.engine.movement`, the attack
options and their odds of :mod:`rules.engine.combat`); nothing here decides a rule.
The engine keeps no moves-left state yet, so a marine may move its full movement
allowance (``moves_left`` says so: it is the allowance).
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from django.template.defaultfilters import floatformat
from django.utils.translation import gettext as _

from rules.engine.combat import DOOR_TARGET, AttackOption
from rules.engine.geometry import Square, format_square
from rules.engine.movement import MoveError, closed_doors_at, distance_field, shortest_path
from rules.engine.naming import current_naming
from rules.engine.narration import format_param
from rules.engine.state import MARINE, Figure, GameState, rules_of
from rules.engine.tarantula import TARANTULA, tarantula_reach
from rules.engine.turns import (
    TurnError,
    check_move,
    movement_allowance,
    squares_left,
)
from rules.engine.units import RulesData, RulesDataError
from rules.engine.vehicles import equipment_actions
from table.actions import GameError, attack_choices, counted_attack
from table.board_svg import short_labels
from table.step_log import engine_error_text, narration_language


def _xy(square: Square) -> list[int]:
    return [square[0], square[1]]


def reachable_squares(state: GameState, figure_id: str) -> dict[str, Any]:
    """Where marine ``figure_id`` may end a move this turn, each square with the steps it
    takes (its own square excluded), doors on the way opened as a move opens them."""
    if not state.has_figure(figure_id):
        raise GameError(_("There is no figure %(id)s on the board.") % {"id": figure_id})
    figure = state.figure(figure_id)
    if figure.side != MARINE:
        raise GameError(_("%(id)s is an alien: aliens move in the Alien turn.") % {"id": figure_id})
    try:
        rules = rules_of(state)
        allowance = movement_allowance(state, figure, rules)
        left = squares_left(state, figure, rules)  # what the turn still allows
        if figure.unit == TARANTULA:
            squares = _tarantula_squares(state, figure_id, left)
        else:
            field = distance_field(state, figure_id)
            squares = [
                {"square": _xy(square), "steps": steps}
                for square, steps in sorted(field.reachable(left).items(), key=lambda kv: kv[0])
                if steps > 0
            ]
            squares += _permission_squares(state, figure, left, field.reachable(left))
    except (MoveError, RulesDataError) as error:
        raise GameError(engine_error_text(error)) from None
    return {
        "figure": figure_id,
        "from": _xy(figure.squares[0]),
        "allowance": allowance,
        "moves_left": left,
        "refusal": "" if left else _move_refusal(state, figure_id, rules),
        "squares": squares,
        "doors": [] if figure.unit == TARANTULA else _doors(state, figure_id, rules),
        "equipment": _equipment(state, figure_id, rules),
    }


def _permission_squares(
    state: GameState, figure: Figure, left: int, free: Mapping[Square, int]
) -> list[dict[str, Any]]:
    """The squares ``figure`` reaches only through other players' figures (RULES
    §Movement: with their permission), each with ``permission``: the names of the players
    whose figures its shortest path passes, whom the judge asks. The move form's
    ``pass_through`` makes the same move."""
    others = [p.id for p in state.players if p.id != figure.player]
    if not others:
        return []
    field = distance_field(state, figure.id, permitted=others)
    naming = current_naming()
    out = []
    for square, steps in sorted(field.reachable(left).items()):
        if steps == 0 or square in free:
            continue
        path = shortest_path(state, figure.id, square, permitted=others) or []
        passed = {
            standing.player
            for standing in (state.figure_at(sq) for sq in path[:-1])
            if standing is not None and standing.player in others
        }
        names = [naming.player_name(player) for player in sorted(passed)]
        out.append({"square": _xy(square), "steps": steps, "permission": ", ".join(names)})
    return out


def _move_refusal(state: GameState, figure_id: str, rules: RulesData) -> str:
    """Why the turn allows ``figure_id`` no move now (its player is not on turn, it moved
    already...), in the turn rules' words; empty when the turn would allow one."""
    try:
        check_move(state, state.figure(figure_id), 1, rules)
    except TurnError as error:
        return engine_error_text(error)
    return ""


def _tarantula_squares(state: GameState, figure_id: str, left: int) -> list[dict[str, Any]]:
    """Where a crewed Tarantula's front may end its move, with the ways it may face there
    (its move is one manoeuvre: ``steps`` is its whole allowance)."""
    if not left:
        return []
    reach = tarantula_reach(state, figure_id, left)
    return [
        {"square": _xy(front), "steps": left, "facings": [f.value for f in facings]}
        for front, facings in sorted(reach.items())
    ]


def _equipment(state: GameState, figure_id: str, rules: RulesData) -> list[dict[str, Any]]:
    """The special-equipment actions the figure may take now, each with its button text
    (``docs/turns.md`` "Special equipment")."""
    lang = narration_language()
    out: list[dict[str, Any]] = []
    for action in equipment_actions(state, figure_id, rules):
        # A pilot inside a Dreadnought has no square to choose it by: the vehicle names it.
        figure = action.vehicle if action.kind == "leave" else action.figure
        row: dict[str, Any] = {
            "action": action.kind,
            "figure": figure,
            "vehicle": action.vehicle or "",
        }
        if action.kind == "crew":
            row["label"] = _("Board %(vehicle)s (the whole turn)") % {"vehicle": action.vehicle}
            out.append(row)
        elif action.kind == "pick_up":
            weapon = format_param("weapon", action.weapon, lang)
            row["label"] = _("Pick up the %(weapon)s (instead of attacking)") % {"weapon": weapon}
            out.append(row)
        elif action.squares:  # a Dreadnought's pilot: one button per square to get out on
            for square in action.squares:
                out.append(
                    {
                        **row,
                        "square": ",".join(map(str, square)),
                        "label": _("Leave %(vehicle)s, out on %(square)s (the whole turn)")
                        % {"vehicle": action.vehicle, "square": format_square(square)},
                    }
                )
        else:
            row["label"] = _("Leave %(vehicle)s (the whole turn)") % {"vehicle": action.vehicle}
            out.append(row)
    return out


def _doors(state: GameState, figure_id: str, rules: RulesData) -> list[dict[str, Any]]:
    """The closed doors the marine may open now: those it stands in front of, if the turn
    still lets it move (opening is part of a move and spends no squares)."""
    try:
        check_move(state, state.figure(figure_id), 0, rules)
    except TurnError:
        return []
    doors = closed_doors_at(state, figure_id)
    return [{"between": [_xy(here), _xy(there)]} for here, there in doors]


def _percent(p: Fraction) -> float:
    return round(float(p) * 100, 1)


def chance_text(percent: float) -> str:
    """A probability given in percent as the judge reads it, in the page's language: at
    most one decimal ("37.5%", "50%"), never rounded to a certainty it is not ("<0.1%",
    ">99.9%")."""
    if percent <= 0 or percent >= 100:
        return f"{percent:.0f}%"
    if percent < 0.1:
        return "<" + floatformat(0.1, 1) + "%"
    if percent > 99.9:
        return ">" + floatformat(99.9, 1) + "%"
    return floatformat(percent, -1) + "%"


def _target(
    state: GameState,
    option: AttackOption,
    key: str,
    lang: str,
    attacker: Figure,
    labels: Mapping[str, str],
) -> dict[str, Any]:
    """One figure or door ``option`` may hit (``labels``: the board's, by figure id);
    ``friendly``: a figure of the attacker's own player (another player's marines are
    enemies, as the aliens are)."""
    odds = option.odds
    kill = odds.kill_probability(key)
    row: dict[str, Any] = {
        "key": key,
        "life_points": odds.target(key).life_points,
        "expected": round(float(odds.expected_damage(key)), 2),
        "kill": f"{kill.numerator}/{kill.denominator}",
        "percent": _percent(kill),
        "chance": chance_text(float(kill) * 100),
        "squares": [],
        "friendly": False,
    }
    row["name"] = target_name(state, key, lang, labels)
    if state.has_figure(key):
        figure = state.figure(key)
        row["squares"] = [_xy(sq) for sq in figure.squares]
        row["friendly"] = figure.side == MARINE and figure.player == attacker.player
    elif key.startswith(DOOR_TARGET) and option.door is not None:
        row["squares"] = [_xy(sq) for sq in option.door]
    return row


def target_name(state: GameState, key: str, lang: str, labels: Mapping[str, str]) -> str:
    """A target of an attack's odds: a figure's id with its unit, led by the label the board
    draws for an alien or a vehicle (``Or1 · ork-blip-1-1 (Ork)``); a bulkhead door.
    ``labels``: :func:`table.board_svg.short_labels` of ``state``, read once for all the
    targets of a request."""
    if state.has_figure(key):
        unit = format_param("unit", state.figure(key).unit, lang)
        label = labels.get(key)
        return f"{label} · {key} ({unit})" if label else f"{key} ({unit})"
    if key.startswith(DOOR_TARGET):
        return _("bulkhead door %(door)s") % {"door": key.removeprefix(DOOR_TARGET)}
    return key


def _tap_square(option: AttackOption, targets: list[dict[str, Any]]) -> list[int] | None:
    """The square a judge taps to choose ``option``: its target figure's, its aim, the far
    side of the door, or the first figure it may hit."""
    main = next((t for t in targets if t["key"] == option.target and t["squares"]), None)
    if main is not None:
        return main["squares"][0]
    if option.aim is not None:
        return _xy(option.aim)
    if option.door is not None:
        return next(
            (_xy(sq) for sq in option.door if sq not in option.from_squares), _xy(option.door[0])
        )
    return next((t["squares"][0] for t in targets if t["squares"] and not t["friendly"]), None)


def _tap_squares(
    option: AttackOption, targets: list[dict[str, Any]], rules: RulesData
) -> list[list[int]]:
    """Every square a judge may tap to choose ``option``: for an assault cannon's split,
    which shares its dice among all its targets, each target's own square (so every figure
    it covers is lit, with its own odds); otherwise the one of :func:`_tap_square`."""
    split = option.weapon is not None and rules.weapon(option.weapon).pattern == "split"
    if split and option.door is None:
        return [t["squares"][0] for t in targets if t["squares"] and not t["friendly"]]
    square = _tap_square(option, targets)
    return [square] if square is not None else []


def attack_targets(state: GameState, attacker: str) -> dict[str, Any]:
    """Every legal attack of marine ``attacker`` (indexed as the attack form numbers them),
    with the square to tap for it (``square``; ``squares``: every square that chooses it,
    one per target of an assault cannon's split) and each figure or door it may hit: its
    squares, the expected life points lost and the exact probability of destroying it."""
    lang = narration_language()
    options = []
    refusals = []
    choices = attack_choices(state, attacker)  # refuses a figure not on the board
    figure = state.figure(attacker)
    rules = rules_of(state)
    labels = short_labels(state)
    for index, option in enumerate(choices):
        refusal = _attack_refusal(state, option, figure, rules)
        if refusal:
            refusals.append(refusal)
            continue
        targets = [_target(state, option, key, lang, figure, labels) for key in option.target_keys]
        options.append(
            {
                "index": index,
                "description": option.description_in(lang),
                "square": _tap_square(option, targets),
                "squares": _tap_squares(option, targets, rules),
                "expected_points": round(float(option.odds.expected_points()), 2),
                "friendly": option.warns_friendly,
                "targets": targets,
            }
        )
    return {
        "attacker": attacker,
        "options": options,
        "refusal": "" if options or not refusals else refusals[0],
    }


def _attack_refusal(
    state: GameState, option: AttackOption, figure: Figure, rules: RulesData
) -> str:
    """Why the turn does not allow ``option`` now (its player is not on turn, the figure
    has no attack left...), in the turn rules' words; empty when it does. The form's
    attack runs the same check (``resolve_marine_attack``), so nothing is lit that it
    would refuse."""
    try:
        counted_attack(state, figure, option, rules)
    except (TurnError, RulesDataError) as error:
        return engine_error_text(error)
    return ""
