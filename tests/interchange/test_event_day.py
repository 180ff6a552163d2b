"""What the event day adds to a tournament travels too (format version 6): withdrawals,
check-ins and forfeits, the no-show delay, and the awards of an undone close kept as
superseded; a version 5 document still imports, with none of them."""

import copy
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.engine.dice import seed_commitment
from tests.interchange.test_import_checks import check_damaged, fuzzing
from tests.interchange.test_roundtrip import empty_database
from tournaments.interchange.document import dumps
from tournaments.interchange.export import export_tournament
from tournaments.interchange.importer import check_document, import_document
from tournaments.models import (
    ActivityLog,
    Honour,
    Registration,
    ResultDispute,
    RoundTimer,
    ScoreBonus,
    Seat,
    SeedAnnouncement,
    Session,
    Stage,
    Tournament,
    VenueTable,
)

pytestmark = pytest.mark.django_db

T1 = datetime(2025, 3, 1, 18, 0, tzinfo=UTC)


def event_day(tournament: Tournament) -> Tournament:
    """A withdrawal, check-ins, a no-show and a withdrawal forfeit, an undone close, and
    an undone advance: the final's sessions superseded and its session 1 seated again."""
    Tournament.objects.filter(pk=tournament.pk).update(no_show_minutes=25)
    Registration.objects.filter(tournament=tournament, number=9).update(
        withdrawn_at=T1, withdrawal_reason="Train home"
    )
    seats = list(Seat.objects.filter(session__stage__tournament=tournament).order_by("pk"))
    Seat.objects.filter(pk=seats[0].pk).update(checked_in_at=T1 - timedelta(hours=9))
    honour = Honour.objects.filter(tournament=tournament).order_by("pk").first()
    Honour.objects.filter(pk=honour.pk).update(superseded_at=T1)
    Honour.objects.create(
        tournament=tournament, player=honour.player, squad=honour.squad, session=honour.session
    )
    bonus = ScoreBonus.objects.filter(tournament=tournament).order_by("pk").first()
    ScoreBonus.objects.filter(pk=bonus.pk).update(superseded_at=T1)
    final = Stage.objects.get(tournament=tournament, number=2)
    undone = sorted(Session.objects.filter(stage=final).values_list("pk", flat=True))
    Session.objects.filter(pk__in=undone).update(superseded_at=T1)
    again = Session.objects.create(stage=final, number=1, status="planned")
    for order, seat in enumerate(Seat.all_objects.filter(session_id=undone[0]), start=1):
        Seat.objects.create(session=again, player=seat.player, seat_order=order)
    # Forfeits of a session still to be played: one with a result keeps its players.
    first, second, *_rest = Seat.objects.filter(session=again).order_by("seat_order")
    Seat.objects.filter(pk=first.pk).update(forfeit="no_show")
    Seat.objects.filter(pk=second.pk).update(forfeit="withdrawn")
    ActivityLog.objects.create(
        tournament=tournament,
        verb="undid_advance",
        object_description="stage 1",
        details={"stage": 1, "session": undone[0], "superseded_sessions": undone},
    )
    venue(tournament)
    return Tournament.objects.get(pk=tournament.pk)


def venue(tournament: Tournament) -> None:
    """A spare table, the tables reordered, a running timer, two disputes, two seeds."""
    VenueTable.objects.create(tournament=tournament, name="Spare", position=0)
    VenueTable.objects.filter(tournament=tournament, name="1").update(position=9)
    RoundTimer.objects.create(
        tournament=tournament, duration_seconds=7200, remaining_seconds=3000, running_since=T1
    )
    session = Session.objects.get(stage__tournament=tournament, stage__number=1, number=1)
    seats = list(session.seats.order_by("seat_order"))
    ResultDispute.objects.create(
        session=session, player=seats[0].player, version_number=3, reason="Wrong kill"
    )
    ResultDispute.objects.create(
        session=session,
        player=seats[1].player,
        version_number=2,
        reason="Objective missed",
        status="corrected",
        resolution_note="Fixed in version 3",
        resolved_by=session.judge,
        resolved_at=T1,
    )
    SeedAnnouncement.objects.create(
        tournament=tournament, purpose="seating", seed="12345", commitment=seed_commitment(12345)
    )
    SeedAnnouncement.objects.create(
        tournament=tournament,
        session=session,
        purpose="squad_draw",
        seed="678",
        commitment=seed_commitment(678),
        used_at=T1,
    )


