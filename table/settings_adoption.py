"""A started game adopts its session's corrected settings (issue 13 item 4).

A game keeps its own copy of the stipulation, the reinforcement pool and the rules data
overrides from when it was set up, so a correction of the stage or the session (an event
deck that was typed wrong, reinforcements forgotten, a token value changed in the catalogue)
does not reach it by itself. Adopting appends one recorded snapshot (a judge's edit, with
the reason) whose state takes the session's current settings, keeping what the game has
played so far: the figures, the state's progress (the event cards drawn, the Genestealers
that appeared, the Solitaire pile; ``GameState.progress``), the Solitaire mission, and the
reinforcement tokens already played.

A weapon's class corrected in the catalogue (decision 69) changes what kind of marine
carries it: each marine takes the unit its weapons' new class makes it, as a game set up
now would arm it (its move, armour and life points with its worth), keeping the life
points it lost (stored tournament decision 35).
"""

from __future__ import annotations

from dataclasses import replace
from types import MappingProxyType

from rules.engine.ai.solitaire_policy import MISSION
from rules.engine.session_records import without_legacy
from rules.engine.state import GameState, Stipulation, rules_of
from rules.engine.units import MARINE_UNITS, RulesData, RulesDataError, load_rules_data
from table.actions import GameError, append_snapshot, latest_snapshot, snapshot_state
from table.game_setup import GameSetupError, marine_unit
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
        adopted = _adopted(state, setup)
    except (SessionMaterialError, RulesDataError) as error:
        raise GameError(engine_error_text(error)) from None
    except GameSetupError as error:
        raise GameError(str(error)) from None
    return append_snapshot(
        game,
        expected_number,
        adopted,
        SnapshotKind.JUDGE_EDIT,
        actor=actor,
        summary_parts=[(SETTINGS_ADOPTED, {})],
    )


def settings_changed(game: Game, setup: EngineSetup, state: GameState | None = None) -> bool:
    """Whether the session's settings (``setup``: :func:`~table.session_material.
    engine_setup` of the game's session) differ from those ``game`` plays now (``state``,
    its latest state, when the caller has it already), so that adopting them would change
    something (settings it cannot play count as changed: adopting says what is wrong)."""
    if state is None:
        state = snapshot_state(latest_snapshot(game))
    try:
        adopted = _adopted(state, setup)
    except (RulesDataError, GameSetupError):
        return True
    return (
        adopted.stipulation != state.stipulation
        or adopted.reinforcements != state.reinforcements
        or (adopted.data_overrides or {}) != (state.data_overrides or {})
        or adopted.figures != state.figures
    )


def _adopted(state: GameState, setup: EngineSetup) -> GameState:
    """``state`` playing the settings of ``setup``, keeping what the game has played.

    Raises :class:`RulesDataError` when the settings' rules data do not load and
    :class:`GameSetupError` when a marine carries a weapon they do not know."""
    before = rules_of(state)
    kept = {
        key: state.stipulation.switches[key]
        for key in PROGRESS
        if key in state.stipulation.switches
    }
    state = state.replace(
        stipulation=Stipulation(
            setup.kind, MappingProxyType({**without_legacy(setup.switches), **kept})
        ),
        reinforcements=remaining_reinforcements(state, setup.reinforcements),
        data_overrides=setup.overrides,
    )
    return _rearmed(state, before, load_rules_data(setup.overrides or None))


def _rearmed(state: GameState, before: RulesData, after: RulesData) -> GameState:
    """``state`` with each marine (not the commander) of the unit its weapons' class in
    ``after`` makes it, as :func:`~table.game_setup.squad_figures` arms it: its move,
    armour, hand-to-hand dice and life points follow its worth (RULES §7, §10b). A marine
    whose unit changes keeps the life points it lost under ``before`` and at least one:
    adopting a correction kills nobody."""
    for figure in state.figures:
        if figure.unit not in MARINE_UNITS:
            continue
        unit = marine_unit(after, figure.weapons)
        if unit == figure.unit:
            continue
        lost = before.max_life_points(figure.unit, figure.weapons) - figure.life_points
        life_points = max(1, after.max_life_points(unit, figure.weapons) - lost)
        state = state.with_figure(replace(figure, unit=unit, life_points=life_points))
    return state
