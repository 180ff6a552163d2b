"""The benchmarks' tournaments, made through the project's own actions (Django set up
first): ``build`` registers the players, seats the first stage with the squad draw and
confirms a result for every session; ``copy`` imports another tournament's export under a
new slug (newer rows, as a tournament created later has). Both are kept in the database
and reused by the next run when they are still the asked size. ``analyse`` refreshes the
planner's statistics once they are built."""

from __future__ import annotations

from django.db import connection, transaction

from rules.engine.dice import SeededDice
from tournaments.actions.result_entry import record_result
from tournaments.actions.stage_advance import start_tournament
from tournaments.actions.tournament_setup import create_tournament
from tournaments.domain.catalogue import DEFAULT_CATALOGUE
from tournaments.interchange.export import export_tournament
from tournaments.interchange.importer import import_document
from tournaments.models import (
    Player,
    Registration,
    Result,
    Session,
    SquadPreference,
    Stipulation,
    StipulationKind,
    Tournament,
)


def _complete(slug: str, players: int) -> Tournament | None:
    tournament = Tournament.objects.filter(slug=slug).first()
    if tournament is None:
        return None
    sessions = Session.objects.filter(stage__tournament=tournament).count()
    results = Result.objects.filter(session__stage__tournament=tournament).count()
    if tournament.registrations.count() == players and sessions and results == sessions:
        return tournament
    tournament.delete()
    return None


def register(slug: str, players: int) -> Tournament:
    """A new tournament with the default squads and ``players`` registered players, each
    with a squad preference; not started."""
    Tournament.objects.filter(slug=slug).delete()
    tournament = create_tournament(
        Tournament(name=f"Benchmark {slug}", slug=slug), catalogue=DEFAULT_CATALOGUE
    )
    people = Player.objects.bulk_create(
        Player(name=f"{slug} player {n}", nickname=f"{slug}-{n}", email=f"{slug}-{n}@example.org")
        for n in range(1, players + 1)
    )
    Registration.objects.bulk_create(
        Registration(tournament=tournament, player=player, number=n)
        for n, player in enumerate(people, start=1)
    )
    squads = tournament.squad_order
    SquadPreference.objects.bulk_create(
        SquadPreference(
            player=player,
            tournament=tournament,
            choices=squads[n % len(squads) :] + squads[: n % len(squads)],
        )
        for n, player in enumerate(people)
    )
    return tournament


def build(slug: str, players: int) -> Tournament:
    """A tournament of ``players`` players whose first stage is seated, squads drawn, and
    every session has a confirmed result (reused when it exists at that size)."""
    found = _complete(slug, players)
    if found is not None:
        return found
    with transaction.atomic():
        tournament = register(slug, players)
        start_tournament(tournament, SeededDice(seed=1))
        sessions = list(Session.objects.filter(stage__tournament=tournament).order_by("number"))
        Stipulation.objects.bulk_create(
            Stipulation(session=session, kind=StipulationKind.ALIEN_HUNT, params={"rounds": 8})
            for session in sessions
        )
        for session in sessions:
            seats = list(session.seats.order_by("seat_order"))
            record_result(
                session,
                [
                    {  # an Alien Hunt scores no objective (decision 71): Gretchin tokens
                        "seat": str(seat.player_id),
                        "alien_tokens": [{"alien_type": "gretchin", "value": 1, "count": p}],
                    }
                    for p, seat in enumerate(seats, start=1)
                ],
                survivors=[seat.player_id for seat in seats],
                confirmed=True,
                dice=SeededDice(seed=session.pk),
            )
    return tournament


def copy(source: Tournament, slug: str) -> Tournament:
    """``source`` exported and imported again as ``slug`` (reused when it exists)."""
    players = source.registrations.count()
    found = _complete(slug, players)
    if found is not None:
        return found
    return import_document(export_tournament(source), slug=slug).tournament


def analyse() -> None:
    """Refresh the database's statistics of every table, as a live PostgreSQL's autovacuum
    does after bulk writes (it may be off where the benchmarks run): without them the
    planner picks plans a production database would not (a sequential walk where an index
    serves), and the figures measure that instead of the code."""
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
