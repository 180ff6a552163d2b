"""The judge's score and loadout sheets as PDF downloads: the same content as the print pages,
A4, in the request's language, with accented letters in an embedded font."""

from __future__ import annotations

import re
from datetime import datetime
from io import BytesIO
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
import reportlab
from django.urls import reverse
from django.utils import formats, timezone, translation
from pypdf import PdfReader
from reportlab.pdfbase.ttfonts import TTFontFile

from rules.engine.dice import SeededDice
from tests.factories import (
    PlayerFactory,
    SeatFactory,
    SessionFactory,
    StipulationFactory,
    VenueTableFactory,
)
from tests.web.test_player import add_cards
from tournaments.actions.result_entry import record_result
from tournaments.models import Loadout, Result, Squad, SquadColour, StipulationKind
from tournaments.queries.result_versions import version_totals
from tournaments.sheets.data import loadout_sheet, score_sheet

pytestmark = pytest.mark.django_db

#: Names with the accented letters an Italian sheet must show (not boxes).
NAMES = ["Niccolò", "Zoë Brontë", "Àngela", "Mattìa Perù"]
SCHEDULED = datetime(2025, 5, 17, 15, 30, tzinfo=ZoneInfo("Europe/Rome"))
VALID_LOADOUT = {
    "commander_combo": "bolter",
    "marine_weapons": ["laser-rifle", "plasma-gun", "laser-rifle", "assault-cannon"],
    "order_cards": ["order-1"],
    "equipment_cards": ["kit-1", "kit-2", "kit-3", "kit-4"],
}


def make_session(world, seats: int, number: int):
    """A session of ``world``'s stage judged by the world's judge, with drawn squads (a fourth
    squad is added for four seats) and rolled initiative (last seat first)."""
    if not world.tournament.squads.filter(slug="space-wolves").exists():
        Squad.objects.create(
            tournament=world.tournament,
            slug="space-wolves",
            name_en="Space Wolves",
            name_it="Lupi Siderali",
            colour=SquadColour.BLUE,
            order=9,
        )
    squads = list(world.tournament.squads.order_by("order", "pk"))
    session = SessionFactory(
        stage=world.stage,
        number=number,
        judge=world.judge,
        table=VenueTableFactory(tournament=world.tournament, name="Sala Ñ"),
        scheduled_at=SCHEDULED,
    )
    for index in range(seats):
        SeatFactory(
            session=session,
            player=PlayerFactory(name=NAMES[index], nickname=""),
            seat_order=index + 1,
            squad=squads[index],
            initiative_position=seats - index,
        )
    return session


@pytest.fixture
def four(world):
    """Four seats of a Catch the Flag with aliens, with a recorded result: seat 1 killed two
    heavy marines of seat 2, seat 3 brought a flag home (the stipulation's one objective,
    decision 71), seat 4 collected alien tokens and lost a marine to the aliens."""
    session = make_session(world, 4, number=50)
    StipulationFactory(
        session=session,
        kind=StipulationKind.CATCH_THE_FLAG,
        params={"flag_value": 30, "aliens": True},
    )
    ids = [str(seat.player_id) for seat in session.seats.order_by("seat_order")]
    breakdowns = [
        {"seat": ids[0], "kills": [{"victim": ids[1], "marine_class": "heavy", "count": 2}]},
        {
            "seat": ids[1],
            "losses": [{"marine_class": "heavy", "cause": "player", "killer": ids[0], "count": 2}],
        },
        {"seat": ids[2], "objectives": [{"label": "bandiera", "points": 30}]},
        {
            "seat": ids[3],
            "alien_tokens": [{"alien_type": "android", "value": 5, "count": 3}],
            "losses": [{"marine_class": "extra_heavy", "cause": "alien"}],
        },
    ]
    record_result(
        session, breakdowns, survivors=ids, confirmed=True, actor=world.judge, dice=SeededDice(1)
    )
    return session


@pytest.fixture
def two(world):
    """Two seats, no result: one allowed loadout, one with a plasma gun where it is not."""
    session = make_session(world, 2, number=51)
    add_cards(world.tournament)
    first, second = session.seats.order_by("seat_order")
    Loadout.objects.create(seat=first, **VALID_LOADOUT)
    bad = dict(VALID_LOADOUT, marine_weapons=["plasma-gun", *VALID_LOADOUT["marine_weapons"][1:]])
    Loadout.objects.create(seat=second, **bad)
    return session


@pytest.fixture
def judge(world, role_client):
    return role_client("judge")


