"""The judge's sheets as A4 PDF files, drawn with ReportLab from :mod:`.data` objects.

Labels come from the active translation (the request's language), with the same messages as
the HTML print pages. The text is set in Bitstream Vera, the TrueType font ReportLab ships:
it is embedded in the file and covers the accented letters of Italian (and the "−", "—"
and "×" the sheets use), which the PDF standard fonts would not guarantee.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from io import BytesIO
from pathlib import Path
from xml.sax.saxutils import escape

import reportlab
from django.utils import formats, timezone
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from reportlab.lib import colors
from reportlab.lib.enums import TA_RIGHT
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Flowable, KeepTogether, Paragraph, SimpleDocTemplate, Spacer, Table

from tournaments.sheets.data import (
    LoadoutSheet,
    ScoreRow,
    ScoreSheet,
    SeatLine,
    SeatLoadout,
    SheetHeader,
)

FONT = "BobSans"
BOLD = "BobSans-Bold"
ITALIC = "BobSans-Italic"
BOLD_ITALIC = "BobSans-BoldItalic"
MARGIN = 15 * mm
#: Height of a box the judge writes in.
BOX_HEIGHT = 7 * mm
#: Width of the label column of the loadout sheet.
LABEL_WIDTH = 52 * mm
SQUAD_COLOURS = {
    "blue": colors.HexColor("#1d4ed8"),
    "red": colors.HexColor("#b91c1c"),
    "yellow": colors.HexColor("#ca8a04"),
}
OK = colors.HexColor("#15803d")
BAD = colors.HexColor("#b91c1c")
GRID = colors.HexColor("#444444")
SHADE = colors.HexColor("#eeeeee")


@cache
def _register_fonts() -> None:
    folder = Path(reportlab.__file__).parent / "fonts"
    faces = {FONT: "Vera", BOLD: "VeraBd", ITALIC: "VeraIt", BOLD_ITALIC: "VeraBI"}
    for name, file in faces.items():
        pdfmetrics.registerFont(TTFont(name, str(folder / f"{file}.ttf")))
    pdfmetrics.registerFontFamily(
        FONT, normal=FONT, bold=BOLD, italic=ITALIC, boldItalic=BOLD_ITALIC
    )


def _style(name: str, size: float, *, bold: bool = False, **extra) -> ParagraphStyle:
    return ParagraphStyle(
        name, fontName=BOLD if bold else FONT, fontSize=size, leading=size * 1.25, **extra
    )


TITLE = _style("title", 16, bold=True, spaceAfter=2 * mm)
INFO = _style("info", 10.5, spaceAfter=4 * mm)
HEADING = _style("heading", 12, bold=True, spaceBefore=3 * mm, spaceAfter=1.5 * mm)
CELL = _style("cell", 9.5)
CELL_BOLD = _style("cell-bold", 9.5, bold=True)
CELL_NUMBER = _style("cell-number", 10.5, alignment=TA_RIGHT)
FOOTER = _style("footer", 8)


def _text(value: object, style: ParagraphStyle = CELL) -> Paragraph:
    return Paragraph(escape(str(value)), style)


def info_line(header: SheetHeader) -> str:
    """Stage, session, date and time, table and judge, as the print pages' first line."""
    parts = [
        _("%(stage)s · session %(number)s")
        % {"stage": header.stage, "number": header.session_number}
    ]
    if header.scheduled_at:
        local = timezone.localtime(header.scheduled_at)
        parts.append(formats.date_format(local, "DATETIME_FORMAT"))
    if header.table:
        parts.append(f"{_('table')} {header.table}")
    if header.judge:
        parts.append(f"{_('judge')} {header.judge}")
    return " — ".join(parts)


def seat_heading(seat: SeatLine, *, initiative: bool = True) -> Paragraph:
    """The seat's title, e.g. "Player — Squad (Colour) — initiative 2", the squad coloured."""
    text = escape(seat.player)
    if seat.squad:
        colour = _hex(SQUAD_COLOURS.get(seat.colour_code, colors.black))
        text += f' — <font color="{colour}">{escape(seat.squad)}</font> ({escape(seat.colour)})'
    if initiative and seat.initiative:
        text += f" — {escape(_('initiative'))} {seat.initiative}"
    return Paragraph(text, HEADING)


def _document(buffer: BytesIO, title: str, header: SheetHeader) -> SimpleDocTemplate:
    return SimpleDocTemplate(
        buffer,
        pagesize=A4,
        leftMargin=MARGIN,
        rightMargin=MARGIN,
        topMargin=MARGIN,
        bottomMargin=MARGIN + 5 * mm,
        title=f"{title} — {header.tournament}",
        author=header.judge or "BoB",
        subject=info_line(header),
        creator="BoB",
        lang=get_language() or "",
    )


def _build(title: str, header: SheetHeader, body: Iterable[Flowable]) -> bytes:
    """The PDF bytes: title, the info line, ``body``, and a footer on every page."""
    buffer = BytesIO()
    document = _document(buffer, title, header)
    footer = f"{header.tournament} · {info_line(header)}"

    def on_page(canvas: Canvas, doc: SimpleDocTemplate) -> None:
        canvas.saveState()
        canvas.setFont(FONT, FOOTER.fontSize)
        canvas.setFillColor(GRID)
        width = A4[0] - 2 * MARGIN - 10 * mm
        canvas.drawString(MARGIN, MARGIN, _fit(footer, width, FOOTER.fontSize))
        canvas.drawRightString(A4[0] - MARGIN, MARGIN, str(doc.page))
        canvas.restoreState()

    story = [
        Paragraph(escape(f"{title} — {header.tournament}"), TITLE),
        Paragraph(escape(info_line(header)), INFO),
        *body,
    ]
    document.build(story, onFirstPage=on_page, onLaterPages=on_page)
    return buffer.getvalue()


