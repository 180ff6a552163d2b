"""The game state drawn as an SVG picture for the judge's phone.

Pure drawing from an engine :class:`~rules.engine.state.GameState`: squares by kind, walls
and doors on the edges (each door state with its own colour *and* line style), docking claws
(their own fill, outlined and numbered: a marine ending a move there leaves play), R
squares, alien markers, flag spots, hidden blips, marines coloured by squad with their name
and life points, aliens by type. A game's picture leaves out what its stipulation
never uses: the R squares and alien markers of a session played without aliens, the flag
spots outside Catch the Flag (they would pass for flags); a bare map shows them all.
Coordinates are printed along the top and left (drawn last, over the board: the touch
board keeps them in sight as a zoomed board scrolls) so the judge can type squares. A marine is
named by its id, the name the log, the forms and the history use (``p1-m4``), on two lines
when it does not fit a square; an alien or a vehicle, whose id (``ork-blip-1-1``) would be
squeezed to dots, by a short label (``Or1``: its unit's initials and its number, see
:func:`short_labels`), its id in its title (the tooltip) and in the board's table of
figures.

Every square carries ``data-square="x,y"`` (a docking claw's ``data-claw`` too) and every
figure ``data-figure`` and ``data-square`` (its anchor): the touch board
(``static/js/board-play.js``) lights squares up and turns taps into moves from them.
"""

from __future__ import annotations

from collections.abc import Mapping
from xml.sax.saxutils import escape

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from rules.engine.board import DoorState, SquareKind
from rules.engine.figure_names import ITEM_NAMES
from rules.engine.flags import flags_to_place
from rules.engine.geometry import Edge, Square
from rules.engine.maps import MARKER_LETTERS
from rules.engine.naming import current_naming
from rules.engine.narration import format_param
from rules.engine.state import ALIEN, Figure, GameState
from table.step_log import narration_language
from tournaments.queries.bracket_svg import SQUAD_FILL

CELL = 24
MARGIN = 18
KIND_FILL = {
    SquareKind.CORRIDOR: "#d9dee5",
    SquareKind.ROOM: "#f3f1e6",
    SquareKind.SOLID: "#39404a",
}
CLAW_FILL = "#bfdbfe"
#: A docking claw's outline, drawn inside its squares (walls keep their edges), and its number.
CLAW_INK = "#1d4ed8"
CLAW_LABEL = "#1e3a8a"
WALL = "#111827"
#: Door state -> (colour, dash pattern, width).
DOOR_STYLE = {
    DoorState.CLOSED: ("#92400e", "", 5),
    DoorState.OPEN: ("#15803d", "3 3", 3),
    DoorState.BULKHEAD: ("#7f1d1d", "", 7),
    DoorState.DESTROYED: ("#6b7280", "1 3", 3),
}
ALIEN_FILL = "#4c1d95"
UNKNOWN_SQUAD = "#475569"
#: Marine fills: the bracket's, with a darker yellow so that the white label on a yellow
#: squad's marine keeps a 4.5:1 contrast.
MARINE_FILL = {**SQUAD_FILL, "yellow": "#a16207"}
MARKER_INK = "#4b5563"  # 5.5:1 or more on corridor, room and claw squares
FLAG_INK = "#b91c1c"


def door_label(state: DoorState) -> str:
    return {
        DoorState.CLOSED: _("closed door"),
        DoorState.OPEN: _("open door"),
        DoorState.BULKHEAD: _("reinforced bulkhead door"),
        DoorState.DESTROYED: _("destroyed bulkhead door"),
    }[state]


def _edge_line(e: Edge) -> tuple[float, float, float, float]:
    (ax, ay), (bx, by) = e
    if ay == by:  # side by side: a vertical line between them
        x = MARGIN + max(ax, bx) * CELL
        return x, MARGIN + ay * CELL, x, MARGIN + (ay + 1) * CELL
    y = MARGIN + max(ay, by) * CELL
    return MARGIN + ax * CELL, y, MARGIN + (ax + 1) * CELL, y


