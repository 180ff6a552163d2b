"""Values no event can hold are refused in words, in the reader's language, and nothing is
saved: dates outside the years an event is held in (year 1 or 9999 could not even be
stored), score thresholds outside 1–9999, and a hidden value a page cut short or altered
sends (found by posting junk into every organiser form)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from rules.engine.dice import SeededDice
from tests.factories import (
    TournamentFactory,
    VenueTableFactory,
    confirm_session,
    confirm_stage,
    register_players,
)
from tests.web.page_forms import form_on
from tournaments.actions.session_setup import draw_squads
from tournaments.actions.stage_advance import advance
from tournaments.models import ActivityLog, ScoreThreshold

pytestmark = pytest.mark.django_db


def organiser(world, language: str = "en") -> Client:
    client = Client(raise_request_exception=True, HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(world.organiser)
    return client


def posted(client: Client, url: str, holding: str, to: str | None = None, **changes: str):
    """The form holding ``holding`` on the page ``url``, posted (to ``to``, else the page)
    with ``changes``."""
    form = form_on(client.get(url).content.decode(), holding)
    return client.post(to or url, {**form, **{name: [value] for name, value in changes.items()}})


def schedule_posted(world, **changes: str):
    """The session's row of the schedule page, posted with ``changes`` (field names without
    the row's prefix)."""
    session, slug = world.session, world.tournament.slug
    prefix = f"s{session.pk}-"
    return posted(
        organiser(world),
        reverse("tournaments:organiser_schedule", args=[slug]),
        f"{prefix}scheduled_at",
        to=reverse("tournaments:organiser_session_schedule", args=[slug, session.pk]),
        **{prefix + name: value for name, value in changes.items()},
    )


@pytest.mark.parametrize("when", ["0001-01-01T00:00", "9999-12-31T23:00", "1989-12-31T23:59"])
def test_a_session_scheduled_outside_the_years_of_an_event_is_refused(world, when):
    session = world.session
    response = schedule_posted(world, scheduled_at=when)
    assert response.status_code == 400
    assert (
        "Give a date between the years 1990 and 2100; this one is in" in response.content.decode()
    )
    session.refresh_from_db()
    assert session.scheduled_at is None


def test_a_stage_planned_to_start_in_year_9999_is_refused_in_italian(world):
    VenueTableFactory(tournament=world.tournament, name="1")
    client = organiser(world, "it")
    grid = reverse("tournaments:organiser_grid", args=[world.tournament.slug, 1])
    form = form_on(client.get(grid).content.decode(), "minutes")
    plan = reverse("tournaments:organiser_stage_plan", args=[world.tournament.slug, 1])
    response = client.post(plan, {**form, "start": ["9999-12-31T23:00"], "minutes": ["1440"]})
    assert response.status_code == 400
    assert (
        "Indica una data tra gli anni 1990 e 2100; questa è nel 9999." in response.content.decode()
    )
    assert not world.stage.sessions.filter(scheduled_at__isnull=False).exists()


def test_the_tournaments_dates_are_within_the_years_of_an_event(world):
    url = reverse("tournaments:organiser_dashboard", args=[world.tournament.slug])
    before = world.tournament.starts_on
    response = posted(organiser(world), url, "venue", starts_on="0001-01-01")
    assert response.status_code == 400
    assert "this one is in 1." in response.content.decode()
    assert 'min="1990-01-01" max="2100-12-31"' in response.content.decode()
    world.tournament.refresh_from_db()
    assert world.tournament.starts_on == before


@pytest.mark.parametrize(
    ("typed", "said"),
    [
        ("-5, 0", "Threshold 1 (-5): give a number of points from 1 to 9999."),
        (
            "10, 99999999999999999999",
            "Threshold 2 (99999999999999999999): give a number of points from 1",
        ),
    ],
)
def test_a_stages_thresholds_outside_1_to_9999_are_refused(world, typed, said):
    url = reverse("tournaments:organiser_stage", args=[world.tournament.slug, 1])
    response = posted(organiser(world), url, "thresholds", thresholds=typed)
    assert response.status_code == 400
    assert said in response.content.decode()
    assert not ScoreThreshold.objects.filter(stage=world.stage).exists()


def test_a_correction_sent_without_its_hidden_values_says_so(world):
    """Not "None: This field is required.": the version nobody typed has no label."""
    session = world.stage.sessions.order_by("number")[2]
    confirm_session(session, lambda seat: seat.seat_order)
    url = reverse("tournaments:organiser_result_correct", args=[world.tournament.slug, session.pk])
    for language, said in [
        ("en", "The page sent was incomplete or altered"),
        ("it", "La pagina inviata era incompleta o alterata"),
    ]:
        response = organiser(world, language).post(url, {"reason": "typo"})
        assert response.status_code == 400
        page = response.content.decode()
        assert said in page and "None:" not in page
    assert session.result.versions.count() == 1


def test_a_tampered_version_on_the_schedule_is_said_over_the_form(world):
    session = world.session
    response = schedule_posted(world, scheduled_at="2030-05-04T15:00", version="x")
    assert response.status_code == 400
    assert "The page sent was incomplete or altered" in response.content.decode()
    session.refresh_from_db()
    assert session.scheduled_at is None


