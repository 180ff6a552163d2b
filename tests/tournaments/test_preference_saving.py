"""The one write of a player's squad preferences (``save_preferences``), whoever enters
them: logged with the actor, refused once a squad is drawn for the player, and refused over
a list someone else saved after the form was loaded. An empty list clears the preferences.
It answers whether the stored list changed."""

from __future__ import annotations

import pytest

from rules.engine.dice import SeededDice
from tests.factories import StageFactory, TournamentFactory, UserFactory, register_players
from tournaments.actions.optimistic_lock import StaleEditError
from tournaments.actions.player_choices import (
    ChoiceLocked,
    StageListKept,
    locked_preferences,
    preferences_version,
    save_preferences,
)
from tournaments.actions.session_setup import draw_squads
from tournaments.actions.stage_advance import start_tournament
from tournaments.models import ActivityLog, SquadPreference, StageKind
from tournaments.queries.draw_inputs import squad_preferences

pytestmark = pytest.mark.django_db

UM, BA, IF = "ultramarines", "blood-angels", "imperial-fists"


@pytest.fixture
def seated():
    """A tournament whose first stage is seated, its squads not drawn yet."""
    tournament = TournamentFactory(slug="prefs")
    register_players(tournament, 6)
    start_tournament(tournament, SeededDice(seed=5), draw_squads=False)
    session = tournament.stages.get(number=1).sessions.order_by("number").first()
    player = session.seats.order_by("seat_order").first().player
    return tournament, session, player


def stored(tournament, player) -> list[str]:
    return SquadPreference.objects.get(tournament=tournament, player=player, stage=None).choices


def test_the_save_is_logged_with_its_actor(seated):
    tournament, _session, player = seated
    judge = UserFactory(username="giudice")
    judge.save()
    assert save_preferences(player, tournament, [IF, UM], actor=judge) is True
    assert stored(tournament, player) == [IF, UM]
    entry = ActivityLog.objects.get(description_code="squad_preferences")
    assert entry.actor == judge
    assert entry.description_params == {"name": player.display_name}
    assert entry.details == {"player": player.pk, "choices": [IF, UM]}


def test_a_save_after_the_draw_is_refused_and_logs_nothing(seated):
    tournament, session, player = seated
    before = stored(tournament, player)
    draw_squads(session, SeededDice(seed=2), actor=None, expected_version=session.version)
    assert locked_preferences(tournament, [seat.player_id for seat in session.seats.all()]) == {
        seat.player_id for seat in session.seats.all()
    }
    with pytest.raises(ChoiceLocked, match=f"already drawn for {player.display_name}"):
        save_preferences(player, tournament, [BA])
    assert stored(tournament, player) == before
    assert not ActivityLog.objects.filter(description_code="squad_preferences").exists()


def test_only_players_with_a_drawn_squad_are_locked(seated):
    tournament, session, player = seated
    others = tournament.stages.get(number=1).sessions.exclude(pk=session.pk).first()
    draw_squads(others, SeededDice(seed=2), actor=None, expected_version=others.version)
    assert locked_preferences(tournament, [player.pk]) == set()
    save_preferences(player, tournament, [BA])
    assert stored(tournament, player) == [BA]


def test_a_save_over_a_newer_list_is_refused(seated):
    tournament, _session, player = seated
    loaded = preferences_version(stored(tournament, player))
    save_preferences(player, tournament, [UM])  # someone else, meanwhile
    with pytest.raises(StaleEditError):
        save_preferences(player, tournament, [BA], expected_version=loaded)
    assert stored(tournament, player) == [UM]
    save_preferences(player, tournament, [BA], expected_version=preferences_version([UM]))
    assert stored(tournament, player) == [BA]


# Clearing: the empty list removes the player's tournament-wide preferences.


def cleared_entries():
    return ActivityLog.objects.filter(description_code="squad_preferences_cleared")


