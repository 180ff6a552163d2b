"""Organiser page of one session: its own stipulation and score thresholds, what it inherits
from the stage, the locks after a result or a closed stage, and the activity log."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from rules.engine.dice import SeededDice
from tests.factories import TournamentFactory, register_players, session_points
from tests.web.test_organiser import schedule_data
from tournaments.actions.result_entry import record_result, stipulation_kind
from tournaments.actions.stage_advance import _thresholds, start_tournament
from tournaments.models import (
    ActivityLog,
    ScoreThreshold,
    Session,
    StageStatus,
    Stipulation,
    StipulationKind,
)
from tournaments.queries.schedule_pages import SCHEDULE_PAGE_SIZE

pytestmark = pytest.mark.django_db


@pytest.fixture
def organiser(world, role_client):
    return role_client("organiser")


def settings_url(world, session=None) -> str:
    session = session or world.session
    return reverse(
        "tournaments:organiser_session_settings", args=[world.tournament.slug, session.pk]
    )


def threshold_url(world, action: str) -> str:
    return reverse(
        f"tournaments:organiser_session_threshold_{action}",
        args=[world.tournament.slug, world.session.pk],
    )


def enter_result(session: Session) -> None:
    record_result(session, session_points(session, lambda seat: seat.seat_order * 10))


def test_schedule_links_to_the_session_page(organiser, world):
    page = organiser.get(reverse("tournaments:organiser_schedule", args=[world.tournament.slug]))
    assert settings_url(world) in page.content.decode()


def test_the_schedule_reads_its_menus_once_however_many_sessions_it_lists(organiser, world):
    """Every session's form has the tables' and the judges' menus: read once for the page
    (each form reading its own cost two queries a session), each form still showing its
    own session's judge chosen."""
    url = reverse("tournaments:organiser_schedule", args=[world.tournament.slug])
    organiser.get(url)
    with CaptureQueriesContext(connection) as few:
        organiser.get(url)
    for number in range(4, 10):
        Session.objects.create(stage=world.stage, number=number)
    with CaptureQueriesContext(connection) as many:
        page = organiser.get(url).content.decode()
    assert len(many) == len(few)
    assert page.count('id="id_s') > 9 * 3  # nine sessions' forms, three fields each at least
    first, second = world.stage.sessions.order_by("number")[:2]
    for session, judge in ((first, world.judge), (second, world.other_judge)):
        menu = page.split(f'name="s{session.pk}-judge"', 1)[1].split("</select>", 1)[0]
        assert f'<option value="{judge.pk}" selected>' in menu
        assert menu.count("<option") == 1 + world.tournament.judges.count() + 1  # + organiser


def test_a_long_schedule_is_read_a_page_at_a_time_and_a_session_found_on_its_page(organiser, world):
    """A stage of 729 sessions listed whole was 1.5 MB: the schedule lists 100 sessions a
    page, by stage then number; a session's links back to the schedule, and a save without
    scripts, lead to the page holding its form."""
    for number in range(4, SCHEDULE_PAGE_SIZE + 6):
        Session.objects.create(stage=world.stage, number=number)
    url = reverse("tournaments:organiser_schedule", args=[world.tournament.slug])
    first = organiser.get(url).content.decode()
    listed = [int(n) for n in re.findall(r'<article class="card" id="schedule-(\d+)">', first)]
    sessions = list(world.stage.sessions.order_by("number").values_list("pk", flat=True))
    assert listed == sessions[:SCHEDULE_PAGE_SIZE]
    assert '<a href="?page=2" rel="next">Later sessions</a>' in first and "Page 1 of 2" in first
    second = organiser.get(url + "?page=2").content.decode()
    assert f'id="schedule-{sessions[-1]}"' in second and "Earlier sessions" in second
    last = Session.objects.get(pk=sessions[-1])
    back = organiser.get(settings_url(world, last)).content.decode()
    assert f'<a href="{url}?page=2#schedule-{last.pk}">Back to the schedule</a>' in back
    save = reverse("tournaments:organiser_session_schedule", args=[world.tournament.slug, last.pk])
    saved = organiser.post(save, schedule_data(last, last.version, judge=world.judge.pk))
    assert saved["Location"] == f"{url}?page=2#schedule-{last.pk}"


