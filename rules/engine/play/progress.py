"""The session progress the Alien turn keeps in the state (``GameState.progress``): the
event cards drawn, the Genestealer markers used (``"x,y"``), the Solitaire blip pile.
States of format ``bob-state/1`` kept them in the stipulation switches; loading moves
them here (:mod:`rules.engine.session_records`)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from rules.engine.state import GameState


def with_progress(state: GameState, **changes: Any) -> GameState:
    """The state with the progress fields ``changes`` replaced."""
    return state.replace(progress=replace(state.progress, **changes))