def test_event_day_round_trip(tournament):
    document = export_tournament(event_day(tournament))
    assert document["format_version"] == 12
    assert document["tournament"]["no_show_minutes"] == 25
    withdrawn = next(player for player in document["players"] if player["number"] == 9)
    assert (withdrawn["withdrawn_at"], withdrawn["withdrawal_reason"]) == (
        "2025-03-01T18:00:00Z",
        "Train home",
    )
    seats = [seat for stage in document["stages"] for s in stage["sessions"] for seat in s["seats"]]
    assert sorted(seat["forfeit"] for seat in seats if seat["forfeit"]) == ["no_show", "withdrawn"]
    assert [seat["checked_in_at"] for seat in seats if seat["checked_in_at"]] == [
        "2025-03-01T09:00:00Z"
    ]
    assert [h["superseded_at"] is None for h in document["honours"][:2]] == [False, True]
    assert sum(b["superseded_at"] is not None for b in document["score_bonuses"]) == 1
    final = document["stages"][1]["sessions"]
    assert [(s["number"], s["superseded_at"]) for s in final] == [
        (1, "2025-03-01T18:00:00Z"),
        (1, None),
        (2, "2025-03-01T18:00:00Z"),
    ]
    undone_ref = {"stage": 2, "session": 1, "superseded_at": "2025-03-01T18:00:00Z"}
    assert document["games"][0]["session"] == undone_ref
    assert document["activity"][-1]["details"]["superseded_sessions"] == [
        undone_ref,
        {**undone_ref, "session": 2},
    ]
    assert [(t["name"], t["position"]) for t in document["tables"]][:2] == [
        ("Spare", 0),
        ("2", 1),  # named "Table 2": the word for table is left out
    ]
    assert document["round_timer"][0]["running_since"] == "2025-03-01T18:00:00Z"
    assert sorted(d["status"] for d in document["disputes"]) == ["corrected", "open"]
    assert sorted(a["purpose"] for a in document["seed_announcements"]) == [
        "seating",
        "squad_draw",
    ]
    before = dumps(document)
    empty_database()
    assert check_document(document) == []
    outcome = import_document(document)
    assert dumps(export_tournament(outcome.tournament)) == before
    assert Honour.all_objects.count() == Honour.objects.count() + 1
    assert Session.all_objects.count() == Session.objects.count() + 2


def test_a_reference_to_a_superseded_session_must_name_one(tournament):
    document = export_tournament(event_day(tournament))
    document["games"][0]["session"]["superseded_at"] = "2025-03-02T18:00:00Z"
    problems = check_document(document, check_slug=False)
    assert [p.path for p in problems] == ["$.games[0].session.superseded_at"]
    assert "no session 1 superseded at" in problems[0].message


def version_5(document: dict) -> dict:
    """``document`` as BoB wrote it before the event day's data."""
    old = copy.deepcopy(document)
    old["format_version"] = 5
    del old["tournament"]["no_show_minutes"]
    for player in old["players"]:
        del player["withdrawn_at"], player["withdrawal_reason"]
    for stage in old["stages"]:
        for session in stage["sessions"]:
            del session["superseded_at"]
            for seat in session["seats"]:
                del seat["checked_in_at"], seat["forfeit"]
    for award in [*old["honours"], *old["score_bonuses"]]:
        del award["superseded_at"]
    for key in ("tables", "round_timer", "disputes", "seed_announcements"):
        del old[key]
    return old