def download(client, name: str, session, language: str = "it"):
    url = reverse(f"tournaments:judge_pdf_{name}", args=[session.pk])
    return client.get(url, HTTP_ACCEPT_LANGUAGE=language)


def pdf_text(response) -> str:
    """All the text of the PDF, whitespace (table cells, wrapped lines) made single spaces."""
    reader = PdfReader(BytesIO(response.content))
    return " ".join(" ".join(page.extract_text() for page in reader.pages).split())


def assert_pdf_download(response, filename: str) -> PdfReader:
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert response.content.startswith(b"%PDF-")
    assert response["Content-Disposition"] == f'attachment; filename="{filename}"'
    reader = PdfReader(BytesIO(response.content))
    for page in reader.pages:
        assert (round(float(page.mediabox.width)), round(float(page.mediabox.height))) == (
            595,
            842,
        ), "not A4"
    return reader


def local_when(language: str) -> str:
    with translation.override(language):
        return formats.date_format(timezone.localtime(SCHEDULED), "DATETIME_FORMAT")


def test_score_sheet_pdf_in_italian_has_the_seats_and_the_entered_result(judge, four):
    response = download(judge, "score", four)
    reader = assert_pdf_download(
        response, "coppa-fase-preliminare-sessione-50-scheda-punteggio.pdf"
    )
    assert reader.metadata.title == "Scheda punteggio — Coppa BoB"
    text = pdf_text(response)
    assert "Scheda punteggio — Coppa BoB" in text
    assert f"Fase Preliminare · sessione 50 — {local_when('it')} — tavolo Sala Ñ" in text
    assert "giudice judge" in text and "15:30" in text
    assert "Ultramarines (Blu) — iniziativa 4" in text
    assert "Zoë Brontë — Angeli Sanguinari (Rosso) — iniziativa 3" in text
    assert "Lupi Siderali" in text
    for name in NAMES:
        assert name in text
    assert "Voce Valore Quantità Punti" in text
    assert "Propri marine persi (qualsiasi causa)" in text
    assert "Ultima versione: 1." in text
    assert "Firma del giudice" in text
    niccolo, zoe, angela, mattia = re.split("|".join(NAMES), text)[1:]
    assert "Marine nemici con arma pesante o comandanti uccisi +10 2 20" in niccolo
    assert niccolo.rstrip().endswith("Totale 20")
    assert "Propri marine persi (qualsiasi causa) −5 / −10 / −15 2 -20" in zoe
    assert "Obiettivi stipulazione 1 30" in angela
    assert "Segnalini alieni raccolti come elencati sopra 3 15" in mattia
    assert "Totale 0" in mattia.split("Firma del giudice")[0]


def test_score_sheet_pdf_in_english(judge, four):
    response = download(judge, "score", four, "en")
    assert_pdf_download(response, "coppa-preliminary-session-50-score-sheet.pdf")
    text = pdf_text(response)
    assert "Score sheet — Coppa BoB" in text
    assert f"Preliminary · session 50 — {local_when('en')} — table Sala Ñ — judge judge" in text
    assert "Item Value Count Points" in text
    assert "Enemy heavy-weapon marines or commanders killed +10 2 20" in text
    assert "Own marines lost (any cause)" in text and "Judge's signature" in text
    assert "Niccolò — Ultramarines (Blue) — initiative 4" in text
    assert "Latest version: 1." in text


def test_the_rows_of_an_entered_result_add_up_to_its_total(four):
    sheet = score_sheet(four)
    totals = version_totals(Result.objects.get(session=four).latest_version())
    by_name = {seat.player.display_name: seat.player_id for seat in four.seats.all()}
    assert sheet.result_version == 1
    assert len(sheet.seats) == 4
    for line in sheet.seats:
        # A Catch the Flag with aliens, no special equipment, no stall breaker (decision 79).
        assert [row.label for row in line.rows] == [
            "Enemy light-weapon or unarmed marines killed",
            "Enemy heavy-weapon marines or commanders killed",
            "Enemy extra-heavy-weapon marines killed",
            "Alien tokens collected",
            "Objectives",
            "Own marines lost (any cause)",
        ]
        assert sum(row.points for row in line.rows) == line.total
        assert line.total == totals[by_name[line.seat.player]]