def _origin(sq: Square) -> tuple[int, int]:
    return MARGIN + sq[0] * CELL, MARGIN + sq[1] * CELL


def _text(
    x: float,
    y: float,
    text: str,
    *,
    size: float = 11,
    fill: str = "#111",
    weight="400",
    fit: float | None = None,
) -> str:
    """A centred text; ``fit``: squeeze it to that width when longer (a figure's name)."""
    squeeze = (
        f' textLength="{fit:g}" lengthAdjust="spacingAndGlyphs"'
        if fit is not None and len(text) * size * 0.6 > fit
        else ""
    )
    return (
        f'<text x="{x:g}" y="{y:g}" font-size="{size:g}" fill="{fill}" font-weight="{weight}" '
        f'text-anchor="middle" dominant-baseline="central"{squeeze}>{escape(text)}</text>'
    )


def name_lines(figure_id: str) -> list[str]:
    """A figure's id as drawn on its square: whole when short, else split after its first
    hyphen (``ork-blip-1-1`` -> ``ork``, ``blip-1-1``)."""
    if len(figure_id) <= 5 or "-" not in figure_id:
        return [figure_id]
    head, tail = figure_id.split("-", 1)
    return [head, tail]


def unit_initials(unit: str) -> str:
    """A unit's short name, spelt as the figures' ids spell the unit: the first two letters
    of a one-word unit (``Or`` for ``ork``, ``Ge`` for ``genestealer``), else its words'
    initials (``CM`` for ``chaos_marine``)."""
    words = [word for word in unit.split("_") if word]
    if len(words) == 1:
        return words[0][:2].capitalize()
    return "".join(word[0] for word in words).upper()


def short_label(unit: str, number: int) -> str:
    """The label drawn on the alien or vehicle numbered ``number`` in its ``unit``: the
    unit's initials and the number (``Or1``)."""
    return f"{unit_initials(unit)}{number}"


def short_labels(state: GameState) -> dict[str, str]:
    """The label drawn on each alien and vehicle, by figure id: its unit's initials and its
    number in its unit (``Or1``, ``Or2``, ``Ge1``), which the engine gives it when it comes
    into play and never gives again in the game (:meth:`GameState.with_arrival`): when
    ``Or1`` dies, ``Or2`` stays ``Or2`` and the next Ork is ``Or3``. Marines keep their ids
    (``p1-m4``), the players' names for them."""
    return {
        fid: short_label(state.figure(fid).unit, number)
        for fid, number in state.figure_numbers().items()
    }


def _name(cx: float, cy: float, width: float, figure_id: str) -> list[str]:
    lines = name_lines(figure_id)
    size = 8 if len(lines) == 1 else 7
    top = cy - 2 - (len(lines) - 1) * size / 2
    return [
        _text(cx, top + i * size, line, size=size, fill="#fff", weight="700", fit=width - 4)
        for i, line in enumerate(lines)
    ]


def _label(cx: float, cy: float, width: float, height: float, label: str) -> str:
    """A short label, as large as its figure's base allows (a Dreadnought's is 2×2)."""
    size = 14 if min(width, height) > CELL else 10
    if len(label) > 3:
        size -= 1
    return _text(cx, cy - 2, label, size=size, fill="#fff", weight="700", fit=width - 4)


def _square_attr(sq: Square) -> str:
    return f'data-square="{sq[0]},{sq[1]}"'


#: A square's four sides: the outward step to the neighbour across it, and its two ends as
#: corners of the square (in cells from its top-left corner), the second a step along it.
_SIDES = (
    ((0, -1), (0, 0), (1, 0)),
    ((1, 0), (1, 0), (1, 1)),
    ((0, 1), (0, 1), (1, 1)),
    ((-1, 0), (0, 0), (0, 1)),
)


