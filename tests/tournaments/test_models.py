"""Model-level checks: clean() messages, defaults and helpers."""

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from tests.factories import PlayerFactory, SeatFactory, TournamentFactory
from tournaments.actions.optimistic_lock import update_if_current
from tournaments.models import (
    Player,
    ScoreThreshold,
    SquadPreference,
    StaleSessionError,
    Tournament,
)

pytestmark = pytest.mark.django_db


def test_players_get_distinct_private_tokens_that_can_be_regenerated():
    first, second = PlayerFactory(), PlayerFactory()
    assert len(first.access_token) >= 32 and first.access_token != second.access_token
    old = first.access_token
    assert first.regenerate_access_token() != old
    assert Player.objects.get(pk=first.pk).access_token != old


def test_squad_order_and_names_follow_the_language():
    from django.utils import translation

    tournament = TournamentFactory()
    assert tournament.squad_order == ["ultramarines", "blood-angels", "imperial-fists"]
    squad = tournament.squads.get(slug="imperial-fists")
    with translation.override("it"):
        assert str(squad) == "Pugni d'Acciaio"
    with translation.override("en"):
        assert str(squad) == "Imperial Fists"


def test_preferences_must_name_the_tournaments_squads_once():
    tournament = TournamentFactory()
    player = PlayerFactory()
    good = SquadPreference(player=player, tournament=tournament, choices=["blood-angels"])
    good.full_clean()
    with pytest.raises(ValidationError, match="Unknown squad"):
        SquadPreference(player=player, tournament=tournament, choices=["space-wolves"]).clean()
    with pytest.raises(ValidationError, match="only once"):
        SquadPreference(
            player=player, tournament=tournament, choices=["blood-angels", "blood-angels"]
        ).clean()


@pytest.mark.parametrize(
    ("overrides", "message"),
    [([6], "object"), ({"first": 6}, "stage number"), ({"1": "six"}, "whole number")],
)
def test_qualifier_overrides_are_checked(overrides, message):
    tournament = Tournament(name="T", slug="t", qualifier_overrides=overrides)
    with pytest.raises(ValidationError, match=message):
        tournament.clean()


def test_threshold_belongs_to_a_stage_or_a_session_not_both():
    seat = SeatFactory()
    with pytest.raises(ValidationError):
        ScoreThreshold(points=10).clean()
    with transaction.atomic(), pytest.raises(IntegrityError):
        ScoreThreshold.objects.create(points=10, stage=seat.session.stage, session=seat.session)


def test_a_squad_is_held_by_one_seat_per_session():
    seat = SeatFactory()
    squad = TournamentFactory().squads.first()
    seat.squad = squad
    seat.save()
    with transaction.atomic(), pytest.raises(IntegrityError):
        SeatFactory(session=seat.session, squad=squad)


def test_optimistic_locking_refuses_a_stale_version():
    session = SeatFactory().session
    version = session.version
    update_if_current(session, version, map_name="3")
    assert session.version == version + 1 and session.map_name == "3"
    with pytest.raises(StaleSessionError):
        update_if_current(session, version, map_name="4")
