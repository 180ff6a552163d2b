"""Wording of the organiser's stage pages (QA on a phone in Italian): one word for each
session status, the tournament's "slug" said as an organiser understands it, and no
capital after a colon where a sentence was joined onto another."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation

from tests.factories import confirm_session
from tests.web.test_closed_stage_rules import close, play
from tournaments.actions.tournament_setup import stage_settings_lock
from tournaments.models import Session, SessionStatus, Stage

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("language", "label", "help_text"),
    [
        ("en", "Short name (web address)", "The part of the tournament&#x27;s web address"),
        ("it", "Nome breve (indirizzo web)", "La parte dell&#x27;indirizzo web del torneo"),
    ],
)
def test_the_slug_is_called_by_what_it_is(world, role_client, language, label, help_text):
    url = reverse("tournaments:organiser_dashboard", args=[world.tournament.slug])
    page = role_client("organiser").get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert f'<label for="id_slug">{label}' in page
    assert help_text in page and "/t/coppa-2026/" in page
    assert ">Slug<" not in page and ">slug<" not in page


def test_the_planned_status_says_what_is_missing():
    """ "Pianificata" and "In calendario" read as the same thing: the first means the time,
    table or judge is still missing, so it says so, the time too (decision 52: a session
    with a table and a judge but no time is not scheduled either)."""
    with translation.override("it"):
        labels = {str(label) for _value, label in SessionStatus.choices}
        assert "In attesa di orario, tavolo o giudice" in labels and "In calendario" in labels
        assert "Pianificata" not in labels
    with translation.override("en"):
        assert str(SessionStatus.PLANNED.label) == "Awaiting a time, a table or a judge"
    assert SessionStatus.PLANNED.value == "planned"


def test_the_public_schedule_shows_the_new_status(world, client):
    Session.objects.filter(pk=world.session.pk).update(status=SessionStatus.PLANNED)
    url = reverse("tournaments:session", args=[world.tournament.slug, world.session.pk])
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="it").content.decode()
    # It has a judge, but neither a time nor a table: the page names both.
    assert "In attesa di orario e tavolo" in page and "Pianificata" not in page


def test_why_a_closed_stage_cannot_reopen_reads_as_two_sentences(world):
    """QA: "Non si può più riaprire: La fase 2…", a capital after the colon."""
    play(world)
    close(world)
    nxt = Session.objects.filter(stage__tournament=world.tournament, stage__number=2).first()
    confirm_session(nxt, lambda seat: seat.seat_order * 10)
    stage = Stage.objects.get(pk=world.stage.pk)
    with translation.override("it"):
        reason = stage_settings_lock(stage)
    assert reason is not None
    assert "Non si può più riaprire. La fase 2 è già stata giocata" in reason
    assert ": La " not in reason
    with translation.override("en"):
        reason = stage_settings_lock(stage)
    assert "It can no longer be reopened. Stage 2 has been played already" in str(reason)


def test_the_closed_stages_seating_reads_on_after_its_colon(world, role_client):
    """The read-only settings said "quello del torneo: Per teste di serie"."""
    play(world)
    close(world)
    url = reverse("tournaments:organiser_stage", args=[world.tournament.slug, 1])
    page = role_client("organiser").get(url, HTTP_ACCEPT_LANGUAGE="it").content.decode()
    with translation.override("it"):
        method = str(world.tournament.get_seating_method_display())
    assert f"quello del torneo: {method[0].lower()}{method[1:]}" in page
    assert f"quello del torneo: {method}" not in page
