"""The activity log's "Who": the account that acted, a player acting from their own link,
or nobody known; the honours a stage's close gives are the closer's."""

import pytest

from rules.engine.dice import SeededDice
from tests.factories import UserFactory, confirm_stage
from tournaments.actions.activity_log import describe, log_activity
from tournaments.actions.result_disputes import flag_dispute
from tournaments.actions.stage_advance import close_stage
from tournaments.models import ActivityLog, ActivityVerb
from tournaments.queries.activity_actors import entry_actors
from tournaments.queries.activity_descriptions import entry_description

pytestmark = pytest.mark.django_db


def who(entry: ActivityLog) -> str:
    [(_entry, name)] = entry_actors([entry])
    return name


def test_a_players_own_dispute_names_the_player(final_session):
    confirm_stage(final_session.stage, lambda seat: 10 * seat.seat_order)
    player = final_session.seats.order_by("seat_order").first().player
    flag_dispute(player, final_session, "Wrong points")
    entry = ActivityLog.objects.get(verb=ActivityVerb.FLAGGED_DISPUTE)
    assert who(entry) == f"{player.display_name} (player)"


def test_an_entry_about_a_player_made_by_nobody_known_names_nobody(final_session):
    tournament = final_session.stage.tournament
    player = final_session.seats.first().player
    entry = log_activity(
        tournament,
        ActivityVerb.UPDATED,
        describe("player_edited", player=player.display_name),
        player=player.pk,
    )
    assert who(entry) == "–"


def test_the_honours_of_a_close_are_the_closers_and_name_the_winner(final_session):
    confirm_stage(final_session.stage, lambda seat: 10 * seat.seat_order)
    organiser = UserFactory(username="chiara")
    close_stage(final_session.stage, SeededDice(seed=1), actor=organiser)
    entry = ActivityLog.objects.get(verb=ActivityVerb.AWARDED_HONOUR)
    assert who(entry) == "chiara"
    winner = final_session.seats.get(player_id=entry.details["player"]).player
    assert entry_description(entry).startswith(winner.display_name)
