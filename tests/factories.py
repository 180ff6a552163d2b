"""factory-boy factories for the tournament models, plus helpers to fill in results."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

import factory
from django.contrib.auth import get_user_model

from tournaments.actions.tournament_setup import create_tournament
from tournaments.domain.catalogue import DEFAULT_CATALOGUE
from tournaments.domain.plausibility import SessionLimits
from tournaments.domain.scoring import TOKEN_ALIEN_LABELS
from tournaments.models import (
    Forfeit,
    Player,
    Registration,
    Seat,
    Session,
    SquadPreference,
    Stage,
    StageKind,
    Stipulation,
    StipulationKind,
    Tournament,
    VenueTable,
)


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"user{n}")
    email = factory.LazyAttribute(lambda user: f"{user.username}@example.org")
    password = factory.PostGenerationMethodCall("set_password", "test-password")


class PlayerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Player

    name = factory.Sequence(lambda n: f"Player {n}")
    nickname = factory.Sequence(lambda n: f"p{n}")
    email = factory.Sequence(lambda n: f"player{n}@example.org")


class TournamentFactory(factory.django.DjangoModelFactory):
    """A tournament with the default squads, weapons and cards (``squads=False``: none)."""

    class Meta:
        model = Tournament

    name = factory.Sequence(lambda n: f"Test tournament {n}")
    slug = factory.Sequence(lambda n: f"test-{n}")
    venue = "Circolo Ludico"
    #: Not a field: whether the default catalogue is installed.
    squads = True

    @classmethod
    def _build(cls, model_class, *args, squads: bool = True, **kwargs) -> Tournament:
        return model_class(*args, **kwargs)

    @classmethod
    def _create(cls, model_class, *args, squads: bool = True, **kwargs) -> Tournament:
        """Created as the organiser's page creates one (the same action)."""
        catalogue = DEFAULT_CATALOGUE if squads else None
        return create_tournament(model_class(*args, **kwargs), catalogue=catalogue)


class RegistrationFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Registration

    tournament = factory.SubFactory(TournamentFactory)
    player = factory.SubFactory(PlayerFactory)
    number = factory.Sequence(lambda n: n + 1)


class StageFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Stage

    tournament = factory.SubFactory(TournamentFactory)
    number = 1
    kind = StageKind.PRELIMINARY
    stipulation_kind = StipulationKind.ALIEN_HUNT
    stipulation_params = factory.LazyFunction(lambda: {"rounds": 8})


class SessionFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Session

    stage = factory.SubFactory(StageFactory)
    number = factory.Sequence(lambda n: n + 1)


class VenueTableFactory(factory.django.DjangoModelFactory):
    """A table of the venue; ``name`` is the next number unless given."""

    class Meta:
        model = VenueTable
        django_get_or_create = ("tournament", "name")

    tournament = factory.SubFactory(TournamentFactory)
    name = factory.Sequence(lambda n: str(n + 1))
    position = factory.LazyAttribute(lambda table: int(table.name) if table.name.isdigit() else 0)


class StipulationFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Stipulation

    session = factory.SubFactory(SessionFactory)
    kind = StipulationKind.ALIEN_HUNT
    params = factory.LazyFunction(lambda: {"rounds": 8})


class SeatFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Seat

    session = factory.SubFactory(SessionFactory)
    player = factory.SubFactory(PlayerFactory)
    seat_order = factory.Sequence(lambda n: n + 1)


def register_players(tournament: Tournament, count: int, preferences: bool = True) -> list[Player]:
    """Register ``count`` new players, each with a tournament-wide squad preference."""
    slugs = tournament.squad_order
    players = []
    for number in range(1, count + 1):
        player = PlayerFactory()
        Registration.objects.create(tournament=tournament, player=player, number=number)
        if preferences and slugs:
            shift = number % len(slugs)
            SquadPreference.objects.create(
                player=player, tournament=tournament, choices=slugs[shift:] + slugs[:shift]
            )
        players.append(player)
    return players


#: Figures a squad may lose to aliens, in the order :func:`points_breakdown` loses them:
#: the first three fit any squad whose loadout arms every marine (RULES §5: at least one
#: heavy weapon and one laser rifle), the rest a squad without such a loadout.
_LOSSES_TO_ALIENS = (("heavy", 10), ("commander", 10), ("light", 5), ("heavy", 10), ("heavy", 10))
#: The Gretchin token's value in the shipped rules data.
_GRETCHIN = 1


