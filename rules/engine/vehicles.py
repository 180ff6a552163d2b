"""Special equipment as board actions (RULES §7, §10; seed 002 "Equipaggiamenti speciali"):
crewing a Tarantula, piloting a Dreadnought, leaving either, picking up an extra-heavy
weapon. What a special-equipment blip puts on the board is
:func:`rules.engine.play.blips.place_found_equipment`.

* A found or left vehicle is **abandoned**: a marine-side figure of nobody (``player``
  null); it cannot act nor be destroyed (RULES §7).
* **Boarding** (:func:`crew_vehicle`): a marine, never the commander, standing
  orthogonally next to the vehicle (no wall between) spends its whole turn: it must not
  have acted yet this turn, and neither it nor the vehicle acts again in that turn. A
  gunner stands on the square behind the Tarantula's centre (it must be free, or be the
  marine's own); a pilot goes inside the Dreadnought (no squares). The vehicle becomes
  the marine's player's.
* **Leaving** (:func:`leave_vehicle`): also a whole turn of the crew and the vehicle. A
  gunner stays on its square behind the Tarantula; a pilot gets out on a free square next
  to the Dreadnought's base, the judge's choice. The vehicle is abandoned again.
* **Picking up** (:func:`pick_up`): a marine, never the commander nor a crew member,
  standing on the weapon's square takes it instead of its own weapon (left behind): it
  becomes the marine its class makes it (:meth:`~rules.engine.units.RulesData.marine_unit`:
  an extra-heavy-weapon marine, worth 15, RULES §7, unless the tournament's catalogue made
  the weapon heavy; cards for heavy weapons never apply to an extra-heavy one). It costs
  the figure's attack for the turn: it may not have attacked yet and attacks no more this
  turn; it may still move (``docs/decisions.md``).

Every refusal is a :class:`~rules.engine.turns.TurnError` naming the rule.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from rules.engine.geometry import Square, is_orthogonally_adjacent, orthogonal_neighbours
from rules.engine.narration import Step
from rules.engine.session_records import PICKUP, VEHICLE
from rules.engine.state import MARINE, VEHICLE_UNITS, Figure, GameState, Item
from rules.engine.tarantula import TARANTULA
from rules.engine.turns import TurnError, check_playing, record_phase
from rules.engine.units import RulesData

COMMANDER = "commander"


@dataclass(frozen=True)
class EquipmentAction:
    """One special-equipment action a figure may take now: ``kind`` ``crew``, ``leave``
    or ``pick_up``; the vehicle or the item it concerns; for a pilot leaving a
    Dreadnought, the squares it may get out on."""

    kind: str
    figure: str
    vehicle: str | None = None
    weapon: str | None = None
    squares: tuple[Square, ...] = ()


def is_vehicle(figure: Figure) -> bool:
    return figure.unit in VEHICLE_UNITS and figure.side == MARINE


def crew_of(state: GameState, vehicle_id: str) -> Figure | None:
    """The marine crewing or piloting ``vehicle_id``, if any."""
    return next((f for f in state.figures if f.piloting == vehicle_id), None)


def _figure(state: GameState, figure_id: str) -> Figure:
    if not state.has_figure(figure_id):
        raise TurnError("turn_equipment_no_figure", figure=figure_id)
    return state.figure(figure_id)


def _check_foot_marine(state: GameState, marine: Figure, commander_code: str) -> None:
    """A marine of a player, on foot, not the commander, in its player's turn."""
    check_playing(state, marine.player)
    if marine.side != MARINE or is_vehicle(marine) or not marine.on_board:
        raise TurnError("turn_equipment_not_marine", figure=marine.id)
    if marine.unit == COMMANDER:
        raise TurnError(commander_code, figure=marine.id)
    if marine.piloting is not None:
        raise TurnError("turn_crew_aboard", figure=marine.id, vehicle=marine.piloting)


def _check_whole_turn(state: GameState, acting: str, figure_ids: tuple[str, ...]) -> None:
    """Boarding and leaving take the whole turn: none of ``figure_ids`` acted yet."""
    for fid in figure_ids:
        done = state.turn.of(fid)
        if done.phases:
            raise TurnError("turn_crew_whole_turn", figure=acting, done=done.phases[0])


def _spend_turn(state: GameState, figure_ids: tuple[str, ...]) -> GameState:
    for fid in figure_ids:
        state = record_phase(state, fid, VEHICLE)
    return state


