"""An ASCII picture of a game state, for the judge's screen and the command line.

The picture is the map drawing (``docs/maps.md``) with the current door states, and each
figure drawn on its squares with a two-character label: marines get their player's letter
(A, B, C... in player order) and a number, aliens a lowercase letter of their type and a
number, hidden blips ``?`` and a number. A legend under the drawing says who is who.
"""

from __future__ import annotations

from .figure_names import UNIT_NAMES, WEAPON_NAMES
from .geometry import Square, format_square
from .maps import MARKER_LETTERS, draw_grid
from .narration_tools import FACING_NAMES, tool_text
from .state import ALIEN, Figure, GameState

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


def _name(table: dict[str, dict[str, str]], key: str, lang: str) -> str:
    """A unit's or weapon's key in English (as the state writes it), its name in Italian."""
    if lang == "en":
        return key
    entry = table.get(key)
    return entry[lang] if entry else key


def _legend_line(f: Figure, label: str, lang: str) -> str:
    if f.player:
        owner = tool_text("owner_player", lang, player=f.player)
    else:  # a marine-side figure of nobody is an abandoned vehicle
        owner = tool_text("owner_aliens" if f.is_alien else "owner_abandoned", lang)
    where = (
        " ".join(format_square(sq) for sq in f.squares)
        if f.on_board
        else tool_text("inside", lang, vehicle=f.piloting)
    )
    weapons = "+".join(_name(WEAPON_NAMES, w, lang) for w in f.weapons)
    return tool_text(
        "figure",
        lang,
        label=label,
        figure=f.id,
        unit=_name(UNIT_NAMES, f.unit, lang),
        owner=owner,
        where=where,
        facing=FACING_NAMES[f.facing.value][lang],
        lp=f.life_points,
    ) + (f", {weapons}" if weapons else "")


def render(state: GameState, *, show_blip_types: bool = True, lang: str = "en") -> str:
    """The state as text: a header line, the drawing, and the legend of labels, in
    ``lang`` ("it" or "en"; English shows unit and weapon keys as the state has them)."""
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
    title = board.title_in(lang) or board.name or "map"
    header = tool_text(
        "title", lang, title=title, width=board.width, height=board.height, round=state.round
    )
    if state.active_player:
        header += tool_text("to_play", lang, player=state.active_player)
    lines = [header]
    lines.extend(draw_grid(board, state.doors, drawn.get))
    lines.append("")
    for f in state.figures:
        lines.append(_legend_line(f, labels.get(f.id, "--"), lang))
    for blip in state.blips:
        square = format_square(blip.square)
        line = tool_text("blip", lang, label=blip_labels[blip.id], blip=blip.id, square=square)
        if show_blip_types:
            line += tool_text("blip_hiding", lang, unit=_name(UNIT_NAMES, blip.type, lang))
        lines.append(line)
    for item in state.items:
        weapon = _name(WEAPON_NAMES, item.weapon, lang)
        square = format_square(item.square)
        lines.append(tool_text("item_lying", lang, item=item.id, weapon=weapon, square=square))
    if state.surveyed_sections:
        lines.append(tool_text("surveyed", lang, sections=", ".join(state.surveyed_sections)))
    return "\n".join(lines) + "\n"
