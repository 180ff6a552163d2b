"""A session not started yet is scheduled only with a time, a table and a judge; until
then every page says what it awaits ("Awaiting a time"), whatever status is stored (a
session edited in the admin or imported, a judge removed from the tournament): the public
schedule and session page, the organiser's schedule and grid, the judges' lists and the
API's schedule."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import override

from tests.factories import VenueTableFactory
from tournaments.actions.scheduling import schedule_session
from tournaments.actions.staff import remove_judge
from tournaments.models import Session, SessionStatus

pytestmark = pytest.mark.django_db


def edited(session: Session, **fields) -> Session:
    """``session`` with ``fields`` written as the admin or an import writes them (no action:
    the stored status is left as given)."""
    Session.objects.filter(pk=session.pk).update(**fields)
    session.refresh_from_db()
    return session


@pytest.fixture
def untimed(world) -> Session:
    """A session with a judge and a table, its status stored as scheduled, and no time."""
    table = VenueTableFactory(tournament=world.tournament, name="7")
    return edited(world.session, table=table, scheduled_at=None, status=SessionStatus.SCHEDULED)


@pytest.mark.parametrize(
    ("time", "table", "judge", "label", "italian"),
    [
        (False, True, True, "Awaiting a time", "In attesa dell'orario"),
        (True, False, True, "Awaiting a table", "In attesa del tavolo"),
        (True, True, False, "Awaiting a judge", "In attesa del giudice"),
        (False, False, True, "Awaiting a time and a table", "In attesa di orario e tavolo"),
        (False, True, False, "Awaiting a time and a judge", "In attesa di orario e giudice"),
        (True, False, False, "Awaiting a table and a judge", "In attesa di tavolo e giudice"),
        (
            False,
            False,
            False,
            "Awaiting a time, a table and a judge",
            "In attesa di orario, tavolo e giudice",
        ),
    ],
)
def test_the_status_names_what_the_session_awaits(world, time, table, judge, label, italian):
    session = edited(
        world.session,
        scheduled_at=timezone.now() + timedelta(days=1) if time else None,
        table=VenueTableFactory(tournament=world.tournament) if table else None,
        judge=world.judge if judge else None,
        status=SessionStatus.SCHEDULED,
    )
    assert session.schedule_gaps
    assert session.current_status == SessionStatus.PLANNED
    assert session.status_label == label
    with override("it"):
        assert session.status_label == italian


def test_a_session_with_all_three_is_scheduled(world):
    session = edited(
        world.session,
        scheduled_at=timezone.now() + timedelta(days=1),
        table=VenueTableFactory(tournament=world.tournament),
        status=SessionStatus.PLANNED,
    )
    assert session.schedule_gaps == ()
    assert session.current_status == SessionStatus.SCHEDULED
    assert session.status_label == "Scheduled"
    with override("it"):
        assert session.status_label == "In calendario"


def test_started_and_completed_sessions_keep_their_status(world):
    for status, label in [
        (SessionStatus.IN_PROGRESS, "In progress"),
        (SessionStatus.COMPLETED, "Completed"),
    ]:
        session = edited(world.session, scheduled_at=None, table=None, status=status)
        assert session.current_status == status
        assert session.status_label == label


def test_the_pages_say_a_session_without_a_time_awaits_one(untimed, world, role_client):
    slug = world.tournament.slug
    pages = {
        "public schedule": ("anonymous", reverse("tournaments:schedule", args=[slug])),
        "session page": ("anonymous", reverse("tournaments:session", args=[slug, untimed.pk])),
        "organiser's schedule": (
            "organiser",
            reverse("tournaments:organiser_schedule", args=[slug]),
        ),
        "grid": ("organiser", reverse("tournaments:organiser_grid", args=[slug, 1])),
        "judge's home": ("judge", reverse("tournaments:judge_home")),
    }
    for name, (role, url) in pages.items():
        html = role_client(role).get(url).content.decode()
        assert "Awaiting a time" in html, name
    # The session page's status: no longer "Scheduled".
    page = role_client("anonymous").get(pages["session page"][1]).content.decode()
    status = page.split("<dt>Status</dt>")[1].split("</dd>")[0]
    assert "Awaiting a time" in status and "Scheduled" not in status


def test_the_api_schedule_says_planned(untimed, world, client):
    document = client.get(reverse("tournaments:api-schedule", args=[world.tournament.slug])).json()
    row = next(s for s in document["sessions"] if s["id"] == untimed.pk)
    assert row["status"] == "planned"


def test_scheduling_without_a_table_stores_planned_and_with_all_three_scheduled(world):
    when = timezone.now() + timedelta(days=1)
    session = schedule_session(world.session, when=when, notify=False)
    session.refresh_from_db()
    assert session.status == SessionStatus.PLANNED
    table = VenueTableFactory(tournament=world.tournament)
    session = schedule_session(session, when=when, table=table, notify=False)
    session.refresh_from_db()
    assert session.status == SessionStatus.SCHEDULED


def test_a_session_whose_judge_is_removed_is_no_longer_scheduled(world):
    table = VenueTableFactory(tournament=world.tournament)
    when = timezone.now() + timedelta(days=1)
    session = schedule_session(world.session, when=when, table=table, notify=False)
    session.refresh_from_db()
    assert session.status == SessionStatus.SCHEDULED
    remove_judge(world.tournament, world.judge, actor=world.organiser)
    session.refresh_from_db()
    assert session.judge is None
    assert session.status == SessionStatus.PLANNED
    assert session.status_label == "Awaiting a judge"
