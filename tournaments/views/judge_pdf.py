"""The judge's print sheets as PDF downloads, in the request's language."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.utils.http import content_disposition_header
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from tournaments.models import Session
from tournaments.sheets.data import SheetHeader, loadout_sheet, score_sheet
from tournaments.sheets.pdf import loadout_sheet_pdf, score_sheet_pdf
from tournaments.web.permissions import judge_required


def sheet_filename(header: SheetHeader, title: str) -> str:
    """E.g. ``coppa-preliminary-session-2-score-sheet.pdf`` (in the request's language)."""
    words = [header.tournament_slug, header.stage, _("session"), str(header.session_number), title]
    return f"{slugify(' '.join(words))}.pdf"


def pdf_response(content: bytes, filename: str) -> HttpResponse:
    response = HttpResponse(content, content_type="application/pdf")
    response["Content-Disposition"] = content_disposition_header(True, filename)
    response["Cache-Control"] = "private, no-store"
    return response


@judge_required
@require_GET
def score_sheet_download(request: HttpRequest, session: Session) -> HttpResponse:
    sheet = score_sheet(session)
    return pdf_response(score_sheet_pdf(sheet), sheet_filename(sheet.header, _("Score sheet")))


@judge_required
@require_GET
def loadout_sheet_download(request: HttpRequest, session: Session) -> HttpResponse:
    sheet = loadout_sheet(session)
    return pdf_response(loadout_sheet_pdf(sheet), sheet_filename(sheet.header, _("Loadout sheet")))