def _fit(text: str, width: float, size: float) -> str:
    """``text`` cut with an ellipsis so that it fits in ``width`` points."""
    if pdfmetrics.stringWidth(text, FONT, size) <= width:
        return text
    while text and pdfmetrics.stringWidth(text + "…", FONT, size) > width:
        text = text[:-1]
    return text + "…"


def _grid(rows: list[list], widths: list[float], commands: Iterable[tuple] = ()) -> Table:
    """A ruled table, rows as high as their content."""
    table = Table(rows, colWidths=widths)
    table.setStyle(
        [
            ("GRID", (0, 0), (-1, -1), 0.6, GRID),
            ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
            ("TOPPADDING", (0, 0), (-1, -1), 3),
            ("BOTTOMPADDING", (0, 0), (-1, -1), 3),
            *commands,
        ]
    )
    return table


def _writing_room(first: int, last: int = -1) -> list[tuple]:
    """Padding that makes rows ``first`` to ``last`` at least :data:`BOX_HEIGHT` high (and
    taller when their label wraps), room to write a number or a name by hand."""
    padding = (BOX_HEIGHT - CELL.leading) / 2
    return [
        ("TOPPADDING", (0, first), (-1, last), padding),
        ("BOTTOMPADDING", (0, first), (-1, last), padding),
    ]


def _hex(colour: colors.Color) -> str:
    return "#" + colour.hexval()[2:]


def _number(value: int | None) -> Paragraph | str:
    return "" if value is None else _text(value, CELL_NUMBER)


def _score_table(rows: tuple[ScoreRow, ...], total: int | None) -> Table:
    width = A4[0] - 2 * MARGIN
    head = [_text(label, CELL_BOLD) for label in (_("Item"), _("Value"), _("Count"), _("Points"))]
    body = [
        [_text(row.label), _text(row.value), _number(row.count), _number(row.points)]
        for row in rows
    ]
    foot = [_text(_("Total"), CELL_BOLD), "", "", _number(total)]
    return _grid(
        [head, *body, foot],
        [width - 84 * mm, 36 * mm, 24 * mm, 24 * mm],
        commands=[
            *_writing_room(1),
            ("BACKGROUND", (0, 0), (-1, 0), SHADE),
            ("BACKGROUND", (0, -1), (-1, -1), SHADE),
            ("SPAN", (0, -1), (2, -1)),
        ],
    )


def _signature_line() -> Table:
    label = _text(_("Judge's signature") + ":", CELL_BOLD)
    return Table(
        [[label, ""]],
        colWidths=[45 * mm, 80 * mm],
        rowHeights=[BOX_HEIGHT * 1.5],
        hAlign="LEFT",
        style=[("LINEBELOW", (1, 0), (1, 0), 0.6, GRID), ("VALIGN", (0, 0), (-1, -1), "BOTTOM")],
    )


def score_sheet_pdf(sheet: ScoreSheet) -> bytes:
    """The score sheet: per seat the §7 items, with boxes (filled when a result exists)."""
    _register_fonts()
    body: list[Flowable] = []
    if sheet.result_version is not None:
        body.append(
            _text(_("Latest version: %(number)s.") % {"number": sheet.result_version}, INFO)
        )
    if sheet.token_line:
        body.append(_text(sheet.token_line, INFO))
    for seat in sheet.seats:
        body.append(KeepTogether([seat_heading(seat.seat), _score_table(seat.rows, seat.total)]))
    body += [Spacer(1, 8 * mm), _signature_line()]
    return _build(_("Score sheet"), sheet.header, body)


def _loadout_rows(seat: SeatLoadout, blank_marines: range) -> list[list]:
    def joined(items: tuple[str, ...]) -> str:
        return ", ".join(items) or "–"

    if not seat.submitted:
        marines = [[_text(f"{_('Marine')} {number}", CELL_BOLD), ""] for number in blank_marines]
        return [
            [_text(_("Commander"), CELL_BOLD), ""],
            *marines,
            [_text(_("Order cards"), CELL_BOLD), ""],
            [_text(_("Equipment cards"), CELL_BOLD), ""],
            [_text(_("Check"), CELL_BOLD), _text(_("no loadout submitted"))],
        ]
    if seat.problems:
        verdict = f'<font color="{_hex(BAD)}"><b>{escape(_("not allowed"))}</b></font>'
        check = Paragraph(f"{verdict}: {escape('; '.join(seat.problems))}", CELL)
    else:
        check = Paragraph(f'<font color="{_hex(OK)}"><b>{escape(_("allowed"))}</b></font>', CELL)
    return [
        [_text(_("Commander"), CELL_BOLD), _text(seat.commander)],
        [_text(_("Marines"), CELL_BOLD), _text(joined(seat.weapons))],
        [_text(_("Order cards"), CELL_BOLD), _text(joined(seat.orders))],
        [_text(_("Equipment cards"), CELL_BOLD), _text(joined(seat.equipment))],
        [_text(_("Check"), CELL_BOLD), check],
    ]


def loadout_sheet_pdf(sheet: LoadoutSheet) -> bytes:
    """The loadout sheet: per seat the loadout, cards and check, or lines to fill in."""
    _register_fonts()
    width = A4[0] - 2 * MARGIN
    body: list[Flowable] = []
    for seat in sheet.seats:
        rows = _loadout_rows(seat, sheet.blank_marine_numbers)
        room = () if seat.submitted else _writing_room(0, last=-2)
        table = _grid(rows, [LABEL_WIDTH, width - LABEL_WIDTH], commands=room)
        body.append(KeepTogether([seat_heading(seat.seat, initiative=False), table]))
    return _build(_("Loadout sheet"), sheet.header, body)
