"""What the event day adds to a tournament travels too (format version 6): withdrawals,
check-ins and forfeits, the no-show delay, and the awards of an undone close kept as
superseded; a version 5 document still imports, with none of them."""

import copy
from datetime import UTC, datetime, timedelta

import pytest

from tests.interchange.test_roundtrip import empty_database
from tournaments.interchange.document import dumps
from tournaments.interchange.export import export_tournament
from tournaments.interchange.importer import check_document, import_document
from tournaments.models import Honour, Registration, ScoreBonus, Seat, Tournament

pytestmark = pytest.mark.django_db

T1 = datetime(2025, 3, 1, 18, 0, tzinfo=UTC)


def event_day(tournament: Tournament) -> Tournament:
    """A withdrawal, check-ins, a no-show and a withdrawal forfeit, an undone close."""
    Tournament.objects.filter(pk=tournament.pk).update(no_show_minutes=25)
    Registration.objects.filter(tournament=tournament, number=9).update(
        withdrawn_at=T1, withdrawal_reason="Train home"
    )
    seats = list(Seat.objects.filter(session__stage__tournament=tournament).order_by("pk"))
    Seat.objects.filter(pk=seats[0].pk).update(checked_in_at=T1 - timedelta(hours=9))
    Seat.objects.filter(pk=seats[1].pk).update(forfeit="no_show")
    Seat.objects.filter(pk=seats[-1].pk).update(forfeit="withdrawn")
    honour = Honour.objects.filter(tournament=tournament).order_by("pk").first()
    Honour.objects.filter(pk=honour.pk).update(superseded_at=T1)
    Honour.objects.create(
        tournament=tournament, player=honour.player, squad=honour.squad, session=honour.session
    )
    bonus = ScoreBonus.objects.filter(tournament=tournament).order_by("pk").first()
    ScoreBonus.objects.filter(pk=bonus.pk).update(superseded_at=T1)
    return Tournament.objects.get(pk=tournament.pk)


def test_event_day_round_trip(tournament):
    document = export_tournament(event_day(tournament))
    assert document["format_version"] == 6
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
    before = dumps(document)
    empty_database()
    assert check_document(document) == []
    outcome = import_document(document)
    assert dumps(export_tournament(outcome.tournament)) == before
    assert Honour.all_objects.count() == Honour.objects.count() + 1


def version_5(document: dict) -> dict:
    """``document`` as BoB wrote it before the event day's data."""
    old = copy.deepcopy(document)
    old["format_version"] = 5
    del old["tournament"]["no_show_minutes"]
    for player in old["players"]:
        del player["withdrawn_at"], player["withdrawal_reason"]
    for stage in old["stages"]:
        for session in stage["sessions"]:
            for seat in session["seats"]:
                del seat["checked_in_at"], seat["forfeit"]
    for award in [*old["honours"], *old["score_bonuses"]]:
        del award["superseded_at"]
    return old


def test_a_version_5_document_imports_with_nothing_of_the_event_day(tournament):
    old = version_5(export_tournament(tournament))
    empty_database()
    assert check_document(old) == []
    imported = import_document(old).tournament
    assert imported.no_show_minutes == 15
    assert not Registration.objects.filter(withdrawn_at__isnull=False).exists()
    assert not Seat.all_objects.exclude(forfeit="").exists()


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
            "is not one of",
        ),
        (
            lambda doc: doc["honours"].append(dict(doc["honours"][0])),
            "$.honours[3].session",
            "used twice",
        ),
    ],
)
def test_event_day_problems_are_reported_at_their_path(document, change, path, words):
    change(document)
    problems = check_document(document)
    assert any(p.path == path and words in p.message for p in problems), problems
