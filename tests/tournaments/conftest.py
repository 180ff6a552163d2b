"""Fixtures for the tournament tests: a started 3-player tournament."""

import pytest
from django.utils import translation

from rules.engine.dice import SeededDice
from tests.factories import TournamentFactory, UserFactory, register_players
from tournaments.actions.stage_advance import start_tournament


@pytest.fixture(autouse=True)
def _english():
    """Messages are checked in English; the site's default language is Italian."""
    with translation.override("en"):
        yield


@pytest.fixture(autouse=True)
def _fast_passwords(settings):
    """Demo and test users need no strong hashing; keeps the suite fast."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


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