def _end_shift(own: set[Square], beside: Square, normal: tuple[int, int], inset: float) -> float:
    """How far a claw's outline line stops short of its square's corner, ``beside`` being
    the square past that corner along the line: an outer corner (no claw square there)
    ``inset`` short, a straight edge (the line goes on there) none, an inner corner (the
    claw turns there) ``inset`` past it."""
    if beside not in own:
        return inset
    return -inset if (beside[0] + normal[0], beside[1] + normal[1]) in own else 0


def _claw_outline(claw_id: str, squares: list[Square], inset: float = 2.5) -> str:
    """Docking claw ``claw_id`` outlined ``inset`` inside the edge of its squares (walls
    keep the edge itself), so the judge tells it from a corridor at a glance: a marine that
    ends a move there leaves play. Each side no square of the claw shares is a line."""
    own = set(squares)
    lines = []
    for x, y in sorted(own):
        x0, y0 = _origin((x, y))
        for (nx, ny), (ax, ay), (bx, by) in _SIDES:
            if (x + nx, y + ny) in own:
                continue
            tx, ty = bx - ax, by - ay  # along the side
            start = _end_shift(own, (x - tx, y - ty), (nx, ny), inset)
            stop = _end_shift(own, (x + tx, y + ty), (nx, ny), inset)
            x1 = x0 + ax * CELL - nx * inset + tx * start
            y1 = y0 + ay * CELL - ny * inset + ty * start
            x2 = x0 + bx * CELL - nx * inset - tx * stop
            y2 = y0 + by * CELL - ny * inset - ty * stop
            lines.append(f"M{x1:g} {y1:g}L{x2:g} {y2:g}")
    title = _("Docking claw %(claw)s: a marine that ends its move here leaves play") % {
        "claw": claw_id
    }
    return (
        f'<g class="claw" data-claw="{escape(claw_id)}"><title>{escape(title)}</title>'
        f'<path d="{"".join(lines)}" fill="none" stroke="{CLAW_INK}" stroke-width="2" '
        f'stroke-linecap="square"/></g>'
    )


def _flag_mark(x0: float, y0: float) -> str:
    """A flag in the top-left corner of the square at ``(x0, y0)``."""
    return _text(x0 + 6, y0 + 7, "⚑", size=9, fill=FLAG_INK)


def _figure(
    figure: Figure, fill: str, flag: str | None = None, label: str | None = None
) -> list[str]:
    """``figure`` drawn in ``fill``, marked with the ``flag`` it carries if any, named by
    ``label`` if it has one, else by its id."""
    xs = [sq[0] for sq in figure.squares]
    ys = [sq[1] for sq in figure.squares]
    x0, y0 = _origin((min(xs), min(ys)))
    width = (max(xs) - min(xs) + 1) * CELL
    height = (max(ys) - min(ys) + 1) * CELL
    lang = narration_language()
    title = escape(
        ngettext(
            "%(id)s: %(unit)s, %(lp)d life point, %(weapons)s",
            "%(id)s: %(unit)s, %(lp)d life points, %(weapons)s",
            figure.life_points,
        )
        % {
            "id": figure.id,
            "unit": format_param("unit", figure.unit, lang),
            "lp": figure.life_points,
            "weapons": ", ".join(format_param("weapon", w, lang) for w in figure.weapons) or "-",
        }
    )
    if flag is not None:
        title += escape(" · " + _("carries %(flag)s") % {"flag": flag})
    if figure.side == ALIEN:
        shape = (
            f'<rect x="{x0 + 2}" y="{y0 + 2}" width="{width - 4}" height="{height - 4}" '
            f'rx="3" fill="{fill}" stroke="#fff" stroke-width="1"/>'
        )
    else:
        shape = (
            f'<circle cx="{x0 + width / 2:g}" cy="{y0 + height / 2:g}" '
            f'r="{min(width, height) / 2 - 1:g}" '
            f'fill="{fill}" stroke="#fff" stroke-width="1.5"/>'
        )
    cx, cy = x0 + width / 2, y0 + height / 2
    # What the step log calls it (the touch board's texts too): its player's name may quote.
    name = escape(current_naming().figure_name(figure.id), {'"': "&quot;", "'": "&#x27;"})
    return [
        f'<g class="figure" data-figure="{escape(figure.id)}" data-side="{figure.side}" '
        f'data-name="{name}" '
        f"{_square_attr(figure.squares[0])}>"
        f"<title>{title}</title>",
        shape,
        *([_label(cx, cy, width, height, label)] if label else _name(cx, cy, width, figure.id)),
        _text(x0 + width - 5, y0 + height - 5, str(figure.life_points), size=8, fill="#fde047"),
        *(
            [f'<circle cx="{x0 + 6}" cy="{y0 + 7}" r="6" fill="#fff"/>', _flag_mark(x0, y0)]
            if flag
            else []
        ),
        "</g>",
    ]


