"""The standings say a session's status as the pages do (decision 52): a session not
started is *scheduled* only with a time, a table and a judge, whatever status is stored, so
the API's bracket (the standings' stages) and the tournament home never disagree with the
schedule."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from tests.factories import VenueTableFactory
from tournaments.actions.staff import remove_judge
from tournaments.models import Session, SessionStatus
from tournaments.queries.home_page import home_sessions
from tournaments.queries.pages import tournament_sessions, upcoming_sessions
from tournaments.queries.standings import compute_standings

pytestmark = pytest.mark.django_db


def edited(session: Session, **fields) -> Session:
    """``session`` with ``fields`` written as the admin or an import writes them (the stored
    status is left as given)."""
    Session.objects.filter(pk=session.pk).update(**fields)
    session.refresh_from_db()
    return session


def standings_status(tournament, session: Session) -> str:
    sessions = [s for stage in compute_standings(tournament)["stages"] for s in stage["sessions"]]
    return next(s["status"] for s in sessions if s["id"] == session.pk)


@pytest.mark.parametrize(
    ("time", "table", "judge"),
    [
        (False, True, True),
        (True, False, True),
        (True, True, False),
        (False, False, False),
    ],
)
def test_a_session_stored_scheduled_without_all_three_is_planned(world, time, table, judge):
    session = edited(
        world.session,
        scheduled_at=timezone.now() + timedelta(days=1) if time else None,
        table=VenueTableFactory(tournament=world.tournament) if table else None,
        judge=world.judge if judge else None,
        status=SessionStatus.SCHEDULED,
    )
    assert standings_status(world.tournament, session) == SessionStatus.PLANNED


def test_a_session_stored_planned_with_all_three_is_scheduled(world):
    session = edited(
        world.session,
        scheduled_at=timezone.now() + timedelta(days=1),
        table=VenueTableFactory(tournament=world.tournament),
        status=SessionStatus.PLANNED,
    )
    assert standings_status(world.tournament, session) == SessionStatus.SCHEDULED


def test_started_and_completed_sessions_keep_their_status(world):
    for status in (SessionStatus.IN_PROGRESS, SessionStatus.COMPLETED):
        session = edited(world.session, scheduled_at=None, table=None, judge=None, status=status)
        assert standings_status(world.tournament, session) == status


def test_the_bracket_api_agrees_with_the_schedule_api(world, client):
    """Every session of the two documents has the same status, whatever is stored."""
    sessions = list(Session.objects.filter(stage__tournament=world.tournament))
    when = timezone.now() + timedelta(days=1)
    table = VenueTableFactory(tournament=world.tournament)
    edited(sessions[0], scheduled_at=when, table=table, status=SessionStatus.PLANNED)
    edited(sessions[1], scheduled_at=None, table=table, status=SessionStatus.SCHEDULED)
    slug = world.tournament.slug
    bracket = client.get(reverse("tournaments:api-bracket", args=[slug])).json()
    schedule = client.get(reverse("tournaments:api-schedule", args=[slug])).json()
    from_standings = {s["id"]: s["status"] for st in bracket["stages"] for s in st["sessions"]}
    from_schedule = {s["id"]: s["status"] for s in schedule["sessions"]}
    assert from_standings == from_schedule
    assert from_standings[sessions[0].pk] == "scheduled"
    assert from_standings[sessions[1].pk] == "planned"


def test_the_cached_standings_follow_a_judge_s_removal(world, client):
    """The standings read once while the session is scheduled say planned once its judge is
    removed (the removal is logged, which makes the cached standings stale)."""
    session = edited(
        world.session,
        scheduled_at=timezone.now() + timedelta(days=1),
        table=VenueTableFactory(tournament=world.tournament),
        status=SessionStatus.SCHEDULED,
    )
    url = reverse("tournaments:api-bracket", args=[world.tournament.slug])

    def status() -> str:
        stages = client.get(url).json()["stages"]
        return next(s["status"] for st in stages for s in st["sessions"] if s["id"] == session.pk)

    assert status() == "scheduled"
    remove_judge(world.tournament, world.judge, actor=world.organiser)
    assert status() == "planned"


def test_the_home_lists_a_dated_session_awaiting_a_judge_among_the_next(world):
    """A session with a time keeps its place in the home's next sessions while it awaits a
    table or a judge (by its time, as the whole schedule's reading lists it), and the home
    reads its status as the pages do."""
    session = edited(
        world.session,
        scheduled_at=timezone.now() + timedelta(hours=1),
        judge=None,
        status=SessionStatus.SCHEDULED,
    )
    home = home_sessions(world.tournament, latest=3, upcoming=5)
    entry = next(e for e in home.upcoming if e.session.pk == session.pk)
    assert entry.session.status == SessionStatus.PLANNED == session.current_status
    whole = upcoming_sessions(tournament_sessions(world.tournament))
    assert [e.session.pk for e in home.upcoming] == [e.session.pk for e in whole][:5]


def test_the_home_lists_a_session_in_progress_without_a_judge_as_playing(world):
    session = edited(world.session, judge=None, table=None, status=SessionStatus.IN_PROGRESS)
    home = home_sessions(world.tournament, latest=3, upcoming=5)
    assert [e.session.pk for e in home.playing] == [session.pk]
    assert session.pk not in [e.session.pk for e in home.upcoming]