def points_breakdown(player_id: int, points: int, tokens: TokenSupply | None = None) -> dict:
    """A seat breakdown worth exactly ``points``, as stored in versions, that a session
    with aliens in play (an Alien Hunt) can produce: alien tokens (Gretchin, or from
    ``tokens``, the session's supply), and for negative points figures lost to aliens first
    (decisions 28-31, 71)."""
    lost: list[tuple[str, int]] = []
    for figure in _LOSSES_TO_ALIENS:
        if sum(value for _class, value in lost) >= -points:
            break
        lost.append(figure)
    worth = points + sum(value for _class, value in lost)
    if worth < 0:
        raise ValueError(f"{points} points are more than a squad can lose to aliens")
    losses = Counter(marine_class for marine_class, _value in lost)
    return {
        "seat": str(player_id),
        "losses": [
            {"marine_class": marine_class, "cause": "alien", "killer": None, "count": count}
            for marine_class, count in losses.items()
        ],
        "alien_tokens": (tokens or TokenSupply()).take(worth),
    }


class TokenSupply:
    """The alien tokens a session's seats may still take: unbounded Gretchin, or of each
    type as many as the session's limits allow (its map's markers, its board games'
    reveals), the most valuable first."""

    def __init__(self, limits: SessionLimits | None = None) -> None:
        pool = limits.aliens if limits is not None else None
        self.left: dict[str, int] | None = None
        self.values: dict[str, int] = {"gretchin": _GRETCHIN}
        if pool is None or (pool.markers is None and pool.revealed is None):
            return
        self.left = {}
        for alien in TOKEN_ALIEN_LABELS:
            value = pool.default_value(alien)
            markers = pool.available(alien) if pool.markers is not None else 0
            count = max(markers, (pool.revealed or {}).get(alien, 0))
            if value and count:
                self.values[alien] = value
                self.left[alien] = count

    def take(self, points: int) -> list[dict]:
        """Token rows worth ``points``, taken from the supply."""
        if self.left is None:
            return (
                [{"alien_type": "gretchin", "value": _GRETCHIN, "count": points}] if points else []
            )
        rows = []
        for alien in sorted(self.left, key=lambda alien: -self.values[alien]):
            count = min(self.left[alien], points // self.values[alien])
            if count:
                rows.append({"alien_type": alien, "value": self.values[alien], "count": count})
                self.left[alien] -= count
                points -= count * self.values[alien]
        if points:
            raise ValueError(f"the session's map has too few alien tokens for {points} points")
        return rows


def session_points(session: Session, points: Callable[[Seat], int]) -> list[dict]:
    """Each seat's breakdown worth ``points``, its tokens within what the session's map
    holds; a player who did not show up, or withdrew before the session started, scores
    none (the seat played nothing)."""
    from tournaments.queries.session_stipulation import result_limits

    unplayed = (Forfeit.NO_SHOW, Forfeit.WITHDRAWN_UNPLAYED)
    tokens = TokenSupply(result_limits(session))
    return [
        points_breakdown(seat.player_id, 0 if seat.forfeit in unplayed else points(seat), tokens)
        for seat in session.seats.all()
    ]


def confirm_stage(stage: Stage, points: Callable[[Seat], int], actor=None) -> None:
    """Record a confirmed result for every session of ``stage``, points from ``points``."""
    for session in stage.sessions.order_by("number"):
        confirm_session(session, points, actor=actor)


def confirm_session(session: Session, points: Callable[[Seat], int], actor=None) -> None:
    """Record a confirmed result for ``session`` (an Alien Hunt unless it has a stipulation),
    points from ``points``, every squad surviving but those that forfeited (their figures
    left play); in a TPK without the stall breaker, which goes on while two squads stand,
    nobody (points alone rank it, as when every squad survives)."""
    from rules.engine.dice import SeededDice
    from tournaments.actions.result_entry import record_result
    from tournaments.domain.ranking import LAST_SQUAD_STANDING
    from tournaments.queries.session_stipulation import result_limits

    if not hasattr(session, "stipulation"):
        Stipulation.objects.create(
            session=session, kind=StipulationKind.ALIEN_HUNT, params={"rounds": 8}
        )
    scoring = result_limits(session).scoring
    to_the_end = scoring is not None and scoring.kind in LAST_SQUAD_STANDING
    record_result(
        session,
        session_points(session, points),
        survivors=()
        if to_the_end and scoring.stall_breaker is None
        else session.seats.filter(forfeit="").values_list("player_id", flat=True),
        confirmed=True,
        actor=actor,
        dice=SeededDice(seed=session.pk),
    )
