"""The plain-SQL reads behind the public pages give what the ORM would."""

import pytest
from django.utils import timezone

from tests.factories import (
    PlayerFactory,
    RegistrationFactory,
    SessionFactory,
    StageFactory,
    TournamentFactory,
)
from tournaments.models import Honour, Squad, SquadRank
from tournaments.queries.standings_reads import squads_of, standings_rows

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