def _centre(vehicle: Figure) -> Square:
    """A Tarantula's centre: the one of its two squares behind the other."""
    dx, dy = vehicle.facing.delta
    return min(vehicle.squares, key=lambda sq: sq[0] * dx + sq[1] * dy)


def gunner_square(vehicle: Figure) -> Square:
    """The square behind a Tarantula's centre, where its gunner stands."""
    dx, dy = vehicle.facing.delta
    centre = _centre(vehicle)
    return (centre[0] - dx, centre[1] - dy)


def _next_to(state: GameState, square: Square, vehicle: Figure) -> bool:
    """``square`` shares a side with one of the vehicle's squares, no wall or closed door
    between."""
    return any(
        is_orthogonally_adjacent(square, sq) and state.edge_open(square, sq)
        for sq in vehicle.squares
    )


def _free(state: GameState, square: Square, allowed: str | None = None) -> bool:
    board = state.board
    if not board.in_bounds(square) or board.is_solid(square) or state.blip_at(square):
        return False
    there = state.figure_at(square)
    return there is None or there.id == allowed


def check_crew(state: GameState, marine_id: str, vehicle_id: str) -> tuple[Figure, Figure]:
    """Refuse boarding ``vehicle_id`` with ``marine_id`` unless the rules allow it now."""
    marine = _figure(state, marine_id)
    vehicle = _figure(state, vehicle_id)
    _check_foot_marine(state, marine, "turn_crew_commander")
    if not is_vehicle(vehicle) or not vehicle.on_board:
        raise TurnError("turn_crew_not_vehicle", vehicle=vehicle_id)
    crew = crew_of(state, vehicle_id)
    if crew is not None:
        raise TurnError("turn_crew_taken", vehicle=vehicle_id, pilot=crew.id)
    here = marine.squares[0]
    if vehicle.unit == TARANTULA:
        behind = gunner_square(vehicle)
        if here != behind and not _next_to(state, here, vehicle):
            raise TurnError("turn_crew_not_next", figure=marine_id, vehicle=vehicle_id)
        if not _free(state, behind, marine_id) or not state.edge_open(behind, _centre(vehicle)):
            raise TurnError("turn_crew_no_room", vehicle=vehicle_id, square=list(behind))
    elif not _next_to(state, here, vehicle):
        raise TurnError("turn_crew_not_next", figure=marine_id, vehicle=vehicle_id)
    _check_whole_turn(state, marine_id, (marine_id, vehicle_id))
    return marine, vehicle


def crew_vehicle(state: GameState, marine_id: str, vehicle_id: str) -> tuple[GameState, list[Step]]:
    """``marine_id`` boards the abandoned Tarantula or Dreadnought ``vehicle_id``, spending
    its whole turn (see the module docstring)."""
    marine, vehicle = check_crew(state, marine_id, vehicle_id)
    if vehicle.unit == TARANTULA:
        aboard = replace(marine, squares=(gunner_square(vehicle),), piloting=vehicle_id)
        aboard = replace(aboard, facing=vehicle.facing)
        code = "tarantula_crewed"
    else:
        aboard = replace(marine, squares=(), piloting=vehicle_id)
        code = "dreadnought_boarded"
    state = state.with_figure(aboard).with_figure(replace(vehicle, player=marine.player))
    state = _spend_turn(state, (marine_id, vehicle_id))
    return state, [Step(code, {"figure": marine_id, "vehicle": vehicle_id})]


def exit_squares(state: GameState, vehicle: Figure) -> tuple[Square, ...]:
    """The free squares a Dreadnought's pilot may get out on: next to its base."""
    around = {near for sq in vehicle.squares for near in orthogonal_neighbours(sq)}
    free = [sq for sq in around - set(vehicle.squares) if _free(state, sq)]
    return tuple(sorted((sq for sq in free if _next_to(state, sq, vehicle)), key=_reading))


def _reading(square: Square) -> tuple[int, int]:
    return (square[1], square[0])


def check_leave(state: GameState, vehicle_id: str) -> tuple[Figure, Figure]:
    """Refuse the crew's leaving ``vehicle_id`` (a vehicle or its crew's id) unless the
    rules allow it now; the vehicle and its crew."""
    named = _figure(state, vehicle_id)
    vehicle = state.figure(named.piloting) if named.piloting is not None else named
    crew = crew_of(state, vehicle.id) if is_vehicle(vehicle) else None
    if crew is None:
        raise TurnError("turn_leave_no_crew", vehicle=vehicle.id)
    check_playing(state, crew.player)
    _check_whole_turn(state, crew.id, (crew.id, vehicle.id))
    return vehicle, crew