def test_page_shows_what_the_stage_provides(organiser, world):
    world.stage.thresholds.create(points=20)
    world.stage.thresholds.create(points=40)
    response = organiser.get(settings_url(world))
    assert response.status_code == 200
    page = response.content.decode()
    assert "inherits from stage 1" in page
    assert "Alien Hunt" in page and "Rounds: 8" in page
    assert "20, 40" in page
    form = response.context["stipulation_form"]
    assert form["stipulation_kind"].value() == StipulationKind.ALIEN_HUNT  # starts from the stage
    assert form["ah_rounds"].value() == 8
    assert not Stipulation.objects.filter(session=world.session).exists()


def test_invalid_stipulation_is_refused_next_to_the_field_and_keeps_the_input(organiser, world):
    response = organiser.post(
        settings_url(world),
        {"stipulation_kind": "catch_the_flag", "ctf_rounds": "12", "ctf_aliens": "on"},
    )
    assert response.status_code == 400
    errors = response.context["stipulation_form"].errors
    assert errors["ctf_flag_value"] == ["Parameter “Flag value (points)” is required."]
    page = response.content.decode()
    assert 'name="ctf_rounds"' in page and 'value="12"' in page
    assert 'aria-invalid="true"' in page
    assert not Stipulation.objects.filter(session=world.session).exists()


def test_set_and_clear_the_sessions_own_stipulation(organiser, world):
    response = organiser.post(
        settings_url(world),
        {"stipulation_kind": "catch_the_flag", "ctf_flag_value": "30", "ctf_hidden_flags": "on"},
    )
    assert response.status_code == 302
    stipulation = Stipulation.objects.get(session=world.session)
    assert stipulation.kind == StipulationKind.CATCH_THE_FLAG
    assert stipulation.params["flag_value"] == 30 and stipulation.params["hidden_flags"] is True
    session = Session.objects.get(pk=world.session.pk)
    assert stipulation_kind(session) == StipulationKind.CATCH_THE_FLAG
    entry = ActivityLog.objects.filter(tournament=world.tournament, verb="updated").first()
    assert entry.details["stipulation"] == "catch_the_flag"
    assert entry.details["session"] == world.session.pk
    assert entry.actor == world.organiser

    page = organiser.get(settings_url(world)).content.decode()
    assert "own stipulation" in page and "Catch the Flag" in page
    assert "The stage provides:" in page and "Alien Hunt" in page

    clear_url = reverse(
        "tournaments:organiser_session_stipulation_clear",
        args=[world.tournament.slug, world.session.pk],
    )
    assert organiser.post(clear_url).status_code == 302
    assert not Stipulation.objects.filter(session=world.session).exists()
    session = Session.objects.get(pk=world.session.pk)
    assert stipulation_kind(session) == StipulationKind.ALIEN_HUNT  # the stage's again
    assert ActivityLog.objects.filter(details__stipulation=None, verb="updated").exists()
    assert "inherits from stage 1" in organiser.get(settings_url(world)).content.decode()


def test_stipulation_is_locked_once_the_session_has_a_result(organiser, world):
    Stipulation.objects.create(session=world.session, kind="alien_hunt", params={"rounds": 8})
    enter_result(world.session)
    response = organiser.get(settings_url(world))
    page = response.content.decode()
    assert "already has a result" in page
    assert 'id="session-stipulation-form"' not in page
    assert 'id="session-threshold-form"' in page  # thresholds still change until the stage closes
    refused = organiser.post(settings_url(world), {"stipulation_kind": "tpk"})
    assert refused.status_code == 400
    assert "already has a result" in " ".join(
        refused.context["stipulation_form"].non_field_errors()
    )
    clear_url = reverse(
        "tournaments:organiser_session_stipulation_clear",
        args=[world.tournament.slug, world.session.pk],
    )
    followed = organiser.post(clear_url, follow=True)
    assert "already has a result" in followed.content.decode()
    assert Stipulation.objects.get(session=world.session).kind == "alien_hunt"


