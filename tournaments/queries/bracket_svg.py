"""The tournament bracket drawn as a standalone SVG picture.

Pure layout: it takes plain data (stages → sessions → seats) and returns SVG text, so it can be
tested and cached without a request. One column per stage, one box per session with a row per
seat; a line joins every qualifier to their seat in the next stage; qualifiers, the best
runner-up and the podium are marked both by colour and by a symbol (never colour alone). A
stage not seated yet is one dashed box saying what is planned, joined to the stage before it
by a dashed arrow (a dashed outline and words, again not colour alone).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from xml.sax.saxutils import escape

COLUMN_WIDTH = 260
COLUMN_GAP = 70
HEADER_HEIGHT = 34
SESSION_TITLE_HEIGHT = 24
ROW_HEIGHT = 22
SESSION_GAP = 18
MARGIN = 16

SQUAD_FILL = {"blue": "#1d4ed8", "red": "#b91c1c", "yellow": "#ca8a04"}
QUALIFIED_FILL = "#e5f5e8"
RUNNER_UP_FILL = "#fff4d6"
PLAIN_FILL = "#ffffff"
MEDALS = ("#c9a227", "#9aa3ad", "#b0703c")


@dataclass(frozen=True)
class BracketSeat:
    player_key: str
    player_name: str
    squad_colour: str = ""
    points: int | None = None
    place: int | None = None
    qualified: bool = False
    best_runner_up: bool = False


@dataclass(frozen=True)
class BracketSession:
    label: str
    seats: Sequence[BracketSeat]
    link: str = ""


@dataclass(frozen=True)
class BracketStage:
    """A column. A stage with ``summary`` is drawn as one box of those lines, the first in
    bold (and linking to ``link``), in place of its sessions: a stage of hundreds of sessions
    is a column tens of thousands of pixels tall. A ``planned`` stage (not seated yet, so
    without sessions) is such a box, dashed."""

    label: str
    sessions: Sequence[BracketSession]
    summary: tuple[str, ...] | None = None
    link: str = ""
    planned: bool = False


@dataclass(frozen=True)
class BracketLabels:
    """Translated words the picture needs (the caller translates; this module stays pure)."""

    title: str
    description: str
    podium: str
    qualified: str
    best_runner_up: str
    points: str
    legend: str
    planned: str


@dataclass
class _Placed:
    x: float
    y: float
    rows: dict[str, float] = field(default_factory=dict)


def _session_height(session: BracketSession) -> int:
    return SESSION_TITLE_HEIGHT + ROW_HEIGHT * max(len(session.seats), 1)


def _summary_height(lines: Sequence[str]) -> int:
    return SESSION_TITLE_HEIGHT + ROW_HEIGHT * len(lines)


def _column_height(stage: BracketStage) -> int:
    if stage.summary is not None:
        return _summary_height(stage.summary)
    sessions = stage.sessions
    return sum(_session_height(s) for s in sessions) + SESSION_GAP * max(len(sessions) - 1, 0)


#: The text styles, as attributes written once (a bracket of 2,187 players has 5,000 texts).
HEADING = ' font-size="16" font-weight="700"'
SESSION_TITLE = ' font-size="13" font-weight="700"'
SEAT_NAME_SIZE = 13
SEAT_NAME = f' font-size="{SEAT_NAME_SIZE}"'
SEAT_SCORE_SIZE = 12
SEAT_SCORE = f' font-size="{SEAT_SCORE_SIZE}" text-anchor="end"'
PODIUM_NAME_SIZE = 14
PODIUM_NAME = f' font-size="{PODIUM_NAME_SIZE}" font-weight="700"'
LEGEND = ' font-size="12"'


def _text(x: float, y: float, content: str, style: str) -> str:
    return f'<text x="{x:.0f}" y="{y:.0f}"{style}>{escape(content)}</text>'


#: A character's advance in the drawing's font as a share of its size, taken wide (most
#: letters are narrower): the picture knows no font, so a name is fitted by its length.
CHAR_WIDTH = 0.62
ELLIPSIS = "…"


def fit_name(name: str, width: float, font_size: float) -> str:
    """``name`` as it fits ``width`` pixels at ``font_size``: whole, or cut with an
    ellipsis (a 60-character nickname would run over the points and the next box)."""
    room = int(width / (font_size * CHAR_WIDTH))
    if len(name) <= room:
        return name
    return name[: max(room - 1, 1)].rstrip() + ELLIPSIS


def _titled(parts: list[str], title: str) -> list[str]:
    """``parts`` grouped under ``title``, the tooltip and accessible name of the group
    (a ``<title>`` names its parent element, so each needs a group of its own)."""
    return [f"<g><title>{escape(title)}</title>", *parts, "</g>"]


def _seat_row(seat: BracketSeat, x: float, y: float, labels: BracketLabels) -> list[str]:
    fill = PLAIN_FILL
    marker = ""
    if seat.qualified:
        fill = QUALIFIED_FILL
        marker = "✓"
    if seat.best_runner_up:
        fill = RUNNER_UP_FILL
        marker = "★"
    parts = [
        f'<rect x="{x:.0f}" y="{y:.0f}" width="{COLUMN_WIDTH}" height="{ROW_HEIGHT}" '
        f'fill="{fill}" stroke="#c9ced6"/>'
    ]
    if seat.squad_colour in SQUAD_FILL:
        parts.append(
            f'<rect x="{x + 4:.0f}" y="{y + 5:.0f}" width="10" height="12" '
            f'fill="{SQUAD_FILL[seat.squad_colour]}"/>'
        )
    place = f"{seat.place}. " if seat.place else ""
    right = []
    if seat.points is not None:
        right.append(f"{seat.points} {labels.points}")
    if marker:
        right.append(marker)
    score = " ".join(right)
    # The name from x + 20 up to the score (right-aligned 6 from the edge), 8 apart.
    room = COLUMN_WIDTH - 20 - 6 - 8 - len(score) * SEAT_SCORE_SIZE * CHAR_WIDTH
    name = fit_name(f"{place}{seat.player_name}", room, SEAT_NAME_SIZE)
    parts.append(_text(x + 20, y + 16, name, SEAT_NAME))
    if score:
        parts.append(_text(x + COLUMN_WIDTH - 6, y + 16, score, SEAT_SCORE))
    if seat.qualified or seat.best_runner_up:
        mark = labels.best_runner_up if seat.best_runner_up else labels.qualified
        return _titled(parts, f"{seat.player_name}: {mark}")
    if name != f"{place}{seat.player_name}":
        return _titled(parts, seat.player_name)
    return parts


def _summary_box(stage: BracketStage, x: float, y: float) -> str:
    """The box drawn in place of a stage's sessions: its lines (the first in bold), linked;
    dashed for a stage not seated yet."""
    lines = stage.summary or ()
    outline = ' fill="#f6f7f9" stroke-dasharray="6 4"' if stage.planned else ' fill="#e9edf2"'
    box = (
        f'<rect x="{x:.0f}" y="{y:.0f}" width="{COLUMN_WIDTH}" height="{_summary_height(lines)}"'
        f'{outline} stroke="#7b8494" rx="4"/>'
    ) + "".join(
        _text(x + 8, y + 24 * (number + 1), line, SESSION_TITLE if number == 0 else SEAT_NAME)
        for number, line in enumerate(lines)
    )
    return f'<a href="{escape(stage.link)}">{box}</a>' if stage.link else box


def _planned_arrow(x: float, y: float) -> str:
    """A dashed arrow across the gap before the column at ``x``, at height ``y``: the way to
    a stage not seated yet."""
    start, end = x - COLUMN_GAP + 8, x - 4
    return (
        f'<path d="M{start:.0f},{y:.0f} H{end - 8:.0f}" fill="none" stroke="#4a5260" '
        f'stroke-width="1.5" stroke-dasharray="5 4"/>'
        f'<path d="M{end - 9:.0f},{y - 5:.0f} L{end:.0f},{y:.0f} L{end - 9:.0f},{y + 5:.0f} Z" '
        f'fill="#4a5260"/>'
    )


def render_bracket_svg(
    stages: Sequence[BracketStage], podium: Sequence[str], labels: BracketLabels
) -> str:
    """SVG text for the whole bracket; ``podium`` lists up to three names, first place first."""
    tallest = max([_column_height(stage) for stage in stages] + [3 * ROW_HEIGHT + 40])
    columns = len(stages) + (1 if podium else 0)
    width = MARGIN * 2 + max(columns, 1) * COLUMN_WIDTH + max(columns - 1, 0) * COLUMN_GAP
    legend_height = 30
    height = MARGIN * 2 + HEADER_HEIGHT + tallest + legend_height
    body: list[str] = []
    placed: list[dict[str, tuple[float, float]]] = []
    for index, stage in enumerate(stages):
        x = MARGIN + index * (COLUMN_WIDTH + COLUMN_GAP)
        body.append(_text(x, MARGIN + 20, stage.label, HEADING))
        y = MARGIN + HEADER_HEIGHT + (tallest - _column_height(stage)) / 2
        rows: dict[str, tuple[float, float]] = {}
        if stage.summary is not None:
            body.append(_summary_box(stage, x, y))
        if stage.planned and index:
            body.append(_planned_arrow(x, MARGIN + HEADER_HEIGHT + tallest / 2))
        for session in stage.sessions:
            title = _text(x + 4, y + 17, session.label, SESSION_TITLE)
            if session.link:
                title = f'<a href="{escape(session.link)}">{title}</a>'
            body.append(
                f'<rect x="{x:.0f}" y="{y:.0f}" width="{COLUMN_WIDTH}" '
                f'height="{_session_height(session)}" fill="#e9edf2" stroke="#7b8494" rx="4"/>'
            )
            body.append(title)
            row_y = y + SESSION_TITLE_HEIGHT
            for seat in session.seats:
                body.extend(_seat_row(seat, x, row_y, labels))
                rows[seat.player_key] = (x, row_y + ROW_HEIGHT / 2)
                row_y += ROW_HEIGHT
            y += _session_height(session) + SESSION_GAP
        placed.append(rows)
    connectors: list[str] = []
    for index, stage in enumerate(stages[:-1]):
        for session in stage.sessions:
            for seat in session.seats:
                target = placed[index + 1].get(seat.player_key)
                source = placed[index].get(seat.player_key)
                if not (seat.qualified or seat.best_runner_up) or not target or not source:
                    continue
                x1, y1 = source[0] + COLUMN_WIDTH, source[1]
                x2, y2 = target
                middle = (x1 + x2) / 2
                connectors.append(
                    f'<path d="M{x1:.0f},{y1:.0f} C{middle:.0f},{y1:.0f} {middle:.0f},{y2:.0f} '
                    f'{x2:.0f},{y2:.0f}" fill="none" stroke="#1c6b2e" stroke-width="1.5"/>'
                )
    if podium:
        x = MARGIN + len(stages) * (COLUMN_WIDTH + COLUMN_GAP)
        body.append(_text(x, MARGIN + 20, labels.podium, HEADING))
        y = MARGIN + HEADER_HEIGHT + (tallest - 3 * (ROW_HEIGHT + 8)) / 2
        for place, name in enumerate(podium[:3], start=1):
            body.append(
                f'<rect x="{x:.0f}" y="{y:.0f}" width="{COLUMN_WIDTH}" height="{ROW_HEIGHT + 4}" '
                f'fill="{MEDALS[place - 1]}" rx="4"/>'
            )
            # Bold: a tenth wider than the other names.
            shown = fit_name(f"{place}. {name}", COLUMN_WIDTH - 16, PODIUM_NAME_SIZE * 1.1)
            text = _text(x + 8, y + 18, shown, PODIUM_NAME)
            body.extend(_titled([text], name) if shown != f"{place}. {name}" else [text])
            y += ROW_HEIGHT + 8
    legend_y = height - MARGIN - 8
    legend = f"{labels.legend}: ✓ {labels.qualified} · ★ {labels.best_runner_up}"
    if any(stage.planned for stage in stages):
        legend += f" · {labels.planned}"
    body.append(_text(MARGIN, legend_y, legend, LEGEND))
    # A group, not an img: an img would hide the session links inside it from screen
    # readers while they stay in the tab order.
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width:.0f} {height:.0f}" '
        f'width="{width:.0f}" height="{height:.0f}" role="group" '
        f'aria-labelledby="bracket-title bracket-desc" font-family="system-ui, sans-serif" '
        f'fill="#14171c" class="bracket">'
        f'<title id="bracket-title">{escape(labels.title)}</title>'
        f'<desc id="bracket-desc">{escape(labels.description)}</desc>'
        + "".join(connectors)
        + "".join(body)
        + "</svg>"
    )