def leave_vehicle(
    state: GameState, vehicle_id: str, square: Square | None = None
) -> tuple[GameState, list[Step]]:
    """The crew of ``vehicle_id`` leaves it, spending its whole turn: a gunner stays behind
    the Tarantula, a pilot gets out on ``square`` next to the Dreadnought."""
    vehicle, crew = check_leave(state, vehicle_id)
    if vehicle.unit == TARANTULA:
        out = replace(crew, piloting=None)
        params = {"figure": crew.id, "vehicle": vehicle.id, "square": list(crew.squares[0])}
    else:
        choices = exit_squares(state, vehicle)
        if square is None or square not in choices:
            raise TurnError(
                "turn_leave_square",
                vehicle=vehicle.id,
                square=list(square) if square is not None else "-",
                exits=[list(sq) for sq in choices],
            )
        out = replace(crew, piloting=None, squares=(square,))
        params = {"figure": crew.id, "vehicle": vehicle.id, "square": list(square)}
    state = state.with_figure(out).with_figure(replace(vehicle, player=None))
    state = _spend_turn(state, (crew.id, vehicle.id))
    return state, [Step("vehicle_left", params)]


def check_pick_up(state: GameState, marine_id: str, rules: RulesData) -> tuple[Figure, Item]:
    """Refuse ``marine_id``'s picking up the extra-heavy weapon under it unless allowed;
    the marine and the weapon lying under it."""
    marine = _figure(state, marine_id)
    _check_foot_marine(state, marine, "turn_pickup_commander")
    item = next((i for i in state.items if i.square == marine.squares[0]), None)
    if item is None:
        raise TurnError("turn_pickup_nothing", figure=marine_id, square=list(marine.squares[0]))
    done = state.turn.of(marine_id)
    if done.attacks or PICKUP in done.phases:
        raise TurnError("turn_pickup_attacked", figure=marine_id)
    if VEHICLE in done.phases:
        raise TurnError("turn_vehicle_turn", figure=marine_id)
    rules.weapon(item.weapon)  # an unknown weapon fails here, before anything changes
    return marine, item


def pick_up(state: GameState, marine_id: str, rules: RulesData) -> tuple[GameState, list[Step]]:
    """``marine_id`` takes the extra-heavy weapon lying on its square (module docstring)."""
    marine, item = check_pick_up(state, marine_id, rules)
    weapons = (item.weapon,)
    armed = replace(marine, unit=rules.marine_unit(weapons), weapons=weapons)
    state = state.with_figure(armed)
    state = state.replace(items=tuple(i for i in state.items if i.id != item.id))
    state = record_phase(state, marine_id, PICKUP)
    value = rules.marine_value(armed.unit, weapons)
    old = marine.weapons[0] if marine.weapons else None
    params = {"figure": marine_id, "weapon": item.weapon, "old_weapon": old}
    return state, [Step("weapon_picked_up", {**params, "points": value})]


def equipment_actions(state: GameState, figure_id: str, rules: RulesData) -> list[EquipmentAction]:
    """Every special-equipment action ``figure_id`` may take now (none refused)."""
    if not state.has_figure(figure_id):
        return []
    figure = state.figure(figure_id)
    actions: list[EquipmentAction] = []
    if is_vehicle(figure) or figure.piloting is not None:
        vehicle_id = figure.piloting or figure.id
        try:
            vehicle, crew = check_leave(state, vehicle_id)
        except TurnError:
            return []
        squares = () if vehicle.unit == TARANTULA else exit_squares(state, vehicle)
        if vehicle.unit == TARANTULA or squares:
            actions.append(EquipmentAction("leave", crew.id, vehicle.id, squares=squares))
        return actions
    for other in state.figures:
        if is_vehicle(other) and other.on_board:
            try:
                check_crew(state, figure_id, other.id)
            except TurnError:
                continue
            actions.append(EquipmentAction("crew", figure_id, other.id))
    try:
        _marine, item = check_pick_up(state, figure_id, rules)
    except TurnError:
        pass
    else:
        actions.append(EquipmentAction("pick_up", figure_id, weapon=item.weapon))
    return actions