def test_add_and_remove_thresholds(organiser, world):
    world.stage.thresholds.create(points=50)
    assert organiser.post(threshold_url(world, "add"), {"points": "60"}).status_code == 302
    assert organiser.post(threshold_url(world, "add"), {"points": "30"}).status_code == 302
    assert list(world.session.thresholds.values_list("points", flat=True)) == [30, 60]
    assert _thresholds(world.session) == [30, 60]  # the session's own replace the stage's
    assert ActivityLog.objects.filter(details__threshold=30, verb="updated").exists()
    page = organiser.get(settings_url(world)).content.decode()
    assert "not used by this session" in page

    thirty = world.session.thresholds.get(points=30)
    assert (
        organiser.post(threshold_url(world, "remove"), {"threshold": thirty.pk}).status_code == 302
    )
    assert list(world.session.thresholds.values_list("points", flat=True)) == [60]
    removed = ActivityLog.objects.filter(verb="updated", details__threshold=30)
    assert removed.count() == 2  # added, then removed
    again = organiser.post(threshold_url(world, "remove"), {"threshold": thirty.pk}, follow=True)
    assert "no longer on this session" in again.content.decode()


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ("0", "at least 1 point"),
        ("-5", "at least 1 point"),
        ("abc", "whole number"),
        ("", "Type the points"),
        ("60", "already has a threshold at 60"),
    ],
)
def test_bad_threshold_is_explained_and_keeps_the_input(organiser, world, typed, message):
    ScoreThreshold.objects.create(session=world.session, points=60)
    response = organiser.post(threshold_url(world, "add"), {"points": typed})
    assert response.status_code == 400
    assert message in " ".join(response.context["threshold_form"].errors["points"])
    page = response.content.decode()
    assert 'id="id_points_error"' in page
    if typed:
        assert f'value="{typed}"' in page
    assert list(world.session.thresholds.values_list("points", flat=True)) == [60]


def test_closed_stage_locks_everything(organiser, world):
    threshold = ScoreThreshold.objects.create(session=world.session, points=60)
    world.stage.status = StageStatus.CLOSED
    world.stage.save(update_fields=["status"])
    page = organiser.get(settings_url(world)).content.decode()
    assert "Stage 1 is closed" in page
    assert 'id="session-stipulation-form"' not in page
    assert 'id="session-threshold-form"' not in page
    refused = organiser.post(threshold_url(world, "add"), {"points": "90"})
    assert refused.status_code == 400
    assert "is closed" in " ".join(refused.context["threshold_form"].errors["points"])
    organiser.post(threshold_url(world, "remove"), {"threshold": threshold.pk})
    assert list(world.session.thresholds.values_list("points", flat=True)) == [60]
    refused = organiser.post(settings_url(world), {"stipulation_kind": "tpk"})
    assert refused.status_code == 400
    assert not Stipulation.objects.filter(session=world.session).exists()


def test_session_of_another_tournament_is_not_found(organiser, world):
    other = TournamentFactory()
    register_players(other, 3)
    start_tournament(other, SeededDice(seed=1), draw_squads=False)
    foreign = Session.objects.get(stage__tournament=other)
    url = reverse(
        "tournaments:organiser_session_settings", args=[world.tournament.slug, foreign.pk]
    )
    assert organiser.get(url).status_code == 404
    assert organiser.post(threshold_url_for(world, foreign), {"points": "10"}).status_code == 404
    assert not foreign.thresholds.exists()


def threshold_url_for(world, session) -> str:
    return reverse(
        "tournaments:organiser_session_threshold_add", args=[world.tournament.slug, session.pk]
    )


def test_copy_of_the_stages_stipulation_is_called_so(organiser, world):
    # Sessions seated after the stage got its stipulation carry a copy of it.
    Stipulation.objects.create(session=world.session, kind="alien_hunt", params={"rounds": 8})
    page = organiser.get(settings_url(world)).content.decode()
    assert "same as the stage" in page
    Stipulation.objects.filter(session=world.session).update(params={"rounds": 5})
    page = organiser.get(settings_url(world)).content.decode()
    assert "same as the stage" not in page
    assert "The stage provides:" in page and "Rounds: 8" in page and "Rounds: 5" in page
