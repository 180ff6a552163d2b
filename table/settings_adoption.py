"""A started game adopts its session's corrected settings (issue 13 item 4).

A game keeps its own copy of the stipulation, the reinforcement pool and the rules data
overrides from when it was set up, so a correction of the stage or the session (an event
deck that was typed wrong, reinforcements forgotten, a token value changed in the catalogue)
does not reach it by itself. Adopting appends one recorded snapshot (a judge's edit, with
the reason) whose state takes the session's current settings, keeping what the game has
played so far: the figures, the state's progress (the event cards drawn, the Genestealers
that appeared, the Solitaire pile; ``GameState.progress``), the Solitaire mission, and the
reinforcement tokens already played.
"""

from __future__ import annotations

from types import MappingProxyType

from rules.engine.ai.solitaire_policy import MISSION
from rules.engine.session_records import without_legacy
from rules.engine.state import GameState, Stipulation
from rules.engine.units import RulesDataError, load_rules_data
from table.actions import GameError, append_snapshot, latest_snapshot, snapshot_state
from table.models import Game, Snapshot, SnapshotKind
from table.session_material import (
    EngineSetup,
    SessionMaterialError,
    check_equipment_blips,
    engine_setup,
    remaining_reinforcements,
)
from table.snapshot_summaries import SETTINGS_ADOPTED
from table.step_log import engine_error_text

#: Switches the game set up for itself, not the stipulation (its progress is in
#: ``state.progress`` and stays as it is).
PROGRESS = (MISSION,)


def adopt_session_settings(game: Game, *, expected_number: int, actor=None) -> Snapshot:
    """Append a snapshot of ``game`` playing its session's current settings."""
    state = snapshot_state(latest_snapshot(game))
    try:
        setup = engine_setup(game.session)
        check_equipment_blips(state.board, setup.switches)
        load_rules_data(setup.overrides or None)
    except (SessionMaterialError, RulesDataError) as error:
        raise GameError(engine_error_text(error)) from None
    return append_snapshot(
        game,
        expected_number,
        _adopted(state, setup),
        SnapshotKind.JUDGE_EDIT,
        actor=actor,
        summary_parts=[(SETTINGS_ADOPTED, {})],
    )


def settings_changed(game: Game, setup: EngineSetup, state: GameState | None = None) -> bool:
    """Whether the session's settings (``setup``: :func:`~table.session_material.
    engine_setup` of the game's session) differ from those ``game`` plays now (``state``,
    its latest state, when the caller has it already), so that adopting them would change
    something."""
    if state is None:
        state = snapshot_state(latest_snapshot(game))
    adopted = _adopted(state, setup)
    return (
        adopted.stipulation != state.stipulation
        or adopted.reinforcements != state.reinforcements
        or (adopted.data_overrides or {}) != (state.data_overrides or {})
    )


def _adopted(state: GameState, setup: EngineSetup) -> GameState:
    """``state`` playing the settings of ``setup``, keeping what the game has played."""
    kept = {
        key: state.stipulation.switches[key]
        for key in PROGRESS
        if key in state.stipulation.switches
    }
    return state.replace(
        stipulation=Stipulation(
            setup.kind, MappingProxyType({**without_legacy(setup.switches), **kept})
        ),
        reinforcements=remaining_reinforcements(state, setup.reinforcements),
        data_overrides=setup.overrides,
    )
