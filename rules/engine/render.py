"""An ASCII picture of a game state, for the judge's screen and the command line.

The picture is the map drawing (``docs/maps.md``) with the current door states, and each
figure drawn on its squares with a two-character label: marines get their player's letter
(A, B, C... in player order) and a number, aliens a lowercase letter of their type and a
number, hidden blips ``?`` and a number. A legend under the drawing says who is who.
"""

from __future__ import annotations

from .geometry import Square, format_square
from .maps import MARKER_LETTERS, draw_grid
from .state import ALIEN, GameState

_DIGITS = "123456789abcdefghijklmnopqrstuvwxyz"


def figure_labels(state: GameState) -> dict[str, str]:
    """Two-character label of every figure on the board, by figure id."""
    labels: dict[str, str] = {}
    players = [p.id for p in state.players]
    for f in state.figures:
        if f.player is not None and f.player not in players:
            players.append(f.player)
    counters: dict[str, int] = {}
    for f in state.figures:
        if not f.on_board:
            continue
        if f.side == ALIEN:
            letter = MARKER_LETTERS.get(f.unit, next((c for c in f.unit if c.isalpha()), "x"))
            letter = letter.lower()
        elif f.player is not None:
            letter = chr(ord("A") + players.index(f.player) % 26)
        else:
            letter = "M"
        n = counters.get(letter, 0)
        counters[letter] = n + 1
        labels[f.id] = letter + _DIGITS[n % len(_DIGITS)]
    return labels


def render(state: GameState, *, show_blip_types: bool = True) -> str:
    """The state as text: a header line, the drawing, and the legend of labels."""
    board = state.board
    labels = figure_labels(state)
    drawn: dict[Square, str] = {}
    for f in state.figures:
        for sq in f.squares:
            drawn[sq] = labels[f.id]
    blip_labels: dict[str, str] = {}
    for n, blip in enumerate(state.blips):
        label = "?" + _DIGITS[n % len(_DIGITS)]
        blip_labels[blip.id] = label
        drawn.setdefault(blip.square, label)
    title = board.title or board.name or "map"
    active = f", {state.active_player} to play" if state.active_player else ""
    lines = [f"{title} ({board.width}x{board.height}), round {state.round}{active}"]
    lines.extend(draw_grid(board, state.doors, drawn.get))
    lines.append("")
    for f in state.figures:
        owner = f"player {f.player}" if f.player else ("aliens" if f.is_alien else "abandoned")
        where = (
            " ".join(format_square(sq) for sq in f.squares)
            if f.on_board
            else f"inside {f.piloting}"
        )
        weapons = f", {'+'.join(f.weapons)}" if f.weapons else ""
        label = labels.get(f.id, "--")
        lines.append(
            f"{label} {f.id}: {f.unit} ({owner}) at {where}, facing {f.facing.value}, "
            f"{f.life_points} LP{weapons}"
        )
    for blip in state.blips:
        hidden = f" hiding {blip.type}" if show_blip_types else ""
        lines.append(
            f"{blip_labels[blip.id]} blip {blip.id} at {format_square(blip.square)}{hidden}"
        )
    for item in state.items:
        lines.append(f"-- {item.id}: {item.weapon} lying on {format_square(item.square)}")
    if state.surveyed_sections:
        lines.append("surveyed sections: " + ", ".join(state.surveyed_sections))
    return "\n".join(lines) + "\n"
