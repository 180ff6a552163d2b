"""The judge's special-equipment actions on the board (RULES §7, §10; ``docs/turns.md``
"Special equipment"): a marine crews a Tarantula or pilots a Dreadnought, the crew leaves
it, a marine picks up an extra-heavy weapon. Each goes through the engine
(:mod:`rules.engine.vehicles`), which refuses what the rules do not allow and names the
rule, and appends one snapshot (checked against the step the judge was looking at).
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from rules.engine.geometry import Square, format_square
from rules.engine.narration import Step
from rules.engine.state import GameState, rules_of
from rules.engine.turns import TurnError
from rules.engine.units import RulesDataError
from rules.engine.vehicles import crew_vehicle, leave_vehicle, pick_up
from table.actions import GameError, append_snapshot, latest_snapshot, snapshot_state
from table.models import Game, Snapshot, SnapshotKind
from table.snapshot_summaries import SummaryPart
from table.step_log import engine_error_text

CREW = "crew"
LEAVE = "leave"
PICK_UP = "pick_up"
ACTIONS = (CREW, LEAVE, PICK_UP)


def _apply(
    state: GameState, action: str, figure_id: str, vehicle_id: str | None, square: Square | None
) -> tuple[GameState, list[Step], list[SummaryPart]]:
    if action == CREW:
        if not vehicle_id:
            raise GameError(_("Choose the Tarantula or Dreadnought the marine boards."))
        new, steps = crew_vehicle(state, figure_id, vehicle_id)
        return new, steps, [("crewed", {"id": figure_id, "vehicle": vehicle_id})]
    if action == LEAVE:
        new, steps = leave_vehicle(state, figure_id, square)
        params = steps[0].params
        out = format_square(tuple(params["square"]))
        part = {"id": params["figure"], "vehicle": params["vehicle"], "square": out}
        return new, steps, [("left_vehicle", part)]
    if action == PICK_UP:
        new, steps = pick_up(state, figure_id, rules_of(state))
        return new, steps, [("picked_up", {"id": figure_id, "weapon": steps[0].params["weapon"]})]
    raise GameError(
        _("Unknown action %(action)s; choose one of: %(known)s.")
        % {"action": action, "known": ", ".join(ACTIONS)}
    )


def equipment_action(
    game: Game,
    action: str,
    figure_id: str,
    *,
    vehicle_id: str | None = None,
    square: Square | None = None,
    expected_number: int,
    actor: Any = None,
) -> Snapshot:
    """Carry out ``action`` (``crew`` the vehicle ``vehicle_id``, ``leave`` the vehicle
    ``figure_id`` is, or is aboard, getting out on ``square`` for a Dreadnought, or
    ``pick_up`` the weapon under ``figure_id``) as the next step of ``game``."""
    state = snapshot_state(latest_snapshot(game))
    try:
        new, steps, parts = _apply(state, action, figure_id, vehicle_id, square)
    except (TurnError, RulesDataError) as error:
        raise GameError(engine_error_text(error)) from None
    return append_snapshot(
        game,
        expected_number,
        new,
        SnapshotKind.MARINE_MOVE,
        actor=actor,
        summary_parts=parts,
        steps=[step.as_dict() for step in steps],
    )
