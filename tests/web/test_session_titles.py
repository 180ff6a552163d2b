"""A session's title, "Semifinal · session 2", is one sentence to translate on every page:
the stage and the number go into one message (``{{ stage }} · session {{ number }}``, the
partial ``tournaments/partials/session_title.html``), never "session" translated alone and
glued to the stage, which a translator could not reorder. The projector's "Table 7 ·
session 2" and "Table to be announced · session 3" are one sentence each as well.

The pages are read in English and Italian; a translator's reordering of the message (put
into the Italian catalogue for the test) must show on each page, which only a page using
the message itself does."""

from __future__ import annotations

import html
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from django.conf import settings
from django.core.cache import caches
from django.test import Client
from django.urls import reverse
from django.utils import translation
from django.utils.translation import trans_real

from tests.factories import VenueTableFactory, confirm_session
from tests.web.conftest import World, as_player, login
from tournaments.models import Session

pytestmark = pytest.mark.django_db

TITLE = "%(stage)s · session %(number)s"
TABLE_TITLE = "Table %(table)s · session %(number)s"
NO_TABLE_TITLE = "Table to be announced · session %(number)s"


@contextmanager
def italian_reads(msgid: str, text: str) -> Iterator[None]:
    """The Italian catalogue translates ``msgid`` as ``text`` (a translator's reordering)
    while the block runs; the pages' cache is emptied on the way in, so none is read from
    an earlier rendering."""
    catalogue = trans_real.translation("it")._catalog
    assert msgid in catalogue, f"{msgid!r} is not in the Italian catalogue"
    before = catalogue[msgid]
    catalogue[msgid] = text
    for alias in settings.CACHES:
        caches[alias].clear()
    try:
        yield
    finally:
        catalogue[msgid] = before


@pytest.fixture
def played(world: World) -> World:
    """The world with its first session's result confirmed (the projector's latest
    result), the second session at table 7 and the third without a table."""
    confirm_session(world.session, lambda seat: 10 * seat.seat_order)
    second, third = world.stage.sessions.order_by("number")[1:3]
    table = VenueTableFactory(tournament=world.tournament, name="7")
    Session.objects.filter(pk=second.pk).update(table=table)
    Session.objects.filter(pk=third.pk).update(table=None)
    return world


def stage_name(world: World, language: str) -> str:
    with translation.override(language):
        return str(world.stage.get_kind_display())


def page(world: World, role: str, url: str, language: str) -> str:
    client = Client()
    if role == "player":
        as_player(client, world.player)
    elif role != "anonymous":
        login(client, {"judge": world.judge, "organiser": world.organiser}[role])
    response = client.get(url, HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200, f"{url} answered {response.status_code}"
    return html.unescape(response.content.decode())


def pages(world: World) -> list[tuple[str, str, str]]:
    """(what, role, URL) of the pages titling the world's first session."""
    session = world.session
    seat = session.seats.get(player=world.player)
    return [
        ("judge's session sheet", "judge", reverse("tournaments:judge_session", args=[session.pk])),
        ("judge's sessions", "judge", reverse("tournaments:judge_home")),
        ("judge's result entry", "judge", reverse("tournaments:judge_result", args=[session.pk])),
        (
            "judge's preferences page",
            "judge",
            reverse("tournaments:judge_preferences", args=[session.pk, seat.pk]),
        ),
        (
            "printed score sheet",
            "judge",
            reverse("tournaments:judge_print_score", args=[session.pk]),
        ),
        ("board's games list", "judge", reverse("table:games", args=[session.pk])),
        ("player's loadout", "player", reverse("tournaments:player_loadout", args=[seat.pk])),
        ("player's dispute", "player", reverse("tournaments:player_dispute", args=[session.pk])),
        (
            "organiser's schedule",
            "organiser",
            reverse("tournaments:organiser_schedule", args=[world.tournament.slug]),
        ),
        (
            "projector (latest results)",
            "anonymous",
            reverse("tournaments:projector", args=[world.tournament.slug]),
        ),
    ]


@pytest.mark.parametrize("language", ["en", "it"])
def test_every_page_titles_the_session_in_the_readers_language(played, language):
    session_word = {"en": "session", "it": "sessione"}[language]
    title = f"{stage_name(played, language)} · {session_word} {played.session.number}"
    untitled = [
        what for what, role, url in pages(played) if title not in page(played, role, url, language)
    ]
    assert not untitled, f"no {title!r} on: {untitled}"


def test_every_page_reads_the_title_as_one_sentence(played):
    """A translator who reorders the Italian title is obeyed on every page."""
    reordered = f"Sessione numero {played.session.number} della {stage_name(played, 'it')}"
    with italian_reads(TITLE, "Sessione numero %(number)s della %(stage)s"):
        pieced = [
            what
            for what, role, url in pages(played)
            if reordered not in page(played, role, url, "it")
        ]
    assert not pieced, f"these pages build the session's title from pieces: {pieced}"


def test_the_projector_names_each_table_and_session_in_one_sentence(played):
    url = reverse("tournaments:projector", args=[played.tournament.slug])
    english = page(played, "anonymous", url, "en")
    assert "Table 7 · session 2</h3>" in english
    assert "Table to be announced · session 3</h3>" in english
    italian = page(played, "anonymous", url, "it")
    assert "Tavolo 7 · sessione 2</h3>" in italian
    assert "Tavolo da annunciare · sessione 3</h3>" in italian
    with italian_reads(TABLE_TITLE, "Sessione %(number)s al tavolo %(table)s"):
        assert "Sessione 2 al tavolo 7</h3>" in page(played, "anonymous", url, "it")
    with italian_reads(NO_TABLE_TITLE, "Sessione %(number)s, tavolo da annunciare"):
        assert "Sessione 3, tavolo da annunciare</h3>" in page(played, "anonymous", url, "it")


def test_no_template_translates_the_word_session_alone():
    """The word translated on its own is half a sentence: the title's partial, or a
    blocktranslate holding the whole sentence, is used instead."""
    templates = Path(settings.BASE_DIR) / "templates"
    pieces = [
        f"{path.relative_to(templates)}:{number}"
        for path in sorted(templates.rglob("*.html"))
        for number, line in enumerate(path.read_text().splitlines(), start=1)
        if '{% translate "session" %}' in line or '{% trans "session" %}' in line
    ]
    assert not pieces, f"these lines glue a translated 'session' to other words: {pieces}"
