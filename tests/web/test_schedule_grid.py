"""Organiser scheduling: the tables list, clash warnings before saving (and "save anyway"),
the tables × time grid by tap, and scheduling a whole stage at once."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse
from django.utils import timezone

from tests.factories import StageFactory, VenueTableFactory
from tournaments.actions.scheduling import schedule_session
from tournaments.actions.venue_tables import TableError, add_table, remove_table
from tournaments.models import ActivityLog, Player, Session, SessionStatus, StageKind

pytestmark = pytest.mark.django_db

WHEN = "2026-06-01T15:30"


@pytest.fixture
def organiser(world, role_client):
    return role_client("organiser")


@pytest.fixture
def tables(world):
    return [VenueTableFactory(tournament=world.tournament, name=str(n)) for n in (1, 2)]


def sessions(world):
    return list(world.stage.sessions.order_by("number"))


def local(text):
    return timezone.make_aware(dt.datetime.fromisoformat(text))


def test_tables_are_added_listed_and_removed_only_when_unused(organiser, world):
    url = reverse("tournaments:organiser_tables", args=[world.tournament.slug])
    assert organiser.post(url, {"name": "Sala A"}).status_code == 302
    again = organiser.post(url, {"name": "sala a"})
    assert again.status_code == 400
    assert "There is already a table called sala a." in again.content.decode()
    numbered = reverse("tournaments:organiser_tables_numbered", args=[world.tournament.slug])
    organiser.post(numbered, {"count": 2})
    assert list(world.tournament.tables.values_list("name", flat=True)) == ["1", "2", "Sala A"]
    assert organiser.post(numbered, {"count": 0}).status_code == 400
    table = world.tournament.tables.get(name="1")
    schedule_session(world.session, when=local(WHEN), table=table, notify=False)
    with pytest.raises(TableError, match="has sessions"):
        remove_table(table)
    remove = reverse("tournaments:organiser_table_remove", args=[world.tournament.slug, table.pk])
    organiser.post(remove)
    assert world.tournament.tables.filter(pk=table.pk).exists()
    empty = world.tournament.tables.get(name="2")
    organiser.post(
        reverse("tournaments:organiser_table_remove", args=[world.tournament.slug, empty.pk])
    )
    assert not world.tournament.tables.filter(pk=empty.pk).exists()
    assert ActivityLog.objects.filter(description_code="table_removed").count() == 1


def test_add_table_refuses_an_empty_name(world):
    with pytest.raises(TableError):
        add_table(world.tournament, "  ")


def test_a_session_without_table_or_judge_is_not_scheduled(world, tables):
    first, second, *_ = sessions(world)
    schedule_session(second, when=local(WHEN), table=None, judge=None, notify=False)
    assert second.status == SessionStatus.PLANNED
    schedule_session(second, when=local(WHEN), table=tables[0], notify=False)
    assert second.status == SessionStatus.PLANNED  # still no judge
    schedule_session(second, when=local(WHEN), judge=world.judge, notify=False)
    assert second.status == SessionStatus.SCHEDULED
    schedule_session(second, when=local(WHEN), table=None, notify=False)
    assert Session.objects.get(pk=second.pk).status == SessionStatus.PLANNED


def schedule_form(session, *, table, judge, when=WHEN):
    prefix = f"s{session.pk}"
    return {
        f"{prefix}-scheduled_at": when,
        f"{prefix}-table": table.pk,
        f"{prefix}-judge": judge.pk,
        f"{prefix}-version": session.version,
    }


def test_a_double_booked_table_and_judge_warn_before_saving(organiser, world, tables):
    first, second, *_ = sessions(world)
    schedule_session(first, when=local(WHEN), table=tables[0], notify=False)
    url = reverse("tournaments:organiser_session_schedule", args=[world.tournament.slug, second.pk])
    data = schedule_form(second, table=tables[0], judge=world.judge)
    response = organiser.post(url, data)
    assert response.status_code == 409
    page = response.content.decode()
    assert "Preliminary, session 2 and Preliminary, session 1 would share table 1" in page
    assert "would judge Preliminary, session 2 and Preliminary, session 1" in page
    assert 'name="confirm" value="1"' in page
    second.refresh_from_db()
    assert second.scheduled_at is None  # nothing saved yet
    assert organiser.post(url, {**data, "confirm": "1"}).status_code == 302
    second.refresh_from_db()
    assert second.table == tables[0] and second.status == SessionStatus.SCHEDULED


def test_a_date_outside_the_tournament_warns(organiser, world, tables):
    world.tournament.starts_on = dt.date(2026, 6, 1)
    world.tournament.ends_on = dt.date(2026, 6, 2)
    world.tournament.save()
    url = reverse(
        "tournaments:organiser_session_schedule", args=[world.tournament.slug, world.session.pk]
    )
    data = schedule_form(world.session, table=tables[0], judge=world.judge, when="2020-01-01T10:00")
    response = organiser.post(url, data)
    assert response.status_code == 409
    assert "outside the tournament&#x27;s dates" in response.content.decode()
    fixed = schedule_form(world.session, table=tables[0], judge=world.judge)
    assert organiser.post(url, fixed).status_code == 302


def grid_url(world, **query):
    url = reverse("tournaments:organiser_grid", args=[world.tournament.slug, world.stage.number])
    return url + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")


def test_the_grid_places_a_picked_session_with_a_tap(organiser, world, tables):
    first = sessions(world)[0]
    page = organiser.get(grid_url(world, at=WHEN, pick=first.pk))
    assert page.status_code == 200
    html = page.content.decode()
    assert "Put session 1 at table 2" in html
    assert 'draggable="true"' in html
    place = reverse(
        "tournaments:organiser_grid_place", args=[world.tournament.slug, world.stage.number]
    )
    response = organiser.post(
        place, {"session": first.pk, "table": tables[1].pk, "when": WHEN, "at": WHEN}
    )
    assert response.status_code == 302
    first.refresh_from_db()
    assert first.table == tables[1] and first.scheduled_at == local(WHEN)
    page = organiser.get(grid_url(world))
    grid = page.context["grid"]
    assert [cell.sessions for cell in grid.rows[0].cells] == [[], [first]]
    # Without JavaScript each cell's menu starts on the session already there.
    assert f'<option value="{first.pk}" selected>' in page.content.decode()


def test_the_grid_warns_of_a_clash_and_saves_only_when_confirmed(organiser, world, tables):
    first, second, *_ = sessions(world)
    schedule_session(first, when=local(WHEN), table=tables[0], notify=False)
    place = reverse(
        "tournaments:organiser_grid_place", args=[world.tournament.slug, world.stage.number]
    )
    data = {"session": second.pk, "table": tables[0].pk, "when": "2026-06-01T17:00"}
    response = organiser.post(place, data)
    assert response.status_code == 409
    assert "would share table 1 at the same time" in response.content.decode()
    assert Session.objects.get(pk=second.pk).scheduled_at is None
    organiser.post(place, {**data, "confirm": "1"})
    grid = organiser.get(grid_url(world)).context["grid"]
    assert Session.objects.get(pk=second.pk).table == tables[0]
    assert len(grid.rows) == 2


def test_the_grid_refuses_a_table_of_another_tournament(organiser, world, tables):
    stranger = VenueTableFactory(name="99")
    place = reverse(
        "tournaments:organiser_grid_place", args=[world.tournament.slug, world.stage.number]
    )
    response = organiser.post(
        place, {"session": world.session.pk, "table": stranger.pk, "when": WHEN}
    )
    assert response.status_code == 400
    assert world.session.scheduled_at is None


def test_scheduling_the_whole_stage_in_rounds(organiser, world, tables):
    url = reverse(
        "tournaments:organiser_stage_plan", args=[world.tournament.slug, world.stage.number]
    )
    data = {"start": WHEN, "minutes": 200, "tables": [t.pk for t in tables]}
    response = organiser.post(url, data)
    assert response.status_code == 302
    placed = [(s.scheduled_at, s.table) for s in sessions(world)]
    later = local(WHEN) + dt.timedelta(minutes=200)
    assert placed == [(local(WHEN), tables[0]), (local(WHEN), tables[1]), (later, tables[0])]
    assert [s.status for s in sessions(world)] == ["scheduled", "scheduled", "planned"]


def test_scheduling_the_stage_warns_about_other_stages_and_bad_input(organiser, world, tables):
    world.tournament.ends_on = dt.date(2026, 5, 1)
    world.tournament.save()
    url = reverse(
        "tournaments:organiser_stage_plan", args=[world.tournament.slug, world.stage.number]
    )
    response = organiser.post(url, {"start": WHEN, "minutes": 200, "tables": [tables[0].pk]})
    assert response.status_code == 409
    html = response.content.decode()
    assert html.count("outside the tournament&#x27;s dates") == 3
    assert "Schedule anyway" in html
    assert all(s.scheduled_at is None for s in sessions(world))
    assert organiser.post(url, {"start": WHEN, "minutes": 0, "tables": []}).status_code == 400


def test_a_judge_booked_for_overlapping_sessions_at_different_times_is_warned(
    organiser, world, tables
):
    """QA: the same judge at 10:00 and at 10:30 (sessions of three hours) saved silently."""
    first, second, *_ = sessions(world)
    schedule_session(first, when=local(WHEN), table=tables[0], judge=world.judge, notify=False)
    later = (dt.datetime.fromisoformat(WHEN) + dt.timedelta(minutes=30)).isoformat()
    url = reverse("tournaments:organiser_session_schedule", args=[world.tournament.slug, second.pk])
    response = organiser.post(
        url, schedule_form(second, table=tables[1], judge=world.judge, when=later)
    )
    assert response.status_code == 409
    assert "would judge Preliminary, session 2 and Preliminary, session 1" in (
        response.content.decode()
    )


def plan_url(world):
    return reverse("tournaments:organiser_stage_plan", args=[world.tournament.slug, 1])


def test_the_grid_offers_to_share_out_the_tournaments_judges(organiser, world, tables):
    form = organiser.get(grid_url(world)).context["plan_form"]
    assert list(form["judges"].initial) == [world.judge, world.other_judge]
    ticked = [choice.data["value"].value for choice in form["judges"] if choice.data["selected"]]
    assert ticked == [world.judge.pk, world.other_judge.pk]


def test_scheduling_the_stage_shares_out_the_judges(organiser, world, tables):
    """QA: the whole stage scheduled at once left its sessions without a judge."""
    data = {"start": WHEN, "minutes": 200, "tables": [t.pk for t in tables]}
    judges = [world.judge.pk, world.other_judge.pk]
    response = organiser.post(plan_url(world), {**data, "judges": judges})
    assert response.status_code == 302
    assert [s.judge for s in sessions(world)] == [world.judge, world.other_judge, world.judge]
    assert [s.status for s in sessions(world)] == ["scheduled"] * 3
    page = organiser.get(grid_url(world)).content.decode()
    assert "table 1, judge judge" in page and "table 2, judge other-judge" in page


def test_a_session_no_judge_is_free_for_is_named_before_saving(organiser, world, tables):
    """Three tables, two judges: the third session of the round finds both judges busy.
    It is named, and saved without a judge only when confirmed."""
    third = VenueTableFactory(tournament=world.tournament, name="3")
    data = {"start": WHEN, "minutes": 200, "tables": [t.pk for t in [*tables, third]]}
    data["judges"] = [world.judge.pk, world.other_judge.pk]
    response = organiser.post(plan_url(world), data)
    assert response.status_code == 409
    assert response.context["warnings"] == [
        "Preliminary, session 3 gets no judge: every judge ticked judges or plays another "
        "session at that time. Tick more judges, or give each round fewer tables or more "
        "minutes."
    ]
    assert "Schedule anyway" in response.content.decode()
    assert all(s.scheduled_at is None for s in sessions(world))
    assert organiser.post(plan_url(world), {**data, "confirm": "1"}).status_code == 302
    assert [s.judge for s in sessions(world)] == [world.judge, world.other_judge, None]
    assert [s.status for s in sessions(world)] == ["scheduled", "scheduled", "planned"]


def test_rounds_that_overlap_name_the_shared_table_and_keep_judges_apart(organiser, world, tables):
    """Rounds an hour apart overlap (sessions last three hours): the plan's table clash
    names the table (it was blank: neither session had a table yet), and the third session
    finds both judges still busy."""
    data = {"start": WHEN, "minutes": 60, "tables": [t.pk for t in tables]}
    data["judges"] = [world.judge.pk, world.other_judge.pk]
    warnings = organiser.post(plan_url(world), data).context["warnings"]
    assert warnings[0].startswith("Preliminary, session 3 gets no judge")
    assert warnings[1:] == [
        "Preliminary, session 1 and Preliminary, session 3 would share table 1 at the same time."
    ]


def test_a_judge_who_plays_is_not_given_a_session_at_that_time(organiser, world, tables):
    seat = world.session.seats.order_by("seat_order").first()
    Player.objects.filter(pk=seat.player_id).update(user=world.judge)
    data = {"start": WHEN, "minutes": 200, "tables": [t.pk for t in tables]}
    data["judges"] = [world.judge.pk, world.other_judge.pk]
    response = organiser.post(plan_url(world), data)
    assert response.status_code == 409
    assert response.context["warnings"] == [
        "Preliminary, session 2 gets no judge: every judge ticked judges or plays another "
        "session at that time. Tick more judges, or give each round fewer tables or more "
        "minutes."
    ]
    organiser.post(plan_url(world), {**data, "confirm": "1"})
    assert [s.judge for s in sessions(world)] == [world.other_judge, None, world.judge]


def grid_page(client, world, number: int) -> str:
    url = reverse("tournaments:organiser_grid", args=[world.tournament.slug, number])
    return client.get(url).content.decode()


ALL_STARTED = "Every session of this stage has started or finished."


def test_a_stage_whose_sessions_all_started_says_so(organiser, world, tables):
    world.stage.sessions.update(status=SessionStatus.IN_PROGRESS)
    assert ALL_STARTED in grid_page(organiser, world, 1)


def test_a_later_stage_not_seated_yet_says_the_stage_before_seats_it(organiser, world, tables):
    StageFactory(tournament=world.tournament, number=2, kind=StageKind.FINAL)
    page = grid_page(organiser, world, 2)
    assert ALL_STARTED not in page
    stage_one = reverse("tournaments:organiser_stage", args=[world.tournament.slug, 1])
    assert (
        "Stage 2 is not seated yet, so it has no session to place. It is seated when stage 1 "
        "closes: once every session of stage 1 has a confirmed result, close it on "
        f'<a href="{stage_one}">its page</a> with “Close the stage and seat the next”.'
    ) in page


def test_a_first_stage_not_seated_yet_says_where_to_seat_it(organiser, world, tables):
    # As an imported tournament's prepared stage (or one whose seating was superseded).
    world.stage.sessions.update(superseded_at=timezone.now())
    page = grid_page(organiser, world, 1)
    assert ALL_STARTED not in page
    setup = reverse("tournaments:organiser_dashboard", args=[world.tournament.slug])
    assert (
        "Stage 1 is not seated yet, so it has no session to place: seat it on the "
        f'<a href="{setup}">Set-up page</a> with “Seat the first stage”.'
    ) in page
    assert "Seat the first stage" in organiser.get(setup).content.decode()  # it is there


@pytest.mark.parametrize(
    ("backend", "told"),
    [
        ("django.core.mail.backends.locmem.EmailBackend", "(this site sends no e-mail)"),
        ("django.core.mail.backends.smtp.EmailBackend", "and get an e-mail"),
    ],
)
def test_the_schedules_message_promises_an_email_only_when_one_is_sent(
    organiser, world, tables, settings, backend, told
):
    """QA: "their players are notified" on a site without a mail server."""
    settings.EMAIL_BACKEND = backend
    data = {"start": WHEN, "minutes": 200, "tables": [t.pk for t in tables]}
    page = organiser.post(plan_url(world), data, follow=True).content.decode()
    assert "3 sessions scheduled. Their players see them on their pages" in page
    assert told in page
    assert "notified" not in page
