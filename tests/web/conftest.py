"""A seated 9-player tournament and one user per role, for the web tests."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from django.test import Client

from rules.engine.dice import SeededDice
from tests.factories import TournamentFactory, UserFactory, register_players
from tournaments.actions.stage_advance import start_tournament
from tournaments.models import Player, Session, Stage, StipulationKind, Tournament
from tournaments.web.permissions import player_session

PASSWORD = "test-password"


@dataclass
class World:
    tournament: Tournament
    stage: Stage
    session: Session
    player: Player
    organiser: object
    judge: object
    other_judge: object
    superuser: object


def build_world(players: int = 9) -> World:
    tournament = TournamentFactory(name="Coppa BoB", slug="coppa")
    register_players(tournament, players)
    start_tournament(tournament, SeededDice(seed=7), draw_squads=False)
    stage = tournament.stages.get(number=1)
    stage.stipulation_kind = StipulationKind.ALIEN_HUNT
    stage.stipulation_params = {"rounds": 8}
    stage.save()
    organiser = UserFactory(username="organiser")
    judge = UserFactory(username="judge")
    other_judge = UserFactory(username="other-judge")
    superuser = UserFactory(username="root", is_superuser=True, is_staff=True)
    for user in (organiser, judge, other_judge, superuser):
        user.save()  # the factory sets the password without saving it
    tournament.organisers.add(organiser)
    tournament.judges.add(judge, other_judge)
    sessions = list(stage.sessions.order_by("number"))
    session = sessions[0]
    Session.objects.filter(pk=session.pk).update(judge=judge)
    Session.objects.filter(pk=sessions[1].pk).update(judge=other_judge)
    session.refresh_from_db()
    player = session.seats.order_by("seat_order").first().player
    return World(tournament, stage, session, player, organiser, judge, other_judge, superuser)


@pytest.fixture
def world(db) -> World:
    return build_world()


def login(client: Client, user) -> Client:
    client.force_login(user)
    return client


def as_player(client: Client, player: Player) -> Client:
    session = client.session
    session.update(player_session(player))
    session.save()
    return client


@pytest.fixture
def role_client(world):
    """A client acting as one of the roles of the matrix."""

    def make(role: str) -> Client:
        client = Client()
        if role == "anonymous":
            return client
        if role == "player":
            return as_player(client, world.player)
        user = {
            "judge": world.judge,
            "other_judge": world.other_judge,
            "organiser": world.organiser,
            "superuser": world.superuser,
        }[role]
        return login(client, user)

    return make


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