def _rulers(columns: int, rows: int) -> list[str]:
    """The coordinates along the top and down the left, each ruler a group on a band of
    its own, drawn over everything: the touch board moves them with the scroll of a
    zoomed board, so that the judge always reads where a square is."""
    width = MARGIN + columns * CELL + 2
    height = MARGIN + rows * CELL + 2
    band = 'class="ruler-band" fill="#fff" fill-opacity="0.92"'
    return [
        f'<g class="ruler ruler-columns"><rect {band} x="0" y="0" width="{width}" '
        f'height="{MARGIN}"/>',
        *(
            _text(MARGIN + x * CELL + CELL / 2, MARGIN / 2, str(x), size=9, fill="#555")
            for x in range(columns)
        ),
        "</g>",
        f'<g class="ruler ruler-rows"><rect {band} x="0" y="0" width="{MARGIN}" '
        f'height="{height}"/>',
        *(
            _text(MARGIN / 2, MARGIN + y * CELL + CELL / 2, str(y), size=9, fill="#555")
            for y in range(rows)
        ),
        "</g>",
        f'<g class="ruler ruler-corner"><rect {band} x="0" y="0" width="{MARGIN}" '
        f'height="{MARGIN}"/></g>',
    ]


def board_svg(
    state: GameState,
    colours: Mapping[str, str] | None = None,
    *,
    show_blip_types: bool = True,
    bare_map: bool = False,
) -> str:
    """The SVG text of ``state``; ``colours`` maps player ids to squad colours (blue, red,
    yellow). ``show_blip_types``: say what each blip hides and draw the map's alien
    markers, which tell where Genestealers appear and what a section's blips hide (the
    judge's board; never the spectators'). ``bare_map``: a map before any game (the
    organiser's map page): no round in the title, and every R square, alien marker and flag
    spot of the map drawn. A game draws the R squares and alien markers only when it is
    played with aliens, and the flag spots only in Catch the Flag before its flags are
    placed."""
    colours = colours or {}
    board = state.board
    aliens_marked = bare_map or state.stipulation.with_aliens
    spots_marked = bare_map or flags_to_place(state)
    width = MARGIN + board.width * CELL + 2
    height = MARGIN + board.height * CELL + 2
    title = escape(board.title_in(narration_language()) or board.name or _("Board"))
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
        f'class="board" role="img" aria-labelledby="board-title" data-cell="{CELL}" '
        f'data-margin="{MARGIN}" data-columns="{board.width}" data-rows="{board.height}" '
        f'font-family="system-ui, sans-serif">',
        f'<title id="board-title">{title}'
        + ("" if bare_map else f", {escape(_('round'))} {state.round}")
        + "</title>",
    ]
    claws = {sq: claw.id for claw in board.claws for sq in claw.squares}
    for sq in board.squares():
        x0, y0 = _origin(sq)
        if sq in claws:  # the touch board asks before a move into one (board-play.js)
            fill, kind = CLAW_FILL, f'class="cell claw" data-claw="{escape(claws[sq])}"'
        else:
            fill, kind = KIND_FILL[board.kind(sq)], 'class="cell"'
        out.append(
            f'<rect {kind} {_square_attr(sq)} x="{x0}" y="{y0}" width="{CELL}" '
            f'height="{CELL}" fill="{fill}" stroke="#0002" stroke-width="0.5"/>'
        )
        cx, cy = x0 + CELL / 2, y0 + CELL / 2
        if sq in claws:
            out.append(_text(cx, cy, claws[sq], size=10, fill=CLAW_LABEL, weight="700"))
        elif aliens_marked and sq in board.reinforcement_squares:
            out.append(_text(cx, cy, "R", size=11, fill="#9a3412", weight="700"))
        elif aliens_marked and show_blip_types and sq in board.markers:
            letter = MARKER_LETTERS.get(board.markers[sq], board.markers[sq][:1])
            out.append(_text(cx, cy, letter, size=9, fill=MARKER_INK))
        if spots_marked and sq in board.flag_spots:
            out.append(_flag_mark(x0, y0))
    for e in sorted(board.walls):
        x1, y1, x2, y2 = _edge_line(e)
        out.append(
            f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="{WALL}" stroke-width="3" '
            f'stroke-linecap="square"/>'
        )
    out.extend(_claw_outline(claw.id, list(claw.squares)) for claw in board.claws)
    for e, door_state in state.doors.items():
        colour, dash, stroke = DOOR_STYLE[door_state]
        x1, y1, x2, y2 = _edge_line(e)
        dashes = f' stroke-dasharray="{dash}"' if dash else ""
        out.append(
            f'<line class="door door-{door_state.value}" x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" '
            f'stroke="{colour}" stroke-width="{stroke}"{dashes}>'
            f"<title>{escape(door_label(door_state))}</title></line>"
        )
    for blip in state.blips:
        x0, y0 = _origin(blip.square)
        kind = "item" if blip.type in ITEM_NAMES else "unit"  # special equipment, or an alien
        hidden = format_param(kind, blip.type, narration_language())
        title = _("blip hiding %(type)s") % {"type": hidden} if show_blip_types else _("blip")
        out.append(
            f'<g class="blip" {_square_attr(blip.square)}><title>{escape(title)}'
            f'</title><circle cx="{x0 + CELL / 2}" cy="{y0 + CELL / 2}" r="{CELL / 2 - 3}" '
            f'fill="#fef3c7" stroke="#92400e" stroke-width="1.5"/>'
        )
        out.append(_text(x0 + CELL / 2, y0 + CELL / 2, "?", size=12, fill="#92400e", weight="700"))
        out.append("</g>")
    for item in state.items:
        x0, y0 = _origin(item.square)
        name = format_param("weapon", item.weapon, narration_language())
        title = _("%(weapon)s lying here: a marine standing on it may pick it up") % {
            "weapon": name
        }
        out.append(
            f'<g class="item" {_square_attr(item.square)}><title>{escape(title)}</title>'
            f'<rect x="{x0 + 4}" y="{y0 + CELL / 2 - 4}" width="{CELL - 8}" height="8" '
            f'fill="#e5e7eb" stroke="#374151" stroke-width="1.5"/></g>'
        )
    labels = short_labels(state)
    carried = {}
    for flag in state.flags:
        if flag.carried_by is not None:
            carried[flag.carried_by] = flag.id
        elif flag.square is not None and (show_blip_types or not flag.hidden):
            x0, y0 = _origin(flag.square)
            title = _("%(flag)s lies here") % {"flag": flag.id}
            out.append(
                f'<g class="flag" {_square_attr(flag.square)}><title>{escape(title)}</title>'
                f"{_flag_mark(x0, y0)}</g>"
            )
    for figure in state.figures:
        if not figure.on_board:
            continue
        if figure.side == ALIEN:
            fill = ALIEN_FILL
        else:
            fill = MARINE_FILL.get(colours.get(figure.player or "", ""), UNKNOWN_SQUAD)
        out.extend(_figure(figure, fill, carried.get(figure.id), labels.get(figure.id)))
    out.extend(_rulers(board.width, board.height))
    out.append("</svg>")
    return "\n".join(out)
