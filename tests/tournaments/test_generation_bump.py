"""A write bumps the cache generation of the tournament(s) its rows belong to, found by
following the written rows up to their tournament, so its cost does not grow with the
number of other tournaments in the database."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from rules.engine.dice import SeededDice
from tests.factories import TournamentFactory, register_players
from tournaments.actions.stage_advance import start_tournament
from tournaments.caching import change_tracking, generations
from tournaments.models import Registration, Result, ResultVersion, Seat, Session, Tournament

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("lookup", "expected"),
    [
        ("pk", (Tournament, "pk", "slug")),
        ("stages__sessions", (Session, "pk", "stage__tournament__slug")),
        ("stages__sessions__seats", (Seat, "pk", "session__stage__tournament__slug")),
        ("registrations__player", (Registration, "player", "tournament__slug")),
    ],
)
def test_a_lookup_is_followed_up_from_the_written_rows(lookup, expected):
    assert generations._upward(lookup) == expected


def test_every_tracked_model_has_a_path_up_to_its_tournament():
    for model, (_attribute, lookups) in change_tracking.TOURNAMENT_PATHS.items():
        for lookup in lookups:
            end, match, path = generations._upward(lookup)
            assert path.endswith("slug"), (model, lookup)
            # The path is a real query from the end model to the tournament's slug.
            list(end._default_manager.filter(**{f"{match}__in": [0]}).values_list(path))


def _started(slug: str, players: int) -> tuple[Tournament, list]:
    tournament = TournamentFactory(slug=slug, name=slug)
    people = register_players(tournament, players)
    start_tournament(tournament, SeededDice(seed=1), draw_squads=False)
    return tournament, people


def test_a_seat_change_bumps_only_its_own_tournament(django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        ours, _people = _started("ours", 6)
        other, _others = _started("other", 6)
    before = {slug: generations.current(slug) for slug in ("ours", "other")}
    seat = Seat.objects.filter(session__stage__tournament=ours).first()
    with django_capture_on_commit_callbacks(execute=True):
        seat.initiative_position = 2
        seat.save()
    assert generations.current("ours") != before["ours"]
    assert generations.current("other") == before["other"]


def test_a_result_version_bumps_only_its_own_tournament(django_capture_on_commit_callbacks):
    """Written directly (no activity logged with it), a version bumps the tournament it
    keeps, found without following its result up to the tournament."""
    with django_capture_on_commit_callbacks(execute=True):
        ours, _people = _started("ours", 3)
        _started("other", 3)
    session = Session.objects.get(stage__tournament=ours)
    result = Result.objects.create(session=session)
    before = {slug: generations.current(slug) for slug in ("ours", "other")}
    with django_capture_on_commit_callbacks(execute=True):
        ResultVersion.objects.create(result=result, number=1)
    assert generations.current("ours") != before["ours"]
    assert generations.current("other") == before["other"]


def test_a_player_rename_bumps_the_tournaments_they_entered(django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        _ours, people = _started("ours", 6)
        _other, _others = _started("other", 6)
    before = {slug: generations.current(slug) for slug in ("ours", "other")}
    with django_capture_on_commit_callbacks(execute=True):
        people[0].nickname = "renamed"
        people[0].save()
    assert generations.current("ours") != before["ours"]
    assert generations.current("other") == before["other"]


def test_the_bump_queries_start_from_the_written_rows():
    """No OR across joins of every tournament: one query per kind of row written."""
    ours, _people = _started("ours", 6)
    pending = generations._Pending()
    session = Session.objects.filter(stage__tournament=ours).first()
    pending.lookups = {
        "pk": {ours.pk},
        "stages__sessions": {session.pk},
        "registrations__player": set(ours.players.values_list("pk", flat=True)),
    }
    with CaptureQueriesContext(connection) as queries:
        assert pending.slugs_to_bump() == {"ours"}
    assert len(queries) == 3
    assert not any(" OR " in query["sql"] for query in queries.captured_queries)


class _Redis:
    """The shared cache as Redis with an append-only file behaves: while ``down`` every
    write is refused (``set_many`` returns the keys it could not store, as BoB's cache does)
    and, once up again, it holds what it held before."""

    def __init__(self) -> None:
        self.data: dict[str, str] = {}
        self.down = False

    def get(self, key, default=None):
        return default if self.down else self.data.get(key, default)

    def add(self, key, value, timeout=None):
        if self.down or key in self.data:
            return False
        self.data[key] = value
        return True

    def set_many(self, data, timeout=None):
        if self.down:
            return list(data)
        self.data.update(data)
        return []


def test_a_change_made_while_the_cache_was_down_is_not_forgotten_when_it_returns(monkeypatch):
    """QA: Redis restarted from its data file came back with the old generation, and the
    standings showed a name changed during the outage as it was, for minutes."""
    redis = _Redis()
    monkeypatch.setattr(generations, "cache", redis)
    monkeypatch.setattr(generations, "_owed", set())
    before = generations.current("coppa")
    redis.down = True
    generations.bump("coppa", "trofeo")
    assert generations._owed == {"coppa", "trofeo"}
    redis.down = False
    assert generations.current("coppa") != before  # the new generation, stored now
    assert generations._owed == set()
    assert generations.current("coppa") == generations.current("coppa")
    assert redis.data.keys() == {"bob:generation:coppa", "bob:generation:trofeo"}
