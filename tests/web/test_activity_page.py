"""The organiser's activity log page: every entry of any age can be reached, a page of 100
at a time, newest first, and the log narrowed to one action, one session or one account,
each page keeping the narrowing; a value that is not one of the choices is named."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tournaments.actions.activity_log import activity_entry, describe
from tournaments.models import ActivityLog, ActivityVerb, Stage, StageKind
from tournaments.queries.activity_page import ACTIVITY_PAGE_SIZE

pytestmark = pytest.mark.django_db


def log_url(world, query: str = "") -> str:
    return reverse("tournaments:organiser_activity", args=[world.tournament.slug]) + query


def logged(world, count: int, verb=ActivityVerb.UPDATED, actor=None, session=None) -> None:
    """``count`` entries named "entry N" (N from 0, oldest first) of ``verb``."""
    details = {"session": session.pk} if session is not None else {}
    ActivityLog.objects.bulk_create(
        activity_entry(world.tournament, verb, f"entry {number}", actor=actor, **details)
        for number in range(count)
    )


def named(html: str) -> list[str]:
    """The "entry N" entries a page lists, in its order."""
    return re.findall(r"<td>(entry \d+)</td></tr>", html)


def test_every_entry_is_reached_a_page_at_a_time_newest_first(world, role_client):
    ActivityLog.objects.filter(tournament=world.tournament).delete()
    logged(world, 2 * ACTIVITY_PAGE_SIZE + 5)
    client = role_client("organiser")
    first = client.get(log_url(world)).content.decode()
    assert "205 entries, newest first." in first
    assert named(first) == [f"entry {n}" for n in range(204, 104, -1)]
    assert '<a href="?page=2" rel="next">Older entries</a>' in first
    assert "Newer entries" not in first and "Page 1 of 3" in first
    last = client.get(log_url(world, "?page=3")).content.decode()
    assert named(last) == [f"entry {n}" for n in range(4, -1, -1)], "the oldest, once hidden"
    assert '<a href="?page=2" rel="prev">Newer entries</a>' in last
    assert "Older entries" not in last
    beyond = client.get(log_url(world, "?page=9")).content.decode()
    assert named(beyond) == named(last), "a page past the last shows the last"


def test_the_log_is_narrowed_to_an_action_a_session_or_an_account(world, role_client):
    ActivityLog.objects.filter(tournament=world.tournament).delete()
    logged(world, 3, ActivityVerb.SCHEDULED, session=world.session)
    logged(world, 2, ActivityVerb.CHECKED_IN, actor=world.judge)
    logged(world, 4, ActivityVerb.UPDATED, actor=world.organiser)
    client = role_client("organiser")
    scheduled = client.get(log_url(world, "?action=scheduled")).content.decode()
    assert named(scheduled) == ["entry 2", "entry 1", "entry 0"]
    assert "3 entries, newest first." in scheduled and '<a href="?">Every entry</a>' in scheduled
    session = client.get(log_url(world, f"?stage=1&session={world.session.number}"))
    assert len(named(session.content.decode())) == 3
    alone = client.get(log_url(world, f"?session={world.session.number}"))
    assert len(named(alone.content.decode())) == 3, "one stage: the number is enough"
    judge = client.get(log_url(world, f"?who={world.judge.pk}")).content.decode()
    assert named(judge) == ["entry 1", "entry 0"]
    both = client.get(log_url(world, f"?action=updated&who={world.judge.pk}"))
    assert "No entry of this kind." in both.content.decode()
    form = client.get(log_url(world)).context["form"]
    assert dict(form.fields["stage"].choices) == {"": "every stage", 1: "Preliminary (1)"}
    accounts = dict(form.fields["who"].choices)
    assert set(accounts) == {"", world.judge.pk, world.organiser.pk}, "who logged, no one else"


def test_a_stage_narrows_the_log_to_its_own_entries_and_its_sessions(world, role_client):
    ActivityLog.objects.filter(tournament=world.tournament).delete()
    logged(world, 2, ActivityVerb.SCHEDULED, session=world.session)
    ActivityLog.objects.bulk_create(
        [
            activity_entry(world.tournament, ActivityVerb.SEATED_STAGE, "entry 7", stage=1),
            activity_entry(world.tournament, ActivityVerb.SEATED_STAGE, "entry 8", stage=2),
        ]
    )
    logged(world, 1, ActivityVerb.UPDATED)  # about no stage
    html = role_client("organiser").get(log_url(world, "?stage=1")).content.decode()
    assert named(html) == ["entry 7", "entry 1", "entry 0"]


def test_a_session_the_stage_lacks_or_a_number_without_its_stage_is_named(world, role_client):
    Stage.objects.create(tournament=world.tournament, number=2, kind=StageKind.FINAL)
    client = role_client("organiser")
    missing = client.get(log_url(world, "?stage=1&session=40")).context["form"]
    sessions = world.stage.sessions.count()
    assert missing.errors["session"] == [
        f"Preliminary (1) has no session 40: its sessions are numbered 1 to {sessions}."
    ]
    empty = client.get(log_url(world, "?stage=2&session=1")).context["form"]
    assert empty.errors["session"] == ["Final (2) has no session yet."]
    unstaged = client.get(log_url(world, "?session=1")).context["form"]
    assert unstaged.errors["stage"] == ["Choose the stage of session 1."]


def test_a_narrowed_log_keeps_its_narrowing_from_page_to_page(world, role_client):
    logged(world, ACTIVITY_PAGE_SIZE + 1, ActivityVerb.CHECKED_IN)
    html = role_client("organiser").get(log_url(world, "?action=checked_in")).content.decode()
    assert '<a href="?action=checked_in&amp;page=2" rel="next">Older entries</a>' in html


def test_a_value_not_among_the_choices_is_named_and_every_entry_listed(world, role_client):
    ActivityLog.objects.filter(tournament=world.tournament).delete()
    logged(world, 2)
    response = role_client("organiser").get(log_url(world, "?action=haunted&stage=x"))
    assert response.status_code == 200
    errors = response.context["form"].errors
    assert "haunted is not one of the available choices" in errors["action"][0]
    assert "x is not one of the available choices" in errors["stage"][0]
    assert named(response.content.decode()) == ["entry 1", "entry 0"]


def test_a_described_entry_is_found_by_its_session(world, role_client):
    ActivityLog.objects.filter(tournament=world.tournament).delete()
    ActivityLog.objects.bulk_create(
        [
            activity_entry(
                world.tournament,
                ActivityVerb.SCHEDULED,
                describe("session", session=world.session),
                session=world.session.pk,
            )
        ]
    )
    html = role_client("organiser").get(log_url(world, f"?session={world.session.number}"))
    assert "1 entry, newest first." in html.content.decode()
