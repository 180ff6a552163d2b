"""Concurrent corrections of one result never lose a version (PostgreSQL, real threads)."""

import threading

import pytest
from django.db import connection, connections

from rules.engine.dice import SeededDice
from tests.conftest import services_required
from tests.factories import TournamentFactory, points_breakdown, register_players
from tournaments.actions.result_entry import correct_result, record_result
from tournaments.actions.stage_advance import start_tournament
from tournaments.models import ResultVersion, Stipulation

WRITERS = 8


def require_postgresql() -> None:
    if connection.vendor == "postgresql":
        return
    if services_required():
        pytest.fail(
            "BOB_REQUIRE_SERVICES is set but the database is "
            f"{connection.vendor}; point DATABASE_URL at PostgreSQL"
        )
    pytest.skip("needs PostgreSQL (set DATABASE_URL); runs under make test")


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_concurrent_corrections_never_lose_a_version():
    require_postgresql()
    tournament = TournamentFactory()
    register_players(tournament, 3)
    start_tournament(tournament, SeededDice(seed=1))
    session = tournament.stages.get().sessions.get()
    Stipulation.objects.create(session=session, kind="alien_hunt", params={"rounds": 5})
    players = list(session.seats.order_by("seat_order").values_list("player_id", flat=True))
    record_result(session, [points_breakdown(p, i) for i, p in enumerate(players)], confirmed=True)

    barrier = threading.Barrier(WRITERS)
    errors: list[BaseException] = []

    def correct(writer: int) -> None:
        try:
            barrier.wait(timeout=30)
            correct_result(
                session,
                [points_breakdown(p, writer * 10 + i) for i, p in enumerate(players)],
                reason=f"correction {writer}",
                dice=SeededDice(seed=writer),
            )
        except BaseException as error:  # noqa: BLE001 - reported by the main thread
            errors.append(error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=correct, args=(n,)) for n in range(WRITERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not errors, errors
    versions = ResultVersion.objects.filter(result__session=session).order_by("number")
    assert [v.number for v in versions] == list(range(1, WRITERS + 2))
    reasons = {v.reason for v in versions[1:]}
    assert reasons == {f"correction {n}" for n in range(WRITERS)}
    # Standings use the last one written.
    latest = session.result.latest_confirmed()
    assert latest.number == WRITERS + 1


def test_missing_postgresql_is_a_failure_when_services_are_required(monkeypatch):
    monkeypatch.setattr(connection, "vendor", "sqlite")
    monkeypatch.setenv("BOB_REQUIRE_SERVICES", "1")
    with pytest.raises(pytest.fail.Exception, match="BOB_REQUIRE_SERVICES"):
        require_postgresql()
    monkeypatch.delenv("BOB_REQUIRE_SERVICES")
    with pytest.raises(pytest.skip.Exception):
        require_postgresql()