def test_a_version_5_document_imports_with_nothing_of_the_event_day(tournament):
    old = version_5(export_tournament(tournament))
    empty_database()
    assert check_document(old) == []
    imported = import_document(old).tournament
    assert imported.no_show_minutes == 15
    assert not Registration.objects.filter(withdrawn_at__isnull=False).exists()
    assert not Seat.all_objects.exclude(forfeit="").exists()
    assert not Session.all_objects.filter(superseded_at__isnull=False).exists()
    assert list(imported.tables.values_list("name", flat=True)) == ["1", "2", "3", "Main table"]


@pytest.mark.parametrize(
    ("change", "path", "words"),
    [
        (
            lambda doc: doc["players"][-1].update(withdrawn_at="2025-03-01T10:00:00Z"),
            "$.players[9].withdrawn_at",
            "cannot have withdrawn",
        ),
        (
            lambda doc: doc["players"][0].update(withdrawal_reason="ill"),
            "$.players[0].withdrawal_reason",
            "no withdrawn_at",
        ),
        (
            lambda doc: doc["players"][0].update(withdrawn_at="2025-03-01 10:00"),
            "$.players[0].withdrawn_at",
            "time zone",
        ),
        (
            lambda doc: doc["stages"][0]["sessions"][0]["seats"][0].update(forfeit="late"),
            "$.stages[0].sessions[0].seats[0].forfeit",
            "is not allowed here; use one of",
        ),
        (
            lambda doc: doc["honours"].append(dict(doc["honours"][1])),
            "$.honours[4].session",
            "used twice",
        ),
    ],
)
def test_event_day_problems_are_reported_at_their_path(tournament, change, path, words):
    assert_reported(tournament, change, path, words)


@pytest.mark.parametrize(
    ("change", "path", "words"),
    [
        (
            lambda doc: doc["tables"].append({"name": "Spare", "position": 7}),
            "$.tables[5].name",
            "used already at $.tables[0].name",
        ),
        (
            lambda doc: doc["round_timer"][0].update(updated_at="yesterday"),
            "$.round_timer[0].updated_at",
            "time zone",
        ),
        (
            lambda doc: doc["disputes"][0].update(player="p99"),
            "$.disputes[0].player",
            "unknown player",
        ),
        (
            lambda doc: doc["disputes"][0]["session"].update(session=7),
            "$.disputes[0].session.session",
            "no session 7",
        ),
        (
            lambda doc: doc["disputes"].append(
                next(dict(d) for d in doc["disputes"] if d["status"] == "open")
            ),
            "$.disputes[2].status",
            "open dispute",
        ),
        (
            lambda doc: doc["seed_announcements"][0].update(seed="999"),
            "$.seed_announcements[0].commitment",
            "SHA-256",
        ),
        (
            lambda doc: doc["seed_announcements"].append(
                next(dict(a) for a in doc["seed_announcements"] if a["used_at"] is None)
            ),
            "$.seed_announcements[2].used_at",
            "pending already",
        ),
    ],
)
def test_venue_problems_are_reported_at_their_path(tournament, change, path, words):
    assert_reported(tournament, change, path, words)


def assert_reported(tournament, change, path: str, words: str) -> None:
    """The event-day document, changed, has a problem at ``path`` that says ``words``."""
    document = export_tournament(event_day(tournament))
    change(document)
    problems = check_document(document, check_slug=False)
    assert any(p.path == path and words in p.message for p in problems), problems


@pytest.fixture
def event_document(tournament):
    return export_tournament(event_day(tournament))


@fuzzing(100)
@given(data=st.data())
def test_checks_never_crash_on_a_damaged_event_day(event_document, data):
    """The same for the event day's document: superseded references, tables, the timer,
    disputes and seed announcements damaged anywhere give problems, never a crash."""
    check_damaged(event_document, data)
