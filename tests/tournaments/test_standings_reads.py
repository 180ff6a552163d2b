"""The plain-SQL reads behind the public pages give what the ORM would."""

from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest
from django.utils import timezone

from tests.factories import (
    PlayerFactory,
    RegistrationFactory,
    SeatFactory,
    SessionFactory,
    StageFactory,
    TournamentFactory,
    confirm_session,
)
from tournaments.models import Honour, ResultVersion, Squad, SquadRank
from tournaments.queries.standings_reads import _timestamp, squads_of, standings_rows

pytestmark = pytest.mark.django_db


def test_squads_of_are_the_tournaments_own_in_squad_order_with_every_field():
    tournament = TournamentFactory()
    other = TournamentFactory()
    first = tournament.squads.order_by("order", "pk").first()
    first.order = 99
    first.save()

    read = squads_of(tournament.pk)

    assert read == list(Squad.objects.filter(tournament=tournament).order_by("order", "pk"))
    assert read[-1] == first
    assert {squad.tournament_id for squad in read} == {tournament.pk}
    assert other.pk not in {squad.tournament_id for squad in read}
    for squad in read:
        stored = Squad.objects.get(pk=squad.pk)
        assert (squad.slug, squad.colour, squad.name_en, squad.name_it, squad.order) == (
            stored.slug,
            stored.colour,
            stored.name_en,
            stored.name_it,
            stored.order,
        )


def test_a_players_row_counts_their_honours_in_force_here_and_names_their_ranks_squad():
    tournament, other = TournamentFactory(), TournamentFactory()
    squad = tournament.squads.order_by("pk").first()
    honoured, plain = PlayerFactory(), PlayerFactory()
    for player in (honoured, plain):
        RegistrationFactory(tournament=tournament, player=player)
    RegistrationFactory(tournament=other, player=honoured)
    SquadRank.objects.create(tournament=tournament, player=honoured, squad=squad, rank=2)
    here = StageFactory(tournament=tournament)
    there = StageFactory(tournament=other)

    def honour(stage, superseded_at=None) -> None:
        Honour.objects.create(
            tournament=stage.tournament,
            player=honoured,
            squad=stage.tournament.squads.order_by("pk").first(),
            session=SessionFactory(stage=stage),
            superseded_at=superseded_at,
        )

    honour(here)
    honour(here)
    honour(here, superseded_at=timezone.now())
    honour(there)

    rows = {row[0]: row for row in standings_rows(tournament.pk).players}

    assert rows[honoured.pk][3:] == (2, squad.slug, 2)
    assert rows[plain.pk][3:] == (None, None, 0)


def test_times_read_as_text_are_the_stored_instants_in_utc():
    """A session's scheduled time and a version's time of saving come as text (the
    backend's own reading of the column was slower), read back to the instant stored: the
    standings and the API write them with ``isoformat()`` as before."""
    tournament = TournamentFactory()
    session = SessionFactory(
        stage=StageFactory(tournament=tournament),
        scheduled_at=datetime(2026, 5, 1, 20, 30, 5, 120034, tzinfo=ZoneInfo("Europe/Rome")),
    )
    later = SessionFactory(stage=session.stage, scheduled_at=None)
    for order in (1, 2):
        SeatFactory(session=session, seat_order=order)
    confirm_session(session, lambda seat: 3)
    saved = ResultVersion.objects.get(result__session=session).created_at

    read = standings_rows(tournament.pk)

    scheduled = {row[0]: row[3] for _stage, row in read.stages}
    assert scheduled[later.pk] is None
    assert scheduled[session.pk] == session.scheduled_at
    assert scheduled[session.pk].isoformat() == "2026-05-01T18:30:05.120034+00:00"
    (version,) = read.versions
    assert version[-1] == saved
    assert version[-1].isoformat() == saved.astimezone(UTC).isoformat()


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2026-05-01 18:30:05.120034+00", datetime(2026, 5, 1, 18, 30, 5, 120034, tzinfo=UTC)),
        ("2026-05-01 18:30:00+00", datetime(2026, 5, 1, 18, 30, tzinfo=UTC)),
        ("2026-05-01 18:30:05.5", datetime(2026, 5, 1, 18, 30, 5, 500000, tzinfo=UTC)),
        ("2026-05-01 20:30:00+02", datetime(2026, 5, 1, 18, 30, tzinfo=UTC)),
        (None, None),
    ],
)
def test_a_time_as_postgresql_or_sqlite_writes_it(text, expected):
    read = _timestamp(text)
    assert read == expected
    assert read is None or read.utcoffset() is not None