@pytest.mark.parametrize("field", ["judges", "tables"])
def test_a_ticked_id_no_row_can_have_is_an_unknown_choice(world, field):
    """On SQLite (the embedded default) Django's own check of it was a 500."""
    VenueTableFactory(tournament=world.tournament, name="1")
    client = organiser(world)
    grid = reverse("tournaments:organiser_grid", args=[world.tournament.slug, 1])
    form = form_on(client.get(grid).content.decode(), "minutes")
    plan = reverse("tournaments:organiser_stage_plan", args=[world.tournament.slug, 1])
    response = client.post(
        plan, {**form, "start": ["2030-05-04T15:00"], field: ["99999999999999999999"]}
    )
    assert response.status_code == 400
    assert "99999999999999999999 is not one of the available choices." in (
        response.content.decode()
    )
    assert not world.stage.sessions.filter(scheduled_at__isnull=False).exists()


def test_a_tampered_tie_mode_on_a_correction_is_said_at_its_choices(world):
    session = world.stage.sessions.order_by("number")[2]
    confirm_session(session, lambda seat: seat.seat_order)
    url = reverse("tournaments:organiser_result_correct", args=[world.tournament.slug, session.pk])
    response = posted(organiser(world), url, "reason", reason="typo", **{"tie-mode": "0"})
    assert response.status_code == 400
    assert 'id="id_tie-mode_error"><li>Select a valid choice.' in response.content.decode()
    assert session.result.versions.count() == 1


def test_a_tampered_start_mode_is_said_at_its_choices(world):
    tournament = TournamentFactory(slug="nuova")
    register_players(tournament, 9)
    tournament.organisers.add(world.organiser)
    url = reverse("tournaments:organiser_dashboard", args=[tournament.slug])
    start = reverse("tournaments:organiser_start", args=[tournament.slug])
    response = posted(organiser(world), url, "start-mode", to=start, **{"start-mode": "x"})
    assert response.status_code == 400
    assert 'id="id_start-mode_error"><li>Select a valid choice.' in response.content.decode()
    assert not tournament.stages.exists()


@pytest.mark.parametrize(
    "path",
    [
        "/t/coppa/players/99999999999999999999/",
        "/t/coppa/sessions/99999999999999999999/",
        "/organise/coppa/players/99999999999999999999/",
        "/judge/sessions/99999999999999999999/",
        "/table/sessions/99999999999999999999/games/1/",
        "/me/seats/99999999999999999999/loadout/",
    ],
)
def test_an_id_no_row_can_have_in_the_address_is_not_found(world, path):
    """Django's ``<int:>`` took it, and SQLite failed on it (a 500 on the public pages)."""
    client = Client(raise_request_exception=True)
    client.force_login(world.superuser)
    assert client.get(path).status_code == 404


def test_a_no_show_declared_for_an_id_no_row_can_have_is_refused(world):
    client = Client(raise_request_exception=True)
    client.force_login(world.judge)
    url = reverse("tournaments:judge_no_show", args=[world.session.pk])
    before = ActivityLog.objects.count()
    response = client.post(url, {"player": "9" * 20, "version": world.session.version}, follow=True)
    assert "The form was incomplete; reload the sheet and try again." in (response.content.decode())
    assert ActivityLog.objects.count() == before


DEEP = "[" * 2000 + "]" * 2000


def test_house_rules_nested_too_deeply_to_read_are_said_at_the_text(world):
    url = reverse("tournaments:organiser_house_rules", args=[world.tournament.slug])
    response = posted(organiser(world, "it"), url, "text", text=DEEP)
    assert response.status_code == 400
    assert "Riga 1, colonna 500" in response.content.decode()
    world.tournament.refresh_from_db()
    assert world.tournament.data_overrides == {}


def test_a_tampered_memory_of_the_form_nested_too_deeply_is_forgotten(world):
    """What a form was loaded from (``loaded``) is read only when someone saved first."""
    client = organiser(world)
    url = reverse("tournaments:organiser_catalogue", args=[world.tournament.slug])
    stale = form_on(client.get(url).content.decode(), "tokens-ork")
    posted(client, url, "tokens-ork", **{"tokens-gretchin": "3"})
    response = client.post(url, {**stale, "tokens-ork": ["8"], "tokens-loaded": [DEEP]})
    assert response.status_code == 409
    world.tournament.refresh_from_db()
    assert world.tournament.data_overrides["alien_tokens"] == {"gretchin": 3}


def test_a_nul_character_in_a_hidden_value_is_said_over_the_form(world):
    url = reverse("tournaments:organiser_player", args=[world.tournament.slug, world.player.pk])
    response = posted(organiser(world), url, "nickname", nickname="Vipera", version="a\x00b")
    assert response.status_code == 400
    assert "The page sent was incomplete or altered" in response.content.decode()
    world.player.refresh_from_db()
    assert world.player.nickname != "Vipera"


def test_an_undo_of_a_draw_from_a_tab_opened_before_the_stage_closed_says_why(world):
    """The closed stage's page lists no draw to undo: the refusal has no form to stand at."""
    session = world.session
    draw_squads(session, SeededDice(seed=11), actor=world.judge, expected_version=session.version)
    client = organiser(world)
    stage_url = reverse("tournaments:organiser_stage", args=[world.tournament.slug, 1])
    form = form_on(client.get(stage_url).content.decode(), f"undraw{session.pk}-reason")
    confirm_stage(world.stage, lambda seat: seat.seat_order)
    advance(world.tournament, SeededDice(seed=5), actor=world.organiser)
    url = reverse("tournaments:organiser_undo_draw", args=[world.tournament.slug, session.pk])
    response = client.post(url, {**form, f"undraw{session.pk}-reason": ["wrong squads"]})
    assert response.status_code == 400
    page = response.content.decode()
    assert 'class="messages"' in page and "closed" in page
    session.refresh_from_db()
    assert session.seats.filter(squad__isnull=True).count() == 0