def test_a_blank_two_seat_score_sheet_has_boxes_to_fill_in(judge, two):
    sheet = score_sheet(two)
    assert sheet.result_version is None
    assert all(row.points is None and row.count is None for s in sheet.seats for row in s.rows)
    response = download(judge, "score", two)
    assert_pdf_download(response, "coppa-fase-preliminare-sessione-51-scheda-punteggio.pdf")
    text = pdf_text(response)
    assert "Niccolò — Ultramarines (Blu) — iniziativa 2" in text
    assert "Zoë Brontë — Angeli Sanguinari (Rosso) — iniziativa 1" in text
    assert "Ultima versione" not in text
    assert text.count("Quantità") == 2
    # An Alien Hunt: no stall breaker, no objective (decision 79); no numbers filled in.
    assert "Propri marine persi (qualsiasi causa) −5 / −10 / −15 Totale" in text
    assert "Anti-stallo" not in text and "Obiettivi" not in text


def test_loadout_sheet_pdf_shows_each_loadout_and_its_check(judge, two):
    response = download(judge, "loadouts", two)
    assert_pdf_download(response, "coppa-fase-preliminare-sessione-51-scheda-armamenti.pdf")
    text = pdf_text(response)
    assert "Scheda armamenti — Coppa BoB" in text
    assert f"sessione 51 — {local_when('it')} — tavolo Sala Ñ — giudice judge" in text
    with translation.override("it"):
        allowed, refused = loadout_sheet(two).seats
    assert allowed.allowed and not refused.allowed and refused.problems
    first, second = text.split("Zoë Brontë")
    assert "Niccolò — Ultramarines (Blu)" in first
    assert f"Comandante {allowed.commander}" in first
    assert f"Marine {', '.join(allowed.weapons)}" in first
    assert "Carte Ordine Ordine 1" in first
    assert f"Carte Equipaggiamento {', '.join(allowed.equipment)}" in first
    assert "Verifica ammesso" in first
    assert "Verifica non ammesso: " in second
    for problem in refused.problems:
        assert " ".join(problem.split()) in second


def test_loadout_sheet_pdf_in_english_with_blank_lines_for_missing_loadouts(judge, four):
    response = download(judge, "loadouts", four, "en")
    assert_pdf_download(response, "coppa-preliminary-session-50-loadout-sheet.pdf")
    text = pdf_text(response)
    assert "Loadout sheet — Coppa BoB" in text
    assert text.count("no loadout submitted") == 4
    assert text.count("Commander Marine 1 Marine 2 Marine 3 Marine 4 Order cards") == 4
    for name in NAMES:
        assert name in text


@pytest.mark.parametrize("name", ["score", "loadouts"])
def test_only_the_sessions_judge_and_organisers_download(world, role_client, four, name):
    assert download(role_client("judge"), name, four).status_code == 200
    assert download(role_client("organiser"), name, four).status_code == 200
    assert download(role_client("other_judge"), name, four).status_code == 403
    assert download(role_client("player"), name, four).status_code in (302, 403)
    anonymous = download(role_client("anonymous"), name, four)
    assert anonymous.status_code == 302
    assert anonymous["Location"].startswith(reverse("tournaments:login"))
    missing = role_client("judge").get(reverse(f"tournaments:judge_pdf_{name}", args=[999999]))
    assert missing.status_code == 404


def test_every_letter_of_the_sheets_is_in_the_embedded_font(judge, four, two):
    font = TTFontFile(str(Path(reportlab.__file__).parent / "fonts" / "Vera.ttf"))
    for session, name in ((four, "score"), (two, "loadouts"), (two, "score")):
        response = download(judge, name, session)
        assert b"/FontFile2" in response.content  # TrueType embedded, not a standard font
        letters = set(pdf_text(response)) - {" "}
        assert {"ò", "ë", "Ñ"} <= letters
        missing = sorted(letter for letter in letters if ord(letter) not in font.charToGlyph)
        assert not missing, f"drawn as boxes: {missing}"


def test_print_pages_show_the_same_sheet_and_link_to_the_pdf(judge, four):
    page = judge.get(reverse("tournaments:judge_print_score", args=[four.pk]))
    html = page.content.decode()
    assert reverse("tournaments:judge_pdf_score", args=[four.pk]) in html
    assert page.context["sheet"] == score_sheet(four)
    assert ">20<" in html and "Sala Ñ" in html
    loadouts = judge.get(reverse("tournaments:judge_print_loadouts", args=[four.pk]))
    assert reverse("tournaments:judge_pdf_loadouts", args=[four.pk]) in loadouts.content.decode()
    sheet = judge.get(reverse("tournaments:judge_session", args=[four.pk])).content.decode()
    assert reverse("tournaments:judge_pdf_score", args=[four.pk]) in sheet
    assert reverse("tournaments:judge_pdf_loadouts", args=[four.pk]) in sheet