def test_an_empty_list_clears_the_preferences_and_is_logged(seated):
    tournament, session, player = seated
    judge = UserFactory(username="giudice")
    judge.save()
    loaded = preferences_version(stored(tournament, player))
    assert save_preferences(player, tournament, [], actor=judge, expected_version=loaded)
    assert not SquadPreference.objects.filter(tournament=tournament, player=player).exists()
    entry = cleared_entries().get()
    assert entry.actor == judge
    assert entry.description_params == {"name": player.display_name}
    assert entry.details == {"player": player.pk, "choices": []}
    assert entry.object_description == f"squad preferences of {player.display_name} cleared"
    assert player.pk not in squad_preferences(session.stage, [player.pk])


def test_clearing_a_list_nobody_entered_writes_and_logs_nothing(seated):
    tournament, _session, player = seated
    SquadPreference.objects.filter(player=player).delete()
    changed = save_preferences(player, tournament, [], expected_version=preferences_version([]))
    assert changed is False
    assert not SquadPreference.objects.filter(player=player).exists()
    assert not ActivityLog.objects.filter(description_code__startswith="squad_preferences").exists()


def test_clearing_after_the_draw_is_refused_and_logs_nothing(seated):
    tournament, session, player = seated
    before = stored(tournament, player)
    draw_squads(session, SeededDice(seed=2), actor=None, expected_version=session.version)
    with pytest.raises(ChoiceLocked, match=f"already drawn for {player.display_name}"):
        save_preferences(player, tournament, [])
    assert stored(tournament, player) == before
    assert not cleared_entries().exists()


def test_clearing_over_a_newer_list_is_refused(seated):
    tournament, _session, player = seated
    loaded = preferences_version(stored(tournament, player))
    save_preferences(player, tournament, [UM])  # someone else, meanwhile
    with pytest.raises(StaleEditError):
        save_preferences(player, tournament, [], expected_version=loaded)
    assert stored(tournament, player) == [UM]
    assert not cleared_entries().exists()


def test_clearing_leaves_a_stages_own_list(seated):
    tournament, session, player = seated
    SquadPreference.objects.create(
        player=player, tournament=tournament, stage=session.stage, choices=[IF]
    )
    save_preferences(player, tournament, [])
    assert not SquadPreference.objects.filter(player=player, stage=None).exists()
    assert squad_preferences(session.stage, [player.pk]) == {player.pk: (IF,)}


def test_saving_the_list_already_stored_writes_and_logs_nothing(seated):
    tournament, _session, player = seated
    choices = stored(tournament, player)
    loaded = preferences_version(choices)
    assert save_preferences(player, tournament, list(choices), expected_version=loaded) is False
    assert stored(tournament, player) == choices
    assert not ActivityLog.objects.filter(description_code__startswith="squad_preferences").exists()


def test_a_save_for_a_stage_with_its_own_list_is_refused_and_writes_nothing(seated):
    """The judge's sheet saves for its session's stage: when that stage reads a list of its
    own for the player (imported), the action itself refuses, whatever the page checked
    before posting, and neither list changes."""
    tournament, session, player = seated
    before = stored(tournament, player)
    SquadPreference.objects.create(
        player=player, tournament=tournament, stage=session.stage, choices=[IF]
    )
    with pytest.raises(StageListKept, match="reads the stage's own list"):
        save_preferences(player, tournament, [BA, UM], stage=session.stage)
    with pytest.raises(StageListKept):
        save_preferences(player, tournament, [], stage=session.stage)
    assert stored(tournament, player) == before
    assert SquadPreference.objects.get(player=player, stage=session.stage).choices == [IF]
    assert not ActivityLog.objects.filter(
        description_code__in=["squad_preferences", "squad_preferences_cleared"]
    ).exists()


def test_another_stages_own_list_does_not_refuse_the_save(seated):
    tournament, session, player = seated
    later = StageFactory(tournament=tournament, number=2, kind=StageKind.SEMIFINAL)
    SquadPreference.objects.create(player=player, tournament=tournament, stage=later, choices=[IF])
    assert save_preferences(player, tournament, [BA], stage=session.stage) is True
    assert stored(tournament, player) == [BA]
