"""Fixtures for the tournament tests: a started 3-player tournament."""

import pytest

from rules.engine.dice import SeededDice
from tests.factories import TournamentFactory, UserFactory, register_players
from tournaments.stages import start_tournament


@pytest.fixture
def judge(db):
    return UserFactory(username="judge-one")


@pytest.fixture
def final_session(db):
    """A 3-player tournament whose only stage (the final) is seated, squads drawn."""
    tournament = TournamentFactory()
    register_players(tournament, 3)
    start_tournament(tournament, SeededDice(seed=5))
    return tournament.stages.get().sessions.get()
