"""A memo of sight that ignores figures, shared by every alien of every turn.

Whether walls, doors and solid squares leave a line open depends only on the board and the
current door states, so the answer is kept per (board, door states) and reused by every
later question on the same layout: a firing line is only traced (figures do block it) when
this cheaper, cached test says the layout lets it through. Lines of sight are symmetric
(RULES §10), so a pair is stored once.
"""

from __future__ import annotations

from rules.engine.geometry import Square
from rules.engine.los import line_of_sight
from rules.engine.state import GameState

_LAYOUTS: dict[tuple, dict[tuple[Square, Square], bool]] = {}
MAX_LAYOUTS = 256
MAX_PAIRS = 200_000


def layout_table(state: GameState) -> dict[tuple[Square, Square], bool]:
    """The memo of the state's layout: (a, b) with a <= b -> visible."""
    table = state.memo.get("ai_layout_sight")
    if table is None:
        key = (state.board, state.door_open_slots)
        table = _LAYOUTS.get(key)
        if table is None:
            if len(_LAYOUTS) >= MAX_LAYOUTS:
                _LAYOUTS.clear()
            table = _LAYOUTS[key] = {}
        state.memo["ai_layout_sight"] = table
    return table


def layout_visible(state: GameState, a: Square, b: Square) -> bool:
    """True if no wall, closed door or solid square blocks the line (figures ignored)."""
    table = layout_table(state)
    pair = (a, b) if a <= b else (b, a)
    seen = table.get(pair)
    if seen is None:
        if len(table) >= MAX_PAIRS:
            table.clear()
        seen = table[pair] = line_of_sight(state, a, b, for_firing=False).visible
    return seen
